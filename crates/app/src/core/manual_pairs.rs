//! Manual pairs of the report comparison: a result of the baseline report paired by hand with
//! a result of the current report, which the comparison then respects over its own matching.
//! Kept with the settings by file path and result ID (pairs of pasted text or the demo last
//! until the app closes).

use crate::core::ids::ReportId;
use crate::core::workspace::{OpenReport, Workspace};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// One side of a manual pair: the report (by file, else by name) and the result ID.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct PairSide {
    /// The report's file (absolute); `None` for pasted text or the demo.
    pub path: Option<PathBuf>,
    /// The report's name in lists.
    pub report_name: String,
    /// The result ID the source gives.
    pub result_id: u64,
}

impl PairSide {
    /// The side for a result of an open report.
    pub fn of(open: &OpenReport, result_id: u64) -> Self {
        PairSide {
            path: open.path.as_deref().map(absolute),
            report_name: open.name.clone(),
            result_id,
        }
    }

    /// Whether this side names that open report.
    fn is_in(&self, open: &OpenReport) -> bool {
        match (&self.path, &open.path) {
            (Some(p), Some(q)) => *p == absolute(q),
            (None, None) => self.report_name == open.name,
            _ => false,
        }
    }

    /// The index of the result with this side's ID in `open`.
    fn index_in(&self, open: &OpenReport) -> Option<usize> {
        open.report
            .results
            .iter()
            .position(|r| r.id == self.result_id)
    }
}

/// A base result paired by hand with a current result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(default)]
pub struct ManualPair {
    pub base: PairSide,
    pub current: PairSide,
}

impl ManualPair {
    /// Whether both sides can be found again after a restart (both come from files).
    pub fn can_be_saved(&self) -> bool {
        self.base.path.is_some() && self.current.path.is_some()
    }

    /// Whether the pair belongs to the comparison of these two reports.
    pub fn is_between(&self, base: &OpenReport, current: &OpenReport) -> bool {
        self.base.is_in(base) && self.current.is_in(current)
    }
}

fn absolute(path: &std::path::Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// Pairs the base result `base_index` with the current result `current_index` of two open
/// reports; an earlier pair of either result between the same reports is replaced. False when
/// a result does not exist.
pub fn add(
    list: &mut Vec<ManualPair>,
    workspace: &Workspace,
    (base, base_index): (ReportId, usize),
    (current, current_index): (ReportId, usize),
) -> bool {
    let (Some(b), Some(c)) = (workspace.report(base), workspace.report(current)) else {
        return false;
    };
    let (Some(br), Some(cr)) = (
        b.report.results.get(base_index),
        c.report.results.get(current_index),
    ) else {
        return false;
    };
    let pair = ManualPair {
        base: PairSide::of(b, br.id),
        current: PairSide::of(c, cr.id),
    };
    list.retain(|p| {
        !(p.is_between(b, c)
            && (p.base.result_id == pair.base.result_id
                || p.current.result_id == pair.current.result_id))
    });
    list.push(pair);
    true
}

/// The manual pairs between two open reports as (base index, current index), with their
/// positions in the list; pairs naming a result the reports lack are left out.
pub fn resolve(
    list: &[ManualPair],
    workspace: &Workspace,
    base: ReportId,
    current: ReportId,
) -> Vec<(usize, (usize, usize))> {
    let (Some(b), Some(c)) = (workspace.report(base), workspace.report(current)) else {
        return Vec::new();
    };
    list.iter()
        .enumerate()
        .filter(|(_, p)| p.is_between(b, c))
        .filter_map(|(i, p)| Some((i, (p.base.index_in(b)?, p.current.index_in(c)?))))
        .collect()
}
