//! Protobuf messages of section template bodies (`ProfilerSection` field 5 and what it holds),
//! declared by hand from the field tables of the format notes, with only the fields the reader
//! uses. Enumerations stay integers so unknown values survive.

// prost's derive generates the field accessors; most are unused.
#![allow(dead_code)]

use super::messages::{MetricOptionFilter, SectionMetric};

/// `ProfilerSection` with only what the bodies need.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SectionBodiesMsg {
    #[prost(string, optional, tag = "1")]
    pub identifier: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub display_name: Option<String>,
    #[prost(uint32, optional, tag = "3")]
    pub order: Option<u32>,
    #[prost(message, repeated, tag = "5")]
    pub body: Vec<BodyMsg>,
    #[prost(string, optional, tag = "9")]
    pub extends: Option<String>,
    #[prost(message, optional, tag = "11")]
    pub filter: Option<MetricOptionFilter>,
}

/// `ProfilerSectionBody`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct BodyMsg {
    /// Kept encoded: each item is also walked for kinds this reader does not know.
    #[prost(bytes = "vec", repeated, tag = "1")]
    pub items: Vec<Vec<u8>>,
    #[prost(string, optional, tag = "2")]
    pub display_name: Option<String>,
    #[prost(bool, optional, tag = "3")]
    pub set_default: Option<bool>,
}

/// `ProfilerSectionBodyItem`: one kind field and an optional filter.
#[derive(Clone, PartialEq, prost::Message)]
pub struct BodyItemMsg {
    #[prost(message, optional, tag = "1")]
    pub table: Option<TableMsg>,
    #[prost(message, optional, tag = "2")]
    pub bar_chart: Option<BarChartMsg>,
    #[prost(message, optional, tag = "3")]
    pub histogram_chart: Option<HistogramMsg>,
    #[prost(message, optional, tag = "4")]
    pub line_chart: Option<LineChartMsg>,
    #[prost(message, optional, tag = "5")]
    pub horizontal_container: Option<ContainerMsg>,
    #[prost(message, optional, tag = "6")]
    pub roofline_chart: Option<RooflineMsg>,
    #[prost(message, optional, tag = "7")]
    pub source_metric_table: Option<SourceTableMsg>,
    #[prost(message, optional, tag = "8")]
    pub suffix_table: Option<SuffixTableMsg>,
    #[prost(message, optional, tag = "9")]
    pub metric_instances_table: Option<InstancesTableMsg>,
    #[prost(message, optional, tag = "101")]
    pub shared_table: Option<WidgetMsg>,
    #[prost(message, optional, tag = "102")]
    pub l1_table_old: Option<WidgetMsg>,
    #[prost(message, optional, tag = "103")]
    pub l2_table_old: Option<WidgetMsg>,
    #[prost(message, optional, tag = "104")]
    pub device_memory_table: Option<WidgetMsg>,
    #[prost(message, optional, tag = "105")]
    pub memory_chart: Option<WidgetMsg>,
    #[prost(message, optional, tag = "106")]
    pub l1tex_table: Option<WidgetMsg>,
    #[prost(message, optional, tag = "107")]
    pub l2_table: Option<WidgetMsg>,
    #[prost(message, optional, tag = "108")]
    pub nvlink_topology: Option<WidgetMsg>,
    #[prost(message, optional, tag = "109")]
    pub nvlink_properties: Option<WidgetMsg>,
    #[prost(message, optional, tag = "110")]
    pub nvlink_throughput: Option<WidgetMsg>,
    #[prost(message, optional, tag = "111")]
    pub l2_evict_policy_table: Option<WidgetMsg>,
    #[prost(message, optional, tag = "112")]
    pub numa_table: Option<WidgetMsg>,
    #[prost(message, optional, tag = "113")]
    pub timeline: Option<TimelineMsg>,
    #[prost(message, optional, tag = "150")]
    pub gfx_widget: Option<GfxWidgetMsg>,
    #[prost(message, optional, tag = "200")]
    pub filter: Option<MetricOptionFilter>,
}

