//! The JSON document of a comparison (`diff --format json`), also written around its pairs
//! as they are compared.

use super::csv::PairSource;
use crate::analysis::compare::metric_diff::MetricDiff;
use crate::analysis::compare::{MatchedDiff, ReportDiff, UnmatchedResult};
use crate::model::format::number_json;
use crate::output::json_layout::{NumJson, ValueJson, pretty_indented};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value as Json, json};
use std::io::Write;

/// One metric of a pair as the JSON document lists it, serialized without making a
/// `serde_json::Value`: the fields in the order of their names, as a `Value` object prints them.
struct MetricJson<'a>(&'a MetricDiff);

impl Serialize for MetricJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.0;
        let mut map = s.serialize_map(Some(7))?;
        map.serialize_entry("base", &ValueJson(m.base))?;
        map.serialize_entry("current", &ValueJson(m.current))?;
        map.serialize_entry("delta_pct", &NumJson(m.delta_pct))?;
        map.serialize_entry("direction", m.direction.name())?;
        map.serialize_entry("key", m.key.as_str())?;
        map.serialize_entry("unit", m.unit.as_str())?;
        map.serialize_entry("verdict", m.verdict.name())?;
        map.end()
    }
}

/// Every metric of a pair.
struct MetricsJson<'a>(&'a [MetricDiff]);

impl Serialize for MetricsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(MetricJson))
    }
}

/// The duration of a pair: both sides, the change and its verdict.
struct DurationJson<'a>(&'a MatchedDiff);

impl Serialize for DurationJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let k = self.0;
        let mut map = s.serialize_map(Some(4))?;
        match &k.diff.duration {
            Some(d) => {
                map.serialize_entry("base", &NumJson(d.base_f64()))?;
                map.serialize_entry("current", &NumJson(d.current_f64()))?;
                map.serialize_entry("delta_pct", &NumJson(d.delta_pct))?;
                map.serialize_entry("verdict", d.verdict.name())?;
            }
            None => {
                map.serialize_entry("base", &NumJson(k.base_duration_ns))?;
                map.serialize_entry("current", &NumJson(k.current_duration_ns))?;
                map.serialize_entry("delta_pct", &NumJson(None))?;
                map.serialize_entry("verdict", &NumJson(None))?;
            }
        }
        map.end()
    }
}

/// One matched pair as the document's "matched" list holds it, serialized without making a
/// `serde_json::Value` of its metrics: the fields in the order of their names.
struct MatchedJson<'a>(&'a MatchedDiff);

impl Serialize for MatchedJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let k = self.0;
        // The explanations as a `Value`, whose objects print their fields by name.
        let why = serde_json::to_value(&k.why).map_err(serde::ser::Error::custom)?;
        let mut map = s.serialize_map(Some(12))?;
        map.serialize_entry("base_id", &k.base_id)?;
        map.serialize_entry("changes", &k.changes)?;
        map.serialize_entry("current_id", &k.current_id)?;
        map.serialize_entry("duration_ns", &DurationJson(k))?;
        map.serialize_entry("match", k.kind.name())?;
        map.serialize_entry("metrics", &MetricsJson(&k.diff.metrics))?;
        map.serialize_entry("metrics_only_in_base", &k.diff.only_in_base)?;
        map.serialize_entry("metrics_only_in_current", &k.diff.only_in_current)?;
        map.serialize_entry("name", &k.name)?;
        map.serialize_entry("shape_differs", &k.shape_differs)?;
        map.serialize_entry("time_delta_ns", &NumJson(k.time_delta_ns()))?;
        map.serialize_entry("why", &why)?;
        map.end()
    }
}

fn unmatched_json(u: &UnmatchedResult) -> Json {
    json!({"id": u.id, "name": u.name, "duration_ns": number_json(u.duration_ns)})
}

/// The JSON of one matched pair, as the document's "matched" list holds it.
pub fn matched_json(k: &MatchedDiff) -> Json {
    serde_json::to_value(MatchedJson(k)).unwrap_or(Json::Null)
}

/// The JSON document of a comparison.
pub fn to_json(diff: &ReportDiff) -> Json {
    json_with(diff, diff.matched.iter().map(matched_json).collect())
}

