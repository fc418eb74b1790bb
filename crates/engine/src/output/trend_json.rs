//! A series of runs as `trend --format json` and the MCP `trend` tool give it.

use crate::analysis::series::Trend;
use crate::analysis::series::regression::Regression;
use crate::model::safe_text;
use serde_json::json;

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