/// A table of label/metric rows.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TableMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
    #[prost(uint32, optional, tag = "2")]
    pub rows: Option<u32>,
    #[prost(uint32, optional, tag = "3")]
    pub columns: Option<u32>,
    #[prost(int32, optional, tag = "4")]
    pub order: Option<i32>,
    #[prost(message, repeated, tag = "5")]
    pub metrics: Vec<SectionMetric>,
    #[prost(int32, optional, tag = "6")]
    pub sort_key: Option<i32>,
    #[prost(int32, optional, tag = "7")]
    pub sort_direction: Option<i32>,
    #[prost(string, optional, tag = "8")]
    pub description: Option<String>,
}

/// A table of the instances of metrics, one row per instance (ncu 2026.3): its label,
/// description, the headers of the instance and value columns, and the metrics.
#[derive(Clone, PartialEq, prost::Message)]
pub struct InstancesTableMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub description: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub instances_label: Option<String>,
    #[prost(string, optional, tag = "4")]
    pub values_label: Option<String>,
    #[prost(message, repeated, tag = "5")]
    pub metrics: Vec<SectionMetric>,
}

/// An axis with only a label (category axes).
#[derive(Clone, PartialEq, prost::Message)]
pub struct LabelAxisMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
}

/// A value range of an axis.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RangeMsg {
    #[prost(int64, optional, tag = "1")]
    pub min: Option<i64>,
    #[prost(int64, optional, tag = "2")]
    pub max: Option<i64>,
}

/// `ProfilerSectionChartValueAxis`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ValueAxisMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
    #[prost(message, optional, tag = "2")]
    pub range: Option<RangeMsg>,
    #[prost(int64, optional, tag = "3")]
    pub tick_count: Option<i64>,
}

/// A bar chart.
#[derive(Clone, PartialEq, prost::Message)]
pub struct BarChartMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
    /// 0 horizontal, 1 vertical.
    #[prost(int32, optional, tag = "2")]
    pub direction: Option<i32>,
    #[prost(message, optional, tag = "3")]
    pub category_axis: Option<LabelAxisMsg>,
    #[prost(message, optional, tag = "4")]
    pub value_axis: Option<ValueAxisMsg>,
    #[prost(message, repeated, tag = "5")]
    pub metrics: Vec<SectionMetric>,
    #[prost(int32, optional, tag = "6")]
    pub sort_key: Option<i32>,
    #[prost(int32, optional, tag = "7")]
    pub sort_direction: Option<i32>,
    #[prost(string, optional, tag = "9")]
    pub description: Option<String>,
}

/// A histogram's bin axis.
#[derive(Clone, PartialEq, prost::Message)]
pub struct BinAxisMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
    #[prost(uint32, optional, tag = "2")]
    pub bin_count: Option<u32>,
}

/// A histogram chart.
#[derive(Clone, PartialEq, prost::Message)]
pub struct HistogramMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
    #[prost(message, optional, tag = "2")]
    pub axis: Option<BinAxisMsg>,
    #[prost(message, optional, tag = "3")]
    pub value_axis: Option<ValueAxisMsg>,
    #[prost(message, optional, tag = "4")]
    pub metric: Option<SectionMetric>,
    #[prost(string, optional, tag = "5")]
    pub description: Option<String>,
}

/// The metrics marking a line chart's current x value.
#[derive(Clone, PartialEq, prost::Message)]
pub struct HighlightMsg {
    #[prost(message, repeated, tag = "1")]
    pub metrics: Vec<SectionMetric>,
}

/// A line chart (the occupancy graphs).
#[derive(Clone, PartialEq, prost::Message)]
pub struct LineChartMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
    #[prost(message, optional, tag = "2")]
    pub axis_x: Option<ValueAxisMsg>,
    #[prost(message, optional, tag = "3")]
    pub axis_y: Option<ValueAxisMsg>,
    #[prost(message, repeated, tag = "4")]
    pub metrics: Vec<SectionMetric>,
    #[prost(message, optional, tag = "5")]
    pub highlight_x: Option<HighlightMsg>,
    #[prost(string, optional, tag = "6")]
    pub description: Option<String>,
}

/// Body items side by side.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ContainerMsg {
    #[prost(bytes = "vec", repeated, tag = "1")]
    pub items: Vec<Vec<u8>>,
}

/// A top-N table of per-instruction source metrics.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SourceTableMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
    #[prost(uint32, optional, tag = "2")]
    pub rows: Option<u32>,
    #[prost(message, repeated, tag = "3")]
    pub metrics: Vec<SectionMetric>,
    #[prost(int32, optional, tag = "4")]
    pub sort_direction: Option<i32>,
    #[prost(string, optional, tag = "5")]
    pub description: Option<String>,
}

