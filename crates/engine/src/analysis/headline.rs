//! The headline figures of a result: what the results table and `summary` show per row.

use crate::model::{KernelResult, Report, RuleResult, names};

/// The figures a person scans first.
#[derive(Debug, Clone, PartialEq)]
pub struct Headline<'a> {
    pub duration_ns: Option<f64>,
    pub sol_compute_pct: Option<f64>,
    pub sol_memory_pct: Option<f64>,
    pub achieved_occupancy_pct: Option<f64>,
    /// The rule with the highest estimated speedup.
    pub top_rule: Option<&'a RuleResult>,
}

/// Reads the headline figures of a result.
pub fn headline(result: &KernelResult) -> Headline<'_> {
    Headline {
        duration_ns: result.number(names::DURATION),
        sol_compute_pct: result.number(names::SOL_COMPUTE),
        sol_memory_pct: result.number(names::SOL_MEMORY),
        achieved_occupancy_pct: result.number(names::ACHIEVED_OCCUPANCY),
        top_rule: result.top_rule(),
    }
}

/// The GPU a result ran on, from the report's devices or the result's own attributes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeviceSummary {
    pub name: Option<String>,
    pub cc: Option<(u32, u32)>,
    pub sm_count: Option<u64>,
}

/// Collects what the report and a result say about the GPU.
pub fn device_summary(report: &Report, result: Option<&KernelResult>) -> DeviceSummary {
    let dev = match result {
        Some(r) => report.device_of(r),
        None => report.devices.first(),
    };
    let metric_str = |key: &str| {
        result
            .and_then(|r| r.metric(key))
            .and_then(|m| m.value.as_str().map(str::to_string))
    };
    let metric_num = |key: &str| result.and_then(|r| r.number(key));
    let cc_from_metrics = match (metric_num(names::CC_MAJOR), metric_num(names::CC_MINOR)) {
        (Some(a), Some(b)) => Some((a as u32, b as u32)),
        _ => None,
    };
    DeviceSummary {
        name: dev
            .and_then(|d| d.name.clone())
            .or_else(|| metric_str(names::DEVICE_NAME)),
        cc: result
            .and_then(|r| r.cc)
            .or(dev.and_then(|d| d.cc))
            .or(cc_from_metrics),
        sm_count: dev
            .and_then(|d| d.sm_count)
            .or_else(|| metric_num(names::SM_COUNT).map(|v| v as u64))
            .or_else(|| metric_num("launch__sm_count").map(|v| v as u64)),
    }
}
