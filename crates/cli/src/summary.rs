//! `sightline summary`: one row per result of every file, as a table, JSON or CSV.

use super::loading::errors_json;
use super::loading::load_all;
use crate::analysis::headline::{device_summary, headline};
use crate::analysis::path_names::distinct_names;
use crate::model::format::NOT_MEASURED;
use crate::model::format::cc_text;
use crate::model::format::measured_text;
use crate::model::{KernelResult, Report, Value};
use crate::output::json_layout::ValueJson;
use crate::output::json_stream;
use crate::output::result_json::{row_json, rule_json};
use crate::output::table::{finish, render_rows, report_json};
use crate::parse::LoadError;
use rayon::prelude::*;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value as Json, json};
use std::io::Write;
use std::path::PathBuf;

/// The output form of `summary`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Form {
    Table,
    Json,
    Csv,
    Html,
}

impl Form {
    /// The form the `--json` and `--csv` flags ask for.
    pub fn pick(json: bool, csv: bool) -> Form {
        match (json, csv) {
            (true, _) => Form::Json,
            (false, true) => Form::Csv,
            (false, false) => Form::Table,
        }
    }
}

/// Loads every file, prints the summary, and returns the exit code: 0 when every file loaded
/// with results, 2 when one could not be read as a result or yielded none (or, with `strict`,
/// gave any warning). Warnings and unreadable files go to stderr.
pub fn run(files: &[PathBuf], form: Form, strict: bool) -> i32 {
    let (mut reports, errors) = load_all(files);
    let code = match form {
        Form::Json => {
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            let failed = crate::output::table::write_failed(
                write_json(&mut stdout, &mut reports, &errors).and_then(|()| stdout.flush()),
            );
            if errors.is_empty() && !failed { 0 } else { 2 }
        }
        Form::Csv => {
            for e in &errors {
                crate::warnings::tell("error", e);
            }
            let stdout = std::io::BufWriter::new(std::io::stdout().lock());
            let failed = crate::output::table::write_failed(crate::output::summary_csv::write_csv(
                stdout,
                &mut reports,
            ));
            if errors.is_empty() && !failed { 0 } else { 2 }
        }
        Form::Table => finish(&render_table(&reports, &errors), &errors, false),
        Form::Html => {
            let names = distinct_names(&reports.iter().map(|r| &r.source).collect::<Vec<_>>());
            let title = format!("Summary: {}", names.join(", "));
            finish(
                &crate::output::summary_html::summary_html(&reports, &title),
                &errors,
                false,
            )
        }
    };
    let failed = super::warnings::report_problems(&reports, strict);
    super::loading::leave_for_exit(reports);
    match code {
        0 if failed => 2,
        code => code,
    }
}

/// A result as `summary --json` lists it: the row's fields in the row's order, then every rule
/// and metric in place of the top rule. Serialized straight into the output: the fields are
/// written in the order of their names, as pretty-printing a `serde_json` object writes them.
struct ResultJson<'a>(&'a KernelResult);

/// One field of a [`ResultJson`].
enum ResultField<'a> {
    Row(&'a Json),
    Rules,
    Metrics,
}

impl Serialize for ResultJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let r = self.0;
        let row = row_json(r);
        let mut fields: Vec<(&str, ResultField<'_>)> = vec![
            ("rules", ResultField::Rules),
            ("metrics", ResultField::Metrics),
        ];
        if let Some(row) = row.as_object() {
            fields.extend(
                row.iter()
                    .filter(|(k, _)| k.as_str() != "top_rule")
                    .map(|(k, v)| (k.as_str(), ResultField::Row(v))),
            );
        }
        fields.sort_by(|a, b| a.0.cmp(b.0));
        fields.dedup_by(|later, first| later.0 == first.0);
        let mut map = s.serialize_map(Some(fields.len()))?;
        for (key, field) in &fields {
            match field {
                ResultField::Row(v) => map.serialize_entry(key, v)?,
                ResultField::Rules => {
                    let rules: Vec<Json> = r.all_rules().map(rule_json).collect();
                    map.serialize_entry(key, &rules)?;
                }
                ResultField::Metrics => map.serialize_entry(key, &MetricsJson(r))?,
            }
        }
        map.end()
    }
}

