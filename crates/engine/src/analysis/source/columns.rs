//! The metric columns of Nsight Compute's Source page, with the per-instruction metrics behind
//! them. The source-counter metrics are instanced by PC: each instance's correlation id is the
//! GPU address of a SASS instruction.

use crate::model::{KernelResult, Value};
use std::collections::HashMap;

/// Where a column's per-instruction value comes from.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Feed {
    /// One metric's instance at the address (0 where it has none).
    Metric(&'static str),
    /// The warp-stall sample count; shown even where the report has no samples.
    Samples(&'static str),
    /// The sum of the not-issued stall-reason samples.
    NotIssuedSamples,
    /// A memory-access attribute of the instruction, shown as text.
    Text(&'static str),
}

/// A column of the Source page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Column {
    /// The name Nsight Compute gives the column.
    pub name: &'static str,
    pub feed: Feed,
}

const STALL_PREFIX: &str = "smsp__pcsamp_warps_issue_stalled_";

/// Stall reasons: column name, metric suffix, and the column name of the not-issued variant.
pub(crate) const STALLS: [(&str, &str, &str); 18] = [
    ("stall_barrier", "barrier", "stall_barrier (Not Issued)"),
    (
        "stall_branch_resolving",
        "branch_resolving",
        "stall_branch_resolving (Not Issued)",
    ),
    (
        "stall_dispatch",
        "dispatch_stall",
        "stall_dispatch (Not Issued)",
    ),
    ("stall_drain", "drain", "stall_drain (Not Issued)"),
    ("stall_imc", "imc_miss", "stall_imc (Not Issued)"),
    ("stall_lg", "lg_throttle", "stall_lg (Not Issued)"),
    (
        "stall_long_sb",
        "long_scoreboard",
        "stall_long_sb (Not Issued)",
    ),
    (
        "stall_math",
        "math_pipe_throttle",
        "stall_math (Not Issued)",
    ),
    ("stall_membar", "membar", "stall_membar (Not Issued)"),
    ("stall_mio", "mio_throttle", "stall_mio (Not Issued)"),
    ("stall_misc", "misc", "stall_misc (Not Issued)"),
    (
        "stall_no_inst",
        "no_instructions",
        "stall_no_inst (Not Issued)",
    ),
    (
        "stall_not_selected",
        "not_selected",
        "stall_not_selected (Not Issued)",
    ),
    ("stall_selected", "selected", "stall_selected (Not Issued)"),
    (
        "stall_short_sb",
        "short_scoreboard",
        "stall_short_sb (Not Issued)",
    ),
    ("stall_sleep", "sleeping", "stall_sleeping (Not Issued)"),
    ("stall_tex", "tex_throttle", "stall_tex (Not Issued)"),
    ("stall_wait", "wait", "stall_wait (Not Issued)"),
];

/// Every numeric column before the stall reasons, in Nsight Compute's order.
const LEADING: [Column; 30] = [
    col(
        "Warp Stall Sampling (All Samples)",
        Feed::Samples("smsp__pcsamp_sample_count"),
    ),
    col(
        "Warp Stall Sampling (Not-issued Samples)",
        Feed::NotIssuedSamples,
    ),
    col("# Samples", Feed::Metric("smsp__pcsamp_sample_count")),
    col("Instructions Executed", Feed::Metric("inst_executed")),
    col(
        "Thread Instructions Executed",
        Feed::Metric("thread_inst_executed"),
    ),
    col(
        "Predicated-On Thread Instructions Executed",
        Feed::Metric("thread_inst_executed_true"),
    ),
    col(
        "Avg. Threads Executed",
        Feed::Metric("derived__avg_thread_executed"),
    ),
    col(
        "Avg. Predicated-On Threads Executed",
        Feed::Metric("derived__avg_thread_executed_true"),
    ),
    col(
        "Derivative Avg. Predicated-On Threads Executed",
        Feed::Metric("derived__derivative_avg_thread_executed_true"),
    ),
    col(
        "Avg. Predicated-On Threads Unexecuted",
        Feed::Metric("derived__avg_thread_unexecuted_true"),
    ),
    col(
        "Divergent Branches",
        Feed::Metric("smsp__branch_targets_threads_divergent"),
    ),
    col("Address Space", Feed::Text("memory_type")),
    col("Access Operation", Feed::Text("memory_access_type")),
    col("Access Size", Feed::Text("memory_access_size_type")),
    col(
        "L1 Tag Requests Global",
        Feed::Metric("memory_l1_tag_requests_global"),
    ),
    col(
        "L1 Conflicts Shared N-Way",
        Feed::Metric("derived__memory_l1_conflicts_shared_nway"),
    ),
    col(
        "L1 Wavefronts Shared Excessive",
        Feed::Metric("derived__memory_l1_wavefronts_shared_excessive"),
    ),
    col(
        "L1 Wavefronts Shared",
        Feed::Metric("memory_l1_wavefronts_shared"),
    ),
    col(
        "L1 Wavefronts Shared Ideal",
        Feed::Metric("memory_l1_wavefronts_shared_ideal"),
    ),
    col(
        "L2 Theoretical Sectors Global Excessive",
        Feed::Metric("derived__memory_l2_theoretical_sectors_global_excessive"),
    ),
    col(
        "L2 Theoretical Sectors Global",
        Feed::Metric("memory_l2_theoretical_sectors_global"),
    ),
    col(
        "L2 Theoretical Sectors Global Ideal",
        Feed::Metric("memory_l2_theoretical_sectors_global_ideal"),
    ),
    col(
        "L2 Theoretical Sectors Local",
        Feed::Metric("memory_l2_theoretical_sectors_local"),
    ),
    col(
        "L2 Explicit Evict Policies",
        Feed::Text("smsp__sass_inst_executed_memdesc_explicit_evict_type"),
    ),
    col(
        "L2 Explicit Hit Policy Evict First",
        Feed::Metric("smsp__sass_inst_executed_memdesc_explicit_hitprop_evict_first"),
    ),
    col(
        "L2 Explicit Hit Policy Evict Last",
        Feed::Metric("smsp__sass_inst_executed_memdesc_explicit_hitprop_evict_last"),
    ),
    col(
        "L2 Explicit Hit Policy Evict Normal",
        Feed::Metric("smsp__sass_inst_executed_memdesc_explicit_hitprop_evict_normal"),
    ),
    col(
        "L2 Explicit Hit Policy Evict Normal Demote",
        Feed::Metric("smsp__sass_inst_executed_memdesc_explicit_hitprop_evict_normal_demote"),
    ),
    col(
        "L2 Explicit Miss Policy Evict First",
        Feed::Metric("smsp__sass_inst_executed_memdesc_explicit_missprop_evict_first"),
    ),
    col(
        "L2 Explicit Miss Policy Evict Normal",
        Feed::Metric("smsp__sass_inst_executed_memdesc_explicit_missprop_evict_normal"),
    ),
];

const fn col(name: &'static str, feed: Feed) -> Column {
    Column { name, feed }
}

/// The columns a result has: those whose metric it holds, in Nsight Compute's order.
pub fn columns(r: &KernelResult) -> Vec<Column> {
    let mut out: Vec<Column> = LEADING
        .iter()
        .filter(|c| !c.name.is_empty())
        .filter(|c| match c.feed {
            // Shown where the metric has per-instruction values.
            Feed::Metric(m) | Feed::Text(m) => has_instances(r, m),
            Feed::Samples(_) | Feed::NotIssuedSamples => true,
        })
        .copied()
        .collect();
    let mut stall = |not_issued: bool| {
        for (name, suffix, ni_name) in STALLS {
            let metric = stall_metric(suffix, not_issued);
            if has_instances(r, metric) {
                out.push(Column {
                    name: if not_issued { ni_name } else { name },
                    feed: Feed::Metric(metric),
                });
            }
        }
    };
    stall(false);
    stall(true);
    out
}

/// Whether a metric has per-instruction values (columns without any are not shown).
fn has_instances(r: &KernelResult, metric: &str) -> bool {
    r.metric(metric).is_some_and(|m| !m.instances.is_empty())
}

/// The metric name of a stall reason (a static string from a fixed table).
fn stall_metric(suffix: &str, not_issued: bool) -> &'static str {
    ALL_STALL_METRICS
        .iter()
        .find(|m| {
            m.strip_prefix(STALL_PREFIX).is_some_and(|rest| {
                if not_issued {
                    rest.strip_suffix("_not_issued") == Some(suffix)
                } else {
                    rest == suffix
                }
            })
        })
        .copied()
        .unwrap_or("")
}

