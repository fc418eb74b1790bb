//! Export of a report comparison: JSON (the `diff --format json` document), CSV (one row per
//! kernel and metric) and Markdown (for pull-request comments), plus the selection of
//! headline metrics and biggest changes that the text forms show.

use super::metric_diff::{MetricDiff, Verdict};
use super::{MatchedDiff, ReportDiff, UnmatchedResult};
use crate::analysis::json_layout::{NumJson, ValueJson, pretty_indented};
use crate::model::format::NOT_MEASURED;
use crate::model::format::stored_value_text;
use crate::model::format::value_text;
use crate::model::names;
use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::{Value as Json, json};
use std::io::Write;

/// The metrics a comparison table shows for every kernel, after the duration.
pub const HEADLINE_METRICS: [(&str, &str); 3] = [
    (names::SOL_COMPUTE, "SOL compute"),
    (names::SOL_MEMORY, "SOL memory"),
    (names::ACHIEVED_OCCUPANCY, "Occupancy"),
];

/// Default number of metric changes the text forms list.
pub const DEFAULT_MAX_CHANGES: usize = 10;

/// Longest kernel name the text forms print before shortening it.
pub const MAX_NAME_CHARS: usize = 80;

/// A metric change of one kernel, for the "biggest changes" lists.
#[derive(Debug, Clone, Copy)]
pub struct KernelChange<'a> {
    pub kernel: &'a MatchedDiff,
    pub metric: &'a MetricDiff,
}

/// The metric changes to list: every selected metric when the comparison was restricted to
/// chosen metrics, else the `max` largest better/worse changes outside the headline metrics
/// (worse first, then by |Δ%|).
pub fn listed_changes(diff: &ReportDiff, max: usize) -> Vec<KernelChange<'_>> {
    let skip =
        |key: &str| key == names::DURATION || HEADLINE_METRICS.iter().any(|(k, _)| *k == key);
    let mut out: Vec<KernelChange<'_>> = diff
        .matched
        .iter()
        .flat_map(|k| {
            k.diff
                .metrics
                .iter()
                .map(move |metric| KernelChange { kernel: k, metric })
        })
        .filter(|c| !skip(&c.metric.key))
        .filter(|c| diff.restricted || matches!(c.metric.verdict, Verdict::Better | Verdict::Worse))
        .collect();
    if diff.restricted {
        return out;
    }
    out.sort_by(|a, b| {
        let wa = a.metric.verdict != Verdict::Worse;
        let wb = b.metric.verdict != Verdict::Worse;
        wa.cmp(&wb)
            .then(change_weight(b.metric).total_cmp(&change_weight(a.metric)))
            .then(a.kernel.current_index.cmp(&b.kernel.current_index))
    });
    out.truncate(max);
    out
}

/// How much a change matters to the kernel, for ranking: a percentage's change in points as a
/// share of the whole (12 pp → 0.12: of peak, of stalls, of time); a relative change of
/// another number, whose share of the kernel is unknown, a tenth of its percentage and at
/// most 0.2 (a count that doubled weighs like 10 pp), one that appeared from (nearly) nothing
/// 0.1; a raw sample count a tenth of that (samples say where time went, not how much).
pub fn change_weight(m: &MetricDiff) -> f64 {
    let weight = if is_percentage(m) {
        match (m.base_f64(), m.current_f64()) {
            (Some(b), Some(c)) if b.is_finite() && c.is_finite() => (c - b).abs() / 100.0,
            _ => 0.0,
        }
    } else if near_zero_side(m).is_some() {
        0.1
    } else {
        m.delta_pct.map_or(0.1, |p| (p.abs() / 1000.0).min(0.2))
    };
    if m.unit.contains("sample") || m.key.contains("pcsamp") {
        weight / 10.0
    } else {
        weight
    }
}

/// `Some("new")` when the base is zero or negligible beside the current value (a ratio whose
/// base was nearly zero reads as new, not as a percentage), `Some("gone")` the other way.
fn near_zero_side(m: &MetricDiff) -> Option<&'static str> {
    const NEGLIGIBLE: f64 = 1e-4;
    let (b, c) = (m.base_f64()?.abs(), m.current_f64()?.abs());
    if !(b.is_finite() && c.is_finite()) || b == c {
        return None;
    }
    if b <= c * NEGLIGIBLE {
        Some("new")
    } else if c <= b * NEGLIGIBLE {
        Some("gone")
    } else {
        None
    }
}

