//! The section bodies of `sightline sections` as text: per result each section, body and
//! item with its rows of values; with a baseline, every value with both sides and the change.

use crate::analysis::parallel::map_results;
use crate::analysis::sections::paired::{Paired, PairedContent, PairedSection, pair};
use crate::analysis::sections::with_baseline::map_with_baseline;
use crate::analysis::sections::{bodies_of, missing_note};
use crate::model::Report;
use crate::model::format::NOT_MEASURED;
use crate::model::section_body::SectionBodies;
use crate::output::table::render_rows;
use crate::output::table::value_text;
use std::io::Write;

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
pub fn write_compared_text(
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
    map_with_baseline(base, current, compared_result_text, |text| {
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