/// Every stall-reason metric, issued and not issued.
const ALL_STALL_METRICS: [&str; 38] = [
    "smsp__pcsamp_warps_issue_stalled_barrier",
    "smsp__pcsamp_warps_issue_stalled_branch_resolving",
    "smsp__pcsamp_warps_issue_stalled_dispatch_stall",
    "smsp__pcsamp_warps_issue_stalled_drain",
    "smsp__pcsamp_warps_issue_stalled_imc_miss",
    "smsp__pcsamp_warps_issue_stalled_lg_throttle",
    "smsp__pcsamp_warps_issue_stalled_long_scoreboard",
    "smsp__pcsamp_warps_issue_stalled_math_pipe_throttle",
    "smsp__pcsamp_warps_issue_stalled_membar",
    "smsp__pcsamp_warps_issue_stalled_mio_throttle",
    "smsp__pcsamp_warps_issue_stalled_misc",
    "smsp__pcsamp_warps_issue_stalled_no_instructions",
    "smsp__pcsamp_warps_issue_stalled_not_selected",
    "smsp__pcsamp_warps_issue_stalled_selected",
    "smsp__pcsamp_warps_issue_stalled_short_scoreboard",
    "smsp__pcsamp_warps_issue_stalled_sleeping",
    "smsp__pcsamp_warps_issue_stalled_tex_throttle",
    "smsp__pcsamp_warps_issue_stalled_wait",
    "smsp__pcsamp_warps_issue_stalled_warpgroup_arrive",
    "smsp__pcsamp_warps_issue_stalled_barrier_not_issued",
    "smsp__pcsamp_warps_issue_stalled_branch_resolving_not_issued",
    "smsp__pcsamp_warps_issue_stalled_dispatch_stall_not_issued",
    "smsp__pcsamp_warps_issue_stalled_drain_not_issued",
    "smsp__pcsamp_warps_issue_stalled_imc_miss_not_issued",
    "smsp__pcsamp_warps_issue_stalled_lg_throttle_not_issued",
    "smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued",
    "smsp__pcsamp_warps_issue_stalled_math_pipe_throttle_not_issued",
    "smsp__pcsamp_warps_issue_stalled_membar_not_issued",
    "smsp__pcsamp_warps_issue_stalled_mio_throttle_not_issued",
    "smsp__pcsamp_warps_issue_stalled_misc_not_issued",
    "smsp__pcsamp_warps_issue_stalled_no_instructions_not_issued",
    "smsp__pcsamp_warps_issue_stalled_not_selected_not_issued",
    "smsp__pcsamp_warps_issue_stalled_selected_not_issued",
    "smsp__pcsamp_warps_issue_stalled_short_scoreboard_not_issued",
    "smsp__pcsamp_warps_issue_stalled_sleeping_not_issued",
    "smsp__pcsamp_warps_issue_stalled_tex_throttle_not_issued",
    "smsp__pcsamp_warps_issue_stalled_wait_not_issued",
    "smsp__pcsamp_warps_issue_stalled_warpgroup_arrive_not_issued",
];