/// A percentage change as text: `+20.00%`; `new` when the base is zero and the current value
/// is not (ncu prints `inf%`); `-` when unknown.
pub fn pct_text(delta: Option<f64>, known: bool) -> String {
    match (delta, known) {
        (Some(d), _) => format!("{d:+.2}%"),
        (None, true) => "new".into(),
        (None, false) => NOT_MEASURED.into(),
    }
}

/// The change of a metric diff as text. Percentages: percentage points (`+12.30 pp`); other
/// numbers: `+20.00%`, `new` when the base is zero, `gone` when the current value is zero;
/// `≈0%` (`≈0 pp` for a percentage) when the difference is within the precision a text form
/// printed. Values that are not numbers are never subtracted: `same` or `changed`.
pub fn delta_text(m: Option<&MetricDiff>) -> String {
    let Some(m) = m else {
        return NOT_MEASURED.into();
    };
    match (m.base_f64(), m.current_f64()) {
        (Some(b), Some(c)) if b.is_finite() && c.is_finite() => {
            if m.within_precision && b != c {
                if is_percentage(m) { "≈0 pp" } else { "≈0%" }.into()
            } else if is_percentage(m) {
                format!("{:+.2} pp", c - b)
            } else if let Some(side) = near_zero_side(m) {
                side.into()
            } else {
                pct_text(m.delta_pct, true)
            }
        }
        _ if m.base == m.current => "same".into(),
        (None, None) => "changed".into(),
        _ => NOT_MEASURED.into(),
    }
}

/// Whether a metric is a percentage, whose change reads as percentage points.
pub fn is_percentage(m: &MetricDiff) -> bool {
    m.unit == "%" || m.key.ends_with(".pct") || m.key.contains(".pct_of_")
}

/// The totals of a comparison as lines for people: matched, only in base, only in current,
/// net; changes within the printed precision of the sources read as no change.
pub fn totals_lines(diff: &ReportDiff) -> Vec<String> {
    let t = diff.totals();
    let change = |base: f64, current: f64, changed: bool, delta: f64| {
        if changed {
            format!(
                "{} → {} ({}, {})",
                value_text(base, "ns"),
                value_text(current, "ns"),
                pct_text(super::metric_diff::delta_pct(base, current), true),
                time_delta_text(delta)
            )
        } else if t.noise_ns > 0.0 {
            format!(
                "{} → {} (no change beyond the printed precision, ±{})",
                value_text(base, "ns"),
                value_text(current, "ns"),
                value_text(t.noise_ns, "ns")
            )
        } else {
            format!(
                "{} → {} (no change)",
                value_text(base, "ns"),
                value_text(current, "ns")
            )
        }
    };
    let mut lines = vec![if diff.matched.is_empty() {
        "Matched: none (no kernel of the current report matched one of the base report)".to_string()
    } else {
        format!(
            "Matched ({}): {}",
            count_text(diff.matched.len(), "pair", "pairs"),
            change(
                t.matched_base_ns,
                t.matched_current_ns,
                t.matched_changed(),
                t.matched_delta_ns()
            )
        )
    }];
    if !diff.only_in_base.is_empty() {
        lines.push(format!(
            "Only in base ({} removed): {}",
            diff.only_in_base.len(),
            value_text(t.only_in_base_ns, "ns")
        ));
    }
    if !diff.only_in_current.is_empty() {
        lines.push(format!(
            "Only in current ({} added): {}",
            diff.only_in_current.len(),
            value_text(t.only_in_current_ns, "ns")
        ));
    }
    lines.push(format!(
        "Net (whole report): {}",
        change(
            t.all_base_ns(),
            t.all_current_ns(),
            t.net_changed(),
            t.net_ns()
        )
    ));
    lines
}

