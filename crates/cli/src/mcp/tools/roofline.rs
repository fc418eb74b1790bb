//! `roofline`: peak and achieved floating-point work and memory traffic of one result, the
//! arithmetic intensity, and whether it sits under the memory or the compute roof.

use super::{
    Entry, ToolContext, ToolError, ToolOutput, arguments, input_schema, object_schema, open,
    report_json, report_schema, result_index,
};
use crate::analysis::occupancy::request::ResultsFormat;
use crate::analysis::roofline::request::RooflineRequest;
use crate::analysis::roofline::{self, MemoryLevel, Precision, Roofline, RooflineContext};
use crate::model::format::number_json;
use crate::model::format::value_text;
use crate::output::roofline_json::result_json;
use rmcp::schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value as Json, json};

const NAME: &str = "roofline";

pub(super) const ENTRY: Entry = Entry {
    name: NAME,
    title: "Roofline of a result",
    description: "The roofline of one result: peak and achieved FLOP/s per precision (FP32, FP64, FP16) and tensor path, memory traffic per level (DRAM, L2, L1), arithmetic intensity, and for each precision with work whether the kernel is under the memory or the compute roof (against DRAM) and how close to it. Estimated values are marked, with how they were estimated.",
    input: input_schema::<Args>,
    output,
    call,
};

/// Arguments of `roofline`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct Args {
    /// Report file under the server's roots.
    report: String,
    /// Result ID as list_results gives it (default: the first result).
    #[serde(default)]
    result_id: Option<u64>,
    /// Compute capability such as "8.6", for sources that do not say.
    #[serde(default)]
    arch: Option<String>,
}

fn output() -> Json {
    object_schema(json!({
        "report": report_schema(),
        "roofline": {"type": "object", "description": "as `sightline roofline --json` gives it: peaks, achieved (FLOP/s), traffic (byte/s), intensity (FLOP/byte), tensor, estimated, assumptions"},
        "bounds": {"type": "array", "items": object_schema(json!({
            "precision": {"type": "string"},
            "intensity": {"type": "number", "description": "FLOP per DRAM byte"},
            "ridge": {"type": "number", "description": "intensity where the memory roof meets the compute roof"},
            "bound": {"type": "string", "enum": ["memory", "compute"]},
            "achieved_pct_of_roof": {"type": ["number", "null"]},
        }))},
    }))
}

/// Under which roof each precision with work sits, against DRAM.
fn bounds(roof: &Roofline) -> Vec<Json> {
    Precision::ALL
        .into_iter()
        .filter_map(|p| {
            let achieved = roof.achieved_work.get(p).filter(|w| *w > 0.0)?;
            let intensity = roof.intensity(p, MemoryLevel::Dram)?;
            let peak = roof.peak_work.get(p)?;
            let bandwidth = roof.peak_traffic.get(MemoryLevel::Dram)?;
            if bandwidth <= 0.0 {
                return None;
            }
            let ridge = peak / bandwidth;
            let roof_at = (intensity * bandwidth).min(peak);
            Some(json!({
                "precision": p.key(),
                "intensity": intensity,
                "ridge": ridge,
                "bound": if intensity < ridge { "memory" } else { "compute" },
                "achieved_pct_of_roof": number_json((roof_at > 0.0).then(|| achieved / roof_at * 100.0)),
            }))
        })
        .collect()
}

fn call(cx: &ToolContext<'_>, value: Json) -> Result<ToolOutput, ToolError> {
    let args: Args = arguments(NAME, value)?;
    let options = RooflineRequest::new(args.arch.as_deref(), ResultsFormat::Json)
        .map_err(|e| ToolError::Arguments {
            tool: NAME.into(),
            message: e.to_string(),
        })?
        .options;
    let (cached, hit) = open(cx, &args.report)?;
    let out = {
        let rep = cached.lock();
        let r = &rep.results[result_index(&rep, args.result_id)?];
        let context = RooflineContext::from_results(&rep.results);
        let roof = roofline::analyze(r, rep.device_of(r), &context, &options);
        let bounds = bounds(&roof);
        let mut summary = format!("Result {} {}:", r.id, r.name.function);
        if bounds.is_empty() {
            summary.push_str(" no floating-point work measured");
        }
        for b in &bounds {
            summary.push_str(&format!(
                " {} {} bound (intensity {:.2} FLOP/byte, ridge {:.2}, {:.1}% of the roof);",
                b["precision"].as_str().unwrap_or("?"),
                b["bound"].as_str().unwrap_or("?"),
                b["intensity"].as_f64().unwrap_or(0.0),
                b["ridge"].as_f64().unwrap_or(0.0),
                b["achieved_pct_of_roof"].as_f64().unwrap_or(0.0),
            ));
        }
        if let Some(t) = roof.achieved_traffic.get(MemoryLevel::Dram) {
            summary.push_str(&format!(" DRAM {}", value_text(t, "byte/s")));
        }
        if roof.estimated {
            summary.push_str(" (estimated: see assumptions)");
        }
        summary.push('.');
        ToolOutput {
            structured: json!({
                "report": report_json(&rep, hit),
                "roofline": result_json(r, &roof),
                "bounds": bounds,
            }),
            summary: summary.replace(";.", "."),
        }
    };
    cached.trim();
    Ok(out)
}
