//! Names of the ncu metrics the views and commands read directly.

pub const DURATION: &str = "gpu__time_duration.sum";
pub const SOL_COMPUTE: &str = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
pub const SOL_MEMORY: &str = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
pub const SOL_L1: &str = "l1tex__throughput.avg.pct_of_peak_sustained_active";
pub const SOL_L2: &str = "lts__throughput.avg.pct_of_peak_sustained_elapsed";
pub const SOL_DRAM: &str = "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed";
pub const ELAPSED_CYCLES: &str = "gpc__cycles_elapsed.max";
pub const SM_FREQUENCY: &str = "gpc__cycles_elapsed.avg.per_second";
pub const DRAM_FREQUENCY: &str = "dram__cycles_elapsed.avg.per_second";
pub const ACHIEVED_OCCUPANCY: &str = "sm__warps_active.avg.pct_of_peak_sustained_active";
pub const THEORETICAL_OCCUPANCY: &str = "sm__maximum_warps_per_active_cycle_pct";
pub const BLOCK_SIZE: &str = "launch__block_size";
pub const GRID_SIZE: &str = "launch__grid_size";
pub const REGISTERS_PER_THREAD: &str = "launch__registers_per_thread";
pub const DEVICE_NAME: &str = "device__attribute_display_name";
pub const SM_COUNT: &str = "device__attribute_multiprocessor_count";
pub const CC_MAJOR: &str = "device__attribute_compute_capability_major";
pub const CC_MINOR: &str = "device__attribute_compute_capability_minor";

/// Whether a label is an ncu metric name (`dram__bytes.sum`), as `--metrics` tables and
/// `--print-metric-name name` print them.
pub fn is_metric_name(label: &str) -> bool {
    label.contains("__")
        && label
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
}

/// Metrics that reports of ncu 2019 (`.nsight-cuprof-report`, e.g. on Pascal) store under
/// older names, with the name of today each stands for: (old, today's). The views ask for
/// today's name; a result that stores only the old one answers with it.
pub const LEGACY_METRICS: [(&str, &str); 4] = [
    ("gpu__time_duration", DURATION),
    ("gpu__compute_memory_sol_pct", SOL_MEMORY),
    ("sm__sol_pct", SOL_COMPUTE),
    (
        "sm__active_warps_avg_per_active_cycle_pct",
        ACHIEVED_OCCUPANCY,
    ),
];

/// The older name a metric of today was stored under, if it had one.
pub fn legacy_name(today: &str) -> Option<&'static str> {
    LEGACY_METRICS
        .iter()
        .find(|(_, new)| *new == today)
        .map(|(old, _)| *old)
}

/// Today's name of a metric stored under an older name.
pub fn today_name(old: &str) -> Option<&'static str> {
    LEGACY_METRICS
        .iter()
        .find(|(o, _)| *o == old)
        .map(|(_, new)| *new)
}
