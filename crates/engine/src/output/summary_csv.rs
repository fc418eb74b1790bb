//! `sightline summary --csv`: one CSV row per result, written result by result (each body read
//! on demand is released after its row), with numbers in their base units at full precision
//! and names with their control and bidirectional characters shown by code point.

use crate::analysis::headline::headline;
use crate::model::safe_text::visible;
use crate::model::{Dim3, KernelResult, Report};
use std::io::Write;

/// The header row.
pub const COLUMNS: [&str; 14] = [
    "report",
    "id",
    "kind",
    "kernel",
    "function",
    "grid",
    "block",
    "cc",
    "duration_ns",
    "sol_compute_pct",
    "sol_memory_pct",
    "achieved_occupancy_pct",
    "top_rule",
    "top_rule_speedup_pct",
];

/// A number at full precision (it reads back as the same `f64`), empty when missing.
fn number(v: Option<f64>) -> String {
    v.map_or_else(String::new, |v| v.to_string())
}

fn dim(d: Option<Dim3>) -> String {
    d.map_or_else(String::new, |d| format!("{}x{}x{}", d.x, d.y, d.z))
}

fn row(report: &Report, r: &KernelResult) -> [String; 14] {
    let h = headline(r);
    let shown = |text: &str| visible(text).into_owned();
    [
        shown(&report.source.display().to_string()),
        r.id.to_string(),
        r.kind.name().to_string(),
        shown(&r.display_name()),
        shown(&r.name.function),
        dim(r.grid),
        dim(r.block),
        r.cc.map_or_else(String::new, crate::model::format::cc_text),
        number(h.duration_ns),
        number(h.sol_compute_pct),
        number(h.sol_memory_pct),
        number(h.achieved_occupancy_pct),
        h.top_rule
            .map_or_else(String::new, |rule| shown(&rule.heading())),
        number(h.top_rule.and_then(|rule| rule.speedup).map(|s| s.1)),
    ]
}

/// Writes the header and one row per result of every report, in order; each result's body
/// read on demand is released after its row, so memory does not grow with the results. A write
/// error is the writer's own (a closed pipe stays a closed pipe).
pub fn write_csv(out: impl Write, reports: &mut [Report]) -> std::io::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    w.write_record(COLUMNS).map_err(io_error)?;
    for report in reports.iter_mut() {
        for i in 0..report.results.len() {
            if let Some(r) = report.results.get(i) {
                w.write_record(row(report, r)).map_err(io_error)?;
            }
            if let Some(r) = report.results.get_mut(i) {
                r.release_body();
            }
        }
    }
    w.flush()
}

/// The I/O error behind a CSV writer's error, with its kind kept.
pub fn io_error(e: csv::Error) -> std::io::Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => e,
        other => std::io::Error::other(format!("{other:?}")),
    }
}
