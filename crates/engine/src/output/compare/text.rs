//! The comparison of two reports as plain text (`diff`, the default form): both reports, the
//! matched kernels by time won or lost, the totals, the biggest metric changes, the kernels on
//! one side only, renames, repeated kernels, why each kernel changed and the `--fail-on`
//! result.

use super::failures::failure_line;
use crate::analysis::compare::ReportDiff;
use crate::analysis::compare::export::{
    self, DEFAULT_MAX_CHANGES, HEADLINE_METRICS, MAX_NAME_CHARS, delta_text, short_name,
    time_delta_text,
};
use crate::analysis::compare::fail_on::Failure;
use crate::analysis::compare::groups::{GroupStats, groups};
use crate::analysis::path_names::distinct_names;
use crate::model::Report;
use crate::model::format::NOT_MEASURED;
use crate::model::format::stored_value_text;
use crate::model::format::value_text;
use crate::output::table::render_rows;

/// The title of the Markdown and HTML forms: `Comparison: BASE → CURRENT`, the reports named by
/// their shortest distinct paths.
pub fn title(base: &Report, current: &Report) -> String {
    let names = distinct_names(&[&base.source, &current.source]);
    format!("Comparison: {} → {}", names[0], names[1])
}

/// Where the base was captured after the current report (both say when), the line that says
/// so: `diff A B` keeps A as the base whatever the capture times, and the reader should know.
pub fn capture_order_note(base: &Report, current: &Report) -> Option<String> {
    let (b, c) = (base.created?, current.created?);
    (b > c).then(|| {
        let at = crate::parse::ncu_rep::session::format_utc;
        format!(
            "the base was captured after the current report ({} UTC vs {} UTC); the order given \
             decides: swap the files to compare the other way",
            at(b),
            at(c)
        )
    })
}

fn describe(r: &Report) -> String {
    format!(
        "{} ({}, {}{})",
        r.source.display(),
        r.format.name(),
        crate::model::format::count_text(r.results.len(), "result", "results"),
        r.tool_version
            .as_deref()
            .map_or_else(String::new, |v| format!(", ncu {v}"))
    )
}

/// A duration for people; one that is no number is named as damage.
fn duration_text(ns: f64) -> String {
    if ns.is_finite() {
        value_text(ns, "ns")
    } else {
        format!("damaged ({ns})")
    }
}

