//! `sightline occupancy`: the occupancy calculator applied to every result of every file: block
//! limits, limiter, theoretical and achieved occupancy, and the occupancy curves.

use super::loading::{errors_json, print_reports};
use crate::analysis::occupancy::{self, CcOrigin, Limiter, OccupancyAnalysis, OccupancyOptions};
use crate::analysis::parallel::map_results;
use crate::model::{KernelResult, Report};
use crate::output::json_stream;
use crate::output::table::{render_rows, report_json};
use crate::parse::LoadError;
use serde_json::{Value as Json, json};
use std::io::Write;

use crate::model::format::NOT_MEASURED;
use crate::model::format::cc_text;
use crate::output::occupancy_json::{limiter_text, result_json};
use std::path::PathBuf;

/// Parses `--arch 8.6`.
pub(crate) fn parse_arch(arch: Option<&str>) -> Result<Option<(u32, u32)>, String> {
    match arch {
        None => Ok(None),
        Some(text) => occupancy::limits::parse_cc(text)
            .map(Some)
            .ok_or_else(|| format!("--arch expects MAJOR.MINOR (such as 8.6), not '{text}'")),
    }
}

/// The file name a table shows for a report.
pub(crate) fn file_label(rep: &Report) -> String {
    rep.source.file_name().map_or_else(
        || rep.source.display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    )
}

/// Runs the command.
/// Every report's warnings go to stderr; `strict` makes them errors (exit code 2).
pub fn run(files: &[PathBuf], as_json: bool, arch: Option<&str>, strict: bool) -> i32 {
    let assumed_cc = match parse_arch(arch) {
        Ok(cc) => cc,
        Err(message) => {
            crate::warnings::tell("error", message);
            return 2;
        }
    };
    let options = OccupancyOptions {
        assumed_cc,
        table_only: false,
    };
    print_reports(
        files,
        as_json,
        |out, reports, errors| write_json(out, reports, errors, &options),
        |out, reports| write_table(out, reports, &options),
        strict,
    )
}

/// Writes the JSON document of `occupancy --json` result by result (a window of results at a
/// time analysed on every core, written in order and released).
pub fn write_json(
    out: &mut dyn Write,
    reports: &mut [Report],
    errors: &[LoadError],
    options: &OccupancyOptions,
) -> std::io::Result<()> {
    write_results_json(out, reports, errors, |_, rep, r| {
        let a = occupancy::analyze(r, rep.device_of(r), options);
        result_json(r, a.as_ref().map_err(ToString::to_string))
    })
}

/// A block limit in the table: the stored one, or the calculator's marked `*` (computed).
fn shown(a: &OccupancyAnalysis, limiter: Limiter) -> String {
    let s = a.shown(limiter);
    let v = s
        .value
        .map_or_else(|| NOT_MEASURED.into(), |v| v.to_string());
    if s.computed { format!("{v}*") } else { v }
}

/// Writes the plain-text table of `occupancy`: the results are analysed a window at a time on
/// every core and released; only the table's cells are kept until the columns' widths are known.
pub fn write_table(
    out: &mut dyn Write,
    reports: &mut [Report],
    options: &OccupancyOptions,
) -> std::io::Result<()> {
    let header = [
        "REPORT", "ID", "KERNEL", "CC", "SOURCE", "BLOCK", "REGS", "SMEM", "L.REG", "L.SMEM",
        "L.WARP", "L.SM", "L.BAR", "LIMITER", "WARPS", "THEO %", "ACH %",
    ];
    write_result_table(
        out,
        reports,
        &header,
        &[1, 5, 6, 7, 8, 9, 10, 11, 12, 14, 15, 16],
        |_| (),
        |rep, r, file, ()| table_row(rep, r, file, options),
    )
}

