//! The Trend page's "By size" view ([`SweepView`]): the open reports read as a sweep over
//! problem sizes (versions of a program each profiled at several sizes, the size in each
//! report's path: `N=1024/v1.ncu-rep`, or a pattern typed on the page), built on a [`Job`] by
//! `analysis::series::sweep`; for the kernel and figure chosen, a line per version of the
//! figure against the size (log axes where the values span more than tenfold) and the table
//! behind it.

use crate::analysis::series::sizes::SizePattern;
use crate::analysis::series::spans_decades;
use crate::analysis::series::sweep::{Sweep, SweepFigure, SweepKernel, SweepOptions, sweep};
use crate::core::workspace::Workspace;
use crate::job::Job;
use crate::model::Report;
use crate::output::sweep_tables::cell_text;
use std::path::PathBuf;
use std::sync::Arc;

/// What the Trend page shows: the open reports as runs of a series, or by size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TrendMode {
    #[default]
    Runs,
    BySize,
}

/// The figures the view charts, and what they are called.
pub const FIGURES: [(SweepFigure, &str); 2] = [
    (SweepFigure::Duration, "Duration"),
    (SweepFigure::FlopRate, "Achieved FLOP/s"),
];

/// What the user chose.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SweepChoice {
    pub figure: SweepFigure,
    /// The kernel charted (index into the sweep's kernels).
    pub kernel: Option<usize>,
}

impl Default for SweepChoice {
    fn default() -> Self {
        SweepChoice {
            figure: SweepFigure::Duration,
            kernel: None,
        }
    }
}

/// One version's line: (size, value) in plot coordinates (the log10 of each where its axis is
/// logarithmic); values that are no number are left out.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepChartLine {
    pub version: String,
    pub points: Vec<[f64; 2]>,
}

/// A kernel's figure against the size, ready to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepChart {
    pub lines: Vec<SweepChartLine>,
    /// The sizes, in plot coordinates (where the axis marks them).
    pub size_marks: Vec<f64>,
    pub log_x: bool,
    pub log_y: bool,
    /// The base unit of the values.
    pub unit: &'static str,
}

impl SweepChart {
    /// A plot coordinate back to the value it stands for.
    pub fn value(plot: f64, log: bool) -> f64 {
        if log { 10f64.powf(plot) } else { plot }
    }
}

/// The sweep of the open reports.
#[derive(Debug)]
pub struct SweepData {
    pub sweep: Sweep,
}

impl SweepData {
    fn kernel(&self, k: usize) -> Option<&SweepKernel> {
        self.sweep.kernels.get(k)
    }

    /// Kernel `k`'s figure against the size, a line per version.
    pub fn chart(&self, k: usize, figure: SweepFigure) -> SweepChart {
        let Some(kernel) = self.kernel(k) else {
            return SweepChart {
                lines: Vec::new(),
                size_marks: Vec::new(),
                log_x: false,
                log_y: false,
                unit: figure.unit(),
            };
        };
        let sizes: Vec<f64> = self.sweep.sizes.iter().map(|&s| s as f64).collect();
        let log_x = spans_decades(sizes.iter().copied());
        let values: Vec<f64> = kernel
            .lines
            .iter()
            .flat_map(|l| l.points.iter().flatten())
            .filter_map(|p| figure.value(p))
            .filter(|v| v.is_finite())
            .collect();
        let log_y = values.iter().all(|v| *v > 0.0) && spans_decades(values.iter().copied());
        let at = |v: f64, log: bool| if log { v.log10() } else { v };
        let lines = kernel
            .lines
            .iter()
            .map(|line| SweepChartLine {
                version: line.version.clone(),
                points: sizes
                    .iter()
                    .zip(&line.points)
                    .filter_map(|(&size, p)| {
                        let v = figure.value(p.as_ref()?)?;
                        v.is_finite().then(|| [at(size, log_x), at(v, log_y)])
                    })
                    .collect(),
            })
            .collect();
        SweepChart {
            lines,
            size_marks: sizes.iter().map(|&s| at(s, log_x)).collect(),
            log_x,
            log_y,
            unit: figure.unit(),
        }
    }

