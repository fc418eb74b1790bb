//! A kernel's story across many runs: a series of reports (several files, a folder) in the
//! order given or by capture time, each kernel matched through the whole series by the
//! comparison model (renames included, so a kernel renamed at run 4 is one line), its launches
//! in each run aggregated (count, total, mean, min–max), the biggest steps between runs with
//! their one-line why, and regressions of the latest run against the runs before it
//! ([`regression`]). Reads only what the results table reads (names, shapes, head metrics).
//! A sweep ([`sweep`]) is a series whose axis is a parameter: versions of a kernel profiled at
//! several problem sizes, the sizes read from the reports' paths ([`sizes`]). Both are asked for
//! as a [`request::TrendRequest`].

pub mod readings;
pub mod regression;
pub mod request;
pub mod sizes;
pub mod sweep;

use crate::analysis::compare::matching::{RenamePolicy, launch_shape, match_results_with};
use crate::analysis::compare::why::explain;
use crate::analysis::compare::{DiffOptions, diff_results};
use crate::model::format::measured_text;
use crate::model::section_body::ReportBodies;
use crate::model::{KernelResult, MetricKey, Report, names};
use serde::Serialize;
use std::collections::HashMap;

/// How the runs of a series are ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum SeriesOrder {
    /// As the files were given (a folder: by file name).
    #[default]
    Given,
    /// By the time each report was captured (reports that say so; the others keep their place
    /// after them).
    Captured,
}

/// One run of the series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Run {
    /// What tells the run apart (the part of its file name the others do not share).
    pub label: String,
    /// The file it was read from.
    pub path: String,
    /// When it was captured (Unix seconds), where the report says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub captured: Option<u64>,
    /// Its position among the reports given.
    #[serde(skip)]
    pub input: usize,
}

/// A kernel's launches in one run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunPoint {
    /// The kernel's function name in that run.
    pub name: String,
    pub launches: usize,
    /// Durations, ns: the sum, the mean, the least and the most of the launches that have one;
    /// each `NaN` where a launch's duration is no number (see `damaged`).
    pub total_ns: f64,
    pub mean_ns: f64,
    pub min_ns: f64,
    pub max_ns: f64,
    /// The mean of the metric asked for, where the launches have it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<f64>,
    /// The launches whose duration is no number (`nan` in the report): damage, which makes
    /// the run's figures of the kernel no numbers either, so that every rule reading them fails.
    #[serde(skip_serializing_if = "is_zero")]
    pub damaged: usize,
    /// The launches' indices in their run's report.
    #[serde(skip)]
    pub results: Vec<usize>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A kernel through the series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct KernelTrend {
    /// Its identity while the series was matched.
    #[serde(skip)]
    pub id: usize,
    /// Its name in the last run it appears in.
    pub name: String,
    /// Every name it had, in order (more than one where it was renamed).
    pub names: Vec<String>,
    /// One per run, `None` where the run does not launch it.
    pub points: Vec<Option<RunPoint>>,
}

impl KernelTrend {
    /// The mean durations, one per run.
    pub fn means(&self) -> Vec<Option<f64>> {
        self.points
            .iter()
            .map(|p| p.as_ref().map(|p| p.mean_ns))
            .collect()
    }
}

/// A change of a kernel between two runs that follow each other.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// The kernel's identity while the series was matched.
    #[serde(skip)]
    pub id: usize,
    pub kernel: String,
    /// The runs (indices into [`Trend::runs`]) before and after.
    pub from: usize,
    pub to: usize,
    pub from_ns: f64,
    pub to_ns: f64,
    /// The change of the mean duration, %.
    pub change_pct: f64,
    /// What the comparison model says changed (its first why line), where it says something.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
    /// The results compared for the why: their indices in the reports of the runs before and
    /// after, where the comparison model paired them.
    #[serde(skip)]
    pub pair: Option<(usize, usize)>,
}

impl Step {
    /// The step in one line, `gemm_step v1 → v2: 2.30 ms → 416.22 us (-81.9%): why`, with
    /// the kernel's name passed through `code` and the other words through `text` (each form
    /// escapes its own way).
    pub fn line(
        &self,
        runs: &[Run],
        code: impl Fn(&str) -> String,
        text: impl Fn(&str) -> String,
    ) -> String {
        let label = |i: usize| runs.get(i).map_or(String::new(), |r| text(&r.label));
        format!(
            "{} {} \u{2192} {}: {} \u{2192} {} ({:+.1}%){}",
            code(&self.kernel),
            label(self.from),
            label(self.to),
            measured_text(self.from_ns, "ns"),
            measured_text(self.to_ns, "ns"),
            self.change_pct,
            self.why
                .as_ref()
                .map_or(String::new(), |w| format!(": {}", text(w)))
        )
    }
}

