//! The members of a speed-of-light throughput's breakdown (`breakdown:<throughput>`, a list of
//! metric names stored with the result) that have a value, largest first, as ncu-ui lists them
//! under "Show throughput breakdown".

use crate::model::{KernelResult, names};

/// The members of `breakdown:<throughput>` that have a value, largest first (equal values in
/// the list's order).
pub fn breakdown_members(result: &KernelResult, throughput: &str) -> Vec<(String, f64)> {
    let key = format!("breakdown:{throughput}");
    let Some(list) = result.metric(&key).and_then(|m| m.value.as_str()) else {
        return Vec::new();
    };
    let members: Vec<(String, f64)> = list
        .split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .filter_map(|m| result.number(m).map(|v| (m.to_string(), v)))
        .collect();
    let values: Vec<f64> = members.iter().map(|m| m.1).collect();
    super::bars::largest_first(&values)
        .into_iter()
        .map(|k| members[k].clone())
        .collect()
}

/// The two breakdowns the Details page lists: compute, then memory.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SolBreakdown {
    pub compute: Vec<(String, f64)>,
    pub memory: Vec<(String, f64)>,
}

impl SolBreakdown {
    /// The compute and memory throughput breakdowns of `result`.
    pub fn of(result: &KernelResult) -> Self {
        SolBreakdown {
            compute: breakdown_members(result, names::SOL_COMPUTE),
            memory: breakdown_members(result, names::SOL_MEMORY),
        }
    }
}