/// The kernels paired as renamed, one line each (`paired as renamed: `naive` → `coalesced`,
/// same parameters, 2 launches`), and how to keep them apart.
pub fn renamed_lines(diff: &ReportDiff) -> Vec<String> {
    renamed_lines_with(diff, &|name| format!("`{name}`"), &|text| text.to_string())
}

/// [`renamed_lines`] with names quoted by `code` and the other words written by `text`.
fn renamed_lines_with(
    diff: &ReportDiff,
    code: &dyn Fn(&str) -> String,
    text: &dyn Fn(&str) -> String,
) -> Vec<String> {
    let mut lines: Vec<String> = diff
        .renamed
        .iter()
        .map(|r| r.label_with(code, text))
        .collect();
    if !lines.is_empty() {
        lines.push(text(
            "to compare them as different kernels, run again with --no-auto-pair",
        ));
    }
    lines
}

/// The suggested pairs for people: one line per renamed function (`renamed? `naive` →
/// `coalesced` (2 launches: 0=0, 1=1), same parameters`), then the ready `--pair` argument.
pub fn suggested_lines(diff: &ReportDiff) -> Vec<String> {
    suggested_lines_with(diff, &|name| format!("`{name}`"), &|text| text.to_string())
}

/// [`suggested_lines`] with names quoted by `code` and the other words written by `text`.
fn suggested_lines_with(
    diff: &ReportDiff,
    code: &dyn Fn(&str) -> String,
    text: &dyn Fn(&str) -> String,
) -> Vec<String> {
    let mut lines: Vec<String> = super::matching::group_suggestions(&diff.suggested_pairs)
        .into_iter()
        .map(|group| {
            let s = group[0];
            let pairs: Vec<String> = group
                .iter()
                .map(|p| format!("{}={}", p.base_id, p.current_id))
                .collect();
            format!(
                "{} {} → {} {}",
                text("renamed?"),
                code(&s.base_function),
                code(&s.current_function),
                text(&format!(
                    "({}: {}), {}",
                    count_text(pairs.len(), "launch", "launches"),
                    pairs.join(", "),
                    s.reason
                ))
            )
        })
        .collect();
    if !diff.suggested_pairs.is_empty() {
        lines.push(text(&format!(
            "to compare them, run again with {}",
            super::pair_argument(&diff.suggested_pairs)
        )));
    }
    lines
}

/// `1 pair`, `3 pairs`: a count with the noun in the number it needs.
pub fn count_text(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `name` in at most `max` characters (8 at the least): its start and its end with `…`
/// between, the start getting two thirds, so that a long templated kernel keeps both its
/// base name and what tells its instances apart.
pub fn short_name(name: &str, max: usize) -> String {
    let n = name.chars().count();
    let max = max.max(8);
    if n <= max {
        return name.to_string();
    }
    let keep = max - 1;
    let head = keep * 2 / 3;
    let tail = keep - head;
    let start: String = name.chars().take(head).collect();
    let end: String = name.chars().skip(n - tail).collect();
    format!("{}…{}", start.trim_end(), end.trim_start())
}

/// Time won or lost as text: `12.00 us lost`, `3.10 ms won`.
pub fn time_delta_text(delta_ns: f64) -> String {
    if !delta_ns.is_finite() {
        return format!("damaged ({delta_ns})");
    }
    let word = if delta_ns > 0.0 { "lost" } else { "won" };
    format!("{} {word}", value_text(delta_ns.abs(), "ns"))
}

fn num_json(v: Option<f64>) -> Json {
    v.and_then(serde_json::Number::from_f64)
        .map_or(Json::Null, Json::Number)
}

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
    json!({"id": u.id, "name": u.name, "duration_ns": num_json(u.duration_ns)})
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

/// The CSV columns of [`to_csv`].
pub const CSV_HEADER: [&str; 13] = [
    "status",
    "base_id",
    "current_id",
    "kernel",
    "metric",
    "label",
    "unit",
    "direction",
    "base",
    "current",
    "delta_pct",
    "verdict",
    "time_delta_ns",
];

fn opt_text(v: Option<f64>) -> String {
    v.map_or_else(String::new, |v| format!("{v}"))
}

/// The comparison as CSV: one row per matched kernel and metric (the duration first), then one
/// row per result only one side has.
pub fn to_csv(diff: &ReportDiff) -> String {
    let mut bytes = Vec::new();
    // Writing into memory cannot fail for I/O reasons.
    let _ = write_csv_with_pairs(&mut bytes, diff, &mut |each| {
        for k in &diff.matched {
            each(k);
        }
    });
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Hands each matched pair of a comparison to the callback it is given, in order.
pub type PairSource<'a> = dyn FnMut(&mut dyn FnMut(&MatchedDiff)) + 'a;

/// Writes [`to_csv`] of `diff` with the rows of the matched pairs taken from `pairs` (the
/// pairs of `diff`, with every metric difference), one pair at a time.
pub fn write_csv_with_pairs(
    w: &mut dyn Write,
    diff: &ReportDiff,
    pairs: &mut PairSource<'_>,
) -> std::io::Result<()> {
    w.write_all(&csv_header())?;
    let mut failed = None;
    pairs(&mut |k| {
        if failed.is_some() {
            return;
        }
        failed = pair_csv(k).and_then(|rows| w.write_all(&rows)).err();
    });
    if let Some(e) = failed {
        return Err(e);
    }
    write_csv_unmatched(w, diff)
}

/// The header line of [`to_csv`].
pub fn csv_header() -> Vec<u8> {
    csv_rows([CSV_HEADER.iter().map(|s| s.to_string()).collect()]).unwrap_or_default()
}

/// Rows as CSV text.
fn csv_rows(rows: impl IntoIterator<Item = Vec<String>>) -> std::io::Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for row in rows {
        w.write_record(&row)?;
    }
    w.into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))
}

