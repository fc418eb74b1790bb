//! The Trend page's view-model ([`TrendView`]): every open report as a run of one series (in
//! the order opened, or by capture time), each kernel matched through it by the comparison
//! model, built on a [`Job`]; the kernel chosen, its values over the runs for the figure
//! chosen, the biggest steps and the regressions of the latest run. A point of the chart names
//! the results a Compare of that step needs. What the table and the chart show of it (values
//! relative to the first, the fastest or a reference kernel's run, the value scale, the
//! changes of the latest run) is [`chart`].

pub mod chart;

use crate::analysis::series::regression::{DEFAULT_RULE, Regression, TrendRule, regressions};
use crate::analysis::series::{SeriesOrder, Trend, TrendOptions, trend};
use crate::core::ids::{ReportId, ResultRef};
use crate::core::workspace::Workspace;
use crate::job::Job;
use crate::model::{Report, names};
use chart::{Reading, ScaleChoice};
use std::sync::Arc;

/// The figure charted over the runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub enum TrendFigure {
    /// The mean duration of the kernel's launches.
    #[default]
    Duration,
    SolCompute,
    SolMemory,
    Occupancy,
    /// A metric by its ncu name.
    Metric(String),
}

impl TrendFigure {
    /// The figures offered by name, and what they are called.
    pub const NAMED: [(TrendFigure, &'static str); 4] = [
        (TrendFigure::Duration, "Duration"),
        (TrendFigure::SolCompute, "SOL compute %"),
        (TrendFigure::SolMemory, "SOL memory %"),
        (TrendFigure::Occupancy, "Achieved occupancy %"),
    ];

    /// The metric aggregated for the figure (none for the duration, which is always).
    fn metric(&self) -> Option<String> {
        match self {
            TrendFigure::Duration => None,
            TrendFigure::SolCompute => Some(names::SOL_COMPUTE.into()),
            TrendFigure::SolMemory => Some(names::SOL_MEMORY.into()),
            TrendFigure::Occupancy => Some(names::ACHIEVED_OCCUPANCY.into()),
            TrendFigure::Metric(m) => Some(m.clone()),
        }
    }

    /// The base unit of the figure's values.
    pub fn unit(&self) -> &'static str {
        match self {
            TrendFigure::Duration => "ns",
            TrendFigure::SolCompute | TrendFigure::SolMemory | TrendFigure::Occupancy => "%",
            TrendFigure::Metric(_) => "",
        }
    }
}

/// What the user chose on the page.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct TrendChoice {
    pub order: SeriesOrder,
    pub figure: TrendFigure,
    /// The kernel charted (index into the trend's kernels).
    pub kernel: Option<usize>,
    /// The chart's value scale.
    pub scale: ScaleChoice,
    /// What the chart's values are: as measured, or a percentage of another run or kernel.
    pub reading: Reading,
    /// The reference kernel (a vendor library's, launched in the same runs), by one of its
    /// names, so that it stays chosen while the runs are ordered otherwise.
    pub reference: Option<String>,
}

impl TrendChoice {
    /// Picks the reference kernel (by one of its names; none drops it): the chart then reads
    /// the charted kernel as a percentage of it, and as measured again once there is none.
    pub fn pick_reference(&mut self, name: Option<String>) {
        if name.is_some() {
            self.reading = Reading::OfReference;
        } else if self.reading == Reading::OfReference {
            self.reading = Reading::Measured;
        }
        self.reference = name;
    }
}

/// The trend of the open reports and what the page needs beside it.
#[derive(Debug)]
pub struct TrendData {
    pub trend: Trend,
    pub regressions: Vec<Regression>,
    /// The open report of each run, in the order of the runs.
    pub reports: Vec<ReportId>,
}

impl TrendData {
    /// The figure's value of kernel `k` in each run.
    pub fn values(&self, k: usize, figure: &TrendFigure) -> Vec<Option<f64>> {
        let Some(kernel) = self.trend.kernels.get(k) else {
            return Vec::new();
        };
        kernel
            .points
            .iter()
            .map(|p| {
                let p = p.as_ref()?;
                match figure {
                    TrendFigure::Duration => Some(p.mean_ns),
                    _ => p.metric,
                }
            })
            .collect()
    }

