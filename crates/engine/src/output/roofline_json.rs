//! Rooflines as `roofline --format json` writes them (every report, result by result) and as
//! the MCP `roofline` tool gives one result's.

use crate::analysis::roofline::{
    self, MemoryLevel, Precision, Roofline, RooflineContext, RooflineOptions,
};
use crate::model::format::number_json;
use crate::model::{KernelResult, Report};
use crate::output::result_tables::write_results_json;
use crate::parse::LoadError;
use serde_json::{Map, Value as Json, json};
use std::io::Write;

/// Writes the JSON document of `roofline --format json` result by result; each report's
/// context (the figures estimates take from its other results) is gathered first, on every
/// core.
pub fn write_json(
    out: &mut dyn Write,
    reports: &mut [Report],
    errors: &[LoadError],
    options: &RooflineOptions,
) -> std::io::Result<()> {
    let contexts: Vec<RooflineContext> =
        reports.iter_mut().map(RooflineContext::of_report).collect();
    write_results_json(out, reports, errors, |i, rep, r| {
        let context = contexts.get(i).cloned().unwrap_or_default();
        result_json(
            r,
            &roofline::analyze(r, rep.device_of(r), &context, options),
        )
    })
}

/// The JSON object of one result.
pub fn result_json(r: &KernelResult, roof: &Roofline) -> Json {
    let per_precision = |f: &dyn Fn(Precision) -> Option<f64>| {
        let mut m = Map::new();
        for p in Precision::ALL {
            m.insert(p.key().into(), number_json(f(p)));
        }
        Json::Object(m)
    };
    let per_level = |f: &dyn Fn(MemoryLevel) -> Option<f64>| {
        let mut m = Map::new();
        for l in MemoryLevel::ALL {
            m.insert(l.key().into(), number_json(f(l)));
        }
        m
    };
    let mut peaks = match per_precision(&|p| roof.peak_work.get(p)) {
        Json::Object(m) => m,
        _ => Map::new(),
    };
    peaks.extend(per_level(&|l| roof.peak_traffic.get(l)));
    let mut intensity = Map::new();
    for p in Precision::ALL {
        for l in MemoryLevel::ALL {
            intensity.insert(
                format!("{}_{}", p.key(), l.key()),
                number_json(roof.intensity(p, l)),
            );
        }
    }
    let tensor: Vec<Json> = roof
        .tensor
        .iter()
        .map(|t| json!({"path": t.name, "label": t.label, "peak": number_json(Some(t.peak)), "achieved": number_json(Some(t.achieved))}))
        .collect();
    json!({
        "id": r.id,
        "name": r.name.demangled,
        "estimated": roof.estimated,
        "peaks": peaks,
        "achieved": per_precision(&|p| roof.achieved_work.get(p)),
        "traffic": per_level(&|l| roof.achieved_traffic.get(l)),
        "intensity": intensity,
        "tensor": tensor,
        "assumptions": roof.assumptions,
    })
}
