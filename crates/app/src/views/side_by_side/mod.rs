//! The side-by-side comparison the Compare page shows: the selected result against the
//! visible baselines (or a partner picked in the report comparison), computed by
//! [`side_by_side`] when the selection, the baselines or the noise threshold change and cached
//! by the page with [`Cached`](super::cache::Cached); every metric row with its values, Δ, Δ%
//! and verdict, the duration change, speed-of-light and occupancy of each side, the context
//! warnings and the export.

use crate::analysis::compare::direction::Direction;
use crate::analysis::compare::{ReportDiff, Verdict};
use crate::core::ids::ResultRef;

mod build;
pub mod lines_cache;
pub use build::{
    ResultLookup, context_messages, metric_line, side_by_side, side_of, signed_value_text,
};

/// One side of the comparison.
#[derive(Debug, Clone, PartialEq)]
pub struct Side {
    pub at: ResultRef,
    /// `matmul_naive · ID 3` (a long name shortened in the middle).
    pub title: String,
    /// The full demangled name (the title's hover text).
    pub full_name: String,
    pub report_name: String,
    /// The side's colour, red, green, blue; `None`: the theme's strong text colour (the
    /// current result).
    pub color: Option<[u8; 3]>,
    /// How the comparison pairs this side with the current result, where it does: by hand
    /// (`Manual`) or by its model (by name, or as `Renamed`). A paired side is the same kernel
    /// and gets verdicts, whatever the names say.
    pub pairing: Option<crate::analysis::compare::MatchKind>,
}

/// What the comparison is built from; it is built again when this changes.
#[derive(Debug, Clone, PartialEq)]
pub struct SideBySideKey {
    pub generation: u64,
    pub current: ResultRef,
    pub bases: Vec<Side>,
    pub threshold_bits: u64,
}

/// One metric row.
#[derive(Debug, Clone)]
pub struct MetricLine {
    pub label: String,
    pub key: String,
    /// The value of each baseline, `-` where it has none.
    pub baselines: Vec<String>,
    /// The current value; with several baselines `current (Δ%, z=…)`.
    pub current: String,
    /// current − baseline with its unit (one baseline only).
    pub delta: String,
    pub delta_pct: Option<f64>,
    pub pct_text: String,
    /// `None` when a side lacks the metric.
    pub verdict: Option<Verdict>,
    pub direction: Direction,
}

impl MetricLine {
    pub fn changed(&self) -> bool {
        matches!(
            self.verdict,
            Some(Verdict::Better | Verdict::Worse | Verdict::Neutral)
        )
    }
}

/// The metric rows of one section.
#[derive(Debug, Clone)]
pub struct SectionLines {
    pub name: String,
    pub lines: Vec<MetricLine>,
}

/// The duration change in one line.
#[derive(Debug, Clone)]
pub struct DurationLine {
    pub text: String,
    pub verdict: Verdict,
}

/// Everything the page shows, computed once per selection, baseline set and threshold.
pub struct SideBySide {
    pub current: Side,
    pub bases: Vec<Side>,
    pub duration: Option<DurationLine>,
    /// (label, metric, memory-like, value per side: baselines then current).
    pub sol: Vec<(&'static str, &'static str, bool, Vec<Option<f64>>)>,
    /// (label, text per side: baselines then current).
    pub occupancy: Vec<(&'static str, Vec<String>)>,
    pub sections: Vec<SectionLines>,
    pub warnings: Vec<crate::analysis::compare::DiffWarning>,
    pub notes: Vec<String>,
    pub export: ReportDiff,
    pub export_title: String,
    pub file_stem: String,
}

#[cfg(test)]
#[path = "tests.rs"]
mod tests;
