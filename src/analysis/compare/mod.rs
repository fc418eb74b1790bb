//! Comparison of results and reports: kernel matching across reports of any form, per-metric
//! diffs with directions and a noise threshold, context warnings, several baselines, and
//! CSV/Markdown/JSON export. Used by `sightline diff` and the comparison views.

pub mod alignment;
pub mod baselines;
pub mod context;
pub mod direction;
pub mod export;
pub mod fail_on;
pub mod groups;
pub mod html;
pub mod kept;
pub mod matching;
pub mod metric_diff;
pub mod normalize;
pub mod totals;
pub mod why;

pub use baselines::{
    BaselineSplit, BaselineStats, against_baselines, match_baselines, metric_against_baselines,
    metric_against_matching_baselines, split_baselines,
};
pub use context::{
    ContextKind, ContextWarning, RunContext, context_warnings, context_warnings_releasing,
};
pub use direction::{Direction, direction_of};
pub use kept::Keep;
pub use matching::{
    KernelMatch, MatchKind, MatchNote, Matching, SuggestedPair, match_results, match_results_with,
    pair_argument, relate,
};
pub use metric_diff::{DiffOptions, MetricDiff, ResultDiff, Verdict, diff_results, metric_number};
pub use normalize::{KernelIdentity, normalize_kernel_name};
pub use totals::{Totals, totals};
pub use why::{Explanation, WhyKind, explain};

use crate::model::{Report, names};
use serde::Serialize;

/// One matched pair of results and their diff.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MatchedDiff {
    /// Indices into the base and current reports' results.
    pub base_index: usize,
    pub current_index: usize,
    /// The result IDs the sources give.
    pub base_id: u64,
    pub current_id: u64,
    /// The current result's display name.
    pub name: String,
    pub kind: MatchKind,
    pub shape_differs: bool,
    /// What differs between the two launches (`template args changed: <16> → <32>`).
    pub changes: Vec<String>,
    /// Each side's duration, also when the other side has none.
    pub base_duration_ns: Option<f64>,
    pub current_duration_ns: Option<f64>,
    pub diff: ResultDiff,
    /// Ranked explanations of what changed (empty when nothing explains a change).
    pub why: Vec<Explanation>,
}

impl MatchedDiff {
    /// Time won (negative) or lost (positive), in ns.
    pub fn time_delta_ns(&self) -> Option<f64> {
        self.diff.time_delta_ns()
    }

    /// Whether this pair regressed: the duration, or (when the comparison was restricted to
    /// chosen metrics) any of those, got worse beyond the threshold.
    pub fn regressed(&self, restricted: bool) -> bool {
        let duration_worse = self
            .diff
            .duration
            .as_ref()
            .is_some_and(|d| d.verdict == Verdict::Worse);
        duration_worse || (restricted && self.diff.worse().next().is_some())
    }
}

/// A result only one side has.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnmatchedResult {
    pub index: usize,
    pub id: u64,
    pub name: String,
    pub duration_ns: Option<f64>,
}

/// Two reports compared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ReportDiff {
    /// Matched pairs in the current report's launch order.
    pub matched: Vec<MatchedDiff>,
    pub only_in_base: Vec<UnmatchedResult>,
    pub only_in_current: Vec<UnmatchedResult>,
    /// Context differences and matching ambiguities.
    pub warnings: Vec<String>,
    pub context: Vec<ContextWarning>,
    pub match_notes: Vec<MatchNote>,
    /// Unmatched kernels that look like one kernel renamed, offered for pairing by hand.
    pub suggested_pairs: Vec<SuggestedPair>,
    pub threshold_pct: f64,
    /// Whether the comparison was restricted to chosen metrics.
    pub restricted: bool,
}

impl ReportDiff {
    /// Matched pairs sorted by impact: the largest time won or lost first.
    pub fn by_impact(&self) -> Vec<&MatchedDiff> {
        self.by_impact_order()
            .into_iter()
            .filter_map(|i| self.matched.get(i))
            .collect()
    }

    /// Indices into `matched` in the order of [`ReportDiff::by_impact`].
    pub fn by_impact_order(&self) -> Vec<usize> {
        let mut v: Vec<usize> = (0..self.matched.len()).collect();
        let m = &self.matched;
        v.sort_by(|&a, &b| {
            let (a, b) = (&m[a], &m[b]);
            let ia = a.time_delta_ns().map(f64::abs);
            let ib = b.time_delta_ns().map(f64::abs);
            match (ia, ib) {
                (Some(x), Some(y)) => y.total_cmp(&x),
                (Some(_), None) => std::cmp::Ordering::Less,
                (None, Some(_)) => std::cmp::Ordering::Greater,
                (None, None) => std::cmp::Ordering::Equal,
            }
            .then(a.current_index.cmp(&b.current_index))
        });
        v
    }

    /// Pairs that got worse beyond the threshold.
    pub fn regressions(&self) -> impl Iterator<Item = &MatchedDiff> {
        self.matched.iter().filter(|m| m.regressed(self.restricted))
    }

    /// Whether anything got worse beyond the threshold (the `diff` exit code).
    pub fn has_regression(&self) -> bool {
        self.regressions().next().is_some()
    }

    /// Durations summed over matched pairs, removed and added launches, with a noise band.
    pub fn totals(&self) -> Totals {
        totals::totals(self)
    }
}

/// Compares two reports: matches their results, diffs every pair and checks the context.
pub fn diff_reports(base: &Report, current: &Report, opts: &DiffOptions) -> ReportDiff {
    diff_reports_with(base, current, opts, &[])
}

/// Compares two reports with pairs chosen by hand (`(base index, current index)`).
pub fn diff_reports_with(
    base: &Report,
    current: &Report,
    opts: &DiffOptions,
    manual: &[(usize, usize)],
) -> ReportDiff {
    diff_reports_keeping(base, current, opts, manual, Keep::All)
}