    /// The table behind the chart: the column heads (`N=256`), then a row per version with
    /// its value at each size as text.
    pub fn table(
        &self,
        k: usize,
        figure: SweepFigure,
    ) -> (Vec<String>, Vec<(String, Vec<String>)>) {
        let heads = (0..self.sweep.sizes.len())
            .map(|i| self.sweep.size_label(i))
            .collect();
        let rows = self.kernel(k).map_or_else(Vec::new, |kernel| {
            kernel
                .lines
                .iter()
                .map(|line| {
                    let cells = line
                        .points
                        .iter()
                        .map(|p| cell_text(figure, p.as_ref().and_then(|p| figure.value(p))))
                        .collect();
                    (line.version.clone(), cells)
                })
                .collect()
        });
        (heads, rows)
    }
}

/// What the sweep was built for: the open reports' generation and the size pattern.
type SweepKey = (u64, Option<String>);

/// The view-model.
pub struct SweepView {
    job: Job<SweepKey, SweepData>,
    pub choice: SweepChoice,
    /// The size pattern being typed (read once confirmed; empty: folders named by size).
    pub pattern_text: String,
    pattern: Option<String>,
}

impl Default for SweepView {
    fn default() -> Self {
        SweepView {
            job: Job::new("sweep builder"),
            choice: SweepChoice::default(),
            pattern_text: String::new(),
            pattern: None,
        }
    }
}

/// Where the view stands.
pub enum SweepStatus<'a> {
    /// Fewer than two reports are open.
    TooFew,
    Building,
    Ready(&'a SweepData),
    /// The sweep cannot be built (a pattern that cannot be read, a single size, two reports
    /// of one version at one size): why.
    Failed(&'a str),
}

impl SweepView {
    /// The sweep of the open reports, built in the background when they or the confirmed
    /// pattern changed; `wait` waits for it (screenshots, tests).
    pub fn status(
        &mut self,
        workspace: &Workspace,
        wait: bool,
        wake: impl Fn() + Send + 'static,
    ) -> SweepStatus<'_> {
        let open = workspace.reports();
        if open.len() < 2 {
            return SweepStatus::TooFew;
        }
        let key = (workspace.generation(), self.pattern.clone());
        if !self.job.is_for(&key) {
            let reports: Vec<(PathBuf, Arc<Report>)> = open
                .iter()
                .map(|o| {
                    let path = o.path.clone().unwrap_or_else(|| PathBuf::from(&o.name));
                    (path, Arc::clone(&o.report))
                })
                .collect();
            let pattern = self.pattern.clone();
            self.job
                .ensure(key, move |_| build(&reports, pattern.as_deref()), wake);
        }
        let status = if wait {
            self.job.wait()
        } else {
            self.job.poll()
        };
        match status {
            crate::job::Status::Ready(data) => SweepStatus::Ready(data),
            crate::job::Status::Failed(e) => SweepStatus::Failed(e),
            _ => SweepStatus::Building,
        }
    }

    /// Reads the sizes with the pattern typed (folders named by size when nothing is typed).
    pub fn confirm_pattern(&mut self) {
        let typed = self.pattern_text.trim();
        self.pattern = (!typed.is_empty()).then(|| typed.to_string());
    }

    /// The pattern the sweep is read with, where one was confirmed.
    pub fn pattern(&self) -> Option<&str> {
        self.pattern.as_deref()
    }

    /// Drops the sweep (reports closed); it is built again when shown.
    pub fn release(&mut self) {
        self.job.clear();
    }
}

/// Builds the sweep of the open reports (their files and reports).
pub fn build(
    reports: &[(PathBuf, Arc<Report>)],
    pattern: Option<&str>,
) -> Result<SweepData, String> {
    let pattern = match pattern {
        None => SizePattern::Named,
        Some(p) => SizePattern::parse(p).map_err(|e| e.to_string())?,
    };
    let refs: Vec<&Report> = reports.iter().map(|(_, r)| &**r).collect();
    let paths: Vec<&PathBuf> = reports.iter().map(|(p, _)| p).collect();
    let options = SweepOptions {
        pattern,
        metric: None,
    };
    // Refused: why, and the reports that had no place (the likely reason).
    let s = sweep(&refs, &paths, &options).map_err(|e| {
        std::iter::once(e.to_string())
            .chain(e.left_out().iter().cloned())
            .collect::<Vec<_>>()
            .join("\n")
    })?;
    Ok(SweepData { sweep: s })
}
