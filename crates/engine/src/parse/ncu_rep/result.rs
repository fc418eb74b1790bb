//! One result message (a kernel launch, a range, a graph or a command list) into a
//! [`KernelResult`]: names, launch shape, context, stream, every metric with its instances,
//! sections, rule results and NVTX state.

use super::container::{Container, Entry, corrupt};
use super::messages::{ClockStatus, MetricValue, NvtxState, ProcessInfo, ResultHead, Uint64x3};
use super::sections::{Applicability, build_sections};
use super::unknown::{
    self, METRIC as METRIC_SHAPE, METRIC_INSTANCE as INSTANCE_SHAPE,
    METRIC_VALUE as METRIC_VALUE_SHAPE, Unknown,
};
use super::wire::{FieldIter, WireValue};
use super::workloads::{decode_head, layout};
use super::{rules, units};
use crate::model::{
    BodyHead, Dim3, HEAD_METRICS, Instance, InstanceValues, KernelName, KernelResult, Metric,
    MetricKey, MetricStore, NvtxRange, ResultBody, ResultKind, Unit, Value, names,
};
use crate::parse::ParseError;
use prost::Message;
use std::sync::OnceLock;

/// Per-report state shared by all result decoders: names, their units and sort ranks.
pub struct Context {
    strings: Vec<String>,
    /// The key of each string-table entry used as a metric name, interned on first use.
    keys: Vec<OnceLock<MetricKey>>,
    /// Base unit of each string-table entry used as a metric name.
    units: Vec<Unit>,
    /// Lexicographic rank of each string-table entry, to sort metrics without comparing text.
    rank: Vec<u32>,
    processes: Vec<ProcessInfo>,
    /// For each string-table entry, its position in [`HEAD_KEYS`], or `NOT_HEAD`.
    head_slot: Vec<u8>,
}

/// The metrics decoded when a result is opened without its body: the [`HEAD_METRICS`], then
/// the [`LAUNCH_SHAPE_METRICS`] a graph's shape comes from.
pub const HEAD_KEYS: usize = HEAD_METRICS.len() + LAUNCH_SHAPE_METRICS.len();
const NOT_HEAD: u8 = u8::MAX;

/// The name of head key `slot`.
pub fn head_key(slot: usize) -> &'static str {
    match slot.checked_sub(HEAD_METRICS.len()) {
        None => HEAD_METRICS[slot],
        Some(i) => LAUNCH_SHAPE_METRICS[i],
    }
}

impl Context {
    /// The names and processes of a walked container.
    pub fn new(c: &Container<'_>) -> Self {
        Self::from_parts(c.strings.clone(), c.processes.clone())
    }

    /// The context of a string table and process list.
    pub fn from_parts(strings: Vec<String>, processes: Vec<ProcessInfo>) -> Self {
        let mut order: Vec<u32> = (0..strings.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| strings[a as usize].cmp(&strings[b as usize]));
        let mut rank = vec![0u32; strings.len()];
        for (r, &i) in order.iter().enumerate() {
            rank[i as usize] = r as u32;
        }
        let units = strings
            .iter()
            .map(|s| Unit::from_static(units::unit_of(s)))
            .collect();
        // A metric stored under an older name fills its today's name's slot, where the report
        // does not store today's name.
        let slot_of = |name: &str| (0..HEAD_KEYS).position(|k| head_key(k) == name);
        let head_slot = strings
            .iter()
            .map(|s| {
                slot_of(s)
                    .or_else(|| {
                        crate::model::names::today_name(s)
                            .filter(|today| !strings.iter().any(|t| t == today))
                            .and_then(slot_of)
                    })
                    .map_or(NOT_HEAD, |k| k as u8)
            })
            .collect();
        Context {
            keys: strings.iter().map(|_| OnceLock::new()).collect(),
            strings,
            units,
            rank,
            processes,
            head_slot,
        }
    }

    /// The position in [`HEAD_KEYS`] of the metric named by string `name_id`.
    pub(super) fn head_slot(&self, name_id: usize) -> Option<usize> {
        self.head_slot
            .get(name_id)
            .filter(|&&k| k != NOT_HEAD)
            .map(|&k| usize::from(k))
    }
}

