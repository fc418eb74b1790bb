//! `sightline trend --by-size DIR|FILES`: the reports read as a sweep over problem sizes
//! (versions of a program, each profiled at several sizes, the size in each report's path),
//! each kernel's mean duration and achieved FLOP/s per version and size, in every form of the
//! trend: text, JSON, CSV, Markdown, one HTML page with a chart per figure. The arguments are
//! the trend's request (`TrendRequest` of sizes); the engine builds the sweep
//! (`analysis::series::sweep`) and `output::trend_forms` writes it. Exit codes: 0, 2 when an
//! input cannot be read or the sweep cannot be built.

use crate::analysis::series::sweep::{sweep, sweep_metrics};
use crate::model::Report;
use crate::output::trend_forms::write_sweep;
use crate::trend::{Loaded, TrendArgs, load_series_keeping, sweep_files};
use std::io::Write;

const EXIT_UNREADABLE: i32 = 2;

/// Runs `trend --by-size`.
pub fn run(args: &TrendArgs) -> i32 {
    let request = match args.request() {
        Ok(request) => request,
        Err(e) => {
            crate::warnings::tell("error", e);
            return EXIT_UNREADABLE;
        }
    };
    let files = match sweep_files(&args.inputs) {
        Ok(f) => f,
        Err(e) => {
            crate::warnings::tell("error", e);
            return EXIT_UNREADABLE;
        }
    };
    let keep = sweep_metrics(request.metric.as_deref());
    let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
    let Loaded {
        reports,
        files,
        left_out,
        errors,
    } = load_series_keeping(&files, &keep);
    for e in &errors {
        crate::warnings::tell("error", e);
    }
    let failed = !errors.is_empty() || (args.strict && !left_out.is_empty());
    if super::warnings::report_problems(reports.iter(), args.strict) || failed {
        for line in &left_out {
            crate::warnings::tell(if args.strict { "error" } else { "warning" }, line);
        }
        return EXIT_UNREADABLE;
    }
    let refs: Vec<&Report> = reports.iter().collect();
    let mut s = match sweep(&refs, &files, &request.sweep_options()) {
        Ok(s) => s,
        Err(e) => {
            for line in left_out.iter().chain(e.left_out()) {
                crate::warnings::tell("warning", line);
            }
            crate::warnings::tell("error", e);
            return EXIT_UNREADABLE;
        }
    };
    // Files that changed after their folder was listed are left out too, first.
    s.left_out.splice(0..0, left_out);
    for line in &s.left_out {
        crate::warnings::tell(if args.strict { "error" } else { "warning" }, line);
    }
    if args.strict && !s.left_out.is_empty() {
        return EXIT_UNREADABLE;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let written = write_sweep(&mut out, &s, request.format).and_then(|()| out.flush());
    if crate::output::table::write_failed(written) {
        return EXIT_UNREADABLE;
    }
    super::loading::leave_for_exit(reports);
    0
}
