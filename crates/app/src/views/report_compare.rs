//! The Report vs report page's view-model ([`ReportCompareView`]): which two reports are
//! compared, and their comparison built on a [`Job`] once per pair of reports, noise threshold
//! and manual pairs: the comparison, its matched kernels in order of impact, the summary lines
//! with the verdicts that colour them, and the names "Pair with…" offers. A frame only draws
//! the rows on screen.

use crate::analysis::compare::export::{
    DEFAULT_MAX_CHANGES, time_change_text, time_delta_text, totals_lines, unjudged_totals_lines,
};
use crate::analysis::compare::metric_diff::delta_pct;
use crate::analysis::compare::{
    CompareRequest, DiffOptions, Keep, MatchedDiff, RenamePolicy, ReportDiff, Verdict,
};
use crate::core::ids::ReportId;
use crate::core::report_sides::{ReportSides, report_sides};
use crate::core::settings::Settings;
use crate::core::workspace::Workspace;
use crate::job::{Job, Status};
use crate::model::Report;
use crate::output::kernel_names::{REPORT_NAME_CHARS, short_demangled, short_kernel_name};

/// What a comparison was built from.
#[derive(Debug, Clone, PartialEq)]
struct DiffKey {
    generation: u64,
    base: ReportId,
    current: ReportId,
    threshold_bits: u64,
    /// The manual pairs (base index, current index) between the two reports.
    manual: Vec<(usize, usize)>,
    renames: RenamePolicy,
}

/// Where the comparison stands.
pub enum ReportCompareStatus<'a> {
    Building,
    Failed(&'a str),
    /// Ready; `complete` is false while only the figures of the results table are compared
    /// (every metric of every pair is still being compared; the view is replaced then).
    Ready {
        view: &'a ReportComparison,
        complete: bool,
    },
}

/// The page's view-model: the reports chosen by hand, and the comparison, built twice for
/// reports read on demand: at once from the results table's figures (nothing read from the
/// files), then with every metric of every pair.
pub struct ReportCompareView {
    base: Option<ReportId>,
    current: Option<ReportId>,
    quick: Job<DiffKey, ReportComparison>,
    full: Job<DiffKey, ReportComparison>,
    /// The CSV of every metric of every pair being written, and where it goes.
    csv: Job<(DiffKey, CsvTarget), String>,
}

/// Where a CSV written in the background goes once done.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CsvTarget {
    Clipboard,
    File,
}

impl Default for ReportCompareView {
    fn default() -> Self {
        ReportCompareView {
            base: None,
            current: None,
            quick: Job::new("report comparison of the table's figures"),
            full: Job::new("report comparison"),
            csv: Job::new("comparison CSV"),
        }
    }
}

/// The comparison of `base` and `current` as the page shows it.
pub fn comparison(
    base: &Report,
    current: &Report,
    threshold_pct: f64,
    manual: &[(usize, usize)],
    renames: &RenamePolicy,
) -> ReportComparison {
    let opts = DiffOptions {
        threshold_pct,
        metrics: None,
        renames: renames.clone(),
    };
    // Of each pair only what the page and its Markdown show: bodies are decoded one pair at a
    // time and dropped, and the comparison does not hold every metric of every pair.
    let request = CompareRequest {
        options: &opts,
        manual,
        keep: Keep::Shown {
            max_changes: DEFAULT_MAX_CHANGES,
            also: &|_| false,
        },
    };
    let diff = request.run(base, current);
    report_compare_view(diff, current)
}

impl ReportCompareView {
    /// The reports compared now and why the first is the baseline: the chosen ones while
    /// open, else the selected result's report and its partner in the order
    /// [`report_sides`] gives.
    pub fn sides(
        &self,
        workspace: &Workspace,
        selected: ReportId,
        settings: &Settings,
    ) -> Option<ReportSides> {
        let chosen = self.base.zip(self.current);
        report_sides(
            workspace,
            selected,
            chosen,
            &settings.baselines,
            &settings.report_orders,
        )
    }

    /// Chooses the two reports.
    pub fn choose(&mut self, base: ReportId, current: ReportId) {
        self.base = Some(base);
        self.current = Some(current);
    }