/// A decoded result, with what the session pages summarise over all results.
pub struct Decoded {
    pub result: KernelResult,
    pub clock_status: Option<ClockStatus>,
    pub driver_version: Option<f32>,
    /// For a result decoded without its body ([`super::head::decode_result_head`]): the
    /// figures kept in its place.
    pub head: Option<BodyHead>,
    /// Top-level field numbers of the result message this reader does not know.
    pub unknown: Vec<u32>,
    /// Top-level fields too large to read, left out: (field number, bytes).
    pub left_out: Vec<(u32, u64)>,
    /// Fields this reader does not know inside the result's body (its metrics, their values
    /// and instances, its rule results); empty for a result decoded without its body.
    pub unknown_in_body: Unknown,
}

/// The model value of a stored value: string, float, double, uint32 or uint64, in that order.
pub fn value_of(v: &MetricValue) -> Value {
    if let Some(s) = &v.string_value {
        Value::Str(s.as_str().into())
    } else {
        numeric_value(v)
    }
}

/// Like [`value_of`], moving a string out instead of copying it.
fn take_value(v: MetricValue) -> Value {
    match v.string_value {
        Some(s) => Value::Str(s.into()),
        None => numeric_value(&v),
    }
}

fn numeric_value(v: &MetricValue) -> Value {
    if let Some(x) = v.float_value {
        Value::Float(x)
    } else if let Some(x) = v.double_value {
        Value::Double(x)
    } else if let Some(x) = v.uint32_value {
        Value::U32(x)
    } else if let Some(x) = v.uint64_value {
        Value::U64(x)
    } else {
        Value::Missing
    }
}

fn dim3(d: Option<&Uint64x3>) -> Option<Dim3> {
    d.map(|d| Dim3 {
        x: d.x.unwrap_or(0),
        y: d.y.unwrap_or(0),
        z: d.z.unwrap_or(0),
    })
}

/// Field numbers of `ProfileMetricResult` and `ProfileMetricListElement`.
const NAME_ID: u32 = 1;
const METRIC_VALUE: u32 = 2;
const METRIC_VALUE_LIST: u32 = 3;
const CORRELATION_ID: u32 = 1;
const ELEMENT_VALUE: u32 = 2;
const INSTANCE_VALUES: u32 = 3;

pub(super) type FieldError = (usize, String);

/// Whether `bytes` are exactly one varint of at most 9 bytes (63 bits).
fn is_single_varint(bytes: &[u8]) -> bool {
    match bytes.split_last() {
        Some((last, head)) => head.len() < 9 && *last < 0x80 && head.iter().all(|&b| b >= 0x80),
        None => false,
    }
}

/// Decodes a `ProfileMetricValue`. Nearly every stored value is a single double (field 3) or
/// uint64 (field 5); those two shapes are read directly, everything else by prost.
/// Fields no schema names are counted in `unknown` (only a value of another shape can hold
/// them).
fn decode_value(bytes: &[u8], offset: usize, unknown: &mut Unknown) -> Result<Value, FieldError> {
    match bytes {
        [0x19, rest @ ..] if rest.len() == 8 => {
            let mut b = [0u8; 8];
            b.copy_from_slice(rest);
            return Ok(Value::Double(f64::from_le_bytes(b)));
        }
        [0x28, varint @ ..] if is_single_varint(varint) => {
            let v = varint
                .iter()
                .enumerate()
                .fold(0u64, |v, (i, &b)| v | (u64::from(b & 0x7f) << (7 * i)));
            return Ok(Value::U64(v));
        }
        _ => {}
    }
    let value = MetricValue::decode(bytes)
        .map(take_value)
        .map_err(|e| (offset, format!("metric value: {e}")))?;
    unknown::scan(bytes, &METRIC_VALUE_SHAPE, unknown);
    Ok(value)
}

/// Decodes one `ProfileMetricResult`. The message is
/// walked field by field so instances go straight into the model without an intermediate list;
/// each value is decoded by prost.
pub(super) fn decode_metric(ctx: &Context, bytes: &[u8]) -> Result<Metric, FieldError> {
    decode_metric_with(ctx, bytes, &mut |_, _| {}, &mut Unknown::default())
}