/// The rows of [`to_csv`] of one matched pair: the duration, then every other metric. The
/// same cells as one `String` each would give, written from reused buffers instead of a `String` per cell.
pub fn pair_csv(k: &MatchedDiff) -> std::io::Result<Vec<u8>> {
    use std::fmt::Write as _;
    let mut w = csv::Writer::from_writer(Vec::with_capacity(256 * (k.diff.metrics.len() + 1)));
    let (base_id, current_id) = (k.base_id.to_string(), k.current_id.to_string());
    // A pair the comparison made of a renamed kernel says so.
    let status = if k.kind == super::MatchKind::Renamed {
        "renamed"
    } else {
        "matched"
    };
    let (mut base, mut current, mut pct, mut delta) =
        (String::new(), String::new(), String::new(), String::new());
    let metrics = k
        .diff
        .duration
        .iter()
        .chain(k.diff.metrics.iter().filter(|m| m.key != names::DURATION));
    for m in metrics {
        for (cell, v) in [(&mut base, m.base), (&mut current, m.current)] {
            cell.clear();
            let _ = write!(cell, "{v}");
        }
        pct.clear();
        if let Some(v) = m.delta_pct {
            let _ = write!(pct, "{v:.4}");
        }
        delta.clear();
        if m.key == names::DURATION
            && let Some(v) = m.delta()
        {
            let _ = write!(delta, "{v}");
        }
        w.write_record([
            status,
            &base_id,
            &current_id,
            &k.name,
            m.key.as_str(),
            key_label(m.key.as_str()),
            m.unit.as_str(),
            m.direction.name(),
            &base,
            &current,
            &pct,
            m.verdict.name(),
            &delta,
        ])?;
    }
    w.into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))
}