/// A metric's instances keyed by address.
pub fn by_address(r: &KernelResult, metric: &str) -> HashMap<u64, Value> {
    let mut out = HashMap::new();
    if let Some(m) = r.metric(metric) {
        for i in m.instances {
            if let Some(id) = i.id.as_ref().and_then(address_of) {
                out.insert(id, i.value);
            }
        }
    }
    out
}

/// An instance id read as an instruction address.
pub fn address_of(v: &Value) -> Option<u64> {
    match *v {
        Value::U64(a) => Some(a),
        Value::U32(a) => Some(u64::from(a)),
        _ => None,
    }
}

/// Per-instruction values of a column at the given addresses.
pub fn column_values(r: &KernelResult, column: &Column, addresses: &[u64]) -> Vec<f64> {
    let metrics: Vec<&str> = match column.feed {
        Feed::Metric(m) | Feed::Samples(m) => vec![m],
        Feed::Text(_) => Vec::new(),
        Feed::NotIssuedSamples => ALL_STALL_METRICS
            .iter()
            .filter(|m| m.ends_with("_not_issued"))
            .copied()
            .collect(),
    };
    let mut out = vec![0.0; addresses.len()];
    for m in metrics {
        let map = by_address(r, m);
        if map.is_empty() {
            continue;
        }
        for (slot, a) in out.iter_mut().zip(addresses) {
            *slot += map.get(a).and_then(Value::as_f64).unwrap_or(0.0);
        }
    }
    out
}

