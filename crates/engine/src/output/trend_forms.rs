//! `trend` in the form asked for (`--format`): the writer of each form of a series of runs
//! (`trend_tables`, `trend_json`, `trend_html`) and of a sweep over problem sizes
//! (`sweep_tables`, `sweep_json`, `sweep_html`).

use crate::analysis::series::Trend;
use crate::analysis::series::regression::Regression;
use crate::analysis::series::request::TrendFormat;
use crate::analysis::series::sweep::Sweep;
use crate::output::{sweep_html, sweep_json, sweep_tables, trend_html, trend_json, trend_tables};
use std::io::Write;

/// Writes a series of runs and the regressions of its latest run in `format`.
pub fn write_trend(
    out: &mut dyn Write,
    t: &Trend,
    found: &[Regression],
    format: TrendFormat,
) -> std::io::Result<()> {
    match format {
        TrendFormat::Text => trend_tables::write_text(out, t, found),
        TrendFormat::Json => trend_json::write_json(out, t, found),
        TrendFormat::Csv => trend_tables::write_csv(out, t),
        TrendFormat::Md => trend_tables::write_markdown(out, t, found),
        TrendFormat::Html => out.write_all(trend_html::trend_html(t, found).as_bytes()),
    }
}

/// Writes a sweep over problem sizes in `format`.
pub fn write_sweep(out: &mut dyn Write, s: &Sweep, format: TrendFormat) -> std::io::Result<()> {
    let text = match format {
        TrendFormat::Text => sweep_tables::sweep_text(s),
        TrendFormat::Json => sweep_json::sweep_json_text(s),
        TrendFormat::Csv => sweep_tables::sweep_csv(s),
        TrendFormat::Md => sweep_tables::sweep_markdown(s),
        TrendFormat::Html => sweep_html::sweep_html(s),
    };
    out.write_all(text.as_bytes())
}
