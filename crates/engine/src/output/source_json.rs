//! The Source pages of `sightline source --format json`: per result each CUDA line and SASS
//! instruction with the page's metric columns and stall reasons, the markers, inline
//! functions and registers, and with a baseline each line's change; written a window of
//! results at a time.

use crate::analysis::source::pages::SourcePages;
use crate::analysis::source::request::{BRIEF_REASONS, SourceRequest, StallDetail};
use crate::analysis::source::{SourceOptions, compare, stalls};
use crate::model::source::{Cell, SourceView};
use crate::output::json_stream;
use crate::output::table::errors_json;
use crate::parse::LoadError;
use serde_json::{Map, Value as Json, json};
use std::io::Write;

/// A cell as JSON: integral numbers as integers.
pub fn cell_json(c: &Cell) -> Json {
    match c {
        Cell::Number(v) if v.fract() == 0.0 && v.abs() < 9.0e15 => json!(*v as i64),
        Cell::Number(v) => serde_json::Number::from_f64(*v).map_or(Json::Null, Json::Number),
        Cell::Text(t) => Json::String(t.clone()),
    }
}

fn metrics_json(view: &SourceView, cells: &[Cell]) -> Json {
    let mut m = Map::new();
    for (name, c) in view.columns.iter().zip(cells) {
        m.insert(name.clone(), cell_json(c));
    }
    Json::Object(m)
}

/// A line's (or an instruction's) stall reasons, most samples first.
pub fn stalls_json(view: &SourceView, cells: &[Cell], detail: StallDetail) -> Json {
    let reasons = stalls::stall_reasons(view, cells).into_iter();
    match detail {
        StallDetail::Brief => reasons
            .take(BRIEF_REASONS)
            .map(|s| json!({"reason": s.reason, "samples": s.samples}))
            .collect(),
        StallDetail::Full => reasons
            .map(|s| {
                json!({
                    "reason": s.reason,
                    "samples": cell_json(&Cell::Number(s.samples)),
                    "not_issued": cell_json(&Cell::Number(s.not_issued)),
                })
            })
            .collect(),
    }
}

/// The baseline view of a kernel: the first of the same name, else the one at the same place.
fn baseline_of<'a>(
    base: &'a [SourceView],
    view: &SourceView,
    index: usize,
) -> Option<&'a SourceView> {
    base.iter()
        .find(|b| b.kernel == view.kernel)
        .or_else(|| base.get(index))
}

