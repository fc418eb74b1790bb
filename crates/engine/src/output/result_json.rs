//! One result as the JSON outputs give it: its results-table row and its rule results (`summary
//! --json`, the MCP `list` and `details` tools).

use crate::analysis::headline::headline;
use crate::model::format::{cc_text, number_json};
use crate::model::{Dim3, KernelResult, RuleResult};
use serde_json::{Value as Json, json};

/// A rule result as the JSON outputs give it: kind, title, estimated speedup and guidance.
pub fn rule_json(rule: &RuleResult) -> Json {
    json!({
        "kind": rule.kind.tag(),
        "title": rule.heading(),
        "speedup_kind": rule.speedup.map(|s| s.0),
        "speedup_pct": number_json(rule.speedup.map(|s| s.1)),
        "guidance": rule
            .guidance
            .iter()
            .map(|(metric, text)| json!({"metric": metric, "text": text}))
            .collect::<Vec<_>>(),
    })
}

/// The summary row of a result: what the table shows (identity, launch shape, duration,
/// speed of light, occupancy and the top rule), without the rules and metrics.
pub fn row_json(r: &KernelResult) -> Json {
    let h = headline(r);
    let mut row = json!({
        "id": r.id,
        "kind": r.kind.name(),
        "name": r.display_name(),
        "function": r.name.function,
        "grid": dim_json(r.grid),
        "block": dim_json(r.block),
        "cc": r.cc.map(cc_text),
        "duration_ns": number_json(h.duration_ns),
        "sol_compute_pct": number_json(h.sol_compute_pct),
        "sol_memory_pct": number_json(h.sol_memory_pct),
        "achieved_occupancy_pct": number_json(h.achieved_occupancy_pct),
        "top_rule": h.top_rule.map(|rule| json!({
            "title": rule.heading(),
            "speedup_pct": number_json(rule.speedup.map(|s| s.1)),
        })),
    });
    if let (Some(link), Some(fields)) = (&r.graph, row.as_object_mut()) {
        fields.insert("graph".into(), json!(link));
    }
    row
}

pub fn dim_json(d: Option<Dim3>) -> Json {
    d.map_or(Json::Null, |d| json!([d.x, d.y, d.z]))
}
