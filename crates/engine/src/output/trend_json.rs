//! A series of runs as `trend --format json` and the MCP `trend` tool give it.

use crate::analysis::series::Trend;
use crate::analysis::series::regression::Regression;
use crate::model::safe_text;
use serde_json::json;
use std::io::Write;

/// A regression in one line, safe for a terminal.
pub fn regression_text(r: &Regression) -> String {
    safe_text::visible(&r.line()).into_owned()
}

/// The trend and its regressions as one JSON document (also the MCP `trend` tool's answer).
pub fn trend_json(t: &Trend, found: &[Regression]) -> serde_json::Value {
    json!({
        "runs": t.runs,
        "order": t.order,
        "order_note": t.order_note,
        "metric": t.metric,
        "kernels": t.kernels,
        "steps": t.steps,
        "regressions": found,
    })
}

/// Writes [`trend_json`] as `trend --format json` prints it: laid out as serde_json
/// pretty-prints it, with a final line break.
pub fn write_json(out: &mut dyn Write, t: &Trend, found: &[Regression]) -> std::io::Result<()> {
    let mut text = serde_json::to_string_pretty(&trend_json(t, found))
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    out.write_all(text.as_bytes())
}
