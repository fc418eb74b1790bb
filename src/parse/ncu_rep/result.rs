//! One result message (a kernel launch, a range, a graph or a command list) into a
//! [`KernelResult`]: names, launch shape, context, stream, every metric with its instances,
//! sections, rule results and NVTX state.

use super::container::{Container, Entry, corrupt};
use super::messages::{ClockStatus, MetricValue, NvtxState, ProcessInfo, Uint64x3};
use super::sections::{Applicability, build_sections};
use super::wire::{FieldIter, WireValue};
use super::workloads::{decode_head, layout};
use super::{rules, units};
use crate::model::{
    Dim3, Instance, KernelName, KernelResult, Metric, NvtxRange, ResultBody, ResultKind, Value,
    names,
};
use crate::parse::ParseError;
use prost::Message;
use std::collections::BTreeMap;

/// Per-report state shared by all result decoders: names, their units and sort ranks.
pub struct Context {
    strings: Vec<String>,
    /// Base unit of each string-table entry used as a metric name.
    units: Vec<&'static str>,
    /// Lexicographic rank of each string-table entry, to sort metrics without comparing text.
    rank: Vec<u32>,
    processes: Vec<ProcessInfo>,
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
        let units = strings.iter().map(|s| units::unit_of(s)).collect();
        Context {
            strings,
            units,
            rank,
            processes,
        }
    }
}

/// A decoded result, with what the session pages summarise over all results.
pub struct Decoded {
    pub result: KernelResult,
    pub clock_status: Option<ClockStatus>,
    pub driver_version: Option<f32>,
}

/// The model value of a stored value: string, float, double, uint32 or uint64, in that order.
pub fn value_of(v: &MetricValue) -> Value {
    if let Some(s) = &v.string_value {
        Value::Str(s.clone())
    } else {
        numeric_value(v)
    }
}