/// A series' trend table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Trend {
    pub runs: Vec<Run>,
    pub order: SeriesOrder,
    /// The order used, in words (and why, where capture times were asked for but missing).
    pub order_note: String,
    /// The metric aggregated beside the duration, if one was asked for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// Every kernel, the longest in the latest run first.
    pub kernels: Vec<KernelTrend>,
    /// The biggest steps between runs, largest first.
    pub steps: Vec<Step>,
}

/// What a trend is built with.
#[derive(Debug, Clone, Default)]
pub struct TrendOptions {
    pub order: SeriesOrder,
    /// A metric (by name) to aggregate beside the duration.
    pub metric: Option<String>,
    /// At most this many steps are listed (0: the default of 10).
    pub steps: usize,
}

/// Builds the trend of `reports` (with the labels of their runs), in the order asked for.
pub fn trend(reports: &[&Report], labels: &[String], options: &TrendOptions) -> Trend {
    let mut t = trend_table(reports, labels, options);
    explain_steps(&mut t, |input| reports.get(input).copied());
    t
}

/// [`trend`] without the why of its steps: what it reads of each report is what
/// [`detached`] keeps, so a long series can be read one report at a time and its steps
/// explained after ([`explain_steps`]) from the few runs they need.
pub fn trend_table(reports: &[&Report], labels: &[String], options: &TrendOptions) -> Trend {
    let (order, order_note) = run_order(reports, options.order);
    let runs: Vec<Run> = order
        .iter()
        .map(|&i| Run {
            label: labels.get(i).cloned().unwrap_or_default(),
            path: reports[i].source.display().to_string(),
            captured: reports[i].created,
            input: i,
        })
        .collect();
    let ordered: Vec<&Report> = order.iter().map(|&i| reports[i]).collect();
    // Kernel identities run by run: each run's functions take the identity of the function
    // the comparison model pairs them with in the run before, else one of their own.
    let mut identities: Vec<HashMap<String, usize>> = Vec::with_capacity(ordered.len());
    let mut kernel_count = 0usize;
    let mut by_name: HashMap<String, usize> = HashMap::new();
    // The pair behind each kernel's step into a run: (kernel, run) → (result before, after).
    let mut pairs: HashMap<(usize, usize), (usize, usize)> = HashMap::new();
    for (r, report) in ordered.iter().enumerate() {
        let mut ids: HashMap<String, usize> = HashMap::new();
        if r > 0 {
            let before = ordered[r - 1];
            let matching = match_results_with(
                &before.results,
                &report.results,
                &[],
                &RenamePolicy::default(),
            );
            for pair in &matching.pairs {
                let (Some(b), Some(c)) = (
                    before.results.get(pair.base),
                    report.results.get(pair.current),
                ) else {
                    continue;
                };
                let Some(&id) = identities[r - 1].get(&function(b)) else {
                    continue;
                };
                ids.entry(function(c)).or_insert(id);
                pairs.entry((id, r)).or_insert((pair.base, pair.current));
            }
        }
        for result in &report.results {
            let name = function(result);
            if ids.contains_key(&name) {
                continue;
            }
            // A name seen before (the kernel left and came back) keeps its identity.
            let id = *by_name.entry(name.clone()).or_insert_with(|| {
                kernel_count += 1;
                kernel_count - 1
            });
            ids.insert(name, id);
        }
        for (name, &id) in &ids {
            by_name.insert(name.clone(), id);
        }
        identities.push(ids);
    }
    let mut kernels: Vec<KernelTrend> = (0..kernel_count)
        .map(|id| KernelTrend {
            id,
            name: String::new(),
            names: Vec::new(),
            points: vec![None; ordered.len()],
        })
        .collect();
    for (r, report) in ordered.iter().enumerate() {
        let mut launches: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, result) in report.results.iter().enumerate() {
            if let Some(&id) = identities[r].get(&function(result)) {
                launches.entry(id).or_default().push(i);
            }
        }
        for (id, indices) in launches {
            let Some(k) = kernels.get_mut(id) else {
                continue;
            };
            let results: Vec<&KernelResult> = indices
                .iter()
                .filter_map(|&i| report.results.get(i))
                .collect();
            let mut point = aggregate(&results, options.metric.as_deref());
            point.results = indices;
            if !k.names.contains(&point.name) {
                k.names.push(point.name.clone());
            }
            k.name = point.name.clone();
            k.points[r] = Some(point);
        }
    }
    kernels.retain(|k| k.points.iter().any(Option::is_some));
    kernels.sort_by(|a, b| {
        latest_total(b)
            .total_cmp(&latest_total(a))
            .then(a.name.cmp(&b.name))
    });
    let mut steps = biggest_steps(&kernels, options.steps);
    for step in &mut steps {
        step.pair = pairs.get(&(step.id, step.to)).copied();
    }
    Trend {
        runs,
        order: options.order,
        order_note,
        metric: options.metric.clone(),
        kernels,
        steps,
    }
}

