//! A series of runs as tables: aligned text for the terminal (`trend`, with a sparkline per
//! kernel), Markdown (`trend --format md`, for pull-request comments) and CSV (`trend --format
//! csv`, one row per kernel and run, numbers in base units); each with the biggest steps and the
//! regressions of the latest run where the form has room for them.

use crate::analysis::series::regression::Regression;
use crate::analysis::series::{SeriesOrder, Trend, finite_range};
use crate::model::format::{NOT_MEASURED, count_text, measured_text};
use crate::model::safe_text;
use crate::output::table::render_rows;
use crate::output::trend_json::regression_text;
use std::io::Write;

/// A duration for people (`2.30 ms`), `-` where the run does not launch the kernel,
/// `damaged (NaN)` where a launch's duration is no number.
fn ns_text(v: Option<f64>) -> String {
    v.map_or_else(|| NOT_MEASURED.into(), |v| measured_text(v, "ns"))
}

/// A line of blocks, one per run, from lowest to highest mean duration (a gap where the run
/// does not launch the kernel, `?` where its duration is damaged).
pub fn sparkline(values: &[Option<f64>]) -> String {
    const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let (lo, hi) = finite_range(values);
    values
        .iter()
        .map(|v| match v {
            None => ' ',
            Some(v) if !v.is_finite() => '?',
            Some(v) if hi > lo => {
                let i = ((v - lo) / (hi - lo) * 7.0).round() as usize;
                BLOCKS[i.min(7)]
            }
            Some(_) => BLOCKS[3],
        })
        .collect()
}

/// The kernel's names over the series (`gemm_step → gemm_tiled_2d`), each with its control
/// and bidirectional characters shown by code point.
fn names_text(names: &[String]) -> String {
    names
        .iter()
        .map(|n| safe_text::visible(n).into_owned())
        .collect::<Vec<_>>()
        .join(" \u{2192} ")
}

/// Writes the text of `trend`: the runs, a table of every kernel's mean duration per run with
/// its sparkline and launches in the latest run, the biggest steps and the regressions.
pub fn write_text(out: &mut dyn Write, t: &Trend, found: &[Regression]) -> std::io::Result<()> {
    let mut text = format!(
        "{}, {} ({}): {}\n\n",
        count_text(t.runs.len(), "run", "runs"),
        t.order_note,
        if t.order == SeriesOrder::Given {
            "--order captured to sort by capture time"
        } else {
            "--order given to keep the order given"
        },
        t.runs
            .iter()
            .map(|r| safe_text::visible(&r.label))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut rows = vec![
        std::iter::once("KERNEL".to_string())
            .chain(
                t.runs
                    .iter()
                    .map(|r| safe_text::visible(&r.label).into_owned()),
            )
            .chain(["TREND".to_string(), "LAUNCHES".to_string()])
            .collect::<Vec<_>>(),
    ];
    for k in &t.kernels {
        let means = k.means();
        let launches = k
            .points
            .iter()
            .rev()
            .find_map(|p| p.as_ref().map(|p| p.launches))
            .unwrap_or(0);
        rows.push(
            std::iter::once(names_text(&k.names))
                .chain(means.iter().map(|m| ns_text(*m)))
                .chain([sparkline(&means), launches.to_string()])
                .collect(),
        );
    }
    let right: Vec<usize> = (1..=t.runs.len()).chain([t.runs.len() + 2]).collect();
    text.push_str(&render_rows(&rows, &right));
    if !t.steps.is_empty() {
        text.push_str("\nBiggest steps:\n");
        for s in &t.steps {
            let visible = |w: &str| safe_text::visible(w).into_owned();
            text.push_str(&format!("  {}\n", s.line(&t.runs, visible, visible)));
        }
    }
    text.push('\n');
    if found.is_empty() {
        text.push_str("No regression in the latest run.\n");
    } else {
        for r in found {
            text.push_str(&format!("REGRESSION {}\n", regression_text(r)));
        }
    }
    out.write_all(text.as_bytes())
}

/// Writes the CSV of `trend --format csv`: one row per kernel and run, numbers in base units;
/// names with their control and bidirectional characters shown by code point, as in every
/// other form.
pub fn write_csv(out: &mut dyn Write, t: &Trend) -> std::io::Result<()> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "kernel", "run", "label", "name", "launches", "total_ns", "mean_ns", "min_ns", "max_ns",
        "metric",
    ]);
    for k in &t.kernels {
        for (i, p) in k.points.iter().enumerate() {
            let Some(p) = p else { continue };
            let shown = |text: &str| safe_text::visible(text).into_owned();
            let _ = w.write_record([
                shown(&k.name),
                (i + 1).to_string(),
                shown(&t.runs[i].label),
                shown(&p.name),
                p.launches.to_string(),
                p.total_ns.to_string(),
                p.mean_ns.to_string(),
                p.min_ns.to_string(),
                p.max_ns.to_string(),
                p.metric.map_or(String::new(), |m| m.to_string()),
            ]);
        }
    }
    let text = w
        .into_inner()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    out.write_all(text.as_bytes())
}

/// Writes the Markdown of `trend --format md`: a table of every kernel's mean duration per run
/// with its sparkline, the biggest steps and the regressions.
pub fn write_markdown(out: &mut dyn Write, t: &Trend, found: &[Regression]) -> std::io::Result<()> {
    let cell = |s: &str| safe_text::markdown_text(s).replace('|', "\\|");
    let mut text = format!(
        "## Trend of {} ({})\n\n| Kernel | {} | Trend |\n|---|{}---|\n",
        count_text(t.runs.len(), "run", "runs"),
        cell(&t.order_note),
        t.runs
            .iter()
            .map(|r| cell(&r.label))
            .collect::<Vec<_>>()
            .join(" | "),
        "---:|".repeat(t.runs.len())
    );
    for k in &t.kernels {
        let means = k.means();
        text.push_str(&format!(
            "| {} | {} | {} |\n",
            cell(&names_text(&k.names)),
            means
                .iter()
                .map(|m| ns_text(*m))
                .collect::<Vec<_>>()
                .join(" | "),
            sparkline(&means)
        ));
    }
    if !t.steps.is_empty() {
        text.push_str("\n**Biggest steps**\n\n");
        for s in &t.steps {
            let line = s.line(&t.runs, safe_text::markdown_code, cell);
            text.push_str(&format!("- {line}\n"));
        }
    }
    text.push('\n');
    if found.is_empty() {
        text.push_str("No regression in the latest run.\n");
    } else {
        for r in found {
            text.push_str(&format!("- **Regression** {}\n", cell(&r.line())));
        }
    }
    out.write_all(text.as_bytes())
}