/// [`super::metric_diff::metric_label`] of a key that lives for the whole process, without copying it.
fn key_label(key: &'static str) -> &'static str {
    if let Some((_, label)) = crate::model::catalog::label_for(key) {
        return label;
    }
    match key.split_once('/') {
        Some((_, label)) if !key.contains("__") => label,
        _ => key,
    }
}

/// The rows of [`to_csv`] after the matched pairs: the results only one side has.
pub fn write_csv_unmatched(w: &mut dyn Write, diff: &ReportDiff) -> std::io::Result<()> {
    let unmatched = |status: &str, u: &UnmatchedResult, base_side: bool| -> Vec<String> {
        let duration = opt_text(u.duration_ns);
        let (base_id, current_id, base, current) = if base_side {
            (u.id.to_string(), String::new(), duration, String::new())
        } else {
            (String::new(), u.id.to_string(), String::new(), duration)
        };
        vec![
            status.into(),
            base_id,
            current_id,
            u.name.clone(),
            names::DURATION.into(),
            "Duration".into(),
            "ns".into(),
            "lower".into(),
            base,
            current,
            String::new(),
            String::new(),
            String::new(),
        ]
    };
    let rows = diff
        .only_in_base
        .iter()
        .map(|u| unmatched("only_in_base", u, true))
        .chain(
            diff.only_in_current
                .iter()
                .map(|u| unmatched("only_in_current", u, false)),
        );
    w.write_all(&csv_rows(rows)?)?;
    w.flush()
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

/// Options of [`to_markdown`].
#[derive(Debug, Clone, PartialEq)]
pub struct MarkdownOptions {
    /// A heading line (`Comparison: a.ncu-rep → b.ncu-rep`); none when empty.
    pub title: String,
    /// How many metric changes to list when the comparison was not restricted.
    pub max_changes: usize,
}

impl Default for MarkdownOptions {
    fn default() -> Self {
        MarkdownOptions {
            title: String::new(),
            max_changes: DEFAULT_MAX_CHANGES,
        }
    }
}

/// Escapes text for a Markdown table cell inside a code span.
fn md_code(s: &str) -> String {
    crate::model::safe_text::markdown_code(s)
}

fn md_text(s: &str) -> String {
    crate::model::safe_text::markdown_text(s)
}

/// The comparison as Markdown: warnings, a table of matched kernels sorted by impact, the time
/// totals, the biggest changes (or the chosen metrics), and the unmatched results.
pub fn to_markdown(diff: &ReportDiff, opts: &MarkdownOptions) -> String {
    let mut out = String::new();
    if !opts.title.is_empty() {
        out.push_str(&format!("### {}\n\n", md_text(&opts.title)));
    }
    let regressions = diff.regressions().count();
    out.push_str(&if regressions == 0 {
        format!(
            "**No regression** beyond {}% ({} kernels matched).\n\n",
            diff.threshold_pct,
            diff.matched.len()
        )
    } else {
        format!(
            "**{regressions} kernel(s) got worse** beyond {}% ({} kernels matched).\n\n",
            diff.threshold_pct,
            diff.matched.len()
        )
    });
    if !diff.warnings.is_empty() {
        out.push_str("> [!WARNING]\n");
        for w in &diff.warnings {
            out.push_str(&format!("> - {}\n", md_text(w)));
        }
        out.push('\n');
    }
    if !diff.matched.is_empty() {
        out.push_str(
            "| Kernel | IDs | Duration base | Duration current | Δ duration | Verdict | Time |",
        );
        for (_, label) in HEADLINE_METRICS {
            out.push_str(&format!(" Δ {label} |"));
        }
        out.push_str("\n|---|---|--:|--:|--:|---|--:|");
        out.push_str(&"--:|".repeat(HEADLINE_METRICS.len()));
        out.push('\n');
        for k in diff.by_impact() {
            let d = k.diff.duration.as_ref();
            let value =
                |v: Option<f64>| v.map_or_else(|| NOT_MEASURED.into(), |x| value_text(x, "ns"));
            out.push_str(&format!(
                "| {} | {} → {} | {} | {} | {} | {} | {} |",
                md_code(&short_name(&k.name, MAX_NAME_CHARS)),
                k.base_id,
                k.current_id,
                value(k.base_duration_ns),
                value(k.current_duration_ns),
                delta_text(d),
                d.map_or(NOT_MEASURED, |d| d.verdict.name()),
                k.time_delta_ns()
                    .map_or_else(|| NOT_MEASURED.into(), time_delta_text),
            ));
            for (key, _) in HEADLINE_METRICS {
                out.push_str(&format!(" {} |", delta_text(k.diff.get(key))));
            }
            out.push('\n');
        }
        out.push('\n');
        for line in totals_lines(diff) {
            match line.split_once(": ") {
                Some((head, rest)) => out.push_str(&format!("- **{head}:** {rest}\n")),
                None => out.push_str(&format!("- {line}\n")),
            }
        }
    }
    let changes = listed_changes(diff, opts.max_changes);
    if !changes.is_empty() {
        out.push_str(if diff.restricted {
            "\n#### Selected metrics\n\n"
        } else {
            "\n#### Biggest metric changes\n\n"
        });
        out.push_str(
            "| Kernel | Metric | Base | Current | Δ | Verdict |\n|---|---|--:|--:|--:|---|\n",
        );
        for c in changes {
            let m = c.metric;
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                md_code(&short_name(&c.kernel.name, 50)),
                md_code(&m.key),
                md_text(&stored_value_text(&m.base, &m.unit)),
                md_text(&stored_value_text(&m.current, &m.unit)),
                delta_text(Some(m)),
                m.verdict.name(),
            ));
        }
    }
    for (title, list) in [
        ("Only in base", &diff.only_in_base),
        ("Only in current", &diff.only_in_current),
    ] {
        if list.is_empty() {
            continue;
        }
        out.push_str(&format!("\n#### {title}\n\n"));
        for u in list {
            let duration = u
                .duration_ns
                .map_or_else(String::new, |d| format!(", {}", value_text(d, "ns")));
            out.push_str(&format!(
                "- {} (ID {}{duration})\n",
                md_code(&short_name(&u.name, MAX_NAME_CHARS)),
                u.id
            ));
        }
    }
    if !diff.renamed.is_empty() {
        out.push_str("\n#### Paired as renamed\n\n");
        for line in renamed_lines_with(diff, &md_code, &md_text) {
            out.push_str(&format!("- {line}\n"));
        }
    }
    if !diff.suggested_pairs.is_empty() {
        out.push_str("\n#### Renamed?\n\n");
        for line in suggested_lines_with(diff, &md_code, &md_text) {
            out.push_str(&format!("- {line}\n"));
        }
    }
    let explained: Vec<&MatchedDiff> = diff
        .by_impact()
        .into_iter()
        .filter(|k| !k.why.is_empty() || !k.changes.is_empty())
        .take(opts.max_changes)
        .collect();
    if !explained.is_empty() {
        out.push_str("\n#### Why it changed\n\n");
        for k in explained {
            out.push_str(&format!(
                "- {} ({} → {})\n",
                md_code(&short_name(&k.name, MAX_NAME_CHARS)),
                k.base_id,
                k.current_id
            ));
            for c in &k.changes {
                out.push_str(&format!("  - {}\n", md_text(c)));
            }
            for w in listed_why(&k.why) {
                out.push_str(&format!("  - {}\n", md_text(&w.text)));
            }
        }
    }
    out
}