/// The plain-text comparison.
pub fn render_text(
    diff: &ReportDiff,
    base: &Report,
    current: &Report,
    failures: &[Failure],
) -> String {
    let mut out = String::new();
    out.push_str(&format!("base:    {}\n", describe(base)));
    out.push_str(&format!("current: {}\n", describe(current)));
    out.push_str(&format!("noise threshold: {}%\n", diff.threshold_pct));
    if let Some(note) = capture_order_note(base, current) {
        out.push_str(&format!("note: {note}\n"));
    }
    if !diff.warnings.is_empty() {
        out.push_str("\nWarnings:\n");
        for w in &diff.warnings {
            out.push_str(&format!("  ! {w}\n"));
        }
    }
    out.push_str(&format!(
        "\nMatched kernels: {} (sorted by time won or lost)\n",
        diff.matched.len()
    ));
    if !diff.matched.is_empty() {
        let mut rows = vec![
            [
                "IDS",
                "KERNEL",
                "BASE",
                "CURRENT",
                "Δ DURATION",
                "VERDICT",
                "TIME",
            ]
            .iter()
            .map(|s| s.to_string())
            .chain(
                HEADLINE_METRICS
                    .iter()
                    .map(|(_, l)| format!("Δ {}", l.to_uppercase())),
            )
            .collect::<Vec<_>>(),
        ];
        for k in diff.by_impact() {
            let d = k.diff.duration.as_ref();
            let value = |v: Option<f64>| v.map_or_else(|| NOT_MEASURED.into(), duration_text);
            let mut row = vec![
                format!("{}→{}", k.base_id, k.current_id),
                short_name(&k.name, MAX_NAME_CHARS),
                value(k.base_duration_ns),
                value(k.current_duration_ns),
                delta_text(d),
                d.map_or(NOT_MEASURED, |d| d.verdict.name()).to_string(),
                k.time_delta_ns()
                    .map_or_else(|| NOT_MEASURED.into(), time_delta_text),
            ];
            row.extend(
                HEADLINE_METRICS
                    .iter()
                    .map(|(key, _)| delta_text(k.diff.get(key))),
            );
            rows.push(row);
        }
        let right = [2, 3, 4, 6, 7, 8, 9];
        for line in render_rows(&rows, &right).lines() {
            out.push_str("  ");
            out.push_str(line);
            out.push('\n');
        }
    }
    out.push('\n');
    for line in export::totals_lines(diff) {
        out.push_str(&format!("{line}\n"));
    }
    let changes = export::listed_changes(diff, DEFAULT_MAX_CHANGES);
    if !changes.is_empty() {
        out.push_str(if diff.restricted {
            "\nSelected metrics:\n"
        } else {
            "\nBiggest metric changes:\n"
        });
        let mut rows = Vec::new();
        for c in changes {
            let m = c.metric;
            rows.push(vec![
                format!("{}→{}", c.kernel.base_id, c.kernel.current_id),
                short_name(&c.kernel.name, 40),
                m.key.to_string(),
                stored_value_text(&m.base, &m.unit),
                stored_value_text(&m.current, &m.unit),
                delta_text(Some(m)),
                m.verdict.name().to_string(),
            ]);
        }
        let right = [3, 4, 5];
        for line in render_rows(&rows, &right).lines() {
            out.push_str("  ");
            out.push_str(line);
            out.push('\n');
        }
    }
    for (title, list) in [
        ("Only in base", &diff.only_in_base),
        ("Only in current", &diff.only_in_current),
    ] {
        if list.is_empty() {
            continue;
        }
        out.push_str(&format!("\n{title}: {}\n", list.len()));
        for u in list {
            let duration = u
                .duration_ns
                .map_or_else(String::new, |d| format!("  {}", duration_text(d)));
            out.push_str(&format!(
                "  {}  {}{duration}\n",
                u.id,
                short_name(&u.name, MAX_NAME_CHARS)
            ));
        }
    }
    if !diff.renamed.is_empty() {
        out.push_str("\nPaired as renamed:\n");
        for line in export::renamed_lines(diff) {
            out.push_str(&format!("  {line}\n"));
        }
    }
    if !diff.suggested_pairs.is_empty() {
        out.push_str("\nRenamed? Not paired; each pair below has a new name on one kernel:\n");
        for line in export::suggested_lines(diff) {
            out.push_str(&format!("  {line}\n"));
        }
    }
    let repeated: Vec<_> = groups(&base.results, &current.results, &diff.renamed)
        .into_iter()
        .filter(|g| g.base.is_some_and(|s| s.count > 1) || g.current.is_some_and(|s| s.count > 1))
        .take(DEFAULT_MAX_CHANGES)
        .collect();
    if !repeated.is_empty() {
        out.push_str("\nRepeated kernels (per kernel: launches, total, mean, min–max):\n");
        let side = |s: Option<GroupStats>| {
            s.map_or_else(
                || NOT_MEASURED.to_string(),
                |s| {
                    let ns = |v: Option<f64>| v.map_or_else(|| NOT_MEASURED.into(), duration_text);
                    format!(
                        "{}× {} (mean {}, {}–{})",
                        s.count,
                        value_text(s.total_ns, "ns"),
                        ns(s.mean_ns),
                        ns(s.min_ns),
                        ns(s.max_ns)
                    )
                },
            )
        };
        let mut rows = vec![vec![
            "KERNEL".to_string(),
            "BASE".to_string(),
            "CURRENT".to_string(),
            "TIME".to_string(),
        ]];
        for g in repeated {
            rows.push(vec![
                short_name(&g.name, 60),
                side(g.base),
                side(g.current),
                time_delta_text(g.total_delta_ns()),
            ]);
        }
        for line in render_rows(&rows, &[3]).lines() {
            out.push_str("  ");
            out.push_str(line);
            out.push('\n');
        }
    }
    let explained: Vec<_> = diff
        .by_impact()
        .into_iter()
        .filter(|k| !k.why.is_empty() || !k.changes.is_empty())
        .collect();
    if !explained.is_empty() {
        out.push_str("\nWhy it changed:\n");
        for k in explained.into_iter().take(DEFAULT_MAX_CHANGES) {
            out.push_str(&format!(
                "  {}→{} {}\n",
                k.base_id,
                k.current_id,
                short_name(&k.name, MAX_NAME_CHARS)
            ));
            for c in &k.changes {
                out.push_str(&format!("      = {c}\n"));
            }
            for w in export::listed_why(&k.why) {
                let mark = match w.agrees {
                    Some(true) => '+',
                    Some(false) => '-',
                    None => '·',
                };
                out.push_str(&format!("      {mark} {}\n", w.text));
            }
        }
    }
    if failures.is_empty() {
        out.push_str("\nResult: no --fail-on rule fired\n");
    } else {
        out.push_str(&format!(
            "\nResult: {}:\n",
            crate::model::format::count_text(failures.len(), "failure", "failures")
        ));
        for f in failures {
            out.push_str(&format!("  - {}\n", failure_line(f)));
        }
    }
    out
}
