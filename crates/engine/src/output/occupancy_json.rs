//! Occupancy as `occupancy --format json` writes it (every report, result by result) and as
//! the MCP `occupancy` tool gives it for one result.

use crate::analysis::occupancy::{
    self, CcOrigin, CurveKind, Limiter, OccupancyAnalysis, OccupancyOptions,
};
use crate::model::format::{cc_text, number_json};
use crate::model::{KernelResult, Report};
use crate::output::result_tables::write_results_json;
use crate::parse::LoadError;
use serde_json::{Map, Value as Json, json};
use std::io::Write;

/// Writes the JSON document of `occupancy --format json` result by result (a window of
/// results at a time analysed on every core, written in order and released).
pub fn write_json(
    out: &mut dyn Write,
    reports: &mut [Report],
    errors: &[LoadError],
    options: &OccupancyOptions,
) -> std::io::Result<()> {
    write_results_json(out, reports, errors, |_, rep, r| {
        let a = occupancy::analyze(r, rep.device_of(r), options);
        result_json(r, a.as_ref().map_err(ToString::to_string))
    })
}

/// The limiters of a result, joined (`registers+warps`).
pub fn limiter_text(a: &OccupancyAnalysis) -> String {
    let names: Vec<&str> = a.occupancy.limiters.iter().map(Limiter::name).collect();
    names.join("+")
}

/// The JSON object of one result.
pub fn result_json(r: &KernelResult, a: Result<&OccupancyAnalysis, String>) -> Json {
    let a = match a {
        Ok(a) => a,
        Err(message) => {
            return json!({"id": r.id, "name": r.name.demangled, "error": message});
        }
    };
    let o = &a.occupancy;
    let mut curves = Map::new();
    for kind in CurveKind::ALL {
        if kind.applies_to(&a.limits) {
            let points: Vec<Json> = occupancy::curves::points(&a.limits, &a.launch, kind)
                .map(|(x, w)| json!([x, w]))
                .collect();
            curves.insert(kind.name().into(), Json::Array(points));
        }
    }
    json!({
        "id": r.id,
        "name": r.name.demangled,
        "cc": cc_text(a.cc),
        "cc_assumed": a.cc_origin == CcOrigin::Assumed,
        "source": a.source.name(),
        "block_size": a.launch.block_size,
        "registers_per_thread": a.launch.registers_per_thread,
        "shared_mem_per_block": a.launch.shared_mem_per_block(),
        "shared_mem_config_size": a.launch.shared_mem_config,
        "barriers": a.launch.barriers,
        "limits": {
            "registers": a.shown(Limiter::Registers).value,
            "shared_mem": a.shown(Limiter::SharedMem).value,
            "warps": a.shown(Limiter::Warps).value,
            "blocks": a.shown(Limiter::Blocks).value,
            "barriers": a.shown(Limiter::Barriers).value,
        },
        "limits_computed": Limiter::ALL
            .into_iter()
            .filter(|&l| a.shown(l).computed)
            .map(Limiter::name)
            .collect::<Vec<_>>(),
        "limiter": limiter_text(a),
        "limiters": o.limiters,
        "theoretical_blocks_per_sm": o.active_blocks,
        "theoretical_warps_per_sm": o.active_warps,
        "theoretical_occupancy_pct": number_json(Some(o.occupancy_pct)),
        "achieved_occupancy_pct": number_json(a.achieved_occupancy_pct),
        "achieved_warps_per_sm": number_json(a.achieved_warps_per_sm),
        "curves": curves,
        "notes": a.notes,
    })
}