/// The runs (their places among the reports given, [`Run::input`]) whose reports
/// [`explain_steps`] reads.
pub fn runs_to_explain(t: &Trend) -> Vec<usize> {
    let mut inputs: Vec<usize> = t
        .steps
        .iter()
        .filter(|s| s.pair.is_some())
        .flat_map(|s| [s.from, s.to])
        .filter_map(|r| t.runs.get(r).map(|run| run.input))
        .collect();
    inputs.sort_unstable();
    inputs.dedup();
    inputs
}

/// What the comparison model says of each step listed: the step's two results compared, their
/// bodies read from the report of each run (`report_of` gives it by [`Run::input`]; a run it
/// does not give leaves its steps without a why).
pub fn explain_steps<'a>(t: &mut Trend, report_of: impl Fn(usize) -> Option<&'a Report>) {
    for step in &mut t.steps {
        let report = |run: usize| t.runs.get(run).and_then(|r| report_of(r.input));
        let Some((before, after)) = report(step.from).zip(report(step.to)) else {
            continue;
        };
        if let Some((b, c)) = step
            .pair
            .and_then(|(b, c)| Some((before.results.get(b)?, after.results.get(c)?)))
        {
            let speed = diff_results(b, c, &DiffOptions::default()).speed();
            step.why = explain(b, c, speed).first().map(|w| w.text.clone());
        }
    }
}

/// A copy of `report` holding what a trend reads of it and nothing that reads its file: each
/// result's identity, launch shape and head figures, and the value of `metric` where asked
/// (the bodies are read for it now). The copy keeps no file open, so a series of thousands of
/// reports can be read one report at a time. Nor does it keep the top rule, which a trend does
/// not chart (its advice was 0.7 of the 2.4 KB a copy held per result); the steps a trend
/// explains are read again whole.
pub fn detached(report: &Report, metric: Option<&str>) -> Report {
    detached_keeping(report, metric.as_slice())
}

/// [`detached`] keeping the values of several metrics (those a sweep's FLOP/s reads).
pub fn detached_keeping(report: &Report, metrics: &[&str]) -> Report {
    let results = report
        .results
        .iter()
        .map(|r| {
            let mut copy = r.head_only().unwrap_or_else(|| r.clone());
            copy.body_mut().rules = Vec::new();
            if (copy.grid.is_none() || copy.block.is_none())
                && let Some((grid, block)) = launch_shape(r)
            {
                copy.grid = Some(grid);
                copy.block = Some(block);
            }
            for m in metrics {
                if let Some(value) = r.metric(m).map(|v| v.to_metric()) {
                    copy.body_mut().metrics.insert(MetricKey::new(m), value);
                }
            }
            copy
        })
        .collect();
    let mut copy = report.with_results(results, ReportBodies::None);
    // What the bodies read so far held that the reader passed over stays said.
    copy.notes = report.all_notes();
    copy
}

/// The function name a result is matched and grouped by.
pub(crate) fn function(result: &KernelResult) -> String {
    result.name.function.clone()
}

/// The order of the runs and how it was decided.
fn run_order(reports: &[&Report], order: SeriesOrder) -> (Vec<usize>, String) {
    let given: Vec<usize> = (0..reports.len()).collect();
    if order == SeriesOrder::Given {
        return (given, "in the order given".into());
    }
    let missing = reports.iter().filter(|r| r.created.is_none()).count();
    let mut by_time = given;
    by_time.sort_by_key(|&i| (reports[i].created.is_none(), reports[i].created, i));
    let note = if missing == 0 {
        "by capture time".to_string()
    } else {
        format!(
            "by capture time; {missing} of {} runs do not say when they were captured and keep \
             their order after the others",
            reports.len()
        )
    };
    (by_time, note)
}

