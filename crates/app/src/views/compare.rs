//! The Compare page's view-model ([`CompareView`]): the side-by-side comparison and the
//! paired section bodies against the first baseline, built on a [`Job`]. The job works on a
//! [`Snapshot`] of the few results compared, so a selection change costs the UI thread only
//! the copy of those results (a body read on demand is copied undecoded) and the start.

use crate::analysis::compare::{
    ContextWarning, MatchKind, RenamePolicy, context_warnings, match_results_with,
};
use crate::analysis::sections::bodies_of;
use crate::analysis::sections::paired::{PairedSection, pair};
use crate::core::baselines::VisibleBaseline;
use crate::core::ids::{ReportId, ResultRef};
use crate::core::manual_pairs::{self, ManualPair};
use crate::core::workspace::{OpenReport, Workspace};
use crate::job::{Job, Status};
use crate::model::KernelResult;
use crate::model::section_body::ReportBodies;
use crate::model::source::SourceView;
use crate::views::section_bodies::PairedBodies;
use crate::views::side_by_side::lines_cache::LinesCache;
use crate::views::side_by_side::{
    ResultLookup, Side, SideBySide, SideBySideKey, context_messages, side_by_side, side_of,
};
use crate::views::source::load_lines;
use std::collections::BTreeMap;
use std::sync::Arc;

/// What the paired bodies were built from: the open reports' generation, base, current.
pub type BodiesKey = (u64, ResultRef, ResultRef);

/// Two open reports compared: (base, current).
type ReportPair = (ReportId, ReportId);

/// The compared results, each with a copy of its report that holds only that result, and
/// the context warnings of every pair of different reports compared (those known yet).
pub struct Snapshot {
    results: Vec<(ResultRef, OpenReport)>,
    warnings: Vec<(ReportPair, Vec<ContextWarning>)>,
    /// Whether the warnings of some pair were still being computed.
    context_pending: bool,
    /// The compared results' CUDA lines, kept by the page across builds.
    lines: LinesCache,
}

/// A copy of `open` holding only its result at `index` (at position 0).
fn copy_of(open: &OpenReport, result: &KernelResult, index: usize) -> OpenReport {
    let report = &open.report;
    let bodies = match &report.bodies {
        ReportBodies::None => ReportBodies::None,
        ReportBodies::Templates(t) => ReportBodies::Templates(Arc::clone(t)),
        ReportBodies::Printed(by_result) => ReportBodies::Printed(
            by_result
                .get(&index)
                .map(|b| BTreeMap::from([(0, b.clone())]))
                .unwrap_or_default(),
        ),
        ReportBodies::InResults => ReportBodies::InResults,
    };
    OpenReport {
        id: open.id,
        name: open.name.clone(),
        path: open.path.clone(),
        report: std::sync::Arc::new(report.with_results(vec![result.clone()], bodies)),
        load_time: open.load_time,
        captured: open.captured,
        opened: open.opened,
        arrival: open.arrival.clone(),
    }
}

impl Snapshot {
    /// Copies what building the comparison of `key` reads from `workspace`; the context
    /// warnings of a pair of reports come from `context` when it has them, and are left out
    /// while it computes them (`wait`: computed now instead).
    pub fn of(
        workspace: &Workspace,
        key: &SideBySideKey,
        context: &mut ContextCache,
        lines: &LinesCache,
        wait: bool,
        wake: impl Fn() + Clone + Send + 'static,
    ) -> Self {
        let mut results: Vec<(ResultRef, OpenReport)> = Vec::new();
        for at in std::iter::once(key.current).chain(key.bases.iter().map(|b| b.at)) {
            if results.iter().any(|(a, _)| *a == at) {
                continue;
            }
            if let Some((open, result)) = workspace.result(at) {
                results.push((at, copy_of(open, result, at.index)));
            }
        }
        let mut warnings = Vec::new();
        let mut context_pending = false;
        let current = key.current.report;
        for b in &key.bases {
            let pair = (b.at.report, current);
            if pair.0 != current && !warnings.iter().any(|(p, _)| *p == pair) {
                match context.get(workspace, pair, wait, wake.clone()) {
                    Some(w) => warnings.push((pair, w)),
                    None => context_pending = true,
                }
            }
        }
        Snapshot {
            results,
            warnings,
            context_pending,
            lines: lines.clone(),
        }
    }

