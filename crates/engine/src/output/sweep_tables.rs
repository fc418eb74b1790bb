//! A sweep as tables: aligned text for the terminal and Markdown (for each kernel, a table per
//! figure with a row per version and a column per size), and CSV (a row per kernel, version and
//! size, numbers in base units; the parameter's name is the JSON's). What `trend --by-size` prints for `text`, `md` and `csv`.

use crate::analysis::series::sweep::{Sweep, SweepFigure, SweepKernel};
use crate::model::format::{NOT_MEASURED, count_text, measured_text, value_text};
use crate::model::safe_text;

/// A figure's value at a point, for people: a duration that is no number is `damaged (NaN)`,
/// a value not measured `-`.
pub fn cell_text(figure: SweepFigure, value: Option<f64>) -> String {
    match (figure, value) {
        (_, None) => NOT_MEASURED.into(),
        (SweepFigure::Duration, Some(v)) => measured_text(v, figure.unit()),
        (_, Some(v)) => value_text(v, figure.unit()),
    }
}

/// The kernel's names over the versions (`gemm_step → gemm_tiled_2d`).
pub fn names_text(k: &SweepKernel) -> String {
    k.names.join(" \u{2192} ")
}

/// The first line: what the sweep is over (`Sweep over N: 4 sizes (…), 3 versions (…)`).
pub fn heading(s: &Sweep) -> String {
    format!("Sweep over {}: {}", s.parameter, contents(s))
}

/// The sizes and the versions: `4 sizes (256, 512, 1024, 2048), 3 versions (v1, v3, v5)`.
pub fn contents(s: &Sweep) -> String {
    let list = |items: Vec<String>| items.join(", ");
    format!(
        "{} ({}), {} ({})",
        count_text(s.sizes.len(), "size", "sizes"),
        list(s.sizes.iter().map(u64::to_string).collect()),
        count_text(s.versions.len(), "version", "versions"),
        list(s.versions.clone()),
    )
}

/// The rows of one figure's table: the figure and the sizes, then a row per version.
fn figure_rows(s: &Sweep, k: &SweepKernel, figure: SweepFigure) -> Vec<Vec<String>> {
    let mut rows = vec![
        std::iter::once(figure.title(s))
            .chain((0..s.sizes.len()).map(|i| s.size_label(i)))
            .collect::<Vec<_>>(),
    ];
    for line in &k.lines {
        rows.push(
            std::iter::once(line.version.clone())
                .chain(
                    line.points
                        .iter()
                        .map(|p| cell_text(figure, p.as_ref().and_then(|p| figure.value(p)))),
                )
                .collect(),
        );
    }
    rows
}

/// The sweep for a terminal.
pub fn sweep_text(s: &Sweep) -> String {
    let mut out = heading(s);
    if let Some(p) = &s.size_pattern {
        out.push_str(&format!(", sizes read with `{p}`"));
    }
    out.push('\n');
    let right: Vec<usize> = (1..=s.sizes.len()).collect();
    for k in &s.kernels {
        out.push_str(&format!("\n{}\n", safe_text::visible(&names_text(k))));
        for (i, figure) in s.figures().into_iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&crate::output::table::render_rows(
                &figure_rows(s, k, figure),
                &right,
            ));
        }
    }
    if !s.left_out.is_empty() {
        out.push_str("\nLeft out:\n");
        for line in &s.left_out {
            out.push_str(&format!("  {}\n", safe_text::visible(line)));
        }
    }
    out
}

/// The sweep as Markdown: a section per kernel, a table per figure.
pub fn sweep_markdown(s: &Sweep) -> String {
    let cell = |t: &str| safe_text::markdown_text(t);
    let mut out = format!("## {}\n", cell(&heading(s)));
    for k in &s.kernels {
        out.push_str(&format!(
            "\n### {}\n",
            safe_text::markdown_code(&names_text(k))
        ));
        for figure in s.figures() {
            let rows = figure_rows(s, k, figure);
            out.push('\n');
            for (i, row) in rows.iter().enumerate() {
                let cells: Vec<String> = row.iter().map(|c| cell(c)).collect();
                out.push_str(&format!("| {} |\n", cells.join(" | ")));
                if i == 0 {
                    out.push_str(&format!("|---|{}\n", "---:|".repeat(row.len() - 1)));
                }
            }
        }
    }
    if !s.left_out.is_empty() {
        out.push_str("\n**Left out**\n\n");
        for line in &s.left_out {
            out.push_str(&format!("- {}\n", cell(line)));
        }
    }
    out
}

/// One row per kernel, version and size with a point; names with their control and
/// bidirectional characters shown by code point, as in every other form.
pub fn sweep_csv(s: &Sweep) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let _ = w.write_record([
        "kernel",
        "version",
        "size",
        "name",
        "launches",
        "total_ns",
        "mean_ns",
        "min_ns",
        "max_ns",
        "flop_per_s",
        "metric",
    ]);
    let shown = |text: &str| safe_text::visible(text).into_owned();
    let number = |v: Option<f64>| v.map_or(String::new(), |v| v.to_string());
    for k in &s.kernels {
        for line in &k.lines {
            for (size, p) in s.sizes.iter().zip(&line.points) {
                let Some(p) = p else { continue };
                let l = &p.launches;
                let _ = w.write_record([
                    shown(&k.name),
                    shown(&line.version),
                    size.to_string(),
                    shown(&l.name),
                    l.launches.to_string(),
                    l.total_ns.to_string(),
                    l.mean_ns.to_string(),
                    l.min_ns.to_string(),
                    l.max_ns.to_string(),
                    number(p.flop_per_s),
                    number(l.metric),
                ]);
            }
        }
    }
    w.into_inner()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
}
