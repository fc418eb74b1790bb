//! The stall reasons of a line (or an instruction): its warp-stall samples broken down by
//! reason, from the page's per-reason columns, largest first.

use super::columns::STALLS;
use crate::model::source::{Cell, SourceView};

/// One stall reason of a line.
#[derive(Debug, Clone, PartialEq)]
pub struct StallReason {
    /// The column Nsight Compute gives the reason (`stall_long_sb`).
    pub reason: &'static str,
    /// Samples of warps stalled for this reason.
    pub samples: f64,
    /// The column of the not-issued samples (`stall_long_sb (Not Issued)`).
    pub not_issued_column: &'static str,
    /// Samples stalled for this reason on cycles no instruction was issued.
    pub not_issued: f64,
}

/// The reasons with any samples in `cells` (a line's or an instruction's cells of `view`),
/// most samples first (ties: most not-issued samples, then Nsight Compute's order).
pub fn stall_reasons(view: &SourceView, cells: &[Cell]) -> Vec<StallReason> {
    let value = |name: &str| {
        view.column(name)
            .and_then(|c| cells.get(c))
            .and_then(Cell::number)
            .unwrap_or(0.0)
    };
    let mut out: Vec<StallReason> = STALLS
        .iter()
        .map(|&(reason, _, not_issued_column)| StallReason {
            reason,
            samples: value(reason),
            not_issued_column,
            not_issued: value(not_issued_column),
        })
        .filter(|s| s.samples != 0.0 || s.not_issued != 0.0)
        .collect();
    out.sort_by(|a, b| {
        b.samples
            .total_cmp(&a.samples)
            .then(b.not_issued.total_cmp(&a.not_issued))
    });
    out
}
