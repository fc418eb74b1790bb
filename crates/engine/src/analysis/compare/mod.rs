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
pub mod kept;
pub mod matching;
pub mod metric_diff;
pub mod normalize;
pub mod request;
pub mod totals;
pub mod warning;
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
    KernelMatch, MatchKind, MatchNote, Matching, NoteKind, Rename, RenamePolicy, SuggestedPair,
    chosen_pair, group_suggestions, match_results, match_results_with, pair_argument,
};
pub use metric_diff::{DiffOptions, MetricDiff, ResultDiff, Verdict, diff_results, metric_number};
pub use normalize::{KernelIdentity, normalize_kernel_name};
pub use request::{CompareRequest, RequestError};
pub use totals::{Totals, totals};
pub use warning::DiffWarning;
pub use why::{Explanation, WhyKind, explain};

use crate::analysis::parallel;
use crate::model::{KernelResult, Report, names};
use context::ResultScan;
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
    /// The base result's display name (another name than `name` where the kernel was renamed
    /// or paired by hand with another).
    pub base_name: String,
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
    /// Context differences and matching notes (but the suggested renames, listed apart).
    pub warnings: Vec<DiffWarning>,
    pub context: Vec<ContextWarning>,
    pub match_notes: Vec<MatchNote>,
    /// Unmatched kernels that look like one kernel renamed, offered for pairing by hand.
    pub suggested_pairs: Vec<SuggestedPair>,
    /// Kernels paired as renamed (their pairs are in `matched`, of kind `renamed`).
    pub renamed: Vec<Rename>,
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

/// Compares two reports with `opts`, every metric difference kept: shorthand for
/// [`CompareRequest::run`] without pairs chosen by hand.
pub fn diff_reports(base: &Report, current: &Report, opts: &DiffOptions) -> ReportDiff {
    CompareRequest {
        options: opts,
        manual: &[],
        keep: Keep::All,
    }
    .run(base, current)
}

/// What reading one pair gives: the pair compared (with what `render` made of it) and what each
/// side says about the context, for the side this pair reads for the context.
type PairOutcome<T> = (
    Option<(MatchedDiff, T)>,
    Option<ResultScan>,
    Option<ResultScan>,
);

