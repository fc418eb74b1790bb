//! The data model every parser fills: reports, results, sections, rules and metrics with units.

pub mod body;
pub mod catalog;
pub mod device_records;
pub mod format;
pub mod graph;
pub mod intern;
pub mod metric;
pub mod metric_store;
pub mod names;
pub mod report;
pub mod result;
pub mod result_kind;
pub mod rule_catalog;
pub mod safe_text;
pub mod section;
pub mod section_body;
pub mod source;
pub mod stock_sections;
pub mod units;
pub mod value;
pub mod warning;

pub use body::{
    Body, BodyHead, BodySource, HEAD_METRICS, InstanceValues, ResultBody, is_head_metric,
};
pub use intern::{MetricKey, Text, Unit};
pub use metric::{Metric, MetricRow, Printed};
pub use metric_store::{MetricStore, MetricView};
pub use report::{Device, Format, Report, Session, TextLayout};
pub use result::{
    Dim3, KernelName, KernelResult, NvtxRange, RuleKind, RuleResult, Section, SpeedupKind,
};
pub use result_kind::ResultKind;
pub use value::{Instance, Value};
pub use warning::{Warning, WarningKind};
