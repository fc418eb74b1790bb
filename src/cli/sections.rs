//! `sightline sections`: every section body (charts and tables) of every result, with the
//! values resolved: bar by bar, cell by cell; with a baseline, every value with both sides
//! and the change.

use super::loading::{errors_json, leave_for_exit, load_all};
use super::output::{finish, render_rows};
use crate::analysis::compare::matching::match_results;
use crate::analysis::sections::paired::{Paired, PairedContent, PairedSection, pair};
use crate::analysis::sections::{bodies_of, missing_note};
use crate::model::section_body::SectionBodies;
use crate::model::units::format_value;
use crate::model::{Metric, Report};
use serde_json::{Value as Json, json};
use std::path::{Path, PathBuf};

/// Runs the command.
/// Every report's warnings (the baseline's too) go to stderr; `strict` makes them errors.
pub fn run(files: &[PathBuf], baseline: Option<&Path>, as_json: bool, strict: bool) -> i32 {
    let baseline = match baseline {
        Some(path) => match load_all(&[path.to_path_buf()]) {
            (mut reports, _) if !reports.is_empty() => Some(reports.remove(0)),
            (_, errors) => {
                for e in errors {
                    eprintln!("error: {e}");
                }
                return 2;
            }
        },
        None => None,
    };
    let (reports, errors) = load_all(files);
    if let Some(base) = &baseline {
        let out = if as_json {
            let docs: Vec<Json> = reports.iter().map(|r| compared_json(base, r)).collect();
            json_text(&json!({
                "baseline": base.source.display().to_string(),
                "reports": docs,
                "errors": errors_json(&errors),
            }))
        } else {
            reports.iter().map(|r| compared_text(base, r)).collect()
        };
        let code = finish(&out, &errors, as_json);
        let failed =
            super::warnings::report_problems(std::iter::once(base).chain(&reports), strict);
        leave_for_exit(reports);
        return super::loading::exit_code(code, failed);
    }
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
    let code = finish(&out, &errors, as_json);
    let failed = super::warnings::report_problems(&reports, strict);
    leave_for_exit(reports);
    super::loading::exit_code(code, failed)
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
    let mut s = crate::model::format::metric_text(m.view());
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

/// Writes each section's name and each named body's name, and under each body its items
/// through `item`.
fn render_tree<S, B, I>(
    out: &mut String,
    sections: &[S],
    section: impl Fn(&S) -> (&str, &[B]),
    body: impl Fn(&B) -> (&str, &[I]),
    item: impl Fn(&mut String, &I),
) {
    for s in sections {
        let (name, bodies) = section(s);
        out.push_str(&format!("  Section: {name}\n"));
        for b in bodies {
            let (name, items) = body(b);
            if !name.is_empty() {
                out.push_str(&format!("    {name}\n"));
            }
            for i in items {
                item(out, i);
            }
        }
    }
}

fn render_sections(out: &mut String, sections: &[SectionBodies]) {
    render_tree(
        out,
        sections,
        |s| (&s.name, &s.bodies),
        |b| (&b.name, &b.items),
        |out, item| {
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
        },
    );
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

/// Pretty JSON with a final newline.
fn json_text(doc: &Json) -> String {
    let mut s =
        serde_json::to_string_pretty(doc).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}

/// Per result of `current`, its bodies paired with those of its baseline result, when the
/// baseline has one (index in `base`).
fn compared(base: &Report, current: &Report) -> Vec<(usize, Option<usize>, Vec<PairedSection>)> {
    let matching = match_results(&base.results, &current.results);
    (0..current.results.len())
        .map(|i| match matching.base_of(i) {
            Some(b) => (
                i,
                Some(b),
                pair(&bodies_of(base, b), &bodies_of(current, i)),
            ),
            None => (i, None, Vec::new()),
        })
        .collect()
}

/// The JSON object of one report compared with the baseline: per result its baseline result
/// and the paired bodies, or its own bodies when the baseline has no such kernel.
fn compared_json(base: &Report, current: &Report) -> Json {
    let results: Vec<Json> = compared(base, current)
        .into_iter()
        .map(|(i, b, sections)| {
            let r = &current.results[i];
            match b {
                Some(b) => json!({
                    "id": r.id,
                    "name": r.name.demangled,
                    "baseline": {"id": base.results[b].id, "name": base.results[b].name.demangled},
                    "sections": sections,
                }),
                None => json!({
                    "id": r.id,
                    "name": r.name.demangled,
                    "baseline": Json::Null,
                    "sections": bodies_of(current, i),
                }),
            }
        })
        .collect();
    json!({
        "path": current.source.display().to_string(),
        "format": current.format.name(),
        "note": missing_note(current),
        "baseline_note": missing_note(base),
        "results": results,
    })
}

/// Both values and the change as text: `base → current (Δ, Δ%)`.
fn paired_text(v: &Paired, unit: &str) -> String {
    let side = |x: Option<f64>| x.map_or_else(|| "-".to_string(), |x| format_value(x, unit));
    let mut s = format!("{} → {}", side(v.base), side(v.current));
    if let Some(d) = v.delta() {
        let sign = if d > 0.0 { "+" } else { "" };
        s.push_str(&format!("  ({sign}{}", format_value(d, unit)));
        if let Some(p) = v.delta_pct() {
            s.push_str(&format!(", {p:+.1}%"));
        }
        s.push(')');
    }
    s
}

/// The text form of one report compared with the baseline.
fn compared_text(base: &Report, current: &Report) -> String {
    let mut out = format!(
        "{} (baseline {})\n",
        current.source.display(),
        base.source.display()
    );
    if let Some(note) = missing_note(current) {
        out.push_str(&format!("  no section bodies: {note}\n"));
        return out;
    }
    for (i, b, sections) in compared(base, current) {
        let r = &current.results[i];
        let Some(b) = b else {
            out.push_str(&format!(
                "[{}] {} (not in the baseline)\n",
                r.id, r.name.demangled
            ));
            render_sections(&mut out, &bodies_of(current, i));
            continue;
        };
        out.push_str(&format!(
            "[{}] {} vs [{}] {}\n",
            r.id, r.name.demangled, base.results[b].id, base.results[b].name.demangled
        ));
        render_paired(&mut out, &sections);
    }
    out
}

fn render_paired(out: &mut String, sections: &[PairedSection]) {
    render_tree(
        out,
        sections,
        |s| (&s.name, &s.bodies),
        |b| (&b.name, &b.items),
        |out, item| {
            let only = match item.only_current {
                Some(true) => " (only current)",
                Some(false) => " (only baseline)",
                None => "",
            };
            out.push_str(&format!("      {}{only}\n", item.label));
            let rows: Vec<Vec<String>> = match &item.content {
                PairedContent::Rows(rows) => rows
                    .iter()
                    .flat_map(|r| {
                        let head = vec![
                            format!("        {}", r.label),
                            r.group.clone().unwrap_or_default(),
                            paired_text(&r.value, &r.unit),
                        ];
                        let instances = r.instances.iter().map(|(k, v)| {
                            vec![
                                format!("          {k}"),
                                String::new(),
                                paired_text(v, &r.unit),
                            ]
                        });
                        std::iter::once(head).chain(instances)
                    })
                    .collect(),
                PairedContent::MemoryTable(grid) => grid
                    .rows
                    .iter()
                    .flat_map(|row| {
                        grid.columns
                            .iter()
                            .zip(&row.cells)
                            .filter_map(|(col, cell)| {
                                let cell = cell.as_ref()?;
                                Some(vec![
                                    format!("        {}", row.label),
                                    col.clone(),
                                    paired_text(&cell.value, &cell.unit),
                                ])
                            })
                    })
                    .collect(),
                PairedContent::MemoryChart(chart) => chart
                    .links
                    .iter()
                    .map(|l| {
                        vec![
                            format!("        {} → {}", l.from.name(), l.to.name()),
                            l.amount_kind.short().to_string(),
                            paired_text(&l.amount, ""),
                        ]
                    })
                    .collect(),
                PairedContent::Timeline { base, current } => {
                    let samples = |t: &Option<crate::analysis::sections::timeline::Timeline>| {
                        t.as_ref().map_or(0, |t| {
                            t.groups
                                .iter()
                                .flat_map(|g| &g.series)
                                .map(|s| s.points.len())
                                .sum::<usize>()
                        })
                    };
                    vec![vec![
                        "        samples".to_string(),
                        String::new(),
                        format!("{} → {}", samples(base), samples(current)),
                    ]]
                }
            };
            out.push_str(&render_rows(&rows, &[]));
        },
    );
}