    /// The paired section bodies of `base` and `current`.
    fn paired(&self, base: ResultRef, current: ResultRef) -> Vec<PairedSection> {
        let bodies = |at: ResultRef| {
            self.results
                .iter()
                .find(|(a, _)| *a == at)
                .map(|(_, open)| bodies_of(&open.report, 0))
                .unwrap_or_default()
        };
        pair(&bodies(base), &bodies(current))
    }
}

impl ResultLookup for Snapshot {
    fn result(&self, at: ResultRef) -> Option<(&OpenReport, &KernelResult)> {
        let (_, open) = self.results.iter().find(|(a, _)| *a == at)?;
        Some((open, open.report.results.first()?))
    }

    fn source_lines(&self, generation: u64, at: ResultRef) -> Option<Arc<SourceView>> {
        self.lines.get_or_read(generation, at, || {
            let (open, result) = self.result(at)?;
            load_lines(open.path.as_deref(), result).ok()
        })
    }

    fn context_warnings(&self, base: ReportId, current: ReportId) -> Vec<ContextWarning> {
        self.warnings
            .iter()
            .find(|(p, _)| *p == (base, current))
            .map(|(_, w)| w.clone())
            .unwrap_or_default()
    }
}

/// The context warnings of pairs of reports (base, current), kept while the open reports stay
/// the same: they read every result of both reports (seconds for reports of thousands of
/// results), so they are computed once per pair, on a [`Job`] of its own from copies of the
/// two reports.
#[derive(Default)]
pub struct ContextCache {
    generation: u64,
    pairs: Vec<(ReportPair, Vec<ContextWarning>)>,
    pending: Vec<Job<ReportPair, Vec<ContextWarning>>>,
}

impl ContextCache {
    /// The warnings of `pair` when known. Otherwise they are computed: now with `wait`, else on
    /// a background job that calls `wake` when done (`None` meanwhile).
    pub fn get(
        &mut self,
        workspace: &Workspace,
        pair: ReportPair,
        wait: bool,
        wake: impl Fn() + Send + 'static,
    ) -> Option<Vec<ContextWarning>> {
        if self.generation != workspace.generation() {
            self.pairs.clear();
            self.pending.clear();
            self.generation = workspace.generation();
        }
        if let Some(w) = self.known(pair) {
            return Some(w);
        }
        if !wait && self.pending.iter().any(|job| job.is_for(&pair)) {
            return None;
        }
        if !wait
            && let (Some(base), Some(current)) =
                (workspace.report(pair.0), workspace.report(pair.1))
        {
            let (base, current) = (base.report.clone(), current.report.clone());
            let mut job = Job::new("compare context");
            job.ensure(pair, move |_| Ok(context_warnings(&base, &current)), wake);
            if !matches!(job.status(), Status::Failed(_)) {
                self.pending.push(job);
                return None;
            }
        }
        // Asked to wait, a side no longer open (no warnings), or no thread to be had.
        let w = workspace.context_warnings(pair.0, pair.1);
        self.pairs.push((pair, w.clone()));
        Some(w)
    }

    /// The warnings of `pair` when they are known (nothing is started).
    pub fn known(&mut self, pair: ReportPair) -> Option<Vec<ContextWarning>> {
        self.collect();
        self.pairs
            .iter()
            .find(|(p, _)| *p == pair)
            .map(|(_, w)| w.clone())
    }

    /// Whether warnings are still being computed.
    pub fn is_pending(&mut self) -> bool {
        self.collect();
        !self.pending.is_empty()
    }

    /// Keeps the warnings of the jobs that have finished (none where one failed).
    fn collect(&mut self) {
        let mut still = Vec::new();
        for mut job in self.pending.drain(..) {
            let Some(&pair) = job.key() else {
                continue;
            };
            match job.take(false) {
                Some(Ok(w)) => self.pairs.push((pair, w)),
                Some(Err(_)) => self.pairs.push((pair, Vec::new())),
                None => still.push(job),
            }
        }
        self.pending = still;
    }
}

