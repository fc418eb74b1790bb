//! What the Trend page shows of the trend, ready to draw: the row of each kernel in the table
//! (its names shortened, its latest mean duration, the change from the run before judged, its
//! share of the reference kernel's), and the chosen kernel's chart and runs (each run's value
//! as measured and as a percentage of the first run's, of the fastest run's and of the
//! reference kernel's in the same run; the value scale, linear, logarithmic or chosen by the
//! values' span; the latest run against the run before, the first and the fastest). Pure
//! functions of the trend, the page's choices and the noise threshold.

use super::{TrendChoice, TrendData, TrendFigure};
use crate::analysis::compare::Verdict;
use crate::analysis::compare::direction::{Direction, direction_of};
use crate::analysis::compare::metric_diff::Speed;
use crate::analysis::series::readings::{
    self, Judge, Judged, LatestChanges, Scale, auto_scale, drawable, least_run, percent_of,
    percents_of, percents_of_each, verdict,
};
use crate::model::names;
use crate::output::kernel_names::{rename_chain, whole_chain};

/// The value scale asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ScaleChoice {
    /// Logarithmic where the charted values span more than ten times, else linear.
    #[default]
    Auto,
    Linear,
    Log,
}

impl ScaleChoice {
    pub const ALL: [ScaleChoice; 3] = [ScaleChoice::Auto, ScaleChoice::Linear, ScaleChoice::Log];
}

/// What the chart's values are.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Reading {
    /// The figure as measured.
    #[default]
    Measured,
    /// A percentage of the kernel's first run.
    OfFirst,
    /// A percentage of the kernel's fastest run (the least mean duration).
    OfBest,
    /// A percentage of the reference kernel's value in the same run.
    OfReference,
}

impl Reading {
    pub const ALL: [Reading; 4] = [
        Reading::Measured,
        Reading::OfFirst,
        Reading::OfBest,
        Reading::OfReference,
    ];
}

impl TrendFigure {
    /// The way the figure improves (the duration: down; a metric: as the comparison's
    /// direction table says).
    pub fn direction(&self) -> Direction {
        match self {
            TrendFigure::Duration => Direction::Lower,
            TrendFigure::SolCompute => direction_of(names::SOL_COMPUTE),
            TrendFigure::SolMemory => direction_of(names::SOL_MEMORY),
            TrendFigure::Occupancy => direction_of(names::ACHIEVED_OCCUPANCY),
            TrendFigure::Metric(m) => direction_of(m),
        }
    }
}

/// A kernel's row in the table.
#[derive(Debug, Clone, PartialEq)]
pub struct KernelRow {
    /// Its names, a chain of more than two shortened (`first → … → last`), and whole.
    pub label: String,
    pub whole: String,
    /// Its mean duration in each run.
    pub means: Vec<Option<f64>>,
    /// Its mean duration in the latest run of the series.
    pub latest: Option<f64>,
    /// The latest run against the run before it that launches the kernel.
    pub change: Option<Judged>,
    /// The latest mean duration as a percentage of the reference kernel's in that run.
    pub of_reference: Option<f64>,
    pub is_reference: bool,
    /// Whether the history rule found the latest run a regression.
    pub regressed: bool,
}

/// One run of the chosen kernel.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReading {
    /// The run (index into the trend's runs).
    pub run: usize,
    /// The kernel's name in that run, where the run launches it.
    pub name: Option<String>,
    /// The figure as measured.
    pub measured: Option<f64>,
    /// The value charted (as the reading asks).
    pub shown: Option<f64>,
    pub of_first: Option<f64>,
    pub of_best: Option<f64>,
    pub of_reference: Option<f64>,
    /// The change from the run before it that has a value.
    pub step: Option<Judged>,
}

/// The reference kernel of the chart.
#[derive(Debug, Clone, PartialEq)]
pub struct ReferenceLine {
    /// Index into the trend's kernels.
    pub kernel: usize,
    pub label: String,
    pub whole: String,
    /// Its figure in each run, as measured.
    pub values: Vec<Option<f64>>,
    /// Whether its values are charted beside the kernel's (when they are as measured).
    pub drawn: bool,
}

/// The chosen kernel's chart and runs.
#[derive(Debug, Clone, PartialEq)]
pub struct TrendChart {
    /// Index into the trend's kernels.
    pub kernel: usize,
    pub label: String,
    pub whole: String,
    /// The reading charted: a percentage of the reference needs one, else the values are as
    /// measured.
    pub reading: Reading,
    /// The unit of the charted values: the figure's, or `%`.
    pub unit: &'static str,
    /// The scale drawn, and the one the values' span chooses.
    pub scale: Scale,
    pub auto_scale: Scale,
    pub runs: Vec<RunReading>,
    /// The kernel's first run and its fastest, where it has them.
    pub first_run: Option<usize>,
    pub best_run: Option<usize>,
    pub reference: Option<ReferenceLine>,
    pub latest: Option<LatestChanges>,
    /// Runs with a measured value that the reading has no value for (the reference kernel or
    /// the base is missing there).
    pub unread: usize,
    /// Values the scale cannot place (zero or below on a log axis).
    pub off_scale: usize,
}

impl TrendData {
    /// The kernel that has (or had) the name `name`.
    pub fn kernel_named(&self, name: &str) -> Option<usize> {
        self.trend
            .kernels
            .iter()
            .position(|k| k.names.iter().any(|n| n == name))
    }

