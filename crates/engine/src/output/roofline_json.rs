//! The roofline of one result as `roofline --json` and the MCP `roofline` tool give it.

use crate::analysis::roofline::{MemoryLevel, Precision, Roofline};
use crate::model::KernelResult;
use crate::model::format::number_json;
use serde_json::{Map, Value as Json, json};

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
