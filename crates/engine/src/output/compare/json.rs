//! The JSON document of a comparison (`diff --format json`), also written around its pairs
//! as they are compared.

use super::csv::PairSource;
use crate::analysis::compare::export::{HEADLINE_METRICS, delta_text, listed_why, time_delta_text};
use crate::analysis::compare::metric_diff::MetricDiff;
use crate::analysis::compare::{MatchedDiff, ReportDiff, UnmatchedResult};
use crate::model::format::number_json;
use crate::output::json_layout::{NumJson, ValueJson, pretty_indented};
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value as Json, json};
use std::io::Write;

/// How much of a matched pair its JSON holds: `Full`, every metric and the whole ranked
/// why-list (the document `diff --format json` writes); `Brief`, the headline metrics (each
/// with its label) and the explanations the outputs list, every change also in words (what the
/// MCP `compare` tool answers). The fields both hold are written by the same code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairDetail {
    Full,
    Brief,
}

/// One metric of a pair, serialized without making a `serde_json::Value`: the fields in the
/// order of their names, as a `Value` object prints them; `Brief` adds the change in words
/// and, for a headline metric, its label.
struct MetricJson<'a> {
    metric: &'a MetricDiff,
    detail: PairDetail,
    label: Option<&'a str>,
}

impl Serialize for MetricJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let m = self.metric;
        let brief = self.detail == PairDetail::Brief;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("base", &ValueJson(m.base))?;
        if brief {
            map.serialize_entry("change", &delta_text(Some(m)))?;
        }
        map.serialize_entry("current", &ValueJson(m.current))?;
        map.serialize_entry("delta_pct", &NumJson(m.delta_pct))?;
        map.serialize_entry("direction", m.direction.name())?;
        map.serialize_entry("key", m.key.as_str())?;
        if let Some(label) = self.label {
            map.serialize_entry("label", label)?;
        }
        map.serialize_entry("unit", m.unit.as_str())?;
        map.serialize_entry("verdict", m.verdict.name())?;
        map.end()
    }
}

/// The JSON of one metric of a pair, its change also in words (`Brief`).
pub fn metric_change_json(m: &MetricDiff) -> Json {
    serde_json::to_value(MetricJson {
        metric: m,
        detail: PairDetail::Brief,
        label: None,
    })
    .unwrap_or(Json::Null)
}

/// Every metric of a pair (`Full`), or its headline metrics with their labels (`Brief`).
struct MetricsJson<'a>(&'a MatchedDiff, PairDetail);

impl Serialize for MetricsJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (k, detail) = (self.0, self.1);
        match detail {
            PairDetail::Full => s.collect_seq(k.diff.metrics.iter().map(|metric| MetricJson {
                metric,
                detail,
                label: None,
            })),
            PairDetail::Brief => {
                s.collect_seq(HEADLINE_METRICS.iter().filter_map(|(key, label)| {
                    Some(MetricJson {
                        metric: k.diff.get(key)?,
                        detail,
                        label: Some(label),
                    })
                }))
            }
        }
    }
}

/// The duration of a pair: both sides, the change (also in words, `Brief`) and its verdict.
pub(super) struct DurationJson<'a>(pub(super) &'a MatchedDiff, pub(super) PairDetail);

impl Serialize for DurationJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let k = self.0;
        let d = k.diff.duration.as_ref();
        let mut map = s.serialize_map(None)?;
        map.serialize_entry(
            "base",
            &NumJson(d.map_or(k.base_duration_ns, |d| d.base_f64())),
        )?;
        if self.1 == PairDetail::Brief {
            map.serialize_entry("change", &delta_text(d))?;
        }
        map.serialize_entry(
            "current",
            &NumJson(d.map_or(k.current_duration_ns, |d| d.current_f64())),
        )?;
        map.serialize_entry("delta_pct", &NumJson(d.and_then(|d| d.delta_pct)))?;
        map.serialize_entry("verdict", &d.map(|d| d.verdict.name()))?;
        map.end()
    }
}

/// The explanations of a pair: the whole ranked list (`Full`), or those the outputs list
/// with their kind, words and whether they agree with the duration's way (`Brief`).
pub(super) struct WhyJson<'a>(pub(super) &'a MatchedDiff, pub(super) PairDetail);

impl Serialize for WhyJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.1 {
            // As a `Value`, whose objects print their fields by name.
            PairDetail::Full => serde_json::to_value(&self.0.why)
                .map_err(serde::ser::Error::custom)?
                .serialize(s),
            PairDetail::Brief => s.collect_seq(
                listed_why(&self.0.why)
                    .into_iter()
                    .map(|w| json!({"kind": w.kind, "text": w.text, "agrees": w.agrees})),
            ),
        }
    }
}

/// One matched pair, serialized without making a `serde_json::Value` of its metrics: the
/// fields in the order of their names.
struct MatchedJson<'a>(&'a MatchedDiff, PairDetail);

impl Serialize for MatchedJson<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (k, detail) = (self.0, self.1);
        let full = detail == PairDetail::Full;
        let mut map = s.serialize_map(None)?;
        map.serialize_entry("base_id", &k.base_id)?;
        map.serialize_entry("changes", &k.changes)?;
        map.serialize_entry("current_id", &k.current_id)?;
        map.serialize_entry("duration_ns", &DurationJson(k, detail))?;
        if !full {
            map.serialize_entry("headline", &MetricsJson(k, detail))?;
        }
        map.serialize_entry("match", k.kind.name())?;
        if full {
            map.serialize_entry("metrics", &MetricsJson(k, detail))?;
            map.serialize_entry("metrics_only_in_base", &k.diff.only_in_base)?;
            map.serialize_entry("metrics_only_in_current", &k.diff.only_in_current)?;
        }
        map.serialize_entry("name", &k.name)?;
        map.serialize_entry("shape_differs", &k.shape_differs)?;
        map.serialize_entry("time_delta_ns", &NumJson(k.time_delta_ns()))?;
        if !full {
            map.serialize_entry("time_delta_text", &k.time_delta_ns().map(time_delta_text))?;
        }
        map.serialize_entry("why", &WhyJson(k, detail))?;
        map.end()
    }
}

fn unmatched_json(u: &UnmatchedResult) -> Json {
    json!({"id": u.id, "name": u.name, "duration_ns": number_json(u.duration_ns)})
}

/// The JSON of one matched pair: as the document's "matched" list holds it (`Full`), or
/// in brief.
pub fn matched_json(k: &MatchedDiff, detail: PairDetail) -> Json {
    serde_json::to_value(MatchedJson(k, detail)).unwrap_or(Json::Null)
}

/// The JSON document of a comparison.
pub fn to_json(diff: &ReportDiff) -> Json {
    json_with(
        diff,
        diff.matched
            .iter()
            .map(|k| matched_json(k, PairDetail::Full))
            .collect(),
    )
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
    pretty_indented(&MatchedJson(k, PairDetail::Full), "    ")
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
