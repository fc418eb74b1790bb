//! What the Report vs report page shows, computed once per pair of reports, noise threshold
//! and manual pairs (the page caches it with [`Cached`](crate::app::cache::Cached)): the comparison,
//! its matched kernels in order of impact, the summary lines with the verdicts that colour
//! them, and the names "Pair with…" offers. A frame only draws the rows on screen.

use crate::analysis::compare::export::totals_lines;
use crate::analysis::compare::metric_diff::delta_pct;
use crate::analysis::compare::{ReportDiff, Verdict};
use crate::model::Report;

/// The comparison of two reports as the page shows it.
#[derive(Debug, Clone)]
pub struct ReportCompareView {
    pub diff: ReportDiff,
    /// Indices into `diff.matched`, the largest time won or lost first.
    pub by_impact: Vec<usize>,
    /// How many matched kernels got worse beyond the threshold.
    pub regressions: usize,
    /// Matched, only in base, only in current and net time, each with the verdict that colours
    /// it (the matched and net lines only).
    pub totals: Vec<(String, Option<Verdict>)>,
    /// The current report's results for "Pair with…": `ID 3 · matmul_naive`.
    pub candidates: Vec<String>,
}

/// The view of `diff`, a comparison whose current side is `current`.
pub fn report_compare_view(diff: ReportDiff, current: &Report) -> ReportCompareView {
    let by_impact = diff.by_impact_order();
    let regressions = diff.regressions().count();
    let t = diff.totals();
    let verdict = |delta_pct: Option<f64>, shown: f64| match delta_pct {
        Some(p) if p.abs() < diff.threshold_pct => Verdict::Unchanged,
        _ if shown < 0.0 => Verdict::Better,
        _ if shown > 0.0 => Verdict::Worse,
        _ => Verdict::Unchanged,
    };
    let matched = verdict(
        delta_pct(t.matched_base_ns, t.matched_current_ns),
        t.matched_delta_shown_ns(),
    );
    let net = verdict(
        delta_pct(t.all_base_ns(), t.all_current_ns()),
        t.net_shown_ns(),
    );
    let lines = totals_lines(&diff);
    let last = lines.len().saturating_sub(1);
    let totals = lines
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            let v = match i {
                0 => Some(matched),
                _ if i == last => Some(net),
                _ => None,
            };
            (line, v)
        })
        .collect();
    let candidates = current
        .results
        .iter()
        .map(|k| {
            format!(
                "ID {} · {}",
                k.id,
                crate::app::core::baselines::kernel_name(k)
            )
        })
        .collect();
    ReportCompareView {
        diff,
        by_impact,
        regressions,
        totals,
        candidates,
    }
}
