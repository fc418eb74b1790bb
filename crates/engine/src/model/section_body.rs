//! Section bodies: the charts and tables ncu draws below a section's header table.
//!
//! Two forms. [`BodyTemplates`] is what a report stores: per section the body items with the
//! metrics they name (plain names, `group:`, `breakdown:` and `regex:` expressions, and
//! alternatives per architecture). [`SectionBodies`] is one result's resolved form: each item
//! with rows of metric values, ready to draw or print. Text exports that print bodies
//! (`--print-details all`) give the resolved form directly.

use super::metric::Metric;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The kind of a body item, as the section file format names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    Table,
    BarChart,
    HistogramChart,
    LineChart,
    RooflineChart,
    SourceMetricTable,
    SuffixTable,
    /// Shared memory table (`MemorySharedTable`).
    SharedMemoryTable,
    /// The older L1 table.
    L1Table,
    /// The older L2 table.
    L2Table,
    /// Device memory table (`MemoryDeviceMemoryTable`).
    DeviceMemoryTable,
    /// The memory chart (`MemoryChart`).
    MemoryChart,
    /// L1/TEX cache table (`MemoryL1TEXCacheTable`).
    L1TexTable,
    /// L2 cache table (`MemoryL2CacheTable`).
    L2CacheTable,
    NvlinkTopology,
    NvlinkPropertyTable,
    NvlinkThroughputTable,
    /// L2 cache eviction policy table (`MemoryL2CacheEvictPolicyTable`).
    L2EvictPolicyTable,
    NumaTable,
    /// PM sampling timeline.
    Timeline,
    /// A table of metric instances, one row per instance (ncu 2026.3): the category axis
    /// holds the instance column's header, the value axis's label the value column's.
    MetricInstancesTable,
    /// A kind this reader does not know (its field number).
    Other(u32),
}

impl ItemKind {
    /// The metric group the viewer builds a memory widget from, for the kinds that have one.
    pub fn memory_group(self) -> Option<&'static str> {
        match self {
            ItemKind::MemoryChart => Some("group:memory__chart"),
            ItemKind::SharedMemoryTable => Some("group:memory__shared_table"),
            ItemKind::L1TexTable => Some("group:memory__first_level_cache_table"),
            ItemKind::L2CacheTable => Some("group:memory__l2_cache_table"),
            ItemKind::L2EvictPolicyTable => Some("group:memory__l2_cache_evict_policy_table"),
            ItemKind::DeviceMemoryTable => Some("group:memory__dram_table"),
            _ => None,
        }
    }

    /// Whether the item is drawn as bars (the values are compared side by side).
    pub fn is_chart(self) -> bool {
        matches!(
            self,
            ItemKind::BarChart | ItemKind::HistogramChart | ItemKind::LineChart
        )
    }
}

/// Architectures, drivers and collection scopes a template part applies to. Architectures are
/// written `10 × major + minor` (90 for CC 9.0).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Applies {
    /// Allowed (min, max) architecture ranges, either end open; empty means any.
    pub arch: Vec<(Option<i32>, Option<i32>)>,
    /// Allowed (min, max) driver ranges, one per architecture range when given.
    pub driver: Vec<(Option<f32>, Option<f32>)>,
    /// Allowed collection scopes (1 kernel, 2 range, 3 command list); empty means any.
    pub scopes: Vec<i32>,
}

/// What a result is, for [`Applies::check`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Target {
    pub arch: Option<i32>,
    pub driver: Option<f32>,
    pub scope: i32,
}

impl Applies {
    /// Whether nothing restricts the part.
    pub fn is_any(&self) -> bool {
        self.arch.is_empty() && self.driver.is_empty() && self.scopes.is_empty()
    }

