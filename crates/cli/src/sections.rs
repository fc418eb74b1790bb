//! `sightline sections`: every section body (charts and tables) of every result, with the
//! values resolved: bar by bar, cell by cell; with a baseline, every value with both sides
//! and the change.

use super::loading::{errors_json, leave_for_exit, load_all};
use crate::analysis::compare::matching::match_results;
use crate::analysis::parallel::{map_results, window_len};
use crate::analysis::sections::paired::{Paired, PairedContent, PairedSection, pair};
use crate::analysis::sections::{bodies_of, missing_note};
use crate::model::Report;
use crate::model::format::NOT_MEASURED;
use crate::model::section_body::SectionBodies;
use crate::output::json_stream;
use crate::output::table::value_text;
use crate::output::table::{finish, render_rows};
use crate::parse::LoadError;
use rayon::prelude::*;
use serde_json::{Value as Json, json};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Runs the command.
/// Every report's warnings (the baseline's too) go to stderr; `strict` makes them errors.
pub fn run(files: &[PathBuf], baseline: Option<&Path>, as_json: bool, strict: bool) -> i32 {
    let baseline = match baseline {
        Some(path) => match load_all(&[path.to_path_buf()]) {
            (mut reports, _) if !reports.is_empty() => Some(reports.remove(0)),
            (_, errors) => {
                for e in errors {
                    crate::warnings::tell("error", e);
                }
                return 2;
            }
        },
        None => None,
    };
    let (mut reports, errors) = load_all(files);
    let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
    let mut baseline = baseline;
    let written = match &mut baseline {
        Some(base) if as_json => write_compared_json(&mut stdout, base, &mut reports, &errors),
        Some(base) => reports
            .iter_mut()
            .try_for_each(|r| write_compared_text(&mut stdout, base, r)),
        None if as_json => write_json(&mut stdout, &mut reports, &errors),
        None => reports
            .iter_mut()
            .try_for_each(|r| write_text(&mut stdout, r)),
    };
    let write_failed = crate::output::table::write_failed(written.and_then(|()| stdout.flush()));
    drop(stdout);
    let code = finish("", &errors, as_json);
    let failed = match &baseline {
        Some(base) => {
            super::warnings::report_problems(std::iter::once(base).chain(&reports), strict)
        }
        None => super::warnings::report_problems(&reports, strict),
    };
    leave_for_exit(reports);
    if let Some(base) = baseline {
        leave_for_exit(vec![base]);
    }
    super::loading::exit_code(code, failed || write_failed)
}

/// Writes the JSON document of `sections --json` result by result: a window of results at a
/// time is resolved and turned into text on every core, then written in order and released.
/// The text is that of pretty-printing the whole document at once.
pub fn write_json(
    out: &mut impl Write,
    reports: &mut [Report],
    errors: &[LoadError],
) -> std::io::Result<()> {
    let skeleton: Vec<Json> = reports
        .iter()
        .enumerate()
        .map(|(i, rep)| report_head_json(rep, json_stream::placeholder(i)))
        .collect();
    let doc = json!({"reports": skeleton, "errors": errors_json(errors)});
    json_stream::write_report_texts(out, &doc, "  ", reports, |_, rep, k, indent| {
        let r = &rep.results[k];
        let sections = bodies_of(rep, k);
        let result = crate::output::sections_json::ResultSections {
            id: r.id,
            name: &r.name.demangled,
            sections: &sections,
        };
        json_stream::pretty_indented(&result, indent)
    })
}

/// Writes the text form of one report result by result (a window at a time on every core).
pub fn write_text(out: &mut impl Write, rep: &mut Report) -> std::io::Result<()> {
    writeln!(out, "{}", rep.source.display())?;
    if let Some(note) = missing_note(rep) {
        return writeln!(out, "  no section bodies: {note}");
    }
    map_results(rep, result_text, |_, text| out.write_all(text.as_bytes()))
}

/// The text form of the result at `index`.
fn result_text(rep: &Report, index: usize) -> String {
    let r = &rep.results[index];
    let mut out = format!("[{}] {}\n", r.id, r.name.demangled);
    render_sections(&mut out, &bodies_of(rep, index));
    out
}

/// The JSON object of the result at `index`: its sections' bodies.
fn result_json(rep: &Report, index: usize) -> Json {
    let r = &rep.results[index];
    json!({
        "id": r.id,
        "name": r.name.demangled,
        "sections": bodies_of(rep, index),
    })
}

/// The JSON object of one report with `results` as its results.
fn report_head_json(rep: &Report, results: Json) -> Json {
    json!({
        "path": rep.source.display().to_string(),
        "format": rep.format.name(),
        "note": missing_note(rep),
        "results": results,
    })
}

/// The JSON object of one report: per result its sections' bodies.
pub fn report_json(rep: &Report) -> Json {
    let results: Vec<Json> = (0..rep.results.len())
        .map(|i| result_json(rep, i))
        .collect();
    report_head_json(rep, Json::Array(results))
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
    for i in 0..rep.results.len() {
        out.push_str(&result_text(rep, i));
    }
    out
}

