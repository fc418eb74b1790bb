//! `sightline sections`: every section body (charts and tables) of every result, with the
//! values resolved: bar by bar, cell by cell.

use super::loading::{errors_json, leave_for_exit, load_all};
use super::output::{finish, render_rows};
use crate::analysis::sections::{bodies_of, missing_note};
use crate::model::section_body::SectionBodies;
use crate::model::units::format_value;
use crate::model::{Metric, Report, Value};
use serde_json::{Value as Json, json};
use std::path::PathBuf;

/// Runs the command.
pub fn run(files: &[PathBuf], as_json: bool) -> i32 {
    let (reports, errors) = load_all(files);
    let out = if as_json {
        let docs: Vec<Json> = reports.iter().map(report_json).collect();
        let mut s =
            serde_json::to_string_pretty(&json!({"reports": docs, "errors": errors_json(&errors)}))
                .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
        s.push('\n');
        s
    } else {
        reports.iter().map(render_text).collect::<String>()
    };
    leave_for_exit(reports);
    finish(&out, &errors, as_json)
}

/// The JSON object of one report: per result its sections' bodies.
pub fn report_json(rep: &Report) -> Json {
    let results: Vec<Json> = rep
        .results
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "id": r.id,
                "name": r.name.demangled,
                "sections": bodies_of(rep, i),
            })
        })
        .collect();
    json!({
        "path": rep.source.display().to_string(),
        "format": rep.format.name(),
        "note": missing_note(rep),
        "results": results,
    })
}

/// A metric's value as the text form prints it: auto-scaled with its unit, instances after
/// the aggregate as ncu prints them (`agg (v1; v2; …)`).
pub fn value_text(m: &Metric) -> String {
    let one = |v: &Value| match v.as_f64() {
        Some(x) => format_value(x, &m.unit),
        None => v.to_string(),
    };
    let mut s = one(&m.value);
    if !m.instances.is_empty() {
        let values: Vec<String> = m
            .instances
            .iter()
            .map(|i| match i.value.as_f64() {
                Some(x) => format_value(x, ""),
                None => i.value.to_string(),
            })
            .collect();
        s.push_str(&format!(" ({})", values.join("; ")));
    }
    s
}

fn render_sections(out: &mut String, sections: &[SectionBodies]) {
    for s in sections {
        out.push_str(&format!("  Section: {}\n", s.name));
        for b in &s.bodies {
            if !b.name.is_empty() {
                out.push_str(&format!("    {}\n", b.name));
            }
            for item in &b.items {
                let kind = serde_json::to_value(item.kind)
                    .ok()
                    .and_then(|k| k.as_str().map(str::to_string))
                    .unwrap_or_else(|| "item".to_string());
                out.push_str(&format!("      [{kind}] {}\n", item.label));
                if let Some(note) = &item.note {
                    out.push_str(&format!("        {note}\n"));
                }
                let rows: Vec<Vec<String>> = item
                    .rows
                    .iter()
                    .map(|r| {
                        vec![
                            format!("        {}", r.label),
                            r.group.clone().unwrap_or_default(),
                            value_text(&r.metric),
                        ]
                    })
                    .collect();
                out.push_str(&render_rows(&rows, &[2]));
            }
        }
    }
}

/// The text form of one report.
pub fn render_text(rep: &Report) -> String {
    let mut out = format!("{}\n", rep.source.display());
    if let Some(note) = missing_note(rep) {
        out.push_str(&format!("  no section bodies: {note}\n"));
        return out;
    }
    for (i, r) in rep.results.iter().enumerate() {
        out.push_str(&format!("[{}] {}\n", r.id, r.name.demangled));
        render_sections(&mut out, &bodies_of(rep, i));
    }
    out
}