    /// Whether the part applies to the target. An unknown architecture or driver passes.
    pub fn check(&self, t: &Target) -> bool {
        if !self.scopes.is_empty() && !self.scopes.contains(&t.scope) {
            return false;
        }
        if self.arch.is_empty() && self.driver.is_empty() {
            return true;
        }
        let n = self.arch.len().max(self.driver.len());
        (0..n).any(|i| {
            let (amin, amax) = self.arch.get(i).copied().unwrap_or((None, None));
            let (dmin, dmax) = self.driver.get(i).copied().unwrap_or((None, None));
            let arch_ok = t
                .arch
                .is_none_or(|a| amin.is_none_or(|m| a >= m) && amax.is_none_or(|m| a <= m));
            let driver_ok = t
                .driver
                .is_none_or(|d| dmin.is_none_or(|m| d >= m) && dmax.is_none_or(|m| d <= m));
            arch_ok && driver_ok
        })
    }
}

/// A metric a template names, with its label and per-architecture alternatives.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct MetricRef {
    /// A metric name, or a `group:`, `breakdown:[depth:]` or `regex:` expression.
    pub name: String,
    /// The label; `{UNIT}` and `{COMPOUND_NAME}` placeholders are filled per breakdown member.
    pub label: String,
    #[serde(skip_serializing_if = "Applies::is_any")]
    pub applies: Applies,
    /// Alternatives: the first whose filter applies replaces the metric.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<MetricRef>,
    /// Whether the chart plots the metric's instances.
    pub show_instances: bool,
}

/// One value of a roofline: a constant, a metric, or per-cycle metrics (summed) times a rate.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RooflineValue {
    Constant(f64),
    Metric(MetricRef),
    PerSecond {
        per_cycle: Vec<MetricRef>,
        rate: Option<MetricRef>,
    },
}

/// A roofline or an achieved point of a roofline chart: a label, work and traffic.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RooflinePart {
    pub label: String,
    pub work: Option<RooflineValue>,
    pub traffic: Option<RooflineValue>,
}

/// How a timeline row draws its metrics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TimelineRowKind {
    #[default]
    StackedBar,
    Ranges,
    /// Metrics drawn over each other in one row (ncu 2026.3).
    Overlay,
    /// Events drawn as markers (ncu 2026.3).
    Markers,
    /// A kind this reader does not know (its stored number).
    Other(i32),
}

impl TimelineRowKind {
    /// The kind of a stored value.
    pub fn from_stored(v: i32) -> Self {
        match v {
            0 => TimelineRowKind::StackedBar,
            1 => TimelineRowKind::Ranges,
            2 => TimelineRowKind::Overlay,
            3 => TimelineRowKind::Markers,
            n => TimelineRowKind::Other(n),
        }
    }

    /// The name shown beside a row of a kind other than the stacked bar and ranges, which
    /// need none.
    pub fn marker(self) -> Option<String> {
        match self {
            TimelineRowKind::StackedBar | TimelineRowKind::Ranges => None,
            TimelineRowKind::Overlay => Some("overlay".into()),
            TimelineRowKind::Markers => Some("markers".into()),
            TimelineRowKind::Other(n) => Some(format!("row kind {n}")),
        }
    }
}

/// One row of a timeline group.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct TimelineRow {
    pub label: String,
    pub kind: TimelineRowKind,
    /// The metrics it plots.
    pub metrics: Vec<MetricRef>,
}

/// A row group of a PM sampling timeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TimelineGroup {
    pub label: String,
    /// The row drawn on the group's own line, where the template has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_row: Option<TimelineRow>,
    pub rows: Vec<TimelineRow>,
}

/// One body item of a template.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ItemTemplate {
    pub kind: ItemKind,
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    #[serde(skip_serializing_if = "Applies::is_any")]
    pub applies: Applies,
    /// Metrics in template order (for suffix tables, the base names).
    pub metrics: Vec<MetricRef>,
    /// Line charts: the metric marking the current x value.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub highlight: Vec<MetricRef>,
    /// Suffix tables: (suffix such as `.avg`, column label).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub suffixes: Vec<(String, String)>,
    /// Roofline charts: the rooflines and the achieved points.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rooflines: Vec<RooflinePart>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub achieved: Vec<RooflinePart>,
    /// Timelines: row groups.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub timeline: Vec<TimelineGroup>,
    /// Bar charts: bars run horizontally.
    pub horizontal: bool,
    /// The value axis label and range, when the chart sets them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_axis: Option<ValueAxis>,
    /// The category (or x) axis label.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub category_axis: String,
    /// Whether rows are sorted by value, descending.
    pub sort_descending: bool,
}