/// What the Compare page shows: the comparison (`None` when a side is no longer open) and the
/// section bodies paired against its first baseline.
pub struct CompareData {
    pub view: Option<SideBySide>,
    /// The section bodies paired, with their bars in order.
    pub bodies: Arc<PairedBodies>,
    /// What `bodies` were built from (`None`: no bodies).
    pub bodies_key: Option<BodiesKey>,
    /// Whether the context warnings of some pair of reports were still being computed (they
    /// are added once known: [`CompareData::complete_context`]).
    pub context_pending: bool,
}

impl CompareData {
    /// Adds the context warnings to a comparison built while they were being computed, once
    /// `context` knows those of every pair of reports in `key`, listed as the build lists them
    /// (per baseline, each message once); the comparison itself is not built again.
    pub fn complete_context(&mut self, key: &SideBySideKey, context: &mut ContextCache) {
        if !self.context_pending {
            return;
        }
        let Some(messages) = context_messages(key, |b, c| context.known((b, c))) else {
            return;
        };
        if let Some(view) = &mut self.view {
            view.warnings = messages.clone();
            view.export.warnings = messages;
        }
        self.context_pending = false;
    }
}

/// Builds the page's data; `reuse` gives bodies already paired, used when their key matches.
pub fn build(
    snapshot: &Snapshot,
    key: &SideBySideKey,
    reuse: Option<(BodiesKey, Arc<PairedBodies>)>,
) -> CompareData {
    let view = side_by_side(snapshot, key);
    let bodies_key = view
        .as_ref()
        .and_then(|v| v.bases.first())
        .map(|base| (key.generation, base.at, key.current));
    let bodies = match (bodies_key, reuse) {
        (Some(k), Some((rk, b))) if k == rk => b,
        (Some((_, base, current)), _) => {
            Arc::new(PairedBodies::new(snapshot.paired(base, current)))
        }
        (None, _) => Arc::default(),
    };
    CompareData {
        view,
        bodies,
        bodies_key,
        context_pending: snapshot.context_pending,
    }
}

/// Colour of a partner picked in the report comparison (it is no baseline).
pub const PAIR_COLOR: [u8; 3] = [232, 121, 52];

/// What the Compare page shows now.
pub enum CompareStatus<'a> {
    /// Nothing to compare with: the selected result is the only baseline shown (`true`), or
    /// there is no baseline (`false`).
    NoBaseline {
        only_itself: bool,
    },
    /// The selected result's report is still being written (`results` so far): compared
    /// once it has settled.
    BeingWritten {
        name: String,
        results: usize,
    },
    /// Being built; `earlier` is the comparison of the same sides under another noise
    /// threshold, kept in view meanwhile.
    Building {
        earlier: Option<&'a CompareData>,
    },
    /// Built; `context_pending` while the reports' context warnings are still being read.
    Ready {
        data: &'a CompareData,
        context_pending: bool,
    },
    Failed(&'a str),
}

/// The Compare page's view-model: the partner picked in the report comparison, the comparison
/// built last and the one being built (on a [`Job`]), and the context warnings of the report
/// pairs compared so far.
pub struct CompareView {
    /// (base, current): shown instead of the baselines while `current` is selected.
    pinned: Option<(ResultRef, ResultRef)>,
    /// The pairs (base index, current index) the comparison model makes between a baseline's
    /// report and the selected result's, matched in the background.
    pairing: Job<PairingKey, Vec<(usize, usize)>>,
    job: Job<SideBySideKey, CompareData>,
    /// The comparison built last and what it was built from.
    ready: Option<(SideBySideKey, Result<CompareData, String>)>,
    context: ContextCache,
    lines: LinesCache,
}

impl Default for CompareView {
    fn default() -> Self {
        CompareView {
            pinned: None,
            pairing: Job::new("kernel matching"),
            job: Job::new("comparison builder"),
            ready: None,
            context: ContextCache::default(),
            lines: LinesCache::default(),
        }
    }
}