/// Every metric of a result by key: `{"unit": .., "value": ..}`.
struct MetricsJson<'a>(&'a KernelResult);

impl Serialize for MetricsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let store = self.0.metrics();
        // The store is sorted by key text and holds each key once, as a map of them would.
        let mut map = s.serialize_map(Some(store.len()))?;
        for (key, m) in store.iter() {
            map.serialize_entry(key.as_str(), &MetricJson(m.unit.as_str(), m.value))?;
        }
        map.end()
    }
}

/// One metric: its unit and value.
struct MetricJson(&'static str, Value);

impl Serialize for MetricJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("unit", self.0)?;
        map.serialize_entry("value", &ValueJson(self.1))?;
        map.end()
    }
}

/// The JSON document of `summary --json`.
pub fn render_json(reports: &[Report], errors: &[LoadError]) -> String {
    let mut reports = reports.to_vec();
    let mut out = Vec::new();
    // Writing to memory does not fail.
    let _ = write_json(&mut out, &mut reports, errors);
    String::from_utf8_lossy(&out).into_owned()
}

/// Writes the JSON document of `summary --json` result by result: a window of results at a
/// time is decoded and turned into text on every core, then written in order and released, so
/// memory does not grow with the number of results. The text is the same as pretty-printing the
/// whole document at once (each result indented four spaces beyond its list, as it always was).
pub fn write_json(
    out: &mut impl Write,
    reports: &mut [Report],
    errors: &[LoadError],
) -> std::io::Result<()> {
    // The document with a placeholder for each report's results.
    let skeleton: Vec<Json> = reports
        .iter()
        .enumerate()
        .map(|(i, rep)| {
            let dev = device_summary(rep, rep.results.first());
            let mut report = report_json(rep, |_| Json::Null);
            report["results"] = json_stream::placeholder(i);
            report["tool_version"] = json!(rep.tool_version);
            report["device"] =
                json!({"name": dev.name, "cc": dev.cc.map(cc_text), "sm_count": dev.sm_count});
            if rep.session.get("Merged Report").is_some() {
                report["merged_from"] = json!(rep.session.get("Merged From"));
            }
            if !rep.graphs.is_empty() {
                report["graphs"] = json!(rep.graphs);
            }
            report
        })
        .collect();
    let doc = json!({"reports": skeleton, "errors": errors_json(errors)});
    json_stream::write_report_texts(out, &doc, "    ", reports, |_, rep, k, indent| {
        json_stream::pretty_indented(&ResultJson(&rep.results[k]), indent)
    })
}

fn opt_pct(v: Option<f64>) -> String {
    v.map_or_else(|| NOT_MEASURED.into(), |v| format!("{v:.2}"))
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
        // Rows are formatted on every core, in order.
        rows.par_extend(rep.results.par_iter().map(|r| {
            let h = headline(r);
            let shape = match (r.grid, r.block) {
                (Some(g), Some(b)) => format!("{g}x{b}"),
                _ => NOT_MEASURED.into(),
            };
            let rule = h.top_rule.map_or_else(
                || NOT_MEASURED.into(),
                |rule| {
                    let title = rule.heading();
                    match rule.speedup {
                        Some((_, s)) => format!("{title} ({s:.2}%)"),
                        None => title,
                    }
                },
            );
            vec![
                file.clone(),
                r.id.to_string(),
                if r.kind.is_kernel() {
                    r.name.function.clone()
                } else {
                    format!("{} ({})", r.display_name(), r.kind.label())
                },
                shape,
                h.duration_ns
                    .map_or_else(|| NOT_MEASURED.into(), |d| measured_text(d, "ns")),
                opt_pct(h.sol_compute_pct),
                opt_pct(h.sol_memory_pct),
                opt_pct(h.achieved_occupancy_pct),
                rule,
            ]
        }));
    }
    render_rows(&rows, &[1, 4, 5, 6, 7])
}