    /// The comparison of `base` with `current` under the noise threshold, the manual pairs
    /// (base index, current index) and the rename policy, built in the background when any of
    /// them changed (`wake` is called when each build is done; `wait` waits for the whole one,
    /// for screenshots).
    #[allow(clippy::too_many_arguments)]
    pub fn status(
        &mut self,
        workspace: &Workspace,
        (base, current): (ReportId, ReportId),
        threshold_pct: f64,
        manual: Vec<(usize, usize)>,
        renames: RenamePolicy,
        wait: bool,
        wake: impl Fn() + Clone + Send + 'static,
    ) -> ReportCompareStatus<'_> {
        let key = DiffKey {
            generation: workspace.generation(),
            base,
            current,
            threshold_bits: threshold_pct.to_bits(),
            manual,
            renames,
        };
        let reports = || match (workspace.report(base), workspace.report(current)) {
            (Some(b), Some(c)) => Some((b.report.clone(), c.report.clone())),
            _ => None,
        };
        // First the table's figures, when both reports are read on demand; the comparison of
        // every metric starts once that is done, so the first has every core.
        if !self.quick.is_for(&key)
            && let Some((b, c)) = reports()
        {
            self.full.clear();
            let pinned = key.manual.clone();
            let renames = key.renames.clone();
            self.quick.ensure(
                key.clone(),
                move |_| match (b.heads_only(), c.heads_only()) {
                    (Some(b), Some(c)) => Ok(comparison(&b, &c, threshold_pct, &pinned, &renames)),
                    _ => Err("the reports are held whole".into()),
                },
                wake.clone(),
            );
        }
        let _ = if wait {
            self.quick.wait()
        } else {
            self.quick.poll()
        };
        let first_done = !matches!(self.quick.status(), Status::Building);
        if first_done
            && !self.full.is_for(&key)
            && let Some((b, c)) = reports()
        {
            let pinned = key.manual.clone();
            let renames = key.renames.clone();
            self.full.ensure(
                key,
                move |_| Ok(comparison(&b, &c, threshold_pct, &pinned, &renames)),
                wake,
            );
        }
        let _ = if wait {
            self.full.wait()
        } else {
            self.full.poll()
        };
        match (self.full.status(), self.quick.status()) {
            (Status::Ready(view), _) => ReportCompareStatus::Ready {
                view,
                complete: true,
            },
            (Status::Failed(e), _) => ReportCompareStatus::Failed(e),
            (_, Status::Ready(view)) => ReportCompareStatus::Ready {
                view,
                complete: false,
            },
            _ => ReportCompareStatus::Building,
        }
    }

    /// Starts writing the CSV of the comparison shown last, with every metric of every pair
    /// (each pair compared again, a window of pairs at a time on every core), for `target`;
    /// nothing when no comparison is shown or the same CSV is being written.
    pub fn start_csv(
        &mut self,
        workspace: &Workspace,
        target: CsvTarget,
        wake: impl Fn() + Send + 'static,
    ) {
        let Some(key) = self.full.key().or(self.quick.key()).cloned() else {
            return;
        };
        let diff = match (self.full.status(), self.quick.status()) {
            (Status::Ready(v), _) | (_, Status::Ready(v)) => v.diff.clone(),
            _ => return,
        };
        let (Some(b), Some(c)) = (workspace.report(key.base), workspace.report(key.current)) else {
            return;
        };
        let (b, c) = (b.report.clone(), c.report.clone());
        let opts = DiffOptions {
            threshold_pct: f64::from_bits(key.threshold_bits),
            metrics: None,
            ..DiffOptions::default()
        };
        self.csv.ensure(
            (key, target),
            move |_| {
                let mut bytes = Vec::new();
                let request = CompareRequest {
                    options: &opts,
                    manual: &[],
                    keep: Keep::All,
                };
                crate::output::compare::write_csv_with_pairs(&mut bytes, &diff, &mut |each| {
                    request.pairs_in_full(&b, &c, &diff, each)
                })
                .map_err(|e| format!("the CSV could not be written: {e}"))?;
                Ok(String::from_utf8_lossy(&bytes).into_owned())
            },
            wake,
        );
    }

    /// Whether a CSV is being written.
    pub fn csv_pending(&self) -> bool {
        matches!(self.csv.status(), Status::Building)
    }

    /// The CSV once written (or why it was not), with where it goes; taken once.
    pub fn take_csv(&mut self) -> Option<(CsvTarget, Result<String, String>)> {
        let target = self.csv.key().map(|(_, t)| *t)?;
        let out = self.csv.take(false)?;
        self.csv.clear();
        Some((target, out))
    }

    /// Whether the page has its table (from either comparison), and whether the comparison
    /// of every metric is done (for measurements).
    pub fn progress(&self) -> (bool, bool) {
        let done =
            |s: Status<'_, ReportComparison>| matches!(s, Status::Ready(_) | Status::Failed(_));
        let complete = done(self.full.status());
        (
            complete || matches!(self.quick.status(), Status::Ready(_)),
            complete,
        )
    }

    /// Drops the comparison (reports closed or replaced); it is built again when shown.
    pub fn release(&mut self) {
        self.quick.clear();
        self.full.clear();
    }
}