/// What the comparison is asked for: the selection, the baselines shown, the noise threshold.
pub struct CompareInput<'a> {
    pub workspace: &'a Workspace,
    pub at: ResultRef,
    pub baselines: &'a [VisibleBaseline],
    pub threshold_pct: f64,
    /// The pairs made by hand in the report comparison: a baseline paired with the selected
    /// result so is the same kernel, whatever its name.
    pub manual_pairs: &'a [ManualPair],
    /// How the comparison pairs renamed kernels (a baseline it pairs with the selected result
    /// as renamed is the same kernel too).
    pub renames: RenamePolicy,
}

/// What the pairs of two reports were matched from: the workspace generation, the two
/// reports, the rename policy.
type PairingKey = (u64, ReportId, ReportId, RenamePolicy);

impl CompareView {
    /// Compares `current` with `base` until another result is selected.
    pub fn pin(&mut self, base: ResultRef, current: ResultRef) {
        self.pinned = Some((base, current));
    }

    /// Compares with the baselines again instead of the picked partner.
    pub fn unpin(&mut self) {
        self.pinned = None;
    }

    /// The partner shown instead of the baselines for `current`, if any.
    pub fn pinned_base(&self, current: ResultRef) -> Option<ResultRef> {
        self.pinned.filter(|p| p.1 == current).map(|p| p.0)
    }

    /// Drops the comparisons (reports closed or replaced); they are built again when shown.
    pub fn release(&mut self) {
        self.pairing.clear();
        self.job.clear();
        self.ready = None;
        self.context = ContextCache::default();
        self.lines.clear();
    }

    /// How many results' CUDA lines the why-list has read so far (each once while the open
    /// reports stay the same).
    pub fn lines_read(&self) -> u64 {
        self.lines.reads()
    }

    /// The sides the selected result is compared with: the picked partner, else the visible
    /// baselines other than itself.
    fn bases(&self, input: &CompareInput<'_>) -> Vec<Side> {
        match self.pinned_base(input.at) {
            Some(base) => {
                let color = input
                    .baselines
                    .iter()
                    .find(|b| b.at == base)
                    .map_or(PAIR_COLOR, |b| b.color);
                // A partner picked in the report comparison is a pair it made: by its model
                // (as renamed, where the names differ) or by hand.
                let by_model = self.paired_by_model(input, base);
                side_of(input.workspace, base, Some(color))
                    .map(|side| Side {
                        pairing: Some(if by_model {
                            MatchKind::Renamed
                        } else {
                            MatchKind::Manual
                        }),
                        ..side
                    })
                    .into_iter()
                    .collect()
            }
            None => input
                .baselines
                .iter()
                .filter(|b| b.at != input.at)
                // A baseline in a report still being written waits until it has settled.
                .filter(|b| {
                    input
                        .workspace
                        .report(b.at.report)
                        .is_some_and(|r| !r.is_growing())
                })
                .filter_map(|b| {
                    let side = side_of(input.workspace, b.at, Some(b.color))?;
                    let by_hand = manual_pairs::resolve(
                        input.manual_pairs,
                        input.workspace,
                        b.at.report,
                        input.at.report,
                    )
                    .iter()
                    .any(|(_, pair)| *pair == (b.at.index, input.at.index));
                    let by_model = self.paired_by_model(input, b.at);
                    let pairing = if by_hand {
                        Some(MatchKind::Manual)
                    } else {
                        by_model.then_some(MatchKind::Renamed)
                    };
                    Some(Side { pairing, ..side })
                })
                .collect(),
        }
    }

    /// Whether the comparison model, once it has matched `base`'s report with the selected
    /// result's, pairs `base` with the selected result.
    fn paired_by_model(&self, input: &CompareInput<'_>, base: ResultRef) -> bool {
        let Some(key) = self.pairing.key() else {
            return false;
        };
        if (key.0, key.1, key.2) != (input.workspace.generation(), base.report, input.at.report)
            || key.3 != input.renames
        {
            return false;
        }
        match self.pairing.status() {
            Status::Ready(pairs) => pairs.contains(&(base.index, input.at.index)),
            _ => false,
        }
    }