    /// The reference kernel chosen, where the trend has it.
    pub fn reference(&self, choice: &TrendChoice) -> Option<usize> {
        self.kernel_named(choice.reference.as_deref()?)
    }

    /// The table's rows, one per kernel, with their share of the `reference` kernel's
    /// duration; changes within `threshold_pct` are none.
    pub fn rows(&self, reference: Option<usize>, threshold_pct: f64) -> Vec<KernelRow> {
        let reference_means = reference
            .and_then(|r| self.trend.kernels.get(r))
            .map(|k| k.means());
        self.trend
            .kernels
            .iter()
            .enumerate()
            .map(|(k, kernel)| {
                let means = kernel.means();
                let last = means.len().checked_sub(1);
                let latest = last.and_then(|l| means[l]);
                let judge = Judge {
                    direction: Direction::Lower,
                    threshold_pct,
                    means: &means,
                };
                let change = last.filter(|_| latest.is_some()).and_then(|l| {
                    let before = readings::last_run(&means[..l])?;
                    judge.between(&means, before, l)
                });
                let of_reference = reference_means
                    .as_ref()
                    .and_then(|r| percent_of(latest?, r.get(last?).copied().flatten()?));
                KernelRow {
                    label: rename_chain(&kernel.names),
                    whole: whole_chain(&kernel.names),
                    latest,
                    change,
                    of_reference,
                    is_reference: reference == Some(k),
                    regressed: self.regressed(k),
                    means,
                }
            })
            .collect()
    }

    /// The verdict of each of the biggest steps (a kernel slower beyond `threshold_pct` is
    /// worse), in their order.
    pub fn step_verdicts(&self, threshold_pct: f64) -> Vec<Verdict> {
        self.trend
            .steps
            .iter()
            .map(|s| {
                verdict(
                    s.change_pct,
                    Direction::Lower,
                    Speed::Unknown,
                    threshold_pct,
                )
            })
            .collect()
    }

    /// Kernel `k`'s chart for the page's choices; changes within `threshold_pct` are none.
    pub fn chart(&self, k: usize, choice: &TrendChoice, threshold_pct: f64) -> Option<TrendChart> {
        let kernel = self.trend.kernels.get(k)?;
        let figure = &choice.figure;
        let values = self.values(k, figure);
        let means = kernel.means();
        let reference = self.reference(choice).map(|r| {
            let names = &self.trend.kernels[r].names;
            ReferenceLine {
                kernel: r,
                label: rename_chain(names),
                whole: whole_chain(names),
                values: self.values(r, figure),
                drawn: false,
            }
        });
        let reading = match (choice.reading, &reference) {
            (Reading::OfReference, None) => Reading::Measured,
            (reading, _) => reading,
        };
        let first_run = readings::first_run(&values);
        // The fastest of the runs that have the figure.
        let timed: Vec<Option<f64>> = means.iter().zip(&values).map(|(m, v)| v.and(*m)).collect();
        let best_run = least_run(&timed);
        let at = |run: Option<usize>| run.and_then(|r| values.get(r).copied().flatten());
        let of_first = percents_of(&values, at(first_run));
        let of_best = percents_of(&values, at(best_run));
        let of_reference = match &reference {
            Some(r) => percents_of_each(&values, &r.values),
            None => vec![None; values.len()],
        };
        let shown: Vec<Option<f64>> = match reading {
            Reading::Measured => values.clone(),
            Reading::OfFirst => of_first.clone(),
            Reading::OfBest => of_best.clone(),
            Reading::OfReference => of_reference.clone(),
        };
        let reference = reference.map(|r| ReferenceLine {
            drawn: reading == Reading::Measured && r.kernel != k,
            ..r
        });
        // The scale shows every value charted: the reference's too where it is drawn.
        let mut charted = shown.clone();
        if let Some(r) = reference.as_ref().filter(|r| r.drawn) {
            charted.extend_from_slice(&r.values);
        }
        let auto = auto_scale(&charted);
        let scale = match choice.scale {
            ScaleChoice::Auto => auto,
            ScaleChoice::Linear => Scale::Linear,
            ScaleChoice::Log => Scale::Log,
        };
        let judge = Judge {
            direction: figure.direction(),
            threshold_pct,
            means: &means,
        };
        let steps = judge.steps(&values);
        let runs = (0..values.len())
            .map(|run| RunReading {
                run,
                name: kernel.points[run].as_ref().map(|p| p.name.clone()),
                measured: values[run],
                shown: shown[run],
                of_first: of_first[run],
                of_best: of_best[run],
                of_reference: of_reference[run],
                step: steps[run],
            })
            .collect::<Vec<_>>();
        let unread = runs
            .iter()
            .filter(|r| r.measured.is_some_and(f64::is_finite) && r.shown.is_none())
            .count();
        let off_scale = charted
            .iter()
            .flatten()
            .filter(|v| v.is_finite() && !drawable(**v, scale))
            .count();
        Some(TrendChart {
            kernel: k,
            label: rename_chain(&kernel.names),
            whole: whole_chain(&kernel.names),
            reading,
            unit: if reading == Reading::Measured {
                figure.unit()
            } else {
                "%"
            },
            scale,
            auto_scale: auto,
            latest: judge.latest_changes(&values, best_run),
            runs,
            first_run,
            best_run,
            reference,
            unread,
            off_scale,
        })
    }
}