/// The launches of one kernel in one run, aggregated. A launch without a duration is left
/// out of the figures; one whose duration is no number makes them no numbers (damage).
pub(crate) fn aggregate(results: &[&KernelResult], metric: Option<&str>) -> RunPoint {
    let durations: Vec<f64> = results
        .iter()
        .filter_map(|r| r.number(names::DURATION))
        .collect();
    let damaged = durations.iter().filter(|d| !d.is_finite()).count();
    let total: f64 = durations.iter().sum();
    let n = durations.len().max(1) as f64;
    let metric = metric.and_then(|m| {
        let values: Vec<f64> = results
            .iter()
            .filter_map(|r| r.number(m))
            .filter(|v| v.is_finite())
            .collect();
        (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
    });
    let (min, max) = if damaged > 0 {
        (f64::NAN, f64::NAN)
    } else {
        (
            durations
                .iter()
                .copied()
                .fold(f64::INFINITY, f64::min)
                .min(total),
            durations.iter().copied().fold(0.0, f64::max),
        )
    };
    RunPoint {
        name: results.first().map(|r| function(r)).unwrap_or_default(),
        launches: results.len(),
        total_ns: if damaged > 0 { f64::NAN } else { total },
        mean_ns: if damaged > 0 { f64::NAN } else { total / n },
        min_ns: min,
        max_ns: max,
        metric,
        damaged,
        results: Vec::new(),
    }
}

fn latest_total(k: &KernelTrend) -> f64 {
    k.points
        .iter()
        .rev()
        .find_map(|p| p.as_ref().map(|p| p.total_ns))
        .unwrap_or(0.0)
}

/// The largest relative changes of a kernel's mean duration between runs that follow each
/// other.
fn biggest_steps(kernels: &[KernelTrend], limit: usize) -> Vec<Step> {
    let limit = if limit == 0 { 10 } else { limit };
    let mut steps = Vec::new();
    for k in kernels {
        for to in 1..k.points.len() {
            let (Some(a), Some(b)) = (&k.points[to - 1], &k.points[to]) else {
                continue;
            };
            // A damaged mean (no number) is no step: the rules name it.
            if a.mean_ns <= 0.0 || !a.mean_ns.is_finite() || !b.mean_ns.is_finite() {
                continue;
            }
            // The kernel as it was called then (a rename in this step shows both names).
            let kernel = if a.name == b.name {
                b.name.clone()
            } else {
                format!("{} \u{2192} {}", a.name, b.name)
            };
            steps.push(Step {
                id: k.id,
                kernel,
                from: to - 1,
                to,
                from_ns: a.mean_ns,
                to_ns: b.mean_ns,
                change_pct: (b.mean_ns - a.mean_ns) / a.mean_ns * 100.0,
                why: None,
                pair: None,
            });
        }
    }
    steps.sort_by(|a, b| b.change_pct.abs().total_cmp(&a.change_pct.abs()));
    steps.truncate(limit);
    steps
}

/// Whether the values that are numbers above zero span more than tenfold: a chart of them
/// reads on a log scale (a linear one would press the small ones onto its axis).
pub fn spans_decades(values: impl IntoIterator<Item = f64>) -> bool {
    let (lo, hi) = values
        .into_iter()
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    lo.is_finite() && hi > 10.0 * lo
}

/// The least and the most of the values that are numbers (a damaged value, NaN or an
/// infinity, is left out); `(inf, -inf)` when there is none. What a small line of the runs
/// scales to.
pub fn finite_range(values: &[Option<f64>]) -> (f64, f64) {
    values
        .iter()
        .flatten()
        .copied()
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn series() -> Vec<PathBuf> {
        (1..=5)
            .map(|v| {
                PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join(format!("../../fixtures/series/v{v}.ncu-rep.xz"))
            })
            .collect()
    }

    /// A series read one report at a time (each reduced to what a trend reads and let go, the
    /// runs of the steps read again for their why) is the trend of the reports held whole.
    #[test]
    fn a_series_read_one_report_at_a_time_is_the_same_trend() {
        let files = series();
        let labels: Vec<String> = (1..=5).map(|v| format!("v{v}")).collect();
        let options = TrendOptions {
            order: SeriesOrder::Captured,
            metric: Some("sm__throughput.avg.pct_of_peak_sustained_elapsed".into()),
            steps: 0,
        };
        let whole: Vec<Report> = files
            .iter()
            .map(|f| crate::parse::load_path(f).expect("a real report"))
            .collect();
        let expected = trend(&whole.iter().collect::<Vec<_>>(), &labels, &options);
        assert!(expected.steps.iter().any(|s| s.why.is_some()));
        assert!(
            expected
                .kernels
                .iter()
                .any(|k| k.points.iter().flatten().any(|p| p.metric.is_some()))
        );
        let copies: Vec<Report> = whole
            .iter()
            .map(|r| detached(r, options.metric.as_deref()))
            .collect();
        drop(whole);
        assert!(
            copies
                .iter()
                .flat_map(|r| &r.results)
                .all(|r| r.content.source().is_none()),
            "a copy reads nothing from its file"
        );
        let mut t = trend_table(&copies.iter().collect::<Vec<_>>(), &labels, &options);
        let again: Vec<(usize, Report)> = runs_to_explain(&t)
            .into_iter()
            .map(|i| (i, crate::parse::load_path(&files[i]).expect("read again")))
            .collect();
        explain_steps(&mut t, |input| {
            again.iter().find(|(i, _)| *i == input).map(|(_, r)| r)
        });
        assert_eq!(t, expected);
    }
}