/// Per-instruction texts of a text column at the given addresses (`-` where none applies).
pub fn column_texts(r: &KernelResult, column: &Column, addresses: &[u64]) -> Vec<String> {
    let Feed::Text(metric) = column.feed else {
        return vec![String::new(); addresses.len()];
    };
    let map = by_address(r, metric);
    addresses
        .iter()
        .map(|a| text_value(column.name, map.get(a)))
        .collect()
}

/// The text of a memory-access column for an instruction: `-` where the metric has no value
/// at the address, empty where its value is 0 (an access never executed).
pub fn text_value(column: &str, value: Option<&Value>) -> String {
    let Some(v) = value.and_then(Value::as_f64) else {
        return "-".into();
    };
    let code = v as u64;
    if code == 0 {
        return String::new();
    }
    match column {
        "Address Space" => match code {
            4 => "Global".into(),
            8 => "Local".into(),
            16 => "Shared".into(),
            other => other.to_string(),
        },
        "Access Operation" => match code {
            2 => "Load".into(),
            4 => "Store".into(),
            other => other.to_string(),
        },
        _ => code.to_string(),
    }
}

/// The metric code behind a text value (sizes are their own code).
fn code_of(text: &str) -> u64 {
    match text {
        "Load" => 2,
        "Store" | "Global" => 4,
        "Local" => 8,
        "Shared" => 16,
        other => other.parse().unwrap_or(u64::MAX),
    }
}

/// A text column summed over a line's instructions, as Nsight Compute shows it: each distinct
/// value in the order of its code, with its count when above one (`Load(2),Store`); empty
/// values alone give an empty cell, nothing at all gives `-`.
pub fn text_summary<'a>(values: impl IntoIterator<Item = &'a str>) -> String {
    let mut groups: Vec<(&str, usize)> = Vec::new();
    let mut any_empty = false;
    for v in values {
        match v {
            "-" => {}
            "" => any_empty = true,
            v => match groups.iter_mut().find(|(g, _)| *g == v) {
                Some((_, n)) => *n += 1,
                None => groups.push((v, 1)),
            },
        }
    }
    if groups.is_empty() {
        return if any_empty { String::new() } else { "-".into() };
    }
    groups.sort_by_key(|(v, _)| code_of(v));
    groups
        .iter()
        .map(|(v, n)| {
            if *n > 1 {
                format!("{v}({n})")
            } else {
                (*v).to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}
