//! Output shared by the headless commands: aligned text columns and the JSON document.

use crate::model::Report;
use crate::model::safe_text::visible;
use crate::parse::LoadError;
use rayon::prelude::*;
use serde_json::{Value as Json, json};
use std::io::Write;

/// Lays out rows as aligned columns; columns in `right` are right-aligned.
pub fn render_rows(rows: &[Vec<String>], right: &[usize]) -> String {
    // Control and bidirectional characters in names are shown, not obeyed by the terminal
    // (a cell is copied only where it holds one).
    let shown: Vec<Vec<std::borrow::Cow<'_, str>>> = rows
        .iter()
        .map(|row| row.iter().map(|c| visible(c)).collect())
        .collect();
    let rows = &shown;
    let cols = rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0usize; cols];
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    // Lines are built on every core, in order.
    let lines: Vec<String> = rows
        .par_iter()
        .map(|row| {
            let mut line = String::new();
            for (i, cell) in row.iter().enumerate() {
                let pad = " ".repeat(widths[i].saturating_sub(cell.chars().count()));
                if right.contains(&i) {
                    line.push_str(&pad);
                    line.push_str(cell);
                } else {
                    line.push_str(cell);
                    line.push_str(&pad);
                }
                line.push_str("  ");
            }
            line.truncate(line.trim_end().len());
            line.push('\n');
            line
        })
        .collect();
    lines.concat()
}

/// The JSON document of `summary`, `occupancy` and `roofline`: the reports that loaded and the
/// files that did not, pretty-printed with a final newline.
pub fn json_document(reports: Vec<Json>, errors: &[LoadError]) -> String {
    let mut s =
        serde_json::to_string_pretty(&json!({"reports": reports, "errors": errors_json(errors)}))
            .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}

/// One report of the JSON document: its file, its form and one JSON value per result.
pub fn report_json(rep: &Report, result: impl Fn(&crate::model::KernelResult) -> Json) -> Json {
    json!({
        "path": rep.source.display().to_string(),
        "format": rep.format.name(),
        "results": rep.results.iter().map(result).collect::<Vec<_>>(),
    })
}

/// Whether writing a command's output failed. A closed pipe (`| head`) ends the output on
/// purpose and is no failure; any other write error (a full disk, `/dev/full`) is told on
/// stderr, and the command exits 2.
pub fn write_failed(written: std::io::Result<()>) -> bool {
    match written {
        Ok(()) => false,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => false,
        Err(e) => {
            eprintln!("error: writing the output: {e}");
            true
        }
    }
}

/// Prints the output, then the load errors (table mode), and returns the exit code: 0 when
/// every file loaded and the output was written, 2 otherwise.
pub fn finish(out: &str, errors: &[LoadError], as_json: bool) -> i32 {
    let mut stdout = std::io::stdout().lock();
    // Text for a terminal shows control and bidirectional characters instead of obeying them.
    let out = if as_json {
        std::borrow::Cow::Borrowed(out)
    } else {
        visible(out)
    };
    let failed = write_failed(
        stdout
            .write_all(out.as_bytes())
            .and_then(|()| stdout.flush()),
    );
    if !as_json {
        for e in errors {
            eprintln!("error: {}", visible(&e.to_string()));
        }
    }
    if errors.is_empty() && !failed { 0 } else { 2 }
}

/// The `errors` array of the JSON outputs: each failed file with a one-line reason.
pub fn errors_json(errors: &[LoadError]) -> Vec<Json> {
    errors
        .iter()
        .map(|e| {
            let message = e
                .to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            json!({"path": e.path().display().to_string(), "message": message})
        })
        .collect()
}

/// A metric's value as the text form prints it: auto-scaled with its unit, instances after
/// the aggregate as ncu prints them (`agg (v1; v2; …)`).
pub fn value_text(m: &crate::model::Metric) -> String {
    let mut s = crate::model::format::metric_text(m.view());
    if !m.instances.is_empty() {
        let values: Vec<String> = m
            .instances
            .iter()
            .map(|i| match i.value.as_f64() {
                Some(x) => crate::model::format::value_text(x, ""),
                None => i.value.to_string(),
            })
            .collect();
        s.push_str(&format!(" ({})", values.join("; ")));
    }
    s
}