/// The JSON object of one result's Source page, with per-line changes from `base` if given and
/// each line's stall reasons in `detail`.
pub fn view_json(view: &SourceView, base: Option<&SourceView>, detail: StallDetail) -> Json {
    let file = |i: usize| view.files.get(i).map_or(Json::Null, |f| json!(f.path));
    let lines: Vec<Json> = view
        .lines
        .iter()
        .map(|l| {
            json!({
                "file": file(l.file),
                "line": l.line,
                "source": view.text_of(l),
                "metrics": metrics_json(view, &l.cells),
                "stall_reasons": stalls_json(view, &l.cells, detail),
            })
        })
        .collect();
    let mut lines = lines;
    let mut removed = Vec::new();
    if let Some(base) = base {
        let cmp = compare::compare(base, view);
        for (j, d) in lines.iter_mut().zip(&cmp.lines) {
            let mut delta = Map::new();
            for (name, v) in view.columns.iter().zip(&d.delta) {
                if let Some(v) = v {
                    delta.insert(name.clone(), cell_json(&Cell::Number(*v)));
                }
            }
            j["match"] = json!(d.matched);
            j["baseline_line"] = json!(d.base.map(|b| base.lines[b].line));
            j["delta"] = Json::Object(delta);
        }
        removed = cmp
            .removed
            .iter()
            .map(|&b| {
                let l = &base.lines[b];
                json!({
                    "file": base.files.get(l.file).map(|f| f.path.clone()),
                    "line": l.line,
                    "metrics": metrics_json(base, &l.cells),
                })
            })
            .collect();
    }
    let instructions: Vec<Json> = view
        .instructions
        .iter()
        .map(|i| {
            let line = i.line();
            let mut j = json!({
                "address": format!("0x{:x}", i.address),
                "file": line.map_or(Json::Null, |(f, _)| file(f)),
                "line": line.map(|(_, l)| l),
                "sass": i.sass,
                "metrics": metrics_json(view, &i.cells),
            });
            if let Some(r) = &i.registers {
                j["live_registers"] = json!(r.live_registers);
                j["live_predicates"] = json!(r.live_predicates);
                j["live_uniform_registers"] = json!(r.live_uniform_registers);
                j["reads"] = json!(r.reads);
                j["writes"] = json!(r.writes);
                j["reads_from"] = r
                    .reads_from
                    .iter()
                    .map(|(reg, at)| json!({"register": reg, "address": format!("0x{at:x}")}))
                    .collect();
            }
            j
        })
        .collect();
    let markers: Vec<Json> = view
        .markers
        .iter()
        .map(|m| {
            let line = m.line.and_then(|l| view.lines.get(l));
            json!({
                "rule": m.rule,
                "kind": m.kind,
                "tooltip": m.tooltip,
                "file": line.map_or(Json::Null, |l| file(l.file)),
                "line": line.map(|l| l.line),
                "address": m
                    .instruction
                    .and_then(|i| view.instructions.get(i))
                    .map(|i| format!("0x{:x}", i.address)),
            })
        })
        .collect();
    let inline_functions: Vec<Json> = view
        .inline_functions
        .iter()
        .map(|f| {
            json!({
                "function": f.name,
                "mangled": f.mangled,
                "call_file": file(f.call_file),
                "call_line": f.call_line,
                "instructions": f.instructions.len(),
                "metrics": metrics_json(view, &f.cells),
            })
        })
        .collect();
    let mut out = json!({
        "kernel": view.kernel,
        "markers": markers,
        "inline_functions": inline_functions,
        "function_address": format!("0x{:x}", view.function_address),
        "line_info": view.has_line_info,
        "files": view.files,
        "kernel_file": view.kernel_file.and_then(|f| view.files.get(f)).map(|f| &f.path),
        "registers_per_thread": view.registers_per_thread,
        "notes": view.notes,
        "lines": lines,
        "instructions": instructions,
        "ptx": view.ptx,
        "ptx_function": view.ptx_function.map(|(a, b)| json!({"first_line": a + 1, "last_line": b})),
    });
    if let Some(base) = base {
        out["baseline_kernel"] = json!(base.kernel);
        out["baseline_removed_lines"] = Json::Array(removed);
    }
    out
}

/// Writes the JSON document of `source` view by view: a window of results at a time is built
/// and turned into text on every core, then written in order. The views that could not be made
/// are added to `view_errors` too.
pub fn write_json(
    out: &mut impl Write,
    reports: &[SourcePages],
    errors: &[LoadError],
    baseline: &[SourceView],
    options: &SourceOptions,
    request: &SourceRequest,
    view_errors: &mut Vec<String>,
) -> std::io::Result<()> {
    let skeleton: Vec<Json> = reports
        .iter()
        .enumerate()
        .map(|(i, loaded)| {
            json!({"path": loaded.path().display().to_string(), "results": json_stream::placeholder(i)})
        })
        .collect();
    let doc = json!({"reports": skeleton, "errors": errors_json(errors)});
    json_stream::write_document(out, &doc, "  ", |out, i, array| {
        let Some(loaded) = reports.get(i) else {
            return Ok(());
        };
        loaded.map_views(
            options,
            &request.results,
            |v, k| json_stream::pretty(&view_json(v, baseline_of(baseline, v, k), request.stalls)),
            |text| match text {
                Ok(text) => array.item_text(out, &text?),
                Err(e) => {
                    let item = json_stream::pretty(&json!({"error": e}))?;
                    view_errors.push(e);
                    array.item_text(out, &item)
                }
            },
        )
    })
}
