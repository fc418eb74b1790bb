//! Loading the files a headless command names, and reporting the ones that failed.

use crate::model::Report;
use crate::parse::{self, LoadError};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Loads every file; the reports that loaded and the errors of those that did not.
pub(crate) fn load_all(files: &[PathBuf]) -> (Vec<Report>, Vec<LoadError>) {
    let mut reports = Vec::new();
    let mut errors = Vec::new();
    for path in files {
        let mut progress = Progress::new(path);
        let loaded = parse::load_path_with_progress(path, &mut |done, total| {
            progress.update(done, total);
        });
        progress.end();
        match loaded {
            Ok(r) => reports.push(r),
            Err(e) => errors.push(e),
        }
    }
    (reports, errors)
}

/// A byte count on stderr for a file that takes more than half a second to read, when stderr
/// is a terminal.
struct Progress {
    name: String,
    start: Instant,
    last: Option<Instant>,
    shown: bool,
    enabled: bool,
}

impl Progress {
    fn new(path: &Path) -> Self {
        Progress {
            name: crate::model::safe_text::visible(&path.display().to_string()).into_owned(),
            start: Instant::now(),
            last: None,
            shown: false,
            enabled: std::io::stderr().is_terminal(),
        }
    }

    fn update(&mut self, done: u64, total: u64) {
        if !self.enabled || self.start.elapsed() < Duration::from_millis(500) {
            return;
        }
        if self
            .last
            .is_some_and(|t| t.elapsed() < Duration::from_millis(100))
        {
            return;
        }
        self.last = Some(Instant::now());
        self.shown = true;
        let mb = |b: u64| b as f64 / 1e6;
        eprint!(
            "\rreading {}: {:.0} of {:.0} MB",
            self.name,
            mb(done),
            mb(total)
        );
    }

    /// Clears the progress line, if one was shown.
    fn end(&self) {
        if self.shown {
            eprint!("\r\x1b[2K");
        }
    }
}

/// Loads every file, writes the reports as JSON or as a table to stdout (each writer goes
/// through the results a window at a time), prints the errors of the files that did not load,
/// and returns the exit code.
pub(crate) fn print_reports(
    files: &[PathBuf],
    as_json: bool,
    json: impl FnOnce(&mut dyn Write, &mut [Report], &[LoadError]) -> std::io::Result<()>,
    table: impl FnOnce(&mut dyn Write, &mut [Report]) -> std::io::Result<()>,
    strict: bool,
) -> i32 {
    let (mut reports, errors) = load_all(files);
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let written = if as_json {
        json(&mut stdout, &mut reports, &errors)
    } else {
        table(&mut stdout, &mut reports)
    };
    let write_failed = crate::output::table::write_failed(written.and_then(|()| stdout.flush()));
    drop(stdout);
    let code = crate::output::table::finish("", &errors, as_json);
    let failed = super::warnings::report_problems(&reports, strict);
    leave_for_exit(reports);
    exit_code(code, failed || write_failed)
}

/// A command's exit code once the reports' problems are told: 2 where one is an error (a
/// warning under `--strict`, a file without results).
pub(crate) fn exit_code(code: i32, failed: bool) -> i32 {
    match code {
        0 if failed => 2,
        code => code,
    }
}

/// Hands the reports to the process exit instead of freeing them one allocation at a time: the
/// command ends right after, and freeing a large report's model costs about as much as
/// building it.
pub fn leave_for_exit(reports: Vec<Report>) {
    std::mem::forget(reports);
}