/// Runs `work(base, current, index, base index)` on every result of `current` with its
/// baseline result (matched as `diff` matches them), a window at a time on every core, and
/// hands the outcomes to `each` in order; the bodies a window decoded on either side are
/// released before the next.
fn map_compared<T: Send>(
    base: &mut Report,
    current: &mut Report,
    work: impl Fn(&Report, &Report, usize, Option<usize>) -> T + Sync,
    mut each: impl FnMut(T) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let matching = match_results(&base.results, &current.results);
    // The first pair of each current result, as `Matching::base_of` finds it.
    let mut base_of: Vec<Option<usize>> = vec![None; current.results.len()];
    for p in &matching.pairs {
        if let Some(slot) = base_of.get_mut(p.current)
            && slot.is_none()
        {
            *slot = Some(p.base);
        }
    }
    drop(matching);
    let window = window_len();
    let mut start = 0;
    while start < base_of.len() {
        let end = (start + window).min(base_of.len());
        let (b, c): (&Report, &Report) = (base, current);
        let done: Vec<T> = (start..end)
            .into_par_iter()
            .map(|i| work(b, c, i, base_of[i]))
            .collect();
        base.release_bodies(0);
        current.release_bodies(0);
        for t in done {
            each(t)?;
        }
        start = end;
    }
    Ok(())
}

/// Writes the JSON document of `sections --json --baseline` result by result.
fn write_compared_json(
    out: &mut impl Write,
    base: &mut Report,
    reports: &mut [Report],
    errors: &[LoadError],
) -> std::io::Result<()> {
    let skeleton: Vec<Json> = reports
        .iter()
        .enumerate()
        .map(|(i, current)| {
            let mut doc = report_head_json(current, json_stream::placeholder(i));
            doc["baseline_note"] = json!(missing_note(base));
            doc
        })
        .collect();
    let doc = json!({
        "baseline": base.source.display().to_string(),
        "reports": skeleton,
        "errors": errors_json(errors),
    });
    json_stream::write_document(out, &doc, "  ", |out, i, array| {
        let Some(current) = reports.get_mut(i) else {
            return Ok(());
        };
        map_compared(
            base,
            current,
            |base, current, i, b| json_stream::pretty(&compared_result_json(base, current, i, b)),
            |text| array.item_text(out, &text?),
        )
    })
}

/// The JSON object of result `i` of `current` compared with result `b` of the baseline, or its
/// own bodies when the baseline has no such kernel.
fn compared_result_json(base: &Report, current: &Report, i: usize, b: Option<usize>) -> Json {
    let r = &current.results[i];
    match b {
        Some(b) => json!({
            "id": r.id,
            "name": r.name.demangled,
            "baseline": {"id": base.results[b].id, "name": base.results[b].name.demangled},
            "sections": pair(&bodies_of(base, b), &bodies_of(current, i)),
        }),
        None => json!({
            "id": r.id,
            "name": r.name.demangled,
            "baseline": Json::Null,
            "sections": bodies_of(current, i),
        }),
    }
}

/// Both values and the change as text: `base → current (Δ, Δ%)`.
fn paired_text(v: &Paired, unit: &str) -> String {
    let side = |x: Option<f64>| {
        x.map_or_else(
            || NOT_MEASURED.to_string(),
            |x| crate::model::format::value_text(x, unit),
        )
    };
    let mut s = format!("{} → {}", side(v.base), side(v.current));
    if let Some(d) = v.delta() {
        let sign = if d > 0.0 { "+" } else { "" };
        s.push_str(&format!(
            "  ({sign}{}",
            crate::model::format::value_text(d, unit)
        ));
        if let Some(p) = v.delta_pct() {
            s.push_str(&format!(", {p:+.1}%"));
        }
        s.push(')');
    }
    s
}

/// Writes the text form of one report compared with the baseline, result by result.
fn write_compared_text(
    out: &mut impl Write,
    base: &mut Report,
    current: &mut Report,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{} (baseline {})",
        current.source.display(),
        base.source.display()
    )?;
    if let Some(note) = missing_note(current) {
        return writeln!(out, "  no section bodies: {note}");
    }
    map_compared(base, current, compared_result_text, |text| {
        out.write_all(text.as_bytes())
    })
}

/// The text form of result `i` of `current` compared with result `b` of the baseline.
fn compared_result_text(base: &Report, current: &Report, i: usize, b: Option<usize>) -> String {
    let r = &current.results[i];
    let mut out = String::new();
    let Some(b) = b else {
        out.push_str(&format!(
            "[{}] {} (not in the baseline)\n",
            r.id, r.name.demangled
        ));
        render_sections(&mut out, &bodies_of(current, i));
        return out;
    };
    out.push_str(&format!(
        "[{}] {} vs [{}] {}\n",
        r.id, r.name.demangled, base.results[b].id, base.results[b].name.demangled
    ));
    render_paired(&mut out, &pair(&bodies_of(base, b), &bodies_of(current, i)));
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