/// How many explanations the text forms list per kernel.
pub const MAX_WHY: usize = 16;

/// How many of the listed explanations are kept for those that point against the way the
/// duration went (a faster kernel's new bank conflicts or barrier stalls).
const MAX_WHY_AGAINST: usize = 8;

/// The explanations every output lists for a pair (window, text, Markdown, HTML): the
/// [`MAX_WHY`] first of the ranked list, except that up to half that point against the
/// duration's way are never crowded out by those that agree with it.
pub fn listed_why(why: &[super::Explanation]) -> Vec<&super::Explanation> {
    let against: Vec<&super::Explanation> = why
        .iter()
        .filter(|w| w.agrees == Some(false))
        .take(MAX_WHY_AGAINST)
        .collect();
    let keep_for = |n: usize| MAX_WHY.saturating_sub(n);
    let mut out: Vec<&super::Explanation> = why
        .iter()
        .filter(|w| w.agrees != Some(false))
        .take(keep_for(against.len()))
        .collect();
    // Fewer agreeing ones leave room for more of the others, in their ranked order.
    let room = MAX_WHY.saturating_sub(out.len());
    out.extend(why.iter().filter(|w| w.agrees == Some(false)).take(room));
    out
}

#[cfg(test)]
mod tests {
    use super::{change_weight, delta_text, short_name};
    use crate::analysis::compare::metric_diff::{Speed, diff_metric};
    use crate::model::{Metric, Value};

    #[test]
    fn long_names_keep_their_start_and_end() {
        let name = "void cutlass::Kernel<cutlass::gemm::kernel::GemmUniversal<float, 128>>(Params)";
        let short = short_name(name, 40);
        assert_eq!(short.chars().count(), 40);
        assert_eq!(short, "void cutlass::Kernel<cutla…128>>(Params)");
        assert_eq!(short_name("vector_add", 40), "vector_add");
    }

