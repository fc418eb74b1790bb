//! `sightline trend FILES|DIR`: a series of reports as one table of every kernel over the runs
//! (mean duration per run, launches aggregated, renames followed), the biggest steps with their
//! why, and `--fail-on` rules against the history; in text, JSON, CSV, Markdown or one
//! self-contained HTML page. Exit codes as `diff`'s: 0, 1 when a rule fired, 2 when an input
//! cannot be read. With `--by-size` the same arguments ask for a sweep over problem sizes
//! (`sweep.rs`). The arguments become a `TrendRequest`; `output::trend_forms` writes the
//! answer in the form asked for.

use crate::analysis::path_names::run_labels;
use crate::analysis::series::regression::{TrendRule, regressions};
use crate::analysis::series::request::{TrendFormat, TrendRequest, TrendRequestError};
use crate::analysis::series::{
    SeriesOrder, detached_keeping, explain_steps, runs_to_explain, trend_table,
};
use crate::choice_arg::choice_parser;
use crate::model::Report;
use crate::output::trend_forms::write_trend;
use crate::parse;
use crate::parse::report_files::{report_files_below, report_files_in};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The arguments of `trend`.
#[derive(Debug, clap::Args)]
pub struct TrendArgs {
    /// Order of the runs: as given (a folder: by file name), or by capture time.
    #[arg(long, value_parser = choice_parser::<SeriesOrder>())]
    pub order: Option<SeriesOrder>,
    /// Output form.
    #[arg(
        long,
        default_value = "text",
        value_parser = choice_parser::<TrendFormat>()
    )]
    pub format: TrendFormat,
    /// A metric (ncu name) to aggregate per run beside the duration, such as
    /// `sm__throughput.avg.pct_of_peak_sustained_elapsed`.
    #[arg(long)]
    pub metric: Option<String>,
    /// When to exit 1: a comma list of `duration>medianN+Kspread` (the latest run's mean
    /// duration beyond the median of the N runs before it by more than K spreads, the spread
    /// being their median absolute deviation, at least 1 % of the median) and `duration>P%`
    /// (beyond the run before by more than P %). Default: `duration>median5+3spread`.
    #[arg(long)]
    pub fail_on: Option<String>,
    /// Read the reports as a sweep over problem sizes: versions of a program each profiled at
    /// several sizes, the size in each report's path (a folder named `1024` or `N=1024`, or a
    /// `N=1024` part of the file name), the version the rest of it (`v1` in
    /// `N=1024/v1.ncu-rep`). Gives each kernel's mean duration and achieved FLOP/s against the
    /// size, one line per version. Folders are read with their folders.
    #[arg(long, conflicts_with_all = ["order", "fail_on"])]
    pub by_size: bool,
    /// With --by-size: a regular expression that finds the size in each report's path below
    /// the folder the reports share; its first group (or the group named `size`) is the size,
    /// as in `N=(\d+)`.
    #[arg(
        long,
        requires = "by_size",
        value_name = "REGEX",
        allow_hyphen_values = true
    )]
    pub size_pattern: Option<String>,
    /// Treat every warning (a skipped result, section, metric or line) as an error.
    #[arg(long)]
    pub strict: bool,
    /// Follow one folder until interrupted: each report is a run once it has settled, printed
    /// with its kernels' durations, its steps and any regression (text only).
    #[arg(long)]
    pub watch: bool,
    /// With `--watch`: seconds a report without a known writer must stay the same to count
    /// as settled (ncu appends a result about every 1.4 s).
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 3.0,
        requires = "watch"
    )]
    pub settle: f64,
    /// Reports, or folders of reports (their `.ncu-rep` and `.ncu-repz` files, also
    /// compressed, by name).
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
}

impl TrendArgs {
    /// The trend the arguments ask for: a sweep with `--by-size`, else a series of runs.
    pub fn request(&self) -> Result<TrendRequest, TrendRequestError> {
        if self.by_size {
            TrendRequest::sizes(
                self.size_pattern.as_deref(),
                self.metric.clone(),
                self.format,
            )
        } else {
            TrendRequest::runs(
                self.order.unwrap_or_default(),
                self.fail_on.as_deref(),
                self.metric.clone(),
                self.format,
            )
        }
    }
}

