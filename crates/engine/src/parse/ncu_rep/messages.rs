//! Protobuf messages of the `.ncu-rep` format, declared by hand with only the fields the reader
//! uses (see `docs/ncu-rep-format.md` of the reference material). Every field is optional so
//! files of other ncu versions still decode; undeclared fields are skipped by their length.
//! Enumerations are kept as plain integers so unknown values survive.

// prost's derive generates the field accessors; most are unused.
#![allow(dead_code)]

/// `FileHeader`: the container version.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FileHeader {
    #[prost(uint32, optional, tag = "1")]
    pub version: Option<u32>,
}

/// `BlockHeader`: entry counts, the payload size and pieces of session state.
#[derive(Clone, PartialEq, prost::Message)]
pub struct BlockHeader {
    #[prost(uint32, optional, tag = "1")]
    pub num_sources: Option<u32>,
    #[prost(uint32, optional, tag = "2")]
    pub num_results: Option<u32>,
    /// A partial `ReportSessionDetails`, kept encoded so it can be merged with protobuf rules.
    #[prost(bytes = "vec", optional, tag = "3")]
    pub session_details: Option<Vec<u8>>,
    #[prost(message, optional, tag = "4")]
    pub string_table: Option<StringTable>,
    #[prost(uint32, optional, tag = "5")]
    pub payload_size: Option<u32>,
    #[prost(message, optional, tag = "6")]
    pub process: Option<ProcessInfo>,
    #[prost(uint32, optional, tag = "7")]
    pub num_range_results: Option<u32>,
    #[prost(uint32, optional, tag = "8")]
    pub num_cmdlist_results: Option<u32>,
    #[prost(uint32, optional, tag = "9")]
    pub num_graph_results: Option<u32>,
    /// Count of `GraphData` entries (CUDA graphs) after the results (ncu 2026.3).
    #[prost(uint32, optional, tag = "10")]
    pub num_graphs: Option<u32>,
}

/// `ProfilerStringTable`: consecutive entries of the global metric-name table.
#[derive(Clone, PartialEq, prost::Message)]
pub struct StringTable {
    #[prost(string, repeated, tag = "1")]
    pub strings: Vec<String>,
}

/// `ProcessInfo`.
#[derive(Clone, PartialEq, Eq, Hash, prost::Message)]
pub struct ProcessInfo {
    #[prost(uint32, optional, tag = "1")]
    pub process_id: Option<u32>,
    #[prost(string, optional, tag = "2")]
    pub hostname: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub process_name: Option<String>,
}

/// `ReportSessionDetails`, merged over all block headers.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SessionDetails {
    #[prost(uint32, optional, tag = "1")]
    pub process_id: Option<u32>,
    #[prost(uint64, optional, tag = "2")]
    pub creation_time: Option<u64>,
    #[prost(message, optional, tag = "3")]
    pub host_system_info: Option<SystemInfo>,
    #[prost(message, optional, tag = "4")]
    pub target_system_info: Option<SystemInfo>,
    #[prost(message, optional, tag = "5")]
    pub device_properties: Option<DeviceProperties>,
    #[prost(message, repeated, tag = "6")]
    pub device_attributes: Vec<DeviceAttributes>,
    #[prost(string, optional, tag = "7")]
    pub comments: Option<String>,
    #[prost(message, repeated, tag = "8")]
    pub version_info: Vec<VersionInfo>,
    #[prost(message, optional, tag = "9")]
    pub executable_settings: Option<ExecutableSettings>,
    #[prost(string, optional, tag = "11")]
    pub profiler_cmdline: Option<String>,
    /// Whether the report was made by merging other reports (ncu 2026.3).
    #[prost(bool, optional, tag = "12")]
    pub is_merged_report: Option<bool>,
}

/// `SystemInfo`: a machine of the session.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SystemInfo {
    #[prost(string, optional, tag = "1")]
    pub os_name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub build: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub processor: Option<String>,
    #[prost(string, optional, tag = "4")]
    pub architecture: Option<String>,
    #[prost(string, optional, tag = "5")]
    pub computer_name: Option<String>,
    #[prost(int32, optional, tag = "6")]
    pub platform: Option<i32>,
    #[prost(message, repeated, tag = "7")]
    pub ip_addresses: Vec<IpAddress>,
}

/// `IPAddress`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct IpAddress {
    #[prost(string, optional, tag = "1")]
    pub address: Option<String>,
    #[prost(int32, optional, tag = "2")]
    pub kind: Option<i32>,
}