/// [`decode_metric`], passing each value stored on a single instance (ncu 2026.3) to
/// `on_instance_value` with the instance's position, and counting in `unknown` the fields of
/// the metric, its value and its instances that no schema names.
pub(super) fn decode_metric_with(
    ctx: &Context,
    bytes: &[u8],
    on_instance_value: &mut dyn FnMut(usize, Value),
    unknown: &mut Unknown,
) -> Result<Metric, FieldError> {
    let mut name_id = 0usize;
    let mut value = Value::Missing;
    let mut instances_count = 0usize;
    // Fields no schema names, each counted once per message (as `unknown::scan` counts).
    let mut odd: Vec<u32> = Vec::new();
    for field in FieldIter::new(bytes) {
        let field = field.map_err(|e| (e.offset, format!("metric: {}", e.message)))?;
        match (field.number, field.value) {
            (NAME_ID, WireValue::Varint(v)) => name_id = usize::try_from(v).unwrap_or(usize::MAX),
            (METRIC_VALUE, WireValue::Bytes(b)) => value = decode_value(b, field.offset, unknown)?,
            (METRIC_VALUE_LIST, WireValue::Bytes(_)) => instances_count += 1,
            (n, _) if (n == 0 || n > METRIC_SHAPE.max) && !odd.contains(&n) => odd.push(n),
            _ => {}
        }
    }
    unknown.add(METRIC_SHAPE.name, &odd);
    let Some(name) = ctx.strings.get(name_id) else {
        return Err((
            0,
            format!(
                "metric name id {name_id} outside the string table ({} entries)",
                ctx.strings.len()
            ),
        ));
    };
    // Exact capacity: one entry per list element counted above (bounded by the message size).
    let mut instances = Vec::with_capacity(instances_count);
    if instances_count > 0 {
        for field in FieldIter::new(bytes).flatten() {
            let (METRIC_VALUE_LIST, WireValue::Bytes(element)) = (field.number, field.value) else {
                continue;
            };
            let mut id = None;
            let mut value = Value::Missing;
            odd.clear();
            for part in FieldIter::new(element) {
                let part = part
                    .map_err(|e| (field.offset + e.offset, format!("instance: {}", e.message)))?;
                let at = field.offset + part.offset;
                match (part.number, part.value) {
                    (CORRELATION_ID, WireValue::Bytes(b)) => {
                        id = Some(decode_value(b, at, unknown)?).filter(|v| *v != Value::Missing);
                    }
                    (ELEMENT_VALUE, WireValue::Bytes(b)) => {
                        value = decode_value(b, at, unknown)?;
                    }
                    (INSTANCE_VALUES, WireValue::Bytes(b)) => {
                        on_instance_value(instances.len(), decode_value(b, at, unknown)?);
                    }
                    (n, _) if (n == 0 || n > INSTANCE_SHAPE.max) && !odd.contains(&n) => {
                        odd.push(n);
                    }
                    _ => {}
                }
            }
            unknown.add(INSTANCE_SHAPE.name, &odd);
            instances.push(Instance { id, value });
        }
    }
    let key = match ctx.keys.get(name_id) {
        Some(cell) => *cell.get_or_init(|| MetricKey::new(name)),
        None => MetricKey::new(name),
    };
    let metric = Metric {
        name: Some(key),
        value,
        unit: ctx.units.get(name_id).copied().unwrap_or_default(),
        instances,
        printed: None,
    };
    Ok(metric)
}

/// The name id of a `ProfileMetricResult`, checked against the string table.
fn metric_name_id(ctx: &Context, bytes: &[u8]) -> Result<usize, FieldError> {
    let mut name_id = 0usize;
    for field in FieldIter::new(bytes) {
        let field = field.map_err(|e| (e.offset, format!("metric: {}", e.message)))?;
        if let (NAME_ID, WireValue::Varint(v)) = (field.number, field.value) {
            name_id = usize::try_from(v).unwrap_or(usize::MAX);
            break;
        }
    }
    if name_id >= ctx.strings.len() {
        return Err((
            0,
            format!(
                "metric name id {name_id} outside the string table ({} entries)",
                ctx.strings.len()
            ),
        ));
    }
    Ok(name_id)
}

