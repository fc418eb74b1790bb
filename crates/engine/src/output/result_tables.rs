//! The per-result outputs of `occupancy` and `roofline`: a text table of one row per result
//! with its notes counted below it, and the JSON document of the reports and their results,
//! both written as the results are read (a window of results at a time analysed on every core,
//! then released).

use crate::analysis::parallel::map_results;
use crate::model::{KernelResult, Report};
use crate::output::json_stream;
use crate::output::table::{errors_json, render_rows, report_json};
use crate::parse::LoadError;
use serde_json::{Value as Json, json};
use std::collections::BTreeMap;
use std::io::Write;

/// The file name a table shows for a report.
pub fn file_label(rep: &Report) -> String {
    rep.source.file_name().map_or_else(
        || rep.source.display().to_string(),
        |f| f.to_string_lossy().into_owned(),
    )
}

/// Writes a text table of one row per result under `header` (columns in `right`
/// right-aligned), then each note once with the number of results it applies to. `prepare`
/// reads what a report's rows need from the whole report; `row` gives a result's cells and
/// notes. The results are analysed a window at a time on every core and released; only the
/// cells are kept until the columns' widths are known.
pub fn write_result_table<C: Sync>(
    out: &mut dyn Write,
    reports: &mut [Report],
    header: &[&str],
    right: &[usize],
    mut prepare: impl FnMut(&mut Report) -> C,
    row: impl Fn(&Report, &KernelResult, &str, &C) -> (Vec<String>, Vec<String>) + Sync,
) -> std::io::Result<()> {
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    let mut notes: BTreeMap<String, usize> = BTreeMap::new();
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

/// Writes the JSON document of `occupancy` and `roofline` (the reports that loaded and the
/// files that did not) with each result's object from `result` (given the report's place among
/// the reports, the report and the result), result by result: a window of
/// results at a time is derived and turned into text on every core, then written in order and
/// released. The text is that of pretty-printing the whole document at once.
pub fn write_results_json(
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
fn push_notes(out: &mut String, notes: &BTreeMap<String, usize>) {
    if notes.is_empty() {
        return;
    }
    out.push('\n');
    for (text, count) in notes {
        let plural = if *count == 1 { "" } else { "s" };
        out.push_str(&format!("note ({count} result{plural}): {text}\n"));
    }
}