/// `DeviceProperties`: a key/value list (empty in every file seen).
#[derive(Clone, PartialEq, prost::Message)]
pub struct DeviceProperties {}

/// `DeviceAttributes`: one GPU.
#[derive(Clone, PartialEq, prost::Message)]
pub struct DeviceAttributes {
    #[prost(uint32, optional, tag = "1")]
    pub id: Option<u32>,
    #[prost(string, optional, tag = "2")]
    pub name: Option<String>,
    #[prost(message, repeated, tag = "3")]
    pub attributes: Vec<DeviceAttribute>,
}

/// `DeviceAttribute`: a name and a metric-style value.
#[derive(Clone, PartialEq, prost::Message)]
pub struct DeviceAttribute {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(message, optional, tag = "2")]
    pub value: Option<MetricValue>,
}

/// `VersionInfo`: a tool or driver version.
#[derive(Clone, PartialEq, prost::Message)]
pub struct VersionInfo {
    #[prost(string, optional, tag = "1")]
    pub provider: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub version: Option<String>,
}

/// `ExecutableSettings`: the profiled program.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ExecutableSettings {
    #[prost(string, optional, tag = "1")]
    pub path: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub working_directory: Option<String>,
    #[prost(string, optional, tag = "3")]
    pub arguments: Option<String>,
    #[prost(string, optional, tag = "4")]
    pub environment: Option<String>,
}

/// `ProfileMetricValue`: one of string, float, double, uint32, uint64. (`ProfileMetricResult`
/// and its instance list are walked field by field in `result.rs`, which names their fields.)
#[derive(Clone, PartialEq, prost::Message)]
pub struct MetricValue {
    #[prost(string, optional, tag = "1")]
    pub string_value: Option<String>,
    #[prost(float, optional, tag = "2")]
    pub float_value: Option<f32>,
    #[prost(double, optional, tag = "3")]
    pub double_value: Option<f64>,
    #[prost(uint32, optional, tag = "4")]
    pub uint32_value: Option<u32>,
    #[prost(uint64, optional, tag = "5")]
    pub uint64_value: Option<u64>,
}

/// `Uint64x3`: a grid or block shape.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Uint64x3 {
    #[prost(uint64, optional, tag = "1")]
    pub x: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    pub y: Option<u64>,
    #[prost(uint64, optional, tag = "3")]
    pub z: Option<u64>,
}

/// `ClockStatus` of a result.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ClockStatus {
    #[prost(bool, optional, tag = "1")]
    pub lock_requested: Option<bool>,
    #[prost(bool, optional, tag = "2")]
    pub locked: Option<bool>,
}

/// `SourceData` as a result refers to it: only the module reference.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SourceReference {
    #[prost(uint64, optional, tag = "1")]
    pub reference: Option<u64>,
}

/// The small fields of a `ProfileResult`. Metrics (13), section templates (17), rule results
/// (19) and NVTX state (21) are not declared: the decoder skips them by length and the reader
/// visits them separately.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ResultHead {
    #[prost(uint32, optional, tag = "1")]
    pub thread_id: Option<u32>,
    #[prost(uint64, optional, tag = "2")]
    pub api_call_id: Option<u64>,
    #[prost(string, optional, tag = "5")]
    pub kernel_mangled_name: Option<String>,
    #[prost(string, optional, tag = "6")]
    pub kernel_function_name: Option<String>,
    #[prost(string, optional, tag = "7")]
    pub kernel_demangled_name: Option<String>,
    #[prost(message, optional, tag = "10")]
    pub grid_size: Option<Uint64x3>,
    #[prost(message, optional, tag = "11")]
    pub block_size: Option<Uint64x3>,
    #[prost(uint64, optional, tag = "14")]
    pub creation_time: Option<u64>,
    #[prost(message, optional, tag = "15")]
    pub source: Option<SourceReference>,
    #[prost(uint32, optional, tag = "22")]
    pub context_id: Option<u32>,
    #[prost(uint32, optional, tag = "23")]
    pub stream_id: Option<u32>,
    #[prost(message, optional, tag = "25")]
    pub clock_status: Option<ClockStatus>,
    #[prost(int32, optional, tag = "29")]
    pub collection_scope: Option<i32>,
    #[prost(string, optional, tag = "31")]
    pub renamed_demangled_name: Option<String>,
    #[prost(float, optional, tag = "35")]
    pub kmd_version: Option<f32>,
}

