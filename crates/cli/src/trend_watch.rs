//! `sightline trend --watch DIR`: the trend of a folder as its reports arrive, for a terminal
//! next to `ncu` and for a CI log. The reports already there are the first runs (by name);
//! each report written later is a run once it has settled (ncu finished, its writer closed
//! it, or it stayed the same for `--settle` seconds: the engine's `parse::arrival`, the same
//! rules as the window's followed folder). For each run settled it prints its label, the
//! kernels' mean durations, each one's step from the run before that launches it, and the
//! regressions of the `--fail-on` rules when it is the latest run; a report written again is
//! the same run, printed again. A report still being written is said once on standard error.
//! It runs until interrupted; each run's lines are flushed as they are printed.

use crate::analysis::path_names::run_labels;
use crate::analysis::series::regression::{TrendRule, regressions};
use crate::analysis::series::{SeriesOrder, Trend, TrendOptions, detached, trend_table};
use crate::model::Report;
use crate::model::format::{NOT_MEASURED, count_text, measured_text};
use crate::model::safe_text;
use crate::output::arrival_text::{settled_text, writer_text};
use crate::output::trend_json::regression_text;
use crate::parse;
use crate::parse::arrival::{Arrival, FolderFollow, FollowEvent, SettleTimes};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The runs so far: each report file once, in the order they settled.
struct Series {
    paths: Vec<PathBuf>,
    /// Each run's report, reduced to what the trend reads (no file kept open).
    reports: Vec<Report>,
    options: TrendOptions,
    rules: Vec<(String, TrendRule)>,
}

impl Series {
    /// Takes the report of `path` as a run (replacing the run of the same path); its place.
    fn put(&mut self, path: &Path, report: Report) -> (usize, bool) {
        match self.paths.iter().position(|p| p == path) {
            Some(i) => {
                self.reports[i] = report;
                (i, true)
            }
            None => {
                self.paths.push(path.to_path_buf());
                self.reports.push(report);
                (self.paths.len() - 1, false)
            }
        }
    }

    fn trend(&self) -> Trend {
        let labels = run_labels(&self.paths);
        let refs: Vec<&Report> = self.reports.iter().collect();
        trend_table(&refs, &labels, &self.options)
    }
}

/// Follows `dir` until interrupted (or standard output is closed); 2 when the folder cannot
/// be followed.
pub fn watch(
    dir: &Path,
    order: SeriesOrder,
    metric: Option<String>,
    rules: Vec<(String, TrendRule)>,
    settle: Duration,
) -> i32 {
    let mut follow = match FolderFollow::new(dir, SettleTimes::with_settle(settle)) {
        Ok(f) => f,
        Err(e) => {
            crate::warnings::tell(
                "error",
                format!(
                    "{}: {}",
                    dir.display(),
                    crate::parse::open_files::io_error_text(&e)
                ),
            );
            return 2;
        }
    };
    let how = match follow.polling() {
        Some(why) => format!("looked at every few seconds: {why}"),
        None => "on change notifications".into(),
    };
    eprintln!(
        "Watching {} ({how}): each report is a run once it has settled (ncu finished, its \
         writer closed it, or no growth for {} s). Ctrl+C stops.",
        safe_text::visible(&dir.display().to_string()),
        settle.as_secs_f64()
    );
    let mut series = Series {
        paths: Vec::new(),
        reports: Vec::new(),
        options: TrendOptions {
            order,
            metric: metric.clone(),
            steps: 0,
        },
        rules,
    };
    while let Some(event) = follow.wait() {
        let arrivals = match event {
            FollowEvent::Unlisted(text) => {
                crate::warnings::tell("error", text);
                continue;
            }
            FollowEvent::Arrived(arrivals) => arrivals,
        };
        // Those growing are said; those settled are read on every core (a folder of
        // thousands of reports at the start is one batch, one trend) and printed in order.
        let mut settled = Vec::new();
        for arrival in arrivals {
            match arrival {
                Arrival::Growing { path, writer } => {
                    let by =
                        writer.map_or_else(String::new, |w| format!(" by {}", writer_text(&w)));
                    eprintln!(
                        "{}: being written{by}; a run once it has settled",
                        safe_text::visible(&path.display().to_string())
                    );
                }
                Arrival::Settled { path, by } => settled.push((path, by)),
            }
        }
        let read: Vec<Result<Report, parse::LoadError>> = {
            use rayon::prelude::*;
            settled
                .par_iter()
                .map(|(path, _)| parse::load_path(path).map(|r| detached(&r, metric.as_deref())))
                .collect()
        };
        let mut runs = Vec::new();
        for ((path, by), report) in settled.iter().zip(read) {
            match report {
                Ok(report) => {
                    let (at, again) = series.put(path, report);
                    runs.push((at, again, settled_text(by)));
                }
                Err(e) => crate::warnings::tell("error", e),
            }
        }
        if runs.is_empty() {
            continue;
        }
        let t = series.trend();
        let mut text = String::new();
        for (at, again, how) in &runs {
            text.push_str(&run_text(&series, &t, *at, *again, how));
        }
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        if out
            .write_all(text.as_bytes())
            .and_then(|()| out.flush())
            .is_err()
        {
            // Standard output closed (a pipe's reader gone): nothing more to say.
            return 0;
        }
    }
    0
}

/// The lines of run `at` (its place among the files): label, how it settled, each kernel's
/// mean duration and step from the run before that launches it, and, for the latest run, the
/// regressions.
fn run_text(series: &Series, t: &Trend, at: usize, again: bool, settled: &str) -> String {
    let Some(run) = t.runs.iter().position(|r| r.input == at) else {
        return String::new();
    };
    let label = safe_text::visible(&t.runs[run].label).into_owned();
    let results = series.reports.get(at).map_or(0, |r| r.results.len());
    let mut out = format!(
        "run {} of {}: {label}{} ({}; settled: {settled})\n",
        run + 1,
        t.runs.len(),
        if again { ", written again" } else { "" },
        count_text(results, "result", "results"),
    );
    let mut rows = vec![vec![
        "KERNEL".to_string(),
        "MEAN".to_string(),
        "STEP".to_string(),
    ]];
    for k in &t.kernels {
        let Some(point) = k.points.get(run).and_then(Option::as_ref) else {
            continue;
        };
        let before = k.points[..run]
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, p)| Some((i, p.as_ref()?)));
        let step = match before {
            Some((i, b)) if b.mean_ns.is_finite() && b.mean_ns != 0.0 => format!(
                "{:+.1}% from {}",
                (point.mean_ns - b.mean_ns) / b.mean_ns * 100.0,
                safe_text::visible(&t.runs[i].label)
            ),
            Some(_) => NOT_MEASURED.to_string(),
            None if run == 0 => String::new(),
            None => "new".to_string(),
        };
        rows.push(vec![
            safe_text::visible(&point.name).into_owned(),
            measured_text(point.mean_ns, "ns"),
            step,
        ]);
    }
    for line in crate::output::table::render_rows(&rows, &[1]).lines() {
        out.push_str("  ");
        out.push_str(line);
        out.push('\n');
    }
    if run + 1 == t.runs.len() {
        let found = regressions(t, &series.rules);
        if found.is_empty() {
            out.push_str(&format!("  No regression in {label}.\n"));
        }
        for r in &found {
            out.push_str(&format!("  REGRESSION {}\n", regression_text(r)));
        }
    }
    out.push('\n');
    out
}