/// A chart's value axis.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ValueAxis {
    pub label: String,
    pub min: Option<f64>,
    pub max: Option<f64>,
}

/// A body: what the section's body selector offers as one entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BodyTemplate {
    /// The body's display name (`GPU Throughput Chart`); may be empty.
    pub name: String,
    /// Whether ncu shows it when the selector is on "All".
    pub default: bool,
    /// Items in order; horizontal containers are flattened.
    pub items: Vec<ItemTemplate>,
}

/// The bodies of one section template.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SectionTemplateBodies {
    pub identifier: Option<String>,
    pub name: String,
    pub order: u32,
    /// The section this one is shown inside (`Extends`).
    pub extends: Option<String>,
    pub applies: Applies,
    pub bodies: Vec<BodyTemplate>,
}

/// The body templates of a report, shared by its results.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct BodyTemplates {
    pub sections: Vec<SectionTemplateBodies>,
}

/// One row of a resolved item: a label and the metric behind it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BodyRow {
    pub label: String,
    /// The row group within the item (a roofline's "Peak Work", a suffix's column label).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
    pub metric: Metric,
    /// For a timeline row drawn other than as a bar (overlaid, as markers): how.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub drawn_as: Option<TimelineRowKind>,
}

/// One resolved body item.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BodyItem {
    pub kind: ItemKind,
    pub label: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub rows: Vec<BodyRow>,
    /// Line charts: the highlighted x value's metric.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub highlight: Vec<BodyRow>,
    pub horizontal: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_axis: Option<ValueAxis>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub category_axis: String,
    /// Why the item has no values, when it has none (a text export that did not print it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Timelines: the GPU timestamps (ns) at which the workload started and ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workload_ns: Option<[u64; 2]>,
}

impl BodyItem {
    /// The row with this label.
    pub fn row(&self, label: &str) -> Option<&BodyRow> {
        self.rows.iter().find(|r| r.label == label)
    }

    /// The metric of the row whose metric has this name.
    pub fn metric(&self, name: &str) -> Option<&Metric> {
        self.rows
            .iter()
            .map(|r| &r.metric)
            .find(|m| m.name.as_deref() == Some(name))
    }
}

/// One resolved body.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SectionBody {
    pub name: String,
    pub default: bool,
    pub items: Vec<BodyItem>,
}

/// The resolved bodies of one section of one result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SectionBodies {
    pub identifier: Option<String>,
    /// The section's display name, as the details page and the CLI print it.
    pub name: String,
    /// The identifier of the section this one is shown inside (`Extends`), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extends: Option<String>,
    pub bodies: Vec<SectionBody>,
}

/// Where a report's section bodies come from.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum ReportBodies {
    /// The source has no bodies (default details text, CSV, summaries).
    #[default]
    None,
    /// A native report: templates resolved per result against its metrics.
    Templates(Arc<BodyTemplates>),
    /// A text export that printed the bodies: per result position, its sections' bodies.
    Printed(BTreeMap<usize, Vec<SectionBodies>>),
    /// A text export that printed the bodies, each result's kept in its body
    /// ([`super::ResultBody::printed`]) and read with it: a large text read in windows holds
    /// no body it is not showing.
    InResults,
}

impl ReportBodies {
    /// Moves the printed bodies of `results` into their bodies ([`ReportBodies::InResults`]).
    pub fn move_into_results(&mut self, results: &mut [super::KernelResult]) {
        if let ReportBodies::Printed(by_result) = self {
            for (index, bodies) in std::mem::take(by_result) {
                if let Some(r) = results.get_mut(index) {
                    r.body_mut().printed = bodies;
                }
            }
            *self = ReportBodies::InResults;
        }
    }
}
