//! `sightline roofline`: peak and achieved FP work and memory traffic of every result, exact
//! where the roofline metrics exist, estimated (and marked) where they do not.

use super::loading::print_reports;
use super::occupancy::{file_label, num_json, parse_arch, push_notes};
use super::output::{json_document, render_rows, report_json};
use crate::analysis::roofline::{
    self, MemoryLevel, Precision, Roofline, RooflineContext, RooflineOptions,
};
use crate::model::{KernelResult, Report};
use crate::parse::LoadError;
use serde_json::{Map, Value as Json, json};
use std::collections::BTreeMap;
use std::path::PathBuf;

/// Runs the command.
/// Every report's warnings go to stderr; `strict` makes them errors (exit code 2).
pub fn run(files: &[PathBuf], as_json: bool, arch: Option<&str>, strict: bool) -> i32 {
    let assumed_cc = match parse_arch(arch) {
        Ok(cc) => cc,
        Err(message) => {
            eprintln!("error: {message}");
            return 2;
        }
    };
    let options = RooflineOptions { assumed_cc };
    print_reports(
        files,
        as_json,
        |reports, errors| render_json(reports, errors, &options),
        |reports| render_table(reports, &options),
        strict,
    )
}

/// The JSON object of one result.
pub fn result_json(r: &KernelResult, roof: &Roofline) -> Json {
    let per_precision = |f: &dyn Fn(Precision) -> Option<f64>| {
        let mut m = Map::new();
        for p in Precision::ALL {
            m.insert(p.key().into(), num_json(f(p)));
        }
        Json::Object(m)
    };
    let per_level = |f: &dyn Fn(MemoryLevel) -> Option<f64>| {
        let mut m = Map::new();
        for l in MemoryLevel::ALL {
            m.insert(l.key().into(), num_json(f(l)));
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
                num_json(roof.intensity(p, l)),
            );
        }
    }
    let tensor: Vec<Json> = roof
        .tensor
        .iter()
        .map(|t| json!({"path": t.name, "label": t.label, "peak": num_json(Some(t.peak)), "achieved": num_json(Some(t.achieved))}))
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

/// The JSON document of `roofline --json`.
pub fn render_json(reports: &[Report], errors: &[LoadError], options: &RooflineOptions) -> String {
    let reports: Vec<Json> = reports
        .iter()
        .map(|rep| {
            let context = RooflineContext::from_results(&rep.results);
            report_json(rep, |r| {
                result_json(
                    r,
                    &roofline::analyze(r, rep.device_of(r), &context, options),
                )
            })
        })
        .collect();
    json_document(reports, errors)
}

/// A rate with an SI prefix: `66.92 T` + unit.
fn si(v: Option<f64>, unit: &str) -> String {
    let Some(v) = v.filter(|v| v.is_finite()) else {
        return "-".into();
    };
    let a = v.abs();
    let (div, prefix) = [(1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "K")]
        .into_iter()
        .find(|(d, _)| a >= *d)
        .unwrap_or((1.0, ""));
    format!("{:.2} {prefix}{unit}", v / div)
}

/// The plain-text table of `roofline`.
pub fn render_table(reports: &[Report], options: &RooflineOptions) -> String {
    let header = [
        "REPORT",
        "ID",
        "KERNEL",
        "EST",
        "PEAK FP32",
        "PEAK FP64",
        "PEAK DRAM",
        "FP32",
        "FP64",
        "DRAM",
        "AI FP32",
        "BOUND",
    ];
    let mut rows: Vec<Vec<String>> = vec![header.iter().map(|s| s.to_string()).collect()];
    let mut notes: BTreeMap<String, usize> = BTreeMap::new();
    for rep in reports {
        let file = file_label(rep);
        let context = RooflineContext::from_results(&rep.results);
        for r in &rep.results {
            let roof = roofline::analyze(r, rep.device_of(r), &context, options);
            let fp = roof.chart(roofline::ChartKind::FloatingPoint);
            let bound = fp
                .points
                .first()
                .map_or_else(|| "-".into(), |p| format!("{:?}", p.bound).to_lowercase());
            rows.push(vec![
                file.clone(),
                r.id.to_string(),
                r.name.function.clone(),
                if roof.estimated {
                    "yes".into()
                } else {
                    "no".into()
                },
                si(roof.peak_work.fp32, "FLOP/s"),
                si(roof.peak_work.fp64, "FLOP/s"),
                si(roof.peak_traffic.dram, "B/s"),
                si(roof.achieved_work.fp32, "FLOP/s"),
                si(roof.achieved_work.fp64, "FLOP/s"),
                si(roof.achieved_traffic.dram, "B/s"),
                roof.intensity(Precision::Fp32, MemoryLevel::Dram)
                    .map_or_else(|| "-".into(), |v| format!("{v:.3}")),
                bound,
            ]);
            for a in &roof.assumptions {
                *notes.entry(a.clone()).or_default() += 1;
            }
        }
    }
    let mut out = render_rows(&rows, &[1, 4, 5, 6, 7, 8, 9, 10]);
    push_notes(&mut out, &notes);
    out
}
