//! A sweep as `trend --by-size --format json` and the MCP `trend` tool (`by_size`) give it.

use crate::analysis::series::sweep::Sweep;

/// The sweep as one JSON document: the parameter, the sizes and versions, the report behind
/// each version and size, every kernel's points (one line per version, a point per size:
/// launches, mean duration, achieved FLOP/s) and the reports left out.
pub fn sweep_json(s: &Sweep) -> serde_json::Value {
    serde_json::to_value(s).unwrap_or_else(|e| serde_json::json!({ "error": e.to_string() }))
}

/// [`sweep_json`] as text, laid out as serde_json pretty-prints it, with a final line break.
pub fn sweep_json_text(s: &Sweep) -> String {
    let mut text = serde_json::to_string_pretty(&sweep_json(s))
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}
