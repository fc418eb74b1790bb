//! What each warp stall reason means, for the hover text of the warp-state chart. Keys are the
//! reason's words as the chart labels them (`Stall Long Scoreboard`) or as sampling metrics
//! name them (`long_scoreboard`), compared without case, spaces or underscores.

/// (key, meaning).
const MEANINGS: &[(&str, &str)] = &[
    (
        "longscoreboard",
        "Waiting for data from L1TEX: a global, local, surface or texture access. Usually memory latency or bandwidth; improve locality, coalescing or cache hit rates.",
    ),
    (
        "shortscoreboard",
        "Waiting for a result of the MIO unit: shared memory, special math (transcendentals), or similar. Often shared-memory bank conflicts or heavy special-function use.",
    ),
    (
        "wait",
        "Waiting on a fixed-latency dependency the compiler scheduled. Usually small; large values mean long dependency chains with little independent work.",
    ),
    (
        "mioThrottle",
        "The MIO instruction queue was full: too many shared-memory, special-math or dynamic-branch instructions in flight.",
    ),
    (
        "lgthrottle",
        "The local/global instruction queue of L1TEX was full: too many memory instructions; use wider (vectorised) accesses or fewer spills.",
    ),
    (
        "texthrottle",
        "The texture unit's queue was full: too many texture or surface instructions in flight.",
    ),
    (
        "mathpipethrottle",
        "The math pipeline the warp needs was busy; the pipe is saturated.",
    ),
    (
        "barrier",
        "Waiting at a block-wide barrier (__syncthreads) for the other warps of the block.",
    ),
    (
        "membar",
        "Waiting for a memory barrier (fence) to complete.",
    ),
    (
        "branchresolving",
        "Waiting for a branch target to be computed or the warp's active mask to be updated.",
    ),
    (
        "dispatchstall",
        "The dispatcher could not issue the selected instruction (a pipeline conflict).",
    ),
    (
        "drain",
        "After EXIT, waiting for the warp's outstanding memory writes to drain.",
    ),
    (
        "imcmiss",
        "Waiting for an immediate constant cache miss to be filled.",
    ),
    (
        "noinstruction",
        "No instruction available: an instruction cache miss or waiting after a branch.",
    ),
    (
        "notselected",
        "The warp was eligible but another warp was picked to issue; a sign of enough parallelism.",
    ),
    (
        "selected",
        "The warp was issuing an instruction (one cycle per instruction).",
    ),
    (
        "sleeping",
        "The warp was sleeping (nanosleep) or all its threads were blocked or yielded.",
    ),
    ("misc", "A miscellaneous hardware reason."),
    (
        "gmma",
        "Waiting for warpgroup matrix (GMMA) operations to make progress.",
    ),
    ("warpgrouparrive", "Waiting at a warpgroup arrive barrier."),
    (
        "tex",
        "The texture unit's queue was full: too many texture or surface instructions in flight.",
    ),
    (
        "lg",
        "The local/global instruction queue of L1TEX was full.",
    ),
    ("mio", "The MIO instruction queue was full."),
    ("math", "The math pipeline the warp needs was busy."),
    (
        "longsb",
        "Waiting for data from L1TEX (global, local, surface or texture memory).",
    ),
    (
        "shortsb",
        "Waiting for a result of the MIO unit (shared memory, special math).",
    ),
    (
        "noinst",
        "No instruction available: an instruction cache miss or waiting after a branch.",
    ),
    (
        "imc",
        "Waiting for an immediate constant cache miss to be filled.",
    ),
    (
        "dispatch",
        "The dispatcher could not issue the selected instruction.",
    ),
    (
        "sleep",
        "The warp was sleeping or all its threads were blocked.",
    ),
];

fn key(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The meaning of a stall reason given its chart label or metric name, if known.
pub fn meaning(label: &str) -> Option<&'static str> {
    let mut k = key(label);
    for prefix in ["stall", "smsppcsampwarpsissuestalled"] {
        if let Some(rest) = k.strip_prefix(prefix) {
            k = rest.to_string();
        }
    }
    for tail in ["notissued"] {
        if let Some(rest) = k.strip_suffix(tail) {
            k = rest.to_string();
        }
    }
    MEANINGS
        .iter()
        .find(|(name, _)| key(name) == k)
        .map(|(_, m)| *m)
}

/// Whether a chart shows warp stall reasons.
pub fn is_stall_chart(label: &str) -> bool {
    label.starts_with("Warp State") || label.starts_with("Warp Stall")
}

/// What the values of a warp-state chart are. ncu stores its ratios
/// (`smsp__average_warps_issue_stalled_*_per_issue_active.ratio`) with the unit `inst`, but each
/// is the number of cycles a warp spends in that state per issued instruction (the rules say "71.0
/// cycles being stalled"), and their sum is the section's Warp Cycles Per Issued Instruction.
pub const STALL_RATIO_MEANING: &str = "cycles per issued instruction";

/// The unit a chart's value is shown in: `cycle` for the warp-state ratios of a stall chart
/// (stored as `inst`), else the stored unit.
pub fn display_unit<'a>(chart_label: &str, unit: &'a str) -> &'a str {
    if is_ratio_chart(chart_label) && unit == "inst" {
        "cycle"
    } else {
        unit
    }
}

/// Whether a chart holds the warp-state ratios (Warp State Statistics), not sample counts
/// (Source Counters' "Warp Stall Sampling" tables count samples).
fn is_ratio_chart(label: &str) -> bool {
    label.starts_with("Warp State")
}

/// The caption of a chart: a warp-state chart of ratios says what its values are.
pub fn chart_caption<'a>(label: &str, mut units: impl Iterator<Item = &'a str>) -> String {
    if is_ratio_chart(label) && units.any(|u| u == "inst") {
        format!("{label} · {STALL_RATIO_MEANING}")
    } else {
        label.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warp_state_ratios_read_as_cycles_per_issued_instruction() {
        assert_eq!(display_unit("Warp State (All Cycles)", "inst"), "cycle");
        assert_eq!(display_unit("Warp State (All Cycles)", "warp"), "warp");
        assert_eq!(display_unit("Instruction Mix", "inst"), "inst");
        assert_eq!(
            chart_caption("Warp State (All Cycles)", ["inst"].into_iter()),
            "Warp State (All Cycles) · cycles per issued instruction"
        );
        assert_eq!(
            chart_caption("Warp Stall Sampling", ["warp"].into_iter()),
            "Warp Stall Sampling"
        );
        assert_eq!(
            chart_caption(
                "Warp Stall Sampling (All Samples)",
                ["warp", "inst"].into_iter()
            ),
            "Warp Stall Sampling (All Samples)"
        );
        assert_eq!(
            display_unit("Warp Stall Sampling (All Samples)", "inst"),
            "inst"
        );
    }

    #[test]
    fn chart_labels_and_metric_names_find_their_meaning() {
        assert!(meaning("Stall Long Scoreboard").is_some_and(|m| m.contains("L1TEX")));
        assert!(meaning("smsp__pcsamp_warps_issue_stalled_mio_throttle").is_some());
        assert!(meaning("Stall No Instruction").is_some());
        assert!(meaning("Stall MIO Throttle").is_some());
        assert!(meaning("Selected").is_some());
        assert_eq!(meaning("Not a stall at all"), None);
    }
}