    /// The first launch of kernel `k` in run `run`.
    pub fn result_at(&self, k: usize, run: usize) -> Option<ResultRef> {
        let point = self.trend.kernels.get(k)?.points.get(run)?.as_ref()?;
        Some(ResultRef {
            report: *self.reports.get(run)?,
            index: *point.results.first()?,
        })
    }

    /// The step into run `run` of kernel `k` as a comparison: the result before (the latest
    /// earlier run that launches it) and the one of this run.
    pub fn step_into(&self, k: usize, run: usize) -> Option<(ResultRef, ResultRef)> {
        let current = self.result_at(k, run)?;
        let before = (0..run).rev().find_map(|r| self.result_at(k, r))?;
        Some((before, current))
    }

    /// Whether kernel `k` regressed in the latest run.
    pub fn regressed(&self, k: usize) -> bool {
        let Some(kernel) = self.trend.kernels.get(k) else {
            return false;
        };
        self.regressions.iter().any(|r| r.kernel == kernel.name)
    }
}

/// What the trend was built for: the settled reports' generation, the order and the figure.
type TrendKey = (u64, SeriesOrder, TrendFigure);

/// The page's view-model.
pub struct TrendView {
    job: Job<TrendKey, TrendData>,
    pub choice: TrendChoice,
    /// The metric name being typed (charted once confirmed).
    pub metric_text: String,
    /// The metric names of the open reports, sorted, for the workspace generation they are of.
    metric_names: Option<(u64, Vec<&'static str>)>,
    /// Runs, or the "By size" view ([`crate::views::sweep`]).
    pub mode: crate::views::sweep::TrendMode,
    pub sweep: crate::views::sweep::SweepView,
}

impl Default for TrendView {
    fn default() -> Self {
        TrendView {
            job: Job::new("trend builder"),
            choice: TrendChoice::default(),
            metric_text: String::new(),
            metric_names: None,
            mode: Default::default(),
            sweep: Default::default(),
        }
    }
}

/// Where the page stands.
pub enum TrendStatus<'a> {
    /// Fewer than two reports are open.
    TooFew,
    Building,
    Ready(&'a TrendData),
    Failed(&'a str),
}

impl TrendView {
    /// What the page says of the open reports still being written, which are no runs yet.
    pub fn growing_note(workspace: &Workspace) -> Option<String> {
        let growing = workspace
            .reports()
            .iter()
            .filter(|o| o.is_growing())
            .count();
        match growing {
            0 => None,
            1 => Some(
                "1 report being written is not a run yet: it joins the series once it has \
                 settled."
                    .to_string(),
            ),
            n => Some(format!(
                "{n} reports being written are not runs yet: each joins the series once it \
                 has settled."
            )),
        }
    }

    /// The trend of the open reports, built in the background when they, the order or the
    /// figure changed; `wait` waits for it (screenshots, tests).
    ///
    /// (Reports still being written are left out: [`TrendView::growing_note`] says so.)
    pub fn status(
        &mut self,
        workspace: &Workspace,
        wait: bool,
        wake: impl Fn() + Send + 'static,
    ) -> TrendStatus<'_> {
        // A report still being written is no run until it has settled.
        let open: Vec<_> = workspace
            .reports()
            .iter()
            .filter(|o| !o.is_growing())
            .collect();
        if open.len() < 2 {
            return TrendStatus::TooFew;
        }
        let key = (
            workspace.settled_generation(),
            self.choice.order,
            self.choice.figure.clone(),
        );
        if !self.job.is_for(&key) {
            let reports: Vec<(ReportId, String, Arc<Report>)> = open
                .iter()
                .map(|o| (o.id, label_path(o), Arc::clone(&o.report)))
                .collect();
            let options = TrendOptions {
                order: self.choice.order,
                metric: self.choice.figure.metric(),
                steps: 0,
            };
            self.job
                .ensure(key, move |_| Ok(build(&reports, &options)), wake);
        }
        let status = if wait {
            self.job.wait()
        } else {
            self.job.poll()
        };
        match status {
            crate::job::Status::Ready(data) => TrendStatus::Ready(data),
            crate::job::Status::Failed(e) => TrendStatus::Failed(e),
            _ => TrendStatus::Building,
        }
    }

    /// The metric names of the open reports that contain what is typed (any case), those
    /// starting with it first, then the shorter; at most `limit`, none while nothing is typed.
    pub fn metric_completions(&mut self, workspace: &Workspace, limit: usize) -> Vec<&'static str> {
        let typed = self.metric_text.trim().to_ascii_lowercase();
        if typed.is_empty() {
            return Vec::new();
        }
        let generation = workspace.generation();
        if self
            .metric_names
            .as_ref()
            .is_none_or(|(g, _)| *g != generation)
        {
            let mut names: Vec<&'static str> = workspace
                .reports()
                .iter()
                .flat_map(|o| &o.report.results)
                .flat_map(|r| r.metrics().keys())
                .map(|k| k.as_str())
                .collect();
            names.sort_unstable();
            names.dedup();
            self.metric_names = Some((generation, names));
        }
        let names = self.metric_names.as_ref().map_or(&[][..], |(_, n)| n);
        let mut found: Vec<&'static str> = names
            .iter()
            .copied()
            .filter(|n| n.to_ascii_lowercase().contains(&typed))
            .collect();
        found.sort_by_key(|n| (!n.to_ascii_lowercase().starts_with(&typed), n.len()));
        found.truncate(limit);
        found
    }