/// [`diff_reports_with`] keeping of each pair's metric differences only those `keep` names.
/// Bodies read on demand are decoded into copies dropped after each pair, so the reports
/// (which may be shared) are left as they were and one pair of bodies is decoded at a time.
pub fn diff_reports_keeping(
    base: &Report,
    current: &Report,
    opts: &DiffOptions,
    manual: &[(usize, usize)],
    keep: Keep<'_>,
) -> ReportDiff {
    let matching = match_results_with(&base.results, &current.results, manual);
    let matched = diff_pairs(base, current, &matching, opts, keep, &mut || {});
    let context = context_warnings(base, current);
    assemble(base, current, matching, matched, context, opts)
}

/// Compares again each matched pair of `diff` (made from `base` and `current` with `opts`,
/// which may have kept only some metric differences), with every metric difference, and hands
/// the pairs to `each` one at a time, in order. For writing every metric of a large comparison
/// without holding them all.
pub fn rediff_pairs(
    base: &Report,
    current: &Report,
    diff: &ReportDiff,
    opts: &DiffOptions,
    each: &mut dyn FnMut(&MatchedDiff),
) {
    for m in &diff.matched {
        let p = KernelMatch {
            base: m.base_index,
            current: m.current_index,
            kind: m.kind,
            shape_differs: m.shape_differs,
            changes: m.changes.clone(),
        };
        if let Some(full) = matched_diff(base, current, &p, opts) {
            each(&full);
        }
    }
}

/// [`diff_reports_with`] reading one pair of results at a time: bodies decoded by matching are
/// released first, each pair is compared on copies of its bodies, and the results read for the
/// context are released again, so only a pair of bodies is decoded at once. `observe` sees both
/// reports after each pair and during the context scan. The result equals that of
/// [`diff_reports_keeping`].
pub fn diff_reports_streamed(
    base: &mut Report,
    current: &mut Report,
    opts: &DiffOptions,
    manual: &[(usize, usize)],
    keep: Keep<'_>,
    observe: &mut dyn FnMut(&Report, &Report),
) -> ReportDiff {
    let matching = match_results_with(&base.results, &current.results, manual);
    // Matching reads the launch shape, which a result without one takes from its metrics.
    base.release_bodies(0);
    current.release_bodies(0);
    let matched = diff_pairs(base, current, &matching, opts, keep, &mut || {
        observe(base, current)
    });
    let context = context_warnings_releasing(base, current, observe);
    assemble(base, current, matching, matched, context, opts)
}

/// Compares every matched pair, keeping of each what `keep` names; `after_pair` runs after
/// each pair.
fn diff_pairs(
    base: &Report,
    current: &Report,
    matching: &Matching,
    opts: &DiffOptions,
    keep: Keep<'_>,
    after_pair: &mut dyn FnMut(),
) -> Vec<MatchedDiff> {
    let mut kept = kept::Kept::new(keep, opts.metrics.is_some());
    let mut matched = Vec::with_capacity(matching.pairs.len());
    for p in &matching.pairs {
        if let Some(m) = matched_diff(base, current, p, opts) {
            let at = matched.len();
            matched.push(kept.add(m, at));
        }
        after_pair();
    }
    kept.finish(&mut matched);
    matched
}

/// One matched pair compared.
fn matched_diff(
    base: &Report,
    current: &Report,
    p: &KernelMatch,
    opts: &DiffOptions,
) -> Option<MatchedDiff> {
    // Bodies read on demand are decoded into copies dropped after the pair, so comparing
    // shared reports keeps one pair of bodies at a time.
    let b = base.results.get(p.base)?.transient();
    let c = current.results.get(p.current)?.transient();
    let (b, c) = (b.as_ref(), c.as_ref());
    let name = normalize::display_name(c);
    let name = if name.is_empty() {
        normalize::display_name(b)
    } else {
        name
    };
    let diff = diff_results(b, c, opts);
    let why = explain(b, c, diff.speed());
    Some(MatchedDiff {
        base_index: p.base,
        current_index: p.current,
        base_id: b.id,
        current_id: c.id,
        name: name.to_string(),
        kind: p.kind,
        shape_differs: p.shape_differs,
        changes: p.changes.clone(),
        base_duration_ns: metric_number(b, names::DURATION),
        current_duration_ns: metric_number(c, names::DURATION),
        diff,
        why,
    })
}

/// The comparison of two reports from its matched pairs and context warnings.
fn assemble(
    base: &Report,
    current: &Report,
    matching: Matching,
    matched: Vec<MatchedDiff>,
    context: Vec<ContextWarning>,
    opts: &DiffOptions,
) -> ReportDiff {
    let unmatched = |report: &Report, indices: &[usize]| -> Vec<UnmatchedResult> {
        indices
            .iter()
            .filter_map(|&i| {
                let r = report.results.get(i)?;
                Some(UnmatchedResult {
                    index: i,
                    id: r.id,
                    name: normalize::display_name(r).to_string(),
                    duration_ns: metric_number(r, names::DURATION),
                })
            })
            .collect()
    };
    let mut warnings: Vec<String> = context.iter().map(|w| w.message.clone()).collect();
    warnings.extend(
        matching
            .notes
            .iter()
            .map(|n| format!("{}: {}", n.kernel, n.message)),
    );
    ReportDiff {
        matched,
        only_in_base: unmatched(base, &matching.only_in_base),
        only_in_current: unmatched(current, &matching.only_in_current),
        warnings,
        context,
        match_notes: matching.notes,
        suggested_pairs: matching.suggested,
        threshold_pct: opts.threshold_pct,
        restricted: opts.metrics.is_some(),
    }
}