    /// Matches the first baseline report other than the selected result's with it, in the
    /// background, so that a baseline the comparison pairs as renamed gets verdicts.
    fn ensure_pairing(
        &mut self,
        input: &CompareInput<'_>,
        wait: bool,
        wake: impl Fn() + Send + 'static,
    ) {
        let other = input
            .baselines
            .iter()
            .map(|b| b.at.report)
            .find(|&r| r != input.at.report);
        let (Some(base), Some(current)) = (
            other.and_then(|r| input.workspace.report(r)),
            input.workspace.report(input.at.report),
        ) else {
            return;
        };
        let key = (
            input.workspace.generation(),
            base.id,
            current.id,
            input.renames.clone(),
        );
        let (b, c, policy) = (
            Arc::clone(&base.report),
            Arc::clone(&current.report),
            input.renames.clone(),
        );
        self.pairing.ensure(
            key,
            move |_| {
                let m = match_results_with(&b.results, &c.results, &[], &policy);
                Ok(m.pairs.iter().map(|p| (p.base, p.current)).collect())
            },
            wake,
        );
        let _ = if wait {
            self.pairing.wait()
        } else {
            self.pairing.poll()
        };
    }

    /// The comparison of `input`, built in the background when it changed (`wake` is called
    /// when it is done; `wait` waits for it, for screenshots).
    pub fn status(
        &mut self,
        input: &CompareInput<'_>,
        wait: bool,
        wake: impl Fn() + Clone + Send + 'static,
    ) -> CompareStatus<'_> {
        if self.pinned.is_some_and(|p| p.1 != input.at) {
            self.pinned = None;
        }
        if let Some(open) = input.workspace.report(input.at.report)
            && open.is_growing()
        {
            return CompareStatus::BeingWritten {
                name: open.name.clone(),
                results: open.report.results.len(),
            };
        }
        self.ensure_pairing(input, wait, wake.clone());
        let bases = self.bases(input);
        if bases.is_empty() {
            let only_itself =
                input.baselines.len() == 1 && input.baselines.iter().any(|b| b.at == input.at);
            return CompareStatus::NoBaseline { only_itself };
        }
        let key = SideBySideKey {
            generation: input.workspace.generation(),
            current: input.at,
            bases,
            threshold_bits: input.threshold_pct.to_bits(),
        };
        let context_busy = self.context.is_pending();
        let is_ready = self.ready.as_ref().is_some_and(|(k, _)| *k == key);
        if !is_ready && !self.job.is_for(&key) {
            let reuse = match &self.ready {
                Some((_, Ok(d))) => d.bodies_key.map(|bk| (bk, Arc::clone(&d.bodies))),
                _ => None,
            };
            let snapshot = Snapshot::of(
                input.workspace,
                &key,
                &mut self.context,
                &self.lines,
                wait,
                wake.clone(),
            );
            let for_build = key.clone();
            self.job.ensure(
                key.clone(),
                move |_| Ok(build(&snapshot, &for_build, reuse)),
                wake,
            );
        }
        if !is_ready && let Some(out) = self.job.take(wait) {
            self.ready = Some((key.clone(), out));
        }
        // A comparison built while the reports' context warnings were still being computed
        // gets them once they are known.
        if let Some((k, Ok(data))) = &mut self.ready {
            data.complete_context(k, &mut self.context);
        }
        match &self.ready {
            Some((k, Ok(data))) if *k == key => CompareStatus::Ready {
                data,
                context_pending: context_busy || data.context_pending,
            },
            Some((k, Err(e))) if *k == key => CompareStatus::Failed(e),
            // Only the noise threshold changed: the older comparison stays in view.
            Some((k, Ok(data)))
                if k.generation == key.generation
                    && k.current == key.current
                    && k.bases == key.bases =>
            {
                CompareStatus::Building {
                    earlier: Some(data),
                }
            }
            _ => CompareStatus::Building { earlier: None },
        }
    }
}