/// `ProfilerSection`: a section template, without its body (charts and tables).
#[derive(Clone, PartialEq, prost::Message)]
pub struct SectionTemplate {
    #[prost(string, optional, tag = "1")]
    pub identifier: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub display_name: Option<String>,
    #[prost(uint32, optional, tag = "3")]
    pub order: Option<u32>,
    #[prost(message, optional, tag = "4")]
    pub header: Option<SectionHeader>,
    #[prost(string, optional, tag = "9")]
    pub extends: Option<String>,
    #[prost(message, optional, tag = "11")]
    pub filter: Option<MetricOptionFilter>,
}

/// `ProfilerSectionHeader`: the label/metric table at the top of a section.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SectionHeader {
    #[prost(uint32, optional, tag = "1")]
    pub rows: Option<u32>,
    #[prost(message, repeated, tag = "2")]
    pub metrics: Vec<SectionMetric>,
}

/// `ProfilerSectionMetric`: a metric named by a template.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SectionMetric {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub label: Option<String>,
    /// Whether a chart plots the metric's instances.
    #[prost(bool, optional, tag = "4")]
    pub show_instances: Option<bool>,
    #[prost(message, optional, tag = "6")]
    pub filter: Option<MetricOptionFilter>,
    #[prost(message, repeated, tag = "7")]
    pub options: Vec<SectionMetricOption>,
}

/// An alternative metric for other architectures.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SectionMetricOption {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub label: Option<String>,
    #[prost(message, optional, tag = "3")]
    pub filter: Option<MetricOptionFilter>,
}

/// `MetricOptionFilter`: when a section or metric applies.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MetricOptionFilter {
    #[prost(int32, optional, tag = "1")]
    pub min_arch: Option<i32>,
    #[prost(int32, optional, tag = "2")]
    pub max_arch: Option<i32>,
    #[prost(message, repeated, tag = "3")]
    pub items: Vec<FilterItem>,
    #[prost(message, optional, tag = "4")]
    pub collection: Option<CollectionFilter>,
    #[prost(float, optional, tag = "6")]
    pub min_driver: Option<f32>,
    #[prost(float, optional, tag = "7")]
    pub max_driver: Option<f32>,
}

/// One architecture (and driver) range of a filter.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FilterItem {
    #[prost(int32, optional, tag = "1")]
    pub min_arch: Option<i32>,
    #[prost(int32, optional, tag = "2")]
    pub max_arch: Option<i32>,
    #[prost(float, optional, tag = "3")]
    pub min_driver: Option<f32>,
    #[prost(float, optional, tag = "4")]
    pub max_driver: Option<f32>,
}

/// The collection scopes (1 launch, 2 range, 3 command list) a filter allows.
#[derive(Clone, PartialEq, prost::Message)]
pub struct CollectionFilter {
    #[prost(int32, repeated, packed = "false", tag = "1")]
    pub scopes: Vec<i32>,
}

/// `RuleResult` (package `NV.RuleSystem`).
#[derive(Clone, PartialEq, prost::Message)]
pub struct RuleResultMsg {
    #[prost(string, optional, tag = "1")]
    pub identifier: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub display_name: Option<String>,
    #[prost(message, optional, tag = "3")]
    pub body: Option<RuleBody>,
    #[prost(string, optional, tag = "4")]
    pub section_identifier: Option<String>,
    #[prost(message, repeated, tag = "5")]
    pub source_markers: Vec<SourceMarkerMsg>,
}

/// `SourceMarker`: where on the Source page a rule points (a CUDA line or a SASS address).
#[derive(Clone, PartialEq, prost::Message)]
pub struct SourceMarkerMsg {
    /// 0 SASS, 1 source.
    #[prost(int32, optional, tag = "1")]
    pub kind: Option<i32>,
    #[prost(uint32, optional, tag = "2")]
    pub line_number: Option<u32>,
    #[prost(uint64, optional, tag = "3")]
    pub address: Option<u64>,
    #[prost(string, optional, tag = "4")]
    pub tooltip: Option<String>,
    /// The message type (as a rule message's).
    #[prost(int32, optional, tag = "5")]
    pub message_type: Option<i32>,
    #[prost(string, optional, tag = "6")]
    pub file_name: Option<String>,
}

/// `RuleResultBody`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RuleBody {
    #[prost(message, repeated, tag = "1")]
    pub items: Vec<RuleBodyItem>,
}