/// One suffix column of a suffix table.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SuffixMsg {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub label: Option<String>,
}

/// The suffix columns of a suffix table.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SuffixesMsg {
    #[prost(message, repeated, tag = "1")]
    pub suffixes: Vec<SuffixMsg>,
}

/// The base metric names of a suffix table.
#[derive(Clone, PartialEq, prost::Message)]
pub struct BaseNamesMsg {
    #[prost(message, repeated, tag = "1")]
    pub metrics: Vec<SectionMetric>,
}

/// A table of base names × suffixes.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SuffixTableMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
    #[prost(message, optional, tag = "2")]
    pub suffixes: Option<SuffixesMsg>,
    #[prost(message, optional, tag = "3")]
    pub base_names: Option<BaseNamesMsg>,
    #[prost(string, optional, tag = "6")]
    pub description: Option<String>,
}

/// A widget the viewer builds from well-known metrics: a label (and display switches).
#[derive(Clone, PartialEq, prost::Message)]
pub struct WidgetMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
}

/// A graphics metrics widget.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GfxWidgetMsg {
    #[prost(string, optional, tag = "2")]
    pub label: Option<String>,
    #[prost(message, repeated, tag = "3")]
    pub metrics: Vec<SectionMetric>,
}

/// A row of a timeline group.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TimelineRowMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub description: Option<String>,
    /// 0 stacked bar, 1 ranges, 2 overlay, 3 markers (the last two new in ncu 2026.3).
    #[prost(int32, optional, tag = "3")]
    pub kind: Option<i32>,
    #[prost(message, repeated, tag = "4")]
    pub metrics: Vec<SectionMetric>,
}

/// A group of timeline rows.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TimelineGroupMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub description: Option<String>,
    #[prost(bool, optional, tag = "3")]
    pub expanded: Option<bool>,
    #[prost(message, repeated, tag = "4")]
    pub rows: Vec<TimelineRowMsg>,
    /// A row drawn on the group's own line (ncu 2026.3).
    #[prost(message, optional, tag = "5")]
    pub group_row: Option<TimelineRowMsg>,
}

/// The PM sampling timeline.
#[derive(Clone, PartialEq, prost::Message)]
pub struct TimelineMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
    #[prost(message, repeated, tag = "2")]
    pub groups: Vec<TimelineGroupMsg>,
    #[prost(message, repeated, tag = "3")]
    pub metrics: Vec<SectionMetric>,
}

/// Per-cycle metrics (summed) times a cycles-per-second metric.
#[derive(Clone, PartialEq, prost::Message)]
pub struct PerSecondMsg {
    #[prost(message, repeated, tag = "1")]
    pub per_cycle: Vec<SectionMetric>,
    #[prost(message, optional, tag = "2")]
    pub rate: Option<SectionMetric>,
}

/// `ProfilerSectionRooflineValue`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RooflineValueMsg {
    #[prost(double, optional, tag = "1")]
    pub constant: Option<f64>,
    #[prost(message, optional, tag = "2")]
    pub metric: Option<SectionMetric>,
    #[prost(message, optional, tag = "3")]
    pub per_second: Option<PerSecondMsg>,
}

/// The display options of a roofline or achieved point (only its label is used).
#[derive(Clone, PartialEq, prost::Message)]
pub struct RooflineOptionsMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
}

/// A roofline, or an achieved value: work, traffic and options.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RooflinePartMsg {
    #[prost(message, optional, tag = "1")]
    pub work: Option<RooflineValueMsg>,
    #[prost(message, optional, tag = "2")]
    pub traffic: Option<RooflineValueMsg>,
    #[prost(message, optional, tag = "3")]
    pub options: Option<RooflineOptionsMsg>,
}

/// A roofline chart.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RooflineMsg {
    #[prost(string, optional, tag = "1")]
    pub label: Option<String>,
    #[prost(message, repeated, tag = "4")]
    pub rooflines: Vec<RooflinePartMsg>,
    #[prost(message, repeated, tag = "5")]
    pub achieved_values: Vec<RooflinePartMsg>,
    #[prost(string, optional, tag = "7")]
    pub description: Option<String>,
}