const EXIT_FAILED: i32 = 1;
const EXIT_UNREADABLE: i32 = 2;

/// A file of the series: as given, or found in a folder with its size and modification time
/// when the folder was listed.
#[derive(Debug, Clone)]
pub struct SeriesFile {
    pub path: PathBuf,
    /// How the file was when its folder was listed; `None` for a file given by name.
    pub listed: Option<Stamp>,
}

/// A file's size and modification time.
type Stamp = (u64, Option<SystemTime>);

fn stamp(path: &Path) -> Option<Stamp> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()))
}

/// The files of the inputs: a file as it is, a folder's report files by name (each with how
/// it was when listed).
pub fn series_files(inputs: &[PathBuf]) -> Result<Vec<SeriesFile>, String> {
    files_of(inputs, report_files_in)
}

/// The files of a sweep's inputs: as [`series_files`], a folder's reports read in its folders
/// too (`N=1024/v1.ncu-rep`).
pub fn sweep_files(inputs: &[PathBuf]) -> Result<Vec<SeriesFile>, String> {
    files_of(inputs, report_files_below)
}

fn files_of(
    inputs: &[PathBuf],
    list: fn(&Path) -> std::io::Result<Vec<PathBuf>>,
) -> Result<Vec<SeriesFile>, String> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let found = list(input).map_err(|e| format!("{}: {e}", input.display()))?;
            if found.is_empty() {
                return Err(format!(
                    "{}: no .ncu-rep or .ncu-repz report in the folder",
                    input.display()
                ));
            }
            files.extend(found.into_iter().map(|path| SeriesFile {
                listed: stamp(&path),
                path,
            }));
        } else {
            files.push(SeriesFile {
                path: input.clone(),
                listed: None,
            });
        }
    }
    Ok(files)
}

/// The reports of a series: those read, with their files, and what was left out.
pub struct Loaded {
    pub reports: Vec<Report>,
    /// The file of each report.
    pub files: Vec<PathBuf>,
    /// Files of a folder that changed or disappeared after the folder was listed: left out of
    /// the series, one warning each.
    pub left_out: Vec<String>,
    /// Files that could not be read.
    pub errors: Vec<parse::LoadError>,
}

/// Reads every file of the series on every core (each report keeps its heads; bodies are read
/// when asked for). A file found in a folder that is gone when read, or that is not as it was
/// listed once it has been read (a report still being written or replaced while the series
/// runs), is left out with a warning: the series reads its folder as it was listed. A file
/// given by name is read as it is, and one that cannot be read is an error.
pub fn load_series(files: &[SeriesFile], metric: Option<&str>) -> Loaded {
    load_series_keeping(files, metric.as_slice())
}

/// [`load_series`] keeping the values of several metrics (a sweep's FLOP/s reads a few).
pub fn load_series_keeping(files: &[SeriesFile], metrics: &[&str]) -> Loaded {
    // Every report read and reduced to what the trend reads (heads, and the metric asked
    // for): each lets go of its file at once, so a folder of thousands of reports never holds
    // thousands of files open. The few runs the steps compare are read again for their why.
    let loaded = opens_on_budget(files.len(), |i| {
        parse::load_path(&files[i].path).map(|r| detached_keeping(&r, metrics))
    });
    let mut out = Loaded {
        reports: Vec::new(),
        files: Vec::new(),
        left_out: Vec::new(),
        errors: Vec::new(),
    };
    for (file, result) in files.iter().zip(loaded) {
        if let Some(listed) = file.listed {
            let why = match stamp(&file.path) {
                None => Some("it disappeared after its folder was listed"),
                Some(now) if now != listed => Some("it changed after its folder was listed"),
                Some(_) => None,
            };
            if let Some(why) = why {
                out.left_out.push(format!(
                    "{}: left out of the series: {why}",
                    file.path.display()
                ));
                continue;
            }
        }
        match result {
            Ok(report) => {
                out.reports.push(report);
                out.files.push(file.path.clone());
            }
            Err(e) => out.errors.push(e),
        }
    }
    out
}