/// Like [`value_of`], moving a string out instead of copying it.
fn take_value(v: MetricValue) -> Value {
    match v.string_value {
        Some(s) => Value::Str(s),
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

fn dim3(d: Option<Uint64x3>) -> Option<Dim3> {
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

type FieldError = (usize, String);

/// Whether `bytes` are exactly one varint of at most 9 bytes (63 bits).
fn is_single_varint(bytes: &[u8]) -> bool {
    match bytes.split_last() {
        Some((last, head)) => head.len() < 9 && *last < 0x80 && head.iter().all(|&b| b >= 0x80),
        None => false,
    }
}

/// Decodes a `ProfileMetricValue`. Nearly every stored value is a single double (field 3) or
/// uint64 (field 5); those two shapes are read directly, everything else by prost.
fn decode_value(bytes: &[u8], offset: usize) -> Result<Value, FieldError> {
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
    MetricValue::decode(bytes)
        .map(take_value)
        .map_err(|e| (offset, format!("metric value: {e}")))
}

/// Decodes one `ProfileMetricResult`. The message is
/// walked field by field so instances go straight into the model without an intermediate list;
/// each value is decoded by prost.
fn decode_metric(ctx: &Context, bytes: &[u8]) -> Result<Metric, FieldError> {
    let mut name_id = 0usize;
    let mut value = Value::Missing;
    let mut instances_count = 0usize;
    for field in FieldIter::new(bytes) {
        let field = field.map_err(|e| (e.offset, format!("metric: {}", e.message)))?;
        match (field.number, field.value) {
            (NAME_ID, WireValue::Varint(v)) => name_id = usize::try_from(v).unwrap_or(usize::MAX),
            (METRIC_VALUE, WireValue::Bytes(b)) => value = decode_value(b, field.offset)?,
            (METRIC_VALUE_LIST, WireValue::Bytes(_)) => instances_count += 1,
            _ => {}
        }
    }
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
            for part in FieldIter::new(element) {
                let part = part
                    .map_err(|e| (field.offset + e.offset, format!("instance: {}", e.message)))?;
                match (part.number, part.value) {
                    (CORRELATION_ID, WireValue::Bytes(b)) => {
                        id = Some(decode_value(b, field.offset + part.offset)?)
                            .filter(|v| *v != Value::Missing);
                    }
                    (ELEMENT_VALUE, WireValue::Bytes(b)) => {
                        value = decode_value(b, field.offset + part.offset)?;
                    }
                    _ => {}
                }
            }
            instances.push(Instance { id, value });
        }
    }
    let metric = Metric {
        name: Some(name.clone()),
        value,
        unit: ctx.units.get(name_id).copied().unwrap_or("").to_string(),
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

/// Decodes the result stored at `entry`; `id` is its position in the file.
pub fn decode_result(ctx: &Context, entry: &Entry<'_>, id: u64) -> Result<Decoded, ParseError> {
    let at = |rel: usize, what: &str| corrupt(entry.offset + rel, format!("result {id}: {what}"));
    let head = decode_head(entry.kind, entry.bytes).map_err(|e| at(0, &e.to_string()))?;
    let fields = layout(entry.kind);
    // (sort rank of the name, offset in the result, message) of every metric entry.
    let mut entries: Vec<(u32, usize, &[u8])> = Vec::new();
    let mut templates: Vec<(usize, &[u8])> = Vec::new();
    let mut rule_msgs: Vec<(usize, &[u8])> = Vec::new();
    let mut nvtx: Option<(usize, &[u8])> = None;
    for field in FieldIter::new(entry.bytes) {
        let field = field.map_err(|e| at(e.offset, e.message))?;
        let WireValue::Bytes(bytes) = field.value else {
            continue;
        };
        match field.number {
            n if n == fields.metrics => {
                let name_id = metric_name_id(ctx, bytes)
                    .map_err(|(rel, what)| at(field.offset + rel, &what))?;
                let rank = ctx.rank.get(name_id).copied().unwrap_or(0);
                entries.push((rank, field.offset, bytes));
            }
            n if n == fields.sections => templates.push((field.offset, bytes)),
            n if n == fields.rules => rule_msgs.push((field.offset, bytes)),
            n if n == fields.nvtx => nvtx = Some((field.offset, bytes)),
            _ => {}
        }
    }
    // Decoded in name order, so the map is built without moving metrics around. Duplicates
    // (byte-identical in every file seen) keep the first copy.
    entries.sort_by_key(|e| e.0);
    entries.dedup_by_key(|e| e.0);
    let metrics: BTreeMap<String, Metric> = entries
        .iter()
        .map(|&(_, offset, bytes)| {
            decode_metric(ctx, bytes)
                .map(|m| (m.name.clone().unwrap_or_default(), m))
                .map_err(|(rel, what)| at(offset + rel, &what))
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .collect();

    let number = |key: &str| metrics.get(key).and_then(Metric::as_f64);
    let cc = match (number(names::CC_MAJOR), number(names::CC_MINOR)) {
        (Some(a), Some(b)) => Some((a as u32, b as u32)),
        _ => None,
    };
    let applicability = Applicability {
        arch: cc.map(|(a, b)| i32::try_from(u64::from(a) * 10 + u64::from(b)).unwrap_or(i32::MAX)),
        driver: head.kmd_version,
        scope: head.collection_scope.unwrap_or(1),
    };
    let mut sections = build_sections(&templates, &metrics, &applicability)
        .map_err(|e| at(e.offset, &e.message))?;
    let mut loose_rules = Vec::new();
    for (offset, bytes) in rule_msgs {
        let decoded =
            rules::decode_rule(bytes).map_err(|e| at(offset, &format!("rule result: {e}")))?;
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

    let nvtx = match nvtx {
        Some((offset, bytes)) => {
            let state =
                NvtxState::decode(bytes).map_err(|e| at(offset, &format!("NVTX state: {e}")))?;
            push_pop_stack(&state, head.thread_id)
        }
        None => Vec::new(),
    };

    let process = entry.process.and_then(|i| ctx.processes.get(i));
    let mangled = head.kernel_mangled_name.unwrap_or_default();
    let function = head.kernel_function_name.unwrap_or_default();
    let demangled = head
        .kernel_demangled_name
        .filter(|n| !n.is_empty())
        .or_else(|| Some(function.clone()).filter(|n| !n.is_empty()))
        .unwrap_or_else(|| mangled.clone());
    // A graph has no launch shape of its own; ncu shows the one its kernels share, which the
    // launch metrics hold.
    let (grid, block) = match entry.kind {
        ResultKind::Graph => (
            launch_shape(&metrics, "launch__grid_dim"),
            launch_shape(&metrics, "launch__block_dim"),
        ),
        _ => (dim3(head.grid_size), dim3(head.block_size)),
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
        nvtx,
        timestamp: None,
        invocations: None,
        ..KernelResult::default()
    };
    let mut result = result;
    result.set_body(ResultBody {
        sections,
        rules: loose_rules,
        metrics,
    });
    Ok(Decoded {
        result,
        clock_status: head.clock_status,
        driver_version: head.kmd_version,
    })
}

/// A shape from the three metrics `{prefix}_x`, `_y`, `_z`, when all are numbers.
fn launch_shape(metrics: &BTreeMap<String, Metric>, prefix: &str) -> Option<Dim3> {
    let dim = |axis: &str| {
        metrics
            .get(&format!("{prefix}_{axis}"))
            .and_then(Metric::as_f64)
            .map(|v| v as u64)
    };
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
            let direct = decode_value(&bytes, 0).unwrap();
            let prost = by_prost(&bytes);
            match (&direct, &prost) {
                (Value::Double(a), Value::Double(b)) => assert_eq!(a.to_bits(), b.to_bits()),
                _ => assert_eq!(direct, prost, "{bytes:?}"),
            }
        }
        assert!(decode_value(&[0x28, 0x80], 0).is_err());
    }
}