/// The parts of a result message other than its metrics, each with its offset in the result.
pub(super) struct ResultParts<'a> {
    /// Section templates.
    pub templates: Vec<(usize, &'a [u8])>,
    /// Rule results.
    pub rule_msgs: Vec<(usize, &'a [u8])>,
    /// The NVTX state.
    pub nvtx: Option<(usize, &'a [u8])>,
    /// PC samples of PM sampling, one entry per metric.
    pub pc_sampling: Vec<(usize, &'a [u8])>,
    /// The link to the result's CUDA graph.
    pub graph_link: Option<(usize, &'a [u8])>,
    /// Device-side NVTX.
    pub device_nvtx: Option<(usize, &'a [u8])>,
    /// The section set's identifier.
    pub section_set: Option<(usize, &'a [u8])>,
    /// Field numbers this reader does not know.
    pub unknown: Vec<u32>,
    /// Fields too large to read, left out: (field number, bytes).
    pub left_out: Vec<(u32, u64)>,
}

/// Reads the head of the result at `entry` and walks its fields once: every metric entry goes
/// to `on_metric` with its name id (checked against the string table), offset and bytes; the
/// other parts are returned.
pub(super) fn scan_result<'a>(
    ctx: &Context,
    entry: &Entry<'a>,
    id: u64,
    mut on_metric: impl FnMut(usize, usize, &'a [u8]),
) -> Result<(ResultHead, ResultParts<'a>), ParseError> {
    let at = |rel: usize, what: &str| corrupt(entry.offset + rel, format!("result {id}: {what}"));
    let fields = layout(entry.kind);
    let known = super::unknown::result_fields(entry.kind);
    let mut parts = ResultParts {
        templates: Vec::new(),
        rule_msgs: Vec::new(),
        nvtx: None,
        pc_sampling: Vec::new(),
        graph_link: None,
        device_nvtx: None,
        section_set: None,
        unknown: Vec::new(),
        left_out: Vec::new(),
    };
    // The small fields, copied out as they are, for the head's decoder: given the whole
    // message it walked every metric again to skip it.
    let mut small: Vec<u8> = Vec::with_capacity(SMALL_FIELDS_BYTES);
    let mut walk = FieldIter::new(entry.bytes);
    loop {
        let start = walk.position();
        let Some(field) = walk.next() else { break };
        let field = match field {
            Ok(field) => field,
            Err(e) => {
                // A head that does not decode is the error said first, as when the head was
                // decoded from the whole message before its fields were walked.
                decode_head(entry.kind, entry.bytes).map_err(|e| at(0, &e.to_string()))?;
                return Err(at(e.offset, e.message));
            }
        };
        if !fields.is_part(field.number) {
            small.extend_from_slice(&entry.bytes[start..walk.position()]);
        }
        if field.number == super::oversized::LEFT_OUT_FIELD {
            if let WireValue::Bytes(note) = field.value
                && let Some(left_out) = super::oversized::note_of(note)
            {
                parts.left_out.push(left_out);
            }
            continue;
        }
        if field.number > known && !parts.unknown.contains(&field.number) {
            parts.unknown.push(field.number);
        }
        let WireValue::Bytes(bytes) = field.value else {
            continue;
        };
        match field.number {
            n if n == fields.metrics => {
                let name_id = metric_name_id(ctx, bytes)
                    .map_err(|(rel, what)| at(field.offset + rel, &what))?;
                on_metric(name_id, field.offset, bytes);
            }
            n if n == fields.sections => parts.templates.push((field.offset, bytes)),
            n if n == fields.rules => parts.rule_msgs.push((field.offset, bytes)),
            n if n == fields.nvtx => parts.nvtx = Some((field.offset, bytes)),
            n if n == fields.pc_sampling => parts.pc_sampling.push((field.offset, bytes)),
            n if Some(n) == fields.graph_link => parts.graph_link = Some((field.offset, bytes)),
            n if Some(n) == fields.device_nvtx => {
                parts.device_nvtx = Some((field.offset, bytes));
            }
            n if n == fields.section_set => parts.section_set = Some((field.offset, bytes)),
            _ => {}
        }
    }
    let head = decode_head(entry.kind, &small).map_err(|e| at(0, &e.to_string()))?;
    Ok((head, parts))
}

/// Room for a result's small fields: its names, shape, times and ids.
const SMALL_FIELDS_BYTES: usize = 1024;

/// Decodes the result stored at `entry`; `id` is its position in the file.
pub fn decode_result(ctx: &Context, entry: &Entry<'_>, id: u64) -> Result<Decoded, ParseError> {
    let at = |rel: usize, what: &str| corrupt(entry.offset + rel, format!("result {id}: {what}"));
    // (sort rank of the name, offset in the result, message) of every metric entry.
    let mut entries: Vec<(u32, usize, &[u8])> = Vec::new();
    let (head, parts) = scan_result(ctx, entry, id, |name_id, offset, bytes| {
        let rank = ctx.rank.get(name_id).copied().unwrap_or(0);
        entries.push((rank, offset, bytes));
    })?;
    let ResultParts {
        templates,
        rule_msgs,
        nvtx,
        pc_sampling,
        graph_link,
        device_nvtx,
        section_set,
        unknown,
        left_out,
    } = parts;
    // Decoded in name order, so each metric is appended to the store. A metric stored more
    // than once keeps its last copy, as NVIDIA's module does: the copies differ where a
    // report has two PM-sampling pass groups (`gpu__time_duration.sum` of each), and ncu
    // shows the later one.
    entries.sort_by_key(|e| (e.0, std::cmp::Reverse(e.1)));
    entries.dedup_by_key(|e| e.0);
    let mut metrics = MetricStore::with_capacity(entries.len(), 0);
    let mut instance_values: Vec<InstanceValues> = Vec::new();
    let mut unknown_in_body = Unknown::default();
    for &(_, offset, bytes) in &entries {
        let mut extra: Vec<(usize, Value)> = Vec::new();
        let m = decode_metric_with(
            ctx,
            bytes,
            &mut |i, v| extra.push((i, v)),
            &mut unknown_in_body,
        )
        .map_err(|(rel, what)| at(offset + rel, &what))?;
        let key = m.name.unwrap_or_default();
        for (instance, value) in extra {
            match instance_values.last_mut() {
                Some(last) if last.metric == key && last.instance == instance => {
                    last.values.push(value);
                }
                _ => instance_values.push(InstanceValues {
                    metric: key,
                    instance,
                    values: vec![value],
                }),
            }
        }
        metrics.insert(key, m);
    }
    metrics.compact();

    let number = |key: &str| metrics.get(key).and_then(|m| m.as_f64());
    let (mut result, app) = identity(ctx, entry, id, &head, &number);
    let mut sections =
        build_sections(&templates, &metrics, &app).map_err(|e| at(e.offset, &e.message))?;
    let mut loose_rules = Vec::new();
    for (offset, bytes) in rule_msgs {
        let decoded =
            rules::decode_rule(bytes).map_err(|e| at(offset, &format!("rule result: {e}")))?;
        unknown::scan(bytes, &unknown::RULE_RESULT, &mut unknown_in_body);
        for (section_id, rule) in decoded {
            match sections
                .iter_mut()
                .find(|s| section_id.is_some() && s.identifier == section_id)
            {
                Some(s) => s.rules.push(rule),
                None => loose_rules.push(rule),
            }
        }
    }
    sections.retain(|s| !s.rows.is_empty() || !s.rules.is_empty());
    result.nvtx = nvtx_of(nvtx, head.thread_id).map_err(|(offset, what)| at(offset, &what))?;
    result.graph = graph_link_of(graph_link).map_err(|(offset, what)| at(offset, &what))?;
    let mut samples = Vec::with_capacity(pc_sampling.len());
    for (offset, bytes) in pc_sampling {
        samples.push(
            super::device_records::pc_sampling(bytes)
                .map_err(|e| at(offset, &format!("PC sampling: {e}")))?,
        );
    }
    let device_nvtx = match device_nvtx {
        Some((offset, bytes)) => Some(Box::new(
            super::device_records::device_nvtx(bytes)
                .map_err(|e| at(offset, &format!("device NVTX: {e}")))?,
        )),
        None => None,
    };
    result.section_set = section_set_of(section_set).map_err(|(o, what)| at(o, &what))?;
    result.set_body(ResultBody {
        sections,
        rules: loose_rules,
        metrics,
        instance_values,
        pc_sampling: samples,
        device_nvtx,
        printed: Vec::new(),
    });
    Ok(Decoded {
        result,
        clock_status: head.clock_status,
        driver_version: head.kmd_version,
        head: None,
        unknown,
        left_out,
        unknown_in_body,
    })
}

/// The link of a result to its CUDA graph, from its stored `GraphViewerDataInfo`, if any.
/// The section set a result names (field `section_set` of its message).
pub(super) fn section_set_of(part: Option<(usize, &[u8])>) -> Result<Option<String>, FieldError> {
    part.map(|(offset, bytes)| {
        String::from_utf8(bytes.to_vec())
            .map_err(|_| (offset, "section set identifier is not UTF-8".to_string()))
    })
    .transpose()
}

pub(super) fn graph_link_of(
    link: Option<(usize, &[u8])>,
) -> Result<Option<Box<crate::model::graph::GraphLink>>, FieldError> {
    link.map(|(offset, bytes)| {
        super::graphs::graph_link(bytes)
            .map(Box::new)
            .map_err(|e| (offset, format!("graph link: {e}")))
    })
    .transpose()
}

/// The NVTX ranges open when the result was collected, from its stored state (offset in the
/// result, message), if any.
pub(super) fn nvtx_of(
    nvtx: Option<(usize, &[u8])>,
    thread_id: Option<u32>,
) -> Result<Vec<NvtxRange>, FieldError> {
    match nvtx {
        Some((offset, bytes)) => {
            let state =
                NvtxState::decode(bytes).map_err(|e| (offset, format!("NVTX state: {e}")))?;
            Ok(push_pop_stack(&state, thread_id))
        }
        None => Ok(Vec::new()),
    }
}

/// A result's identity (names, launch shape, process, context, stream, device) from its head
/// message and the numbers of its metrics (`number`), with no body yet; and what decides which
/// template parts apply to it.
pub(super) fn identity(
    ctx: &Context,
    entry: &Entry<'_>,
    id: u64,
    head: &ResultHead,
    number: &dyn Fn(&str) -> Option<f64>,
) -> (KernelResult, Applicability) {
    let cc = match (number(names::CC_MAJOR), number(names::CC_MINOR)) {
        (Some(a), Some(b)) => Some((a as u32, b as u32)),
        _ => None,
    };
    let applicability = Applicability {
        arch: cc.map(|(a, b)| i32::try_from(u64::from(a) * 10 + u64::from(b)).unwrap_or(i32::MAX)),
        driver: head.kmd_version,
        scope: head.collection_scope.unwrap_or(1),
    };
    let process = entry.process.and_then(|i| ctx.processes.get(i));
    let mangled = head.kernel_mangled_name.clone().unwrap_or_default();
    let function = head.kernel_function_name.clone().unwrap_or_default();
    // As ncu prints it: without the casts the report keeps in template values.
    let demangled = head
        .kernel_demangled_name
        .as_deref()
        .filter(|n| !n.is_empty())
        .map(crate::model::result::ncu_spelling)
        .or_else(|| Some(function.clone()).filter(|n| !n.is_empty()))
        .unwrap_or_else(|| mangled.clone());
    // A graph has no launch shape of its own; ncu shows the one its kernels share, which the
    // launch metrics hold.
    let (grid, block) = match entry.kind {
        ResultKind::Graph => (
            launch_shape(number, "launch__grid_dim"),
            launch_shape(number, "launch__block_dim"),
        ),
        ResultKind::Kernel => {
            let block = dim3(head.block_size.as_ref());
            (kernel_grid(head, block, number), block)
        }
        // A range or command list spans many launches: no launch shape of its own (its
        // launch metrics are one launch's of many).
        _ => (
            dim3(head.grid_size.as_ref()),
            dim3(head.block_size.as_ref()),
        ),
    };
    let result = KernelResult {
        id,
        kind: entry.kind,
        process_id: process.and_then(|p| p.process_id).map(u64::from),
        process_name: process
            .and_then(|p| p.process_name.as_deref())
            .map(|p| p.rsplit('/').next().unwrap_or(p).to_string()),
        name: KernelName {
            demangled,
            function,
            mangled: Some(mangled).filter(|m| !m.is_empty()),
        },
        grid,
        block,
        context: head.context_id.map(u64::from),
        stream: head.stream_id.map(u64::from),
        device: number("launch__device_id").map(|d| d as u64),
        cc,
        timestamp: None,
        invocations: None,
        ..KernelResult::default()
    };
    (result, applicability)
}

/// The launch metrics a graph's shape is read from, and those a kernel's grid is checked
/// against.
pub const LAUNCH_SHAPE_METRICS: [&str; 7] = [
    "launch__grid_dim_x",
    "launch__grid_dim_y",
    "launch__grid_dim_z",
    "launch__block_dim_x",
    "launch__block_dim_y",
    "launch__block_dim_z",
    "launch__grid_size",
];

/// A kernel's grid in blocks. Reports of ncu before 2020.3 store the launch's grid in threads
/// (grid × block: `(156160, 1, 1)` for 1,220 blocks of 128); the launch metrics hold it in
/// blocks, as ncu shows it: `launch__grid_dim_*` where stored, else the stored grid divided by
/// the block where that gives `launch__grid_size` blocks.
fn kernel_grid(
    head: &ResultHead,
    block: Option<Dim3>,
    number: &dyn Fn(&str) -> Option<f64>,
) -> Option<Dim3> {
    let stored = dim3(head.grid_size.as_ref());
    if let Some(dims) = launch_shape(number, "launch__grid_dim") {
        return Some(dims);
    }
    let (Some(g), Some(b), Some(blocks)) = (stored, block, number("launch__grid_size")) else {
        return stored;
    };
    let product = |d: Dim3| d.x.checked_mul(d.y)?.checked_mul(d.z);
    if product(g).map(|p| p as f64) == Some(blocks) {
        return stored;
    }
    let per_axis =
        |grid: u64, block: u64| (block > 0 && grid.is_multiple_of(block)).then(|| grid / block);
    let in_blocks = || {
        Some(Dim3 {
            x: per_axis(g.x, b.x)?,
            y: per_axis(g.y, b.y)?,
            z: per_axis(g.z, b.z)?,
        })
    };
    in_blocks()
        .filter(|&d| product(d).map(|p| p as f64) == Some(blocks))
        .or(stored)
}

/// A shape from the three metrics `{prefix}_x`, `_y`, `_z`, when all are numbers.
fn launch_shape(number: &dyn Fn(&str) -> Option<f64>, prefix: &str) -> Option<Dim3> {
    let dim = |axis: &str| number(&format!("{prefix}_{axis}")).map(|v| v as u64);
    Some(Dim3 {
        x: dim("x")?,
        y: dim("y")?,
        z: dim("z")?,
    })
}

/// The push/pop ranges open on the launching thread, outermost first, domain by domain.
fn push_pop_stack(state: &NvtxState, thread_id: Option<u32>) -> Vec<NvtxRange> {
    let matching: Vec<_> = state
        .threads
        .iter()
        .filter(|t| thread_id.is_some() && t.tid == thread_id)
        .collect();
    let threads = if matching.is_empty() {
        state.threads.iter().collect()
    } else {
        matching
    };
    let mut out = Vec::new();
    for thread in threads {
        for d in &thread.domains {
            let domain = state
                .domains
                .iter()
                .find(|x| x.id.unwrap_or(0) == d.domain_id.unwrap_or(0))
                .and_then(|x| x.name.clone())
                .unwrap_or_default();
            for range in &d.stack {
                out.push(NvtxRange {
                    domain: domain.clone(),
                    name: range.name.clone().unwrap_or_default(),
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_prost(bytes: &[u8]) -> Value {
        take_value(MetricValue::decode(bytes).unwrap())
    }

    #[test]
    fn direct_value_reading_equals_prost() {
        let mut cases: Vec<Vec<u8>> = Vec::new();
        for v in [
            0u64,
            1,
            127,
            128,
            300,
            1 << 40,
            (1 << 63) - 1,
            1 << 63,
            u64::MAX,
        ] {
            let m = MetricValue {
                uint64_value: Some(v),
                ..MetricValue::default()
            };
            cases.push(m.encode_to_vec());
        }
        for v in [0.0, -1.5, f64::NAN, 72640.0, f64::MAX] {
            let m = MetricValue {
                double_value: Some(v),
                ..MetricValue::default()
            };
            cases.push(m.encode_to_vec());
        }
        // A non-minimal varint, and a value with two fields (string wins).
        cases.push(vec![0x28, 0x80, 0x00]);
        cases.push(vec![0x28, 0x05, 0x0a, 0x01, b'x']);
        for bytes in cases {
            let direct = decode_value(&bytes, 0, &mut Unknown::default()).unwrap();
            let prost = by_prost(&bytes);
            match (&direct, &prost) {
                (Value::Double(a), Value::Double(b)) => assert_eq!(a.to_bits(), b.to_bits()),
                _ => assert_eq!(direct, prost, "{bytes:?}"),
            }
        }
        assert!(decode_value(&[0x28, 0x80], 0, &mut Unknown::default()).is_err());
    }
}