    /// Charts the metric typed (the duration when nothing is typed).
    pub fn chart_typed_metric(&mut self) {
        let name = self.metric_text.trim();
        self.choice.figure = if name.is_empty() {
            TrendFigure::Duration
        } else {
            TrendFigure::Metric(name.to_string())
        };
    }

    /// Drops the trend (reports closed); it is built again when shown.
    pub fn release(&mut self) {
        self.job.clear();
    }
}

/// What a run is labelled by: its file's path, else its name.
fn label_path(open: &crate::core::workspace::OpenReport) -> String {
    open.path
        .as_ref()
        .map_or_else(|| open.name.clone(), |p| p.display().to_string())
}

/// Builds the trend of the open reports (id, path or name, report), with the default history
/// rule; runs are labelled by the part of their paths that differs.
fn build(reports: &[(ReportId, String, Arc<Report>)], options: &TrendOptions) -> TrendData {
    let refs: Vec<&Report> = reports.iter().map(|(_, _, r)| &**r).collect();
    let names: Vec<&str> = reports.iter().map(|(_, n, _)| n.as_str()).collect();
    let labels = crate::analysis::path_names::run_labels(&names);
    let t = trend(&refs, &labels, options);
    let rules = TrendRule::parse_list(DEFAULT_RULE).unwrap_or_default();
    let found = regressions(&t, &rules);
    // The open report of each run, in the order used.
    let ids = t
        .runs
        .iter()
        .filter_map(|run| reports.get(run.input).map(|(id, _, _)| *id))
        .collect();
    TrendData {
        trend: t,
        regressions: found,
        reports: ids,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn series() -> Vec<(ReportId, String, Arc<Report>)> {
        let dir = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("fixtures/series");
        (1..=5)
            .map(|v| {
                let path = dir.join(format!("v{v}.ncu-rep.xz"));
                let report = crate::parse::load_path(&path).expect("fixture");
                (ReportId(v), format!("v{v}.ncu-rep"), Arc::new(report))
            })
            .collect()
    }

    #[test]
    fn a_point_names_the_step_into_its_run_across_a_rename() {
        let reports = series();
        let data = build(&reports, &TrendOptions::default());
        let gemm = data
            .trend
            .kernels
            .iter()
            .position(|k| k.name == "gemm_tiled_2d")
            .expect("the GEMM");
        // v4 renamed the kernel: its step compares v3's gemm_step with v4's gemm_tiled_2d.
        let (before, current) = data.step_into(gemm, 3).expect("a step");
        assert_eq!(before.report, ReportId(3));
        assert_eq!(current.report, ReportId(4));
        let name = |at: ResultRef| {
            reports[at.report.0 as usize - 1].2.results[at.index]
                .name
                .function
                .clone()
        };
        assert_eq!(name(before), "gemm_step");
        assert_eq!(name(current), "gemm_tiled_2d");
        // The first run has no step into it.
        assert_eq!(data.step_into(gemm, 0), None);
        // Figures other than the duration come from the metric asked for.
        let sol = build(
            &reports,
            &TrendOptions {
                metric: TrendFigure::SolMemory.metric(),
                ..TrendOptions::default()
            },
        );
        let values = sol.values(gemm, &TrendFigure::SolMemory);
        let first = &reports[0].2.results[2];
        assert_eq!(values[0], first.number(names::SOL_MEMORY));
        assert!(!sol.regressed(gemm));
    }
}
