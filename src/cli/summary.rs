//! `sightline summary`: one row per result of every file, as a table or JSON.

use super::loading::load_all;
use super::output::{finish, json_document, render_rows, report_json};
use crate::analysis::headline::{device_summary, headline};
use crate::analysis::path_names::distinct_names;
use crate::model::units::format_value;
use crate::model::{Dim3, KernelResult, Report, Value};
use crate::parse::LoadError;
use serde_json::{Map, Value as Json, json};

use std::path::PathBuf;

/// Loads every file, prints the summary, and returns the exit code: 0 when every file loaded
/// with results, 2 when one could not be read as a result or yielded none (or, with `strict`,
/// gave any warning). Warnings go to stderr.
pub fn run(files: &[PathBuf], as_json: bool, strict: bool) -> i32 {
    let (reports, errors) = load_all(files);
    let out = if as_json {
        render_json(&reports, &errors)
    } else {
        render_table(&reports, &errors)
    };
    let failed = super::warnings::report_problems(&reports, strict);
    super::loading::leave_for_exit(reports);
    match finish(&out, &errors, as_json) {
        0 if failed => 2,
        code => code,
    }
}

fn dim_json(d: Option<Dim3>) -> Json {
    d.map_or(Json::Null, |d| json!([d.x, d.y, d.z]))
}

fn cc_text(cc: Option<(u32, u32)>) -> Option<String> {
    cc.map(|(a, b)| format!("{a}.{b}"))
}

fn value_json(v: &Value) -> Json {
    match v {
        Value::U64(x) => json!(x),
        Value::I64(x) => json!(x),
        Value::U32(x) => json!(x),
        Value::Double(x) => serde_json::Number::from_f64(*x).map_or(Json::Null, Json::Number),
        Value::Float(x) => {
            serde_json::Number::from_f64(f64::from(*x)).map_or(Json::Null, Json::Number)
        }
        Value::Str(s) => json!(s),
        Value::Missing => Json::Null,
    }
}

fn num_json(v: Option<f64>) -> Json {
    v.and_then(serde_json::Number::from_f64)
        .map_or(Json::Null, Json::Number)
}

fn result_json(r: &KernelResult) -> Json {
    let h = headline(r);
    let rules: Vec<Json> = r
        .all_rules()
        .map(|rule| {
            json!({
                "kind": rule.kind.tag(),
                "title": rule.heading(),
                "speedup_kind": rule.speedup.map(|s| s.0),
                "speedup_pct": num_json(rule.speedup.map(|s| s.1)),
            })
        })
        .collect();
    let mut metrics = Map::new();
    for (key, m) in r.metrics() {
        metrics.insert(
            key.clone(),
            json!({"value": value_json(&m.value), "unit": m.unit}),
        );
    }
    json!({
        "id": r.id,
        "kind": r.kind.name(),
        "name": r.display_name(),
        "function": r.name.function,
        "grid": dim_json(r.grid),
        "block": dim_json(r.block),
        "cc": cc_text(r.cc),
        "duration_ns": num_json(h.duration_ns),
        "sol_compute_pct": num_json(h.sol_compute_pct),
        "sol_memory_pct": num_json(h.sol_memory_pct),
        "achieved_occupancy_pct": num_json(h.achieved_occupancy_pct),
        "rules": rules,
        "metrics": metrics,
    })
}

/// The JSON document of `summary --json`.
pub fn render_json(reports: &[Report], errors: &[LoadError]) -> String {
    let reports: Vec<Json> = reports
        .iter()
        .map(|rep| {
            let dev = device_summary(rep, rep.results.first());
            let mut report = report_json(rep, result_json);
            report["tool_version"] = json!(rep.tool_version);
            report["device"] =
                json!({"name": dev.name, "cc": cc_text(dev.cc), "sm_count": dev.sm_count});
            report
        })
        .collect();
    json_document(reports, errors)
}

fn opt_pct(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), |v| format!("{v:.2}"))
}

/// The plain-text table of `summary`.
pub fn render_table(reports: &[Report], _errors: &[LoadError]) -> String {
    let mut rows: Vec<Vec<String>> = vec![vec![
        "REPORT".into(),
        "ID".into(),
        "KERNEL".into(),
        "GRID x BLOCK".into(),
        "DURATION".into(),
        "SM %".into(),
        "MEM %".into(),
        "OCC %".into(),
        "TOP RULE (EST. SPEEDUP)".into(),
    ]];
    let names = distinct_names(&reports.iter().map(|r| &r.source).collect::<Vec<_>>());
    for (rep, file) in reports.iter().zip(names) {
        for r in &rep.results {
            let h = headline(r);
            let shape = match (r.grid, r.block) {
                (Some(g), Some(b)) => format!("{g}x{b}"),
                _ => "-".into(),
            };
            let rule = h.top_rule.map_or_else(
                || "-".into(),
                |rule| {
                    let title = rule.heading();
                    match rule.speedup {
                        Some((_, s)) => format!("{title} ({s:.2}%)"),
                        None => title,
                    }
                },
            );
            rows.push(vec![
                file.clone(),
                r.id.to_string(),
                if r.kind.is_kernel() {
                    r.name.function.clone()
                } else {
                    format!("{} ({})", r.display_name(), r.kind.label())
                },
                shape,
                h.duration_ns
                    .map_or_else(|| "-".into(), |d| format_value(d, "ns")),
                opt_pct(h.sol_compute_pct),
                opt_pct(h.sol_memory_pct),
                opt_pct(h.achieved_occupancy_pct),
                rule,
            ]);
        }
    }
    render_rows(&rows, &[1, 4, 5, 6, 7])
}