/// [`to_json`] with an empty "matched" list, for [`write_json_with_pairs`] to fill.
pub fn to_json_without_pairs(diff: &ReportDiff) -> Json {
    json_with(diff, Vec::new())
}

fn json_with(diff: &ReportDiff, matched: Vec<Json>) -> Json {
    let totals = diff.totals();
    json!({
        "threshold_pct": diff.threshold_pct,
        "regressed": diff.has_regression(),
        "matched": matched,
        "only_in_base": diff.only_in_base.iter().map(unmatched_json).collect::<Vec<_>>(),
        "only_in_current": diff.only_in_current.iter().map(unmatched_json).collect::<Vec<_>>(),
        "totals": {
            "matched_base_ns": totals.matched_base_ns,
            "matched_current_ns": totals.matched_current_ns,
            "matched_delta_ns": totals.matched_delta_ns(),
            "matched_changed": totals.matched_changed(),
            "only_in_base_ns": totals.only_in_base_ns,
            "only_in_current_ns": totals.only_in_current_ns,
            "all_base_ns": totals.all_base_ns(),
            "all_current_ns": totals.all_current_ns(),
            "net_ns": totals.net_ns(),
            "net_changed": totals.net_changed(),
            "noise_ns": totals.noise_ns,
        },
        "renamed": diff.renamed,
        "suggested_pairs": diff.suggested_pairs,
        "warnings": diff.warnings,
    })
}

/// Stands for the matched pairs in a document written by [`write_json_with_pairs`].
const MATCHED_MARK: &str = "\u{1}matched pairs\u{1}";

/// `doc` (a [`to_json`] or [`to_json_without_pairs`] document) pretty-printed as `serde_json`
/// prints it, cut where its "matched" list goes: the text before the list and the text after
/// it (`None` when the document has no such list).
pub fn json_around_pairs(mut doc: Json) -> std::io::Result<(String, Option<String>)> {
    if let Some(obj) = doc.as_object_mut() {
        obj.insert("matched".into(), Json::String(MATCHED_MARK.into()));
    }
    let text = serde_json::to_string_pretty(&doc)?;
    let mark = serde_json::to_string(MATCHED_MARK)?;
    Ok(match text.split_once(&mark) {
        Some((head, tail)) => (head.to_string(), Some(tail.to_string())),
        None => (text, None),
    })
}

/// One item of the "matched" list as [`write_json_with_pairs`] writes it: the pair
/// pretty-printed, each line indented four spaces (the list's items sit two levels deep).
pub fn pair_json_item(k: &MatchedDiff) -> std::io::Result<String> {
    String::from_utf8(pair_json_bytes(k)?).map_err(std::io::Error::other)
}

/// [`pair_json_item`] as bytes.
pub fn pair_json_bytes(k: &MatchedDiff) -> std::io::Result<Vec<u8>> {
    pretty_indented(&MatchedJson(k), "    ")
}

/// What comes between the items of the "matched" list: before the first, between two, and
/// after the last (`first` says whether any item came).
pub fn pair_json_separator(first: bool) -> &'static [u8] {
    if first { b"\n" } else { b",\n" }
}

/// Writes `doc` (a [`to_json`] or [`to_json_without_pairs`] document) pretty-printed as `serde_json` prints it, its
/// "matched" list written from `pairs` one pair at a time: the same bytes as printing the
/// document with every pair in it, without holding them.
pub fn write_json_with_pairs(
    w: &mut dyn Write,
    doc: Json,
    pairs: &mut PairSource<'_>,
) -> std::io::Result<()> {
    let (head, tail) = json_around_pairs(doc)?;
    let Some(tail) = tail else {
        return w.write_all(head.as_bytes());
    };
    w.write_all(head.as_bytes())?;
    w.write_all(b"[")?;
    let mut first = true;
    let mut failed = None;
    pairs(&mut |k| {
        if failed.is_some() {
            return;
        }
        failed = pair_json_item(k)
            .and_then(|item| {
                w.write_all(pair_json_separator(first))?;
                w.write_all(item.as_bytes())
            })
            .err();
        first = false;
    });
    if let Some(e) = failed {
        return Err(e);
    }
    if !first {
        w.write_all(b"\n  ")?;
    }
    w.write_all(b"]")?;
    w.write_all(tail.as_bytes())
}
