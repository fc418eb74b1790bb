//! `sightline summary --format json`: every report with its device and per result its
//! results-table row, every rule and every metric, written result by result.

use crate::analysis::headline::device_summary;
use crate::model::format::cc_text;
use crate::model::{KernelResult, Report, Value};
use crate::output::json_layout::ValueJson;
use crate::output::json_stream;
use crate::output::result_json::{row_json, rule_json};
use crate::output::table::{errors_json, report_json};
use crate::parse::LoadError;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value as Json, json};
use std::io::Write;

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
        let result = &rep.results[k];
        // Instances, printed forms and printed section bodies are not written: not read.
        result.decode_values();
        json_stream::pretty_indented(&ResultJson(result), indent)
    })
}