/// Writes a text table of one row per result under `header` (columns in `right`
/// right-aligned), then each note once with the number of results it applies to. `prepare`
/// reads what a report's rows need from the whole report; `row` gives a result's cells and
/// notes. The results are analysed a window at a time on every core and released; only the
/// cells are kept until the columns' widths are known.
pub(crate) fn write_result_table<C: Sync>(
    out: &mut dyn Write,
    reports: &mut [Report],
    header: &[&str],
    right: &[usize],
    mut prepare: impl FnMut(&mut Report) -> C,
    row: impl Fn(&Report, &KernelResult, &str, &C) -> (Vec<String>, Vec<String>) + Sync,
) -> std::io::Result<()> {
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    let mut notes: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for rep in reports.iter_mut() {
        let file = file_label(rep);
        let prepared = prepare(rep);
        let _ = map_results(
            rep,
            |rep, i| row(rep, &rep.results[i], &file, &prepared),
            |_, (cells, row_notes)| -> Result<(), std::convert::Infallible> {
                rows.push(cells);
                for n in row_notes {
                    *notes.entry(n).or_default() += 1;
                }
                Ok(())
            },
        );
    }
    let mut text = render_rows(&rows, right);
    push_notes(&mut text, &notes);
    out.write_all(text.as_bytes())
}

/// One result's row of the table and the notes it adds (each once per result).
fn table_row(
    rep: &Report,
    r: &KernelResult,
    file: &str,
    options: &OccupancyOptions,
) -> (Vec<String>, Vec<String>) {
    let mut row = vec![file.to_string(), r.id.to_string(), r.name.function.clone()];
    let mut notes = Vec::new();
    match occupancy::analyze(r, rep.device_of(r), options) {
        Ok(a) => {
            let o = &a.occupancy;
            let assumed = if a.cc_origin == CcOrigin::Assumed {
                "?"
            } else {
                ""
            };
            row.extend([
                format!("{}{assumed}", cc_text(a.cc)),
                a.source.name().to_string(),
                a.launch.block_size.to_string(),
                a.launch.registers_per_thread.to_string(),
                a.launch.shared_mem_per_block().to_string(),
                shown(&a, Limiter::Registers),
                shown(&a, Limiter::SharedMem),
                shown(&a, Limiter::Warps),
                shown(&a, Limiter::Blocks),
                if a.limits.enforces_barriers() || a.stored.barriers.is_some() {
                    shown(&a, Limiter::Barriers)
                } else {
                    NOT_MEASURED.into()
                },
                limiter_text(&a),
                o.active_warps.to_string(),
                format!("{:.2}", o.occupancy_pct),
                a.achieved_occupancy_pct
                    .map_or_else(|| NOT_MEASURED.into(), |v| format!("{v:.2}")),
            ]);
            notes.extend(a.notes.iter().cloned());
            if Limiter::ALL.into_iter().any(|l| a.shown(l).computed) {
                notes.push("limits marked * are computed: the report stores none".into());
            }
        }
        Err(e) => {
            row.push(format!("({e})"));
        }
    }
    (row, notes)
}

/// Writes the JSON document of `occupancy` and `roofline` (the reports that loaded and the
/// files that did not) with each result's object from `result` (given the report's place among
/// the reports, the report and the result), result by result: a window of
/// results at a time is derived and turned into text on every core, then written in order and
/// released. The text is that of pretty-printing the whole document at once.
pub(crate) fn write_results_json(
    out: &mut dyn Write,
    reports: &mut [Report],
    errors: &[LoadError],
    result: impl Fn(usize, &Report, &KernelResult) -> Json + Sync,
) -> std::io::Result<()> {
    let skeleton: Vec<Json> = reports
        .iter()
        .enumerate()
        .map(|(i, rep)| {
            let mut doc = report_json(rep, |_| Json::Null);
            doc["results"] = json_stream::placeholder(i);
            doc
        })
        .collect();
    let doc = json!({"reports": skeleton, "errors": errors_json(errors)});
    json_stream::write_report_results(out, &doc, "  ", reports, |i, rep, k| {
        result(i, rep, &rep.results[k])
    })
}

/// Appends each distinct note once, with the number of results it applies to.
pub(crate) fn push_notes(out: &mut String, notes: &std::collections::BTreeMap<String, usize>) {
    if notes.is_empty() {
        return;
    }
    out.push('\n');
    for (text, count) in notes {
        let plural = if *count == 1 { "" } else { "s" };
        out.push_str(&format!("note ({count} result{plural}): {text}\n"));
    }
}