/// The one pass of a comparison: every matched pair compared and rendered, and every result's
/// context read, each result decoded once (into a copy dropped after), a window at a time on
/// every core; `after` runs after each pair and each result read for the context alone, and
/// stops the pass where it says no: the comparison then holds the pairs compared so far, and
/// the flag beside it is false.
#[allow(clippy::too_many_arguments)]
fn compare_matched<T: Send>(
    base: &Report,
    current: &Report,
    matching: Matching,
    opts: &DiffOptions,
    keep: Keep<'_>,
    render: impl Fn(&MatchedDiff) -> T + Sync,
    mut each: impl FnMut(T),
    after: &mut dyn FnMut() -> bool,
) -> (ReportDiff, bool) {
    // Each result's context is read with the first pair it is in, or alone.
    let mut base_read = vec![false; base.results.len()];
    let mut current_read = vec![false; current.results.len()];
    let first_read = |read: &mut Vec<bool>, i: usize| {
        read.get_mut(i)
            .is_some_and(|seen| !std::mem::replace(seen, true))
    };
    let reads: Vec<(bool, bool)> = matching
        .pairs
        .iter()
        .map(|p| {
            (
                first_read(&mut base_read, p.base),
                first_read(&mut current_read, p.current),
            )
        })
        .collect();
    let mut kept = kept::Kept::new(keep, opts.metrics.is_some());
    let mut matched = Vec::with_capacity(matching.pairs.len());
    let (mut base_scan, mut current_scan) = (ResultScan::default(), ResultScan::default());
    let pairs = &matching.pairs;
    let compared = parallel::map_ordered(
        pairs.len(),
        |k| -> PairOutcome<T> {
            let p = &pairs[k];
            let (read_base, read_current) = reads[k];
            let b = base.results.get(p.base).map(KernelResult::transient);
            let c = current.results.get(p.current).map(KernelResult::transient);
            let scan = |report: &Report, r: &Option<std::borrow::Cow<'_, KernelResult>>, read| {
                r.as_ref()
                    .filter(|_| read)
                    .map(|r| ResultScan::of_result(report, r))
            };
            let scans = (scan(base, &b, read_base), scan(current, &c, read_current));
            let pair = match (&b, &c) {
                (Some(b), Some(c)) => {
                    let m = compare_pair(b, c, p, opts);
                    let t = render(&m);
                    Some((m, t))
                }
                _ => None,
            };
            (pair, scans.0, scans.1)
        },
        |_, (pair, b, c)| -> Result<(), Stopped> {
            if let Some(b) = b {
                base_scan.merge(b);
            }
            if let Some(c) = c {
                current_scan.merge(c);
            }
            if let Some((m, t)) = pair {
                each(t);
                let at = matched.len();
                matched.push(kept.add(m, at));
            }
            if after() { Ok(()) } else { Err(Stopped) }
        },
    );
    let mut whole = compared.is_ok();
    kept.finish(&mut matched);
    // The results of no pair, for the context.
    for (report, read, scan) in [
        (base, &base_read, &mut base_scan),
        (current, &current_read, &mut current_scan),
    ] {
        if !whole {
            break;
        }
        let left: Vec<usize> = (0..read.len()).filter(|&i| !read[i]).collect();
        whole = parallel::map_ordered(
            left.len(),
            |k| ResultScan::of_result(report, &report.results[left[k]].transient()),
            |_, s| -> Result<(), Stopped> {
                scan.merge(s);
                if after() { Ok(()) } else { Err(Stopped) }
            },
        )
        .is_ok();
    }
    let context = context::warnings_of(base, current, &base_scan, &current_scan);
    (
        assemble(base, current, matching, matched, context, opts),
        whole,
    )
}

/// The pass of a comparison was stopped by its caller.
struct Stopped;

/// One matched pair compared, from its two results.
/// The pair `p` of results `b` and `c` compared: every metric difference with `opts`, the
/// durations and the ranked why-list; named by the current result.
pub fn compare_pair(
    b: &KernelResult,
    c: &KernelResult,
    p: &KernelMatch,
    opts: &DiffOptions,
) -> MatchedDiff {
    let base_name = normalize::display_name(b);
    let name = normalize::display_name(c);
    let name = if name.is_empty() { base_name } else { name };
    let diff = diff_results(b, c, opts);
    let why = explain(b, c, diff.speed());
    MatchedDiff {
        base_index: p.base,
        current_index: p.current,
        base_id: b.id,
        current_id: c.id,
        name: name.to_string(),
        base_name: base_name.to_string(),
        kind: p.kind,
        shape_differs: p.shape_differs,
        changes: p.changes.clone(),
        base_duration_ns: metric_number(b, names::DURATION),
        current_duration_ns: metric_number(c, names::DURATION),
        diff,
        why,
    }
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
    // Suggested renames have their own list (`suggested_pairs`) on every surface: the
    // warnings say the rest.
    let mut warnings: Vec<DiffWarning> =
        context.iter().cloned().map(DiffWarning::Context).collect();
    warnings.extend(
        matching
            .notes
            .iter()
            .filter(|n| n.kind != NoteKind::PossibleRename)
            .cloned()
            .map(DiffWarning::Pairing),
    );
    ReportDiff {
        matched,
        only_in_base: unmatched(base, &matching.only_in_base),
        only_in_current: unmatched(current, &matching.only_in_current),
        warnings,
        context,
        match_notes: matching.notes,
        suggested_pairs: matching.suggested,
        renamed: matching.renamed,
        threshold_pct: opts.threshold_pct,
        restricted: opts.metrics.is_some(),
    }
}