/// The comparison of two reports as the page shows it.
#[derive(Debug, Clone)]
pub struct ReportComparison {
    pub diff: ReportDiff,
    /// Indices into `diff.matched`, the largest time won or lost first.
    pub by_impact: Vec<usize>,
    /// How many matched kernels got worse beyond the threshold.
    pub regressions: usize,
    /// How many matched kernels changed beyond the threshold either way.
    pub changed: usize,
    /// Matched, only in base, only in current and net time, each with the verdict that colours
    /// it (the matched and net lines only).
    pub totals: Vec<(String, Option<Verdict>)>,
    /// The same lines in words that call nothing won or lost (`12.00 us longer`), while the
    /// direction of the comparison is not confirmed.
    pub unjudged_totals: Vec<String>,
    /// The current report's results for "Pair with…": `ID 3 · matmul_naive`.
    pub candidates: Vec<String>,
}

/// The view of `diff`, a comparison whose current side is `current`.
pub fn report_compare_view(diff: ReportDiff, current: &Report) -> ReportComparison {
    let by_impact = diff.by_impact_order();
    let regressions = diff.regressions().count();
    let changed = diff
        .matched
        .iter()
        .filter(|k| {
            k.diff
                .duration
                .as_ref()
                .is_some_and(|d| matches!(d.verdict, Verdict::Better | Verdict::Worse))
        })
        .count();
    let unjudged_totals = unjudged_totals_lines(&diff);
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
        .map(|k| format!("ID {} · {}", k.id, crate::core::baselines::kernel_name(k)))
        .collect();
    ReportComparison {
        diff,
        by_impact,
        regressions,
        changed,
        totals,
        unjudged_totals,
        candidates,
    }
}

/// The longest a name of a renamed pair's Kernel cell gets, characters (the cell shows two).
const RENAMED_NAME_CHARS: usize = 40;

/// A matched kernel's Kernel cell and its hover text: the name, then what differs between the
/// two launches (template arguments, grid, block). A kernel renamed (or paired by hand with
/// another) shows both names, `old → new`, each shortened to its function and template
/// arguments; the hover has them whole.
pub fn kernel_cell(k: &MatchedDiff) -> (String, String) {
    let renamed = k.base_name != k.name && k.changes.iter().any(|c| is_name_change(c));
    let changes: Vec<&str> = k
        .changes
        .iter()
        .map(String::as_str)
        .filter(|c| !(renamed && is_name_change(c)))
        .collect();
    let short = |name: &str| {
        let parsed = crate::model::KernelName::from_demangled(name);
        short_kernel_name(&parsed.function, name, RENAMED_NAME_CHARS)
    };
    let (text, hover) = if renamed {
        (
            format!("{} → {}", short(&k.base_name), short(&k.name)),
            format!("{}\n→ {}", k.base_name, k.name),
        )
    } else {
        (short_demangled(&k.name, REPORT_NAME_CHARS), k.name.clone())
    };
    if changes.is_empty() {
        (text, hover)
    } else {
        (
            format!("{text} · {}", changes.join("; ")),
            format!("{hover}\n{}", changes.join("\n")),
        )
    }
}

/// Whether a pair's change is its name's (`name changed: naive → coalesced`).
fn is_name_change(change: &str) -> bool {
    change.starts_with("name changed:")
}

/// A matched kernel's Verdict cell: its duration's verdict; while the direction is not
/// confirmed (`judged` false) a change is `neutral`, neither better nor worse.
pub fn verdict_cell(k: &MatchedDiff, judged: bool) -> (&'static str, Option<Verdict>) {
    match k.diff.duration.as_ref().map(|d| d.verdict) {
        Some(Verdict::Better | Verdict::Worse) if !judged => {
            (Verdict::Neutral.name(), Some(Verdict::Neutral))
        }
        Some(v) => (v.name(), Some(v)),
        None => (crate::model::format::NOT_MEASURED, None),
    }
}

/// A matched kernel's Time cell: the time won or lost (`12.00 us lost`); while the direction
/// is not confirmed (`judged` false), only which way it went (`12.00 us longer`).
pub fn time_cell(k: &MatchedDiff, judged: bool) -> String {
    match k.time_delta_ns() {
        Some(t) if judged => time_delta_text(t),
        Some(t) => time_change_text(t),
        None => crate::model::format::NOT_MEASURED.into(),
    }
}