    fn text(base: Value, current: Value) -> String {
        let m = |v: Value| Metric::new(Some("m".into()), v, "");
        let d = diff_metric(
            "m",
            &m(base).view(),
            &m(current).view(),
            2.0,
            Speed::Unknown,
        );
        delta_text(d.as_ref())
    }

    #[test]
    fn the_listed_why_keeps_room_for_what_points_against_the_duration() {
        use crate::analysis::compare::{Explanation, WhyKind};
        let w = |subject: &str, agrees: Option<bool>| Explanation {
            lines: Vec::new(),
            kind: WhyKind::RuleAppeared,
            subject: subject.into(),
            text: subject.into(),
            base: None,
            current: None,
            agrees,
            score: 1.0,
        };
        // A faster kernel: twenty reasons agree, ten new problems point the other way; half
        // the list is kept for these.
        let mut why: Vec<Explanation> = (0..20).map(|i| w(&format!("ok{i}"), Some(true))).collect();
        why.extend((0..10).map(|i| w(&format!("new problem {i}"), Some(false))));
        let listed: Vec<&str> = super::listed_why(&why)
            .iter()
            .map(|e| e.subject.as_str())
            .collect();
        let want: Vec<String> = (0..8)
            .map(|i| format!("ok{i}"))
            .chain((0..8).map(|i| format!("new problem {i}")))
            .collect();
        assert_eq!(listed, want);
        // With few that agree, the rest fill up in their ranked order.
        let few = vec![
            w("ok", Some(true)),
            w("a", Some(false)),
            w("b", Some(false)),
            w("c", Some(false)),
        ];
        assert_eq!(super::listed_why(&few).len(), 4);
    }

    #[test]
    fn changes_rank_by_their_share_of_the_kernel() {
        let d = |key: &str, unit: &str, base: f64, current: f64| {
            let m = |v: f64| Metric::new(Some(key.into()), Value::Double(v), unit);
            diff_metric(
                key,
                &m(base).view(),
                &m(current).view(),
                2.0,
                Speed::Unknown,
            )
            .expect("a diff")
        };
        // 20 pp of peak first; 0.00 → 3.80 (a ratio from nearly nothing) after it; sample
        // counts last however much they grew.
        let tiny_base = d("derived__ratio", "", 2.3e-8, 3.8);
        let of_peak = d(
            "sm__throughput.avg.pct_of_peak_sustained_elapsed",
            "%",
            40.0,
            60.0,
        );
        let samples = d(
            "smsp__pcsamp_warps_issue_stalled_barrier",
            "sample",
            10.0,
            900.0,
        );
        let mut ranked = [&tiny_base, &of_peak, &samples];
        ranked.sort_by(|a, b| change_weight(b).total_cmp(&change_weight(a)));
        let keys: Vec<&str> = ranked.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                "derived__ratio",
                "smsp__pcsamp_warps_issue_stalled_barrier"
            ]
        );
    }

    #[test]
    fn zero_on_one_side_is_new_or_gone() {
        assert_eq!(text(Value::U64(0), Value::U64(5)), "new");
        assert_eq!(text(Value::Double(2.5), Value::Double(0.0)), "gone");
        assert_eq!(text(Value::U64(0), Value::U64(0)), "+0.00%");
        // A base that is nearly zero reads as new, not as a percentage of millions.
        assert_eq!(text(Value::Double(2.3e-8), Value::Double(3.8)), "new");
        assert_eq!(text(Value::Double(3.8), Value::Double(1e-9)), "gone");
        assert_eq!(text(Value::U64(4), Value::U64(5)), "+25.00%");
    }

    #[test]
    fn strings_are_never_subtracted() {
        let s = |t: &str| Value::Str(t.into());
        assert_eq!(text(s("CachePreferNone"), s("CachePreferNone")), "same");
        assert_eq!(text(s("CachePreferNone"), s("CachePreferL1")), "changed");
        assert_eq!(text(s("all"), Value::U64(3)), "-");
    }
}
