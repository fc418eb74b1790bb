//! `occupancy`: the occupancy calculator for one result (block limit of each resource, the
//! limiter, theoretical and achieved occupancy), with a what-if for other registers, shared
//! memory or block size.

use super::{
    Entry, ToolContext, ToolError, ToolOutput, arguments, input_schema, number_or_null,
    object_schema, open, report_json, report_schema, result_index,
};
use crate::analysis::occupancy::request::{OccupancyRequest, ResultsFormat};
use crate::analysis::occupancy::{self, Limiter};
use crate::model::format::NOT_MEASURED;
use crate::output::occupancy_json::result_json;
use rmcp::schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value as Json, json};

const NAME: &str = "occupancy";

pub(super) const ENTRY: Entry = Entry {
    name: NAME,
    title: "Occupancy of a result, with a what-if",
    description: "The occupancy calculator for one result: blocks per SM allowed by registers, shared memory, warps, the block limit and barriers; the limiter; theoretical and achieved occupancy. Give registers_per_thread, shared_mem_per_block or block_size to see what occupancy another launch would get (what_if).",
    input: input_schema::<Args>,
    output,
    call,
};

/// Arguments of `occupancy`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct Args {
    /// Report file under the server's roots.
    report: String,
    /// Result ID as list_results gives it (default: the first result).
    #[serde(default)]
    result_id: Option<u64>,
    /// Compute capability such as "8.6", for sources that do not say (marked as assumed).
    #[serde(default)]
    arch: Option<String>,
    /// What-if: registers per thread.
    #[serde(default)]
    registers_per_thread: Option<u32>,
    /// What-if: shared memory per block the kernel asks for (static and dynamic), bytes.
    #[serde(default)]
    shared_mem_per_block: Option<u64>,
    /// What-if: threads per block.
    #[serde(default)]
    block_size: Option<u32>,
    /// Also give the occupancy curves (occupancy against block size, registers and shared
    /// memory); off by default, they are long.
    #[serde(default)]
    include_curves: bool,
}

fn output() -> Json {
    object_schema(json!({
        "report": report_schema(),
        "occupancy": {"type": "object", "description": "as `sightline occupancy --json` gives it: cc, launch inputs, limits (blocks per SM per resource), limiter, theoretical_occupancy_pct, achieved_occupancy_pct, notes"},
        "what_if": {"type": ["object", "null"], "properties": {
            "block_size": {"type": "integer"},
            "registers_per_thread": {"type": "integer"},
            "shared_mem_per_block": {"type": "integer"},
            "theoretical_occupancy_pct": {"type": "number"},
            "theoretical_warps_per_sm": {"type": "integer"},
            "theoretical_blocks_per_sm": {"type": "integer"},
            "limits": {"type": "object"},
            "limiter": {"type": "string"},
            "change_pp": number_or_null("change of theoretical occupancy, percentage points"),
        }},
    }))
}

fn call(cx: &ToolContext<'_>, value: Json) -> Result<ToolOutput, ToolError> {
    let args: Args = arguments(NAME, value)?;
    let options = OccupancyRequest::new(args.arch.as_deref(), ResultsFormat::Json)
        .map_err(|e| ToolError::Arguments {
            tool: NAME.into(),
            message: e.to_string(),
        })?
        .options;
    let (cached, hit) = open(cx, &args.report)?;
    let out = {
        let rep = cached.lock();
        let r = &rep.results[result_index(&rep, args.result_id)?];
        let a = occupancy::analyze(r, rep.device_of(r), &options)
            .map_err(|e| ToolError::Failed(format!("result {}: {e}", r.id)))?;
        let mut occ = result_json(r, Ok(&a));
        if !args.include_curves
            && let Some(o) = occ.as_object_mut()
        {
            o.remove("curves");
        }
        let asked = args.registers_per_thread.is_some()
            || args.shared_mem_per_block.is_some()
            || args.block_size.is_some();
        let what_if = asked.then(|| {
            let mut launch = a.launch;
            if let Some(v) = args.registers_per_thread {
                launch.registers_per_thread = v;
            }
            if let Some(v) = args.block_size {
                launch.block_size = v;
            }
            if let Some(v) = args.shared_mem_per_block {
                launch.shared_mem_static = v;
                launch.shared_mem_dynamic = 0;
            }
            let o = a.what_if(&launch);
            let limiter: Vec<&str> = o.limiters.iter().map(Limiter::name).collect();
            json!({
                "block_size": launch.block_size,
                "registers_per_thread": launch.registers_per_thread,
                "shared_mem_per_block": launch.user_shared_mem_per_block(),
                "theoretical_occupancy_pct": o.occupancy_pct,
                "theoretical_warps_per_sm": o.active_warps,
                "theoretical_blocks_per_sm": o.active_blocks,
                "limits": o.limits,
                "limiter": limiter.join("+"),
                "change_pp": o.occupancy_pct - a.occupancy.occupancy_pct,
            })
        });
        let mut summary = format!(
            "Result {} {}: theoretical occupancy {:.1}% ({} warps/SM, limited by {})",
            r.id,
            r.name.function,
            a.occupancy.occupancy_pct,
            a.occupancy.active_warps,
            occ["limiter"].as_str().unwrap_or(NOT_MEASURED),
        );
        if let Some(v) = a.achieved_occupancy_pct {
            summary.push_str(&format!(", achieved {v:.1}%"));
        }
        summary.push('.');
        if let Some(w) = &what_if {
            summary.push_str(&format!(
                " What-if (block {}, {} registers, {} B shared): {:.1}% ({:+.1} pp), limited by {}.",
                w["block_size"],
                w["registers_per_thread"],
                w["shared_mem_per_block"],
                w["theoretical_occupancy_pct"].as_f64().unwrap_or(0.0),
                w["change_pp"].as_f64().unwrap_or(0.0),
                w["limiter"].as_str().unwrap_or(NOT_MEASURED),
            ));
        }
        ToolOutput {
            structured: json!({
                "report": report_json(&rep, hit),
                "occupancy": occ,
                "what_if": what_if,
            }),
            summary,
        }
    };
    cached.trim();
    Ok(out)
}