/// `RuleResultBodyItem`: only the message, focus metrics and speedup are read.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RuleBodyItem {
    #[prost(message, optional, tag = "1")]
    pub message: Option<RuleMessage>,
    #[prost(message, repeated, tag = "8")]
    pub focus_metrics: Vec<FocusMetric>,
    #[prost(message, optional, tag = "10")]
    pub speedup: Option<Speedup>,
}

/// A rule message: text, type (1 INF, 2 WRN, 3 ERR, 4 OPT) and title.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RuleMessage {
    #[prost(string, optional, tag = "1")]
    pub message: Option<String>,
    #[prost(int32, optional, tag = "2")]
    pub kind: Option<i32>,
    #[prost(int32, optional, tag = "3")]
    pub id: Option<i32>,
    #[prost(string, optional, tag = "4")]
    pub name: Option<String>,
}

/// A focus metric of a rule.
#[derive(Clone, PartialEq, prost::Message)]
pub struct FocusMetric {
    #[prost(int32, optional, tag = "1")]
    pub message_id: Option<i32>,
    #[prost(string, optional, tag = "2")]
    pub metric_name: Option<String>,
    #[prost(double, optional, tag = "3")]
    pub metric_value: Option<f64>,
    #[prost(int32, optional, tag = "4")]
    pub severity: Option<i32>,
    #[prost(string, optional, tag = "5")]
    pub info: Option<String>,
}

/// An estimated speedup: type (1 local, 2 global) and value in percent.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Speedup {
    #[prost(int32, optional, tag = "1")]
    pub speedup_type: Option<i32>,
    #[prost(double, optional, tag = "2")]
    pub value: Option<f64>,
}

/// `NvtxState` at a launch.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NvtxState {
    #[prost(message, repeated, tag = "1")]
    pub domains: Vec<NvtxDomain>,
    #[prost(message, repeated, tag = "2")]
    pub threads: Vec<NvtxThread>,
}

/// An NVTX domain.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NvtxDomain {
    #[prost(uint64, optional, tag = "1")]
    pub id: Option<u64>,
    #[prost(string, optional, tag = "2")]
    pub name: Option<String>,
}

/// The push/pop state of one thread.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NvtxThread {
    #[prost(uint32, optional, tag = "1")]
    pub tid: Option<u32>,
    #[prost(message, repeated, tag = "2")]
    pub domains: Vec<NvtxThreadDomain>,
}

/// The push/pop stack of one domain on one thread.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NvtxThreadDomain {
    #[prost(uint64, optional, tag = "1")]
    pub domain_id: Option<u64>,
    #[prost(message, repeated, tag = "3")]
    pub stack: Vec<NvtxPushPopRange>,
}

/// One push/pop range.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NvtxPushPopRange {
    #[prost(string, optional, tag = "1")]
    pub name: Option<String>,
}

/// `SourceData` without its cubin: what the on-request source API decodes.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SourceDataHead {
    #[prost(uint64, optional, tag = "1")]
    pub reference: Option<u64>,
    #[prost(uint32, optional, tag = "6")]
    pub cuda_sm_version: Option<u32>,
    #[prost(message, optional, tag = "8")]
    pub source_files: Option<SourceFiles>,
    #[prost(message, optional, tag = "9")]
    pub relocation_data: Option<RelocationData>,
}

/// Imported CUDA source files.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SourceFiles {
    #[prost(message, repeated, tag = "1")]
    pub files: Vec<SourceFileMsg>,
}

/// One imported file.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SourceFileMsg {
    #[prost(string, optional, tag = "1")]
    pub file_name: Option<String>,
    #[prost(string, optional, tag = "2")]
    pub content: Option<String>,
}

/// Load addresses of a module's functions and objects.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RelocationData {
    #[prost(message, repeated, tag = "1")]
    pub functions: Vec<RelocationEntry>,
    #[prost(message, repeated, tag = "2")]
    pub objects: Vec<RelocationEntry>,
}

/// A symbol and its GPU address.
#[derive(Clone, PartialEq, prost::Message)]
pub struct RelocationEntry {
    #[prost(string, optional, tag = "1")]
    pub symbol_name: Option<String>,
    #[prost(uint64, optional, tag = "2")]
    pub address: Option<u64>,
    #[prost(uint32, optional, tag = "3")]
    pub symbol_index: Option<u32>,
}
