//! `list_results`: the summary row of every result of a report (as `summary --json` gives
//! it, without the metrics), a page at a time.

use super::{
    Entry, ToolContext, ToolError, ToolOutput, arguments, input_schema, number_or_null,
    object_schema, open, report_json, report_schema,
};
use crate::analysis::headline::device_summary;
use crate::model::format::cc_text;
use crate::model::format::value_text;
use crate::output::result_json::row_json;
use rmcp::schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value as Json, json};

const NAME: &str = "list_results";
const DEFAULT_LIMIT: usize = 50;

pub(super) const ENTRY: Entry = Entry {
    name: NAME,
    title: "List the results of a report",
    description: "Lists the results (kernel launches, ranges) of an Nsight Compute report: ID, kernel, grid and block, duration, Speed of Light compute and memory %, achieved occupancy and the rule with the highest estimated speedup. Pages through large reports with offset and limit. The IDs are what the other tools take as result_id.",
    input: input_schema::<Args>,
    output,
    call,
};

/// Arguments of `list_results`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct Args {
    /// Report file (.ncu-rep, ncu text or CSV output), relative to the server's first root or
    /// absolute under one of its roots.
    report: String,
    /// How many results to list (default 50).
    #[serde(default)]
    limit: Option<usize>,
    /// How many results to skip first (default 0).
    #[serde(default)]
    offset: Option<usize>,
}

fn output() -> Json {
    object_schema(json!({
        "report": report_schema(),
        "device": object_schema(json!({
            "name": {"type": ["string", "null"]},
            "cc": {"type": ["string", "null"], "description": "compute capability"},
            "sm_count": {"type": ["integer", "null"]},
        })),
        "offset": {"type": "integer"},
        "results": {"type": "array", "items": object_schema(json!({
            "id": {"type": "integer"},
            "kind": {"type": "string"},
            "name": {"type": "string"},
            "function": {"type": "string"},
            "grid": {"type": ["array", "null"], "items": {"type": "integer"}},
            "block": {"type": ["array", "null"], "items": {"type": "integer"}},
            "cc": {"type": ["string", "null"]},
            "duration_ns": number_or_null("duration in ns"),
            "sol_compute_pct": number_or_null("Speed of Light compute throughput, % of peak"),
            "sol_memory_pct": number_or_null("Speed of Light memory throughput, % of peak"),
            "achieved_occupancy_pct": number_or_null("achieved occupancy, %"),
            "top_rule": {"type": ["object", "null"]},
        }))},
        "left_out": {"type": ["string", "null"], "description": "what was not listed and how to ask for it"},
    }))
}

fn call(cx: &ToolContext<'_>, value: Json) -> Result<ToolOutput, ToolError> {
    let args: Args = arguments(NAME, value)?;
    let (cached, hit) = open(cx, &args.report)?;
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
    let offset = args.offset.unwrap_or(0);
    let out = {
        let rep = cached.lock();
        let total = rep.results.len();
        let rows: Vec<Json> = rep
            .results
            .iter()
            .skip(offset)
            .take(limit)
            .map(row_json)
            .collect();
        let dev = device_summary(&rep, rep.results.first());
        let end = (offset + rows.len()).min(total);
        let left = (offset > 0 || end < total).then(|| {
            format!(
                "results {}–{end} of {total} listed; call again with offset and limit for the others",
                (offset + 1).min(end.max(1))
            )
        });
        let slowest = rep
            .results
            .iter()
            .filter_map(|r| Some((r.number(crate::model::names::DURATION)?, r)))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let mut summary = format!(
            "{}: {} ({}).",
            rep.source.display(),
            crate::model::format::count_text(total, "result", "results"),
            rep.format.name()
        );
        if let Some((d, r)) = slowest {
            summary.push_str(&format!(
                " Longest: ID {} {} ({}).",
                r.id,
                r.name.function,
                value_text(d, "ns")
            ));
        }
        if let Some(l) = &left {
            summary.push_str(&format!(" {l}."));
        }
        ToolOutput {
            structured: json!({
                "report": report_json(&rep, hit),
                "device": {"name": dev.name, "cc": dev.cc.map(cc_text), "sm_count": dev.sm_count},
                "offset": offset,
                "results": rows,
                "left_out": left,
            }),
            summary,
        }
    };
    cached.trim();
    Ok(out)
}