/// Runs `open(i)` for each of `0..count` in order. Opening a report decodes it on threads of
/// its own, each with its buffers: reports are opened a few at a time (an eighth of the
/// cores), not one per core, and each open decodes on its share of the cores, so that the
/// opens together hold the buffers of one open on every core, whatever the core count.
fn opens_on_budget<T: Send>(count: usize, open: impl Fn(usize) -> T + Sync) -> Vec<T> {
    use rayon::prelude::*;
    let cores = rayon::current_num_threads();
    let at_once = (cores / 8).max(1);
    let per_open = (cores / at_once).max(1);
    let run = || -> Vec<T> {
        (0..count)
            .into_par_iter()
            .map(|i| parse::ncu_rep::open::with_decode_threads(per_open, || open(i)))
            .collect()
    };
    match rayon::ThreadPoolBuilder::new().num_threads(at_once).build() {
        Ok(pool) => pool.install(run),
        Err(_) => run(),
    }
}

/// Runs the command for a series of runs (`sweep::run` runs it with `--by-size`).
pub fn run(args: &TrendArgs) -> i32 {
    let request = match args.request() {
        Ok(request) => request,
        Err(e) => {
            crate::warnings::tell("error", e);
            return EXIT_UNREADABLE;
        }
    };
    if args.watch {
        return watch(args, &request);
    }
    let files = match series_files(&args.inputs) {
        Ok(f) => f,
        Err(e) => {
            crate::warnings::tell("error", e);
            return EXIT_UNREADABLE;
        }
    };
    let options = request.trend_options();
    let Loaded {
        reports,
        files,
        left_out,
        errors,
    } = load_series(&files, request.metric.as_deref());
    for e in &errors {
        crate::warnings::tell("error", e);
    }
    for line in &left_out {
        crate::warnings::tell(if args.strict { "error" } else { "warning" }, line);
    }
    let failed = !errors.is_empty() || (args.strict && !left_out.is_empty());
    if super::warnings::report_problems(reports.iter(), args.strict) || failed {
        return EXIT_UNREADABLE;
    }
    if reports.is_empty() {
        crate::warnings::tell("error", "no report of the series could be read");
        return EXIT_UNREADABLE;
    }
    let labels = run_labels(&files);
    let refs: Vec<&Report> = reports.iter().collect();
    let mut t = trend_table(&refs, &labels, &options);
    let explained = runs_to_explain(&t);
    let again: Vec<(usize, Report)> = opens_on_budget(explained.len(), |k| {
        let i = explained[k];
        Some((i, parse::load_path(files.get(i)?).ok()?))
    })
    .into_iter()
    .flatten()
    .collect();
    explain_steps(&mut t, |input| {
        again.iter().find(|(i, _)| *i == input).map(|(_, r)| r)
    });
    let found = regressions(&t, request.rules());
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let written = write_trend(&mut out, &t, &found, request.format).and_then(|()| out.flush());
    if crate::output::table::write_failed(written) {
        return EXIT_UNREADABLE;
    }
    super::loading::leave_for_exit(reports);
    super::loading::leave_for_exit(again.into_iter().map(|(_, r)| r).collect());
    if found.is_empty() { 0 } else { EXIT_FAILED }
}

/// `--watch`: one folder, in text, until interrupted.
fn watch(args: &TrendArgs, request: &TrendRequest) -> i32 {
    let settle = std::time::Duration::try_from_secs_f64(args.settle).ok();
    let problem = match (args.inputs.as_slice(), settle) {
        _ if request.format != TrendFormat::Text => Some("--watch prints text only".to_string()),
        (_, None) => Some(format!("--settle {}: not a number of seconds", args.settle)),
        ([dir], _) if dir.is_dir() => None,
        _ => Some("--watch follows one folder".to_string()),
    };
    if let Some(problem) = problem {
        crate::warnings::tell("error", problem);
        return EXIT_UNREADABLE;
    }
    let rules: Vec<(String, TrendRule)> = request.rules().to_vec();
    crate::trend_watch::watch(
        &args.inputs[0],
        request.trend_options().order,
        request.metric.clone(),
        rules,
        settle.unwrap_or_default(),
    )
}
