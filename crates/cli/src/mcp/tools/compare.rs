//! `compare`: two reports (or two results) compared kernel by kernel, as `sightline diff`
//! compares them: matched kernels by time won or lost with their duration verdicts, the
//! headline metrics and the "why" list; totals with the noise band; kernels on one side only;
//! suggested pairings of renamed kernels and how to pair them.

use super::super::cache::lock_pair;
use super::{
    Entry, ToolContext, ToolError, ToolOutput, arguments, input_schema, left_out_note,
    number_or_null, object_schema, open, report_json, report_schema, result_index,
};
use crate::analysis::compare::export::{
    self, DEFAULT_MAX_CHANGES, listed_changes, time_delta_text,
};
use crate::analysis::compare::metric_diff::DEFAULT_THRESHOLD_PCT;
use crate::analysis::compare::request;
use crate::analysis::compare::{
    CompareRequest, DiffOptions, DiffWarning, Keep, Rename, RenamePolicy, ReportDiff,
    SuggestedPair, pair_argument,
};
use crate::model::Report;
use crate::model::format::number_json;
use crate::output::compare::{PairDetail, matched_json, metric_change_json};
use rmcp::schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value as Json, json};
use std::sync::Arc;

const NAME: &str = "compare";
const DEFAULT_LIMIT: usize = 10;

pub(super) const ENTRY: Entry = Entry {
    name: NAME,
    title: "Compare two reports or two results",
    description: "Compares a baseline report with a current one kernel by kernel (or, with base_result_id and current_result_id, two results): matched kernels sorted by time won or lost, each with its duration verdict (better, worse, unchanged within the threshold) and why it changed; totals with the noise band of printed values; kernels only in one report; kernels paired as renamed (unambiguous renames: same parameters, launch count and places; `auto_pair: false` turns that off) and suggested pairings of the others (pass them back as `pairs`). `threshold` is the noise threshold in percent (default 2).",
    input: input_schema::<Args>,
    output,
    call,
};

/// Arguments of `compare`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct Args {
    /// The baseline report file under the server's roots.
    base: String,
    /// The report to compare with the baseline.
    current: String,
    /// Compare only this result of the baseline (with current_result_id).
    #[serde(default)]
    base_result_id: Option<u64>,
    /// Compare only this result of the current report (with base_result_id).
    #[serde(default)]
    current_result_id: Option<u64>,
    /// Changes smaller than this percentage count as unchanged (default 2).
    #[serde(default)]
    threshold: Option<f64>,
    /// Results to pair by hand, as "BASE_ID=CURRENT_ID" (what suggested_pairs offers); the
    /// other kernels are matched around them.
    #[serde(default)]
    pairs: Option<Vec<String>>,
    /// Compare only these metrics (ncu names, labels such as "Duration", or globs).
    #[serde(default)]
    metrics: Option<Vec<String>>,
    /// Pair renamed kernels automatically where unambiguous (default true): a kernel only the
    /// base has and one only the current has, with the same parameters, launch count and
    /// places. false only suggests them.
    #[serde(default)]
    auto_pair: Option<bool>,
    /// How many matched kernels, unmatched kernels, metric changes, renamed kernels, suggested
    /// pairs and pairing notes to list (default 10).
    #[serde(default)]
    limit: Option<usize>,
}

fn output() -> Json {
    let side = object_schema(json!({
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "duration_ns": number_or_null("duration in ns"),
    }));
    object_schema(json!({
        "base": report_schema(),
        "current": report_schema(),
        "threshold_pct": {"type": "number"},
        "regressed": {"type": "boolean", "description": "whether a matched kernel got slower beyond the threshold"},
        "verdicts": object_schema(json!({
            "better": {"type": "integer"},
            "worse": {"type": "integer"},
            "unchanged": {"type": "integer"},
            "unknown": {"type": "integer"},
        })),
        "totals": {"type": "object", "description": "durations in ns summed over matched pairs, removed and added kernels, and the noise band"},
        "totals_text": {"type": "array", "items": {"type": "string"}},
        "matched_count": {"type": "integer"},
        "matched": {"type": "array", "items": object_schema(json!({
            "base_id": {"type": "integer"},
            "current_id": {"type": "integer"},
            "name": {"type": "string"},
            "match": {"type": "string"},
            "shape_differs": {"type": "boolean"},
            "changes": {"type": "array", "items": {"type": "string"}},
            "duration_ns": {"type": "object"},
            "time_delta_ns": number_or_null("time lost (positive) or won (negative), ns"),
            "time_delta_text": {"type": ["string", "null"]},
            "headline": {"type": "array"},
            "why": {"type": "array", "items": object_schema(json!({
                "kind": {"type": "string"},
                "text": {"type": "string"},
                "agrees": {"type": ["boolean", "null"], "description": "whether it points the way the duration went"},
            }))},
        }))},
        "biggest_changes": {"type": "array"},
        "only_in_base": {"type": "array", "items": side.clone()},
        "only_in_current": {"type": "array", "items": side},
        "renamed": {"type": "array", "description": "kernels paired as renamed", "items": object_schema(json!({
            "base_function": {"type": "string"},
            "current_function": {"type": "string"},
            "launches": {"type": "integer"},
            "reason": {"type": "string"},
        }))},
        "suggested_pairs": {"type": "array", "items": object_schema(json!({
            "base_id": {"type": "integer"},
            "current_id": {"type": "integer"},
            "base_function": {"type": "string"},
            "current_function": {"type": "string"},
            "reason": {"type": "string"},
        }))},
        "pair_hint": {"type": ["string", "null"], "description": "how to compare the suggested pairs"},
        "warnings": {"type": "array", "items": {"type": "string"}},
        "left_out": {"type": "array", "items": {"type": "string"}},
    }))
}

/// "7=7" → (7, 7).
fn parse_pairs(pairs: &[String]) -> Result<Vec<(u64, u64)>, ToolError> {
    pairs
        .iter()
        .map(|p| {
            request::parse_pair(p).map_err(|e| ToolError::Arguments {
                tool: NAME.into(),
                message: format!("pairs: {e}"),
            })
        })
        .collect()
}

/// A report holding only one result of another, for comparing two results.
fn only_result(rep: &Report, index: usize) -> Report {
    let mut one = Report::new(rep.source.clone(), rep.format);
    one.tool_version = rep.tool_version.clone();
    one.session = rep.session.clone();
    one.devices = rep.devices.clone();
    one.results = rep.results.get(index).cloned().into_iter().collect();
    one
}

fn verdicts(diff: &ReportDiff) -> Json {
    let (mut better, mut worse, mut unchanged, mut unknown) = (0, 0, 0, 0);
    for k in &diff.matched {
        match k.diff.duration.as_ref().map(|d| d.verdict.name()) {
            Some("better") => better += 1,
            Some("worse") => worse += 1,
            Some(_) => unchanged += 1,
            None => unknown += 1,
        }
    }
    json!({"better": better, "worse": worse, "unchanged": unchanged, "unknown": unknown})
}

/// The structured answer and its summary.
fn answer(
    diff: &ReportDiff,
    base: &Report,
    current: &Report,
    hits: (bool, bool),
    limit: usize,
) -> ToolOutput {
    let doc = crate::output::compare::to_json_without_pairs(diff);
    let by_impact = diff.by_impact();
    let matched: Vec<Json> = by_impact
        .iter()
        .take(limit)
        .map(|k| matched_json(k, PairDetail::Brief))
        .collect();
    let changes: Vec<Json> = listed_changes(diff, limit)
        .into_iter()
        .map(|c| {
            let mut j = metric_change_json(c.metric);
            j["base_id"] = json!(c.kernel.base_id);
            j["current_id"] = json!(c.kernel.current_id);
            j["kernel"] = json!(c.kernel.name);
            j
        })
        .collect();
    let unmatched = |list: &[crate::analysis::compare::UnmatchedResult]| -> Vec<Json> {
        list.iter()
            .take(limit)
            .map(|u| json!({"id": u.id, "name": u.name, "duration_ns": number_json(u.duration_ns)}))
            .collect()
    };
    let only_in_base = unmatched(&diff.only_in_base);
    let only_in_current = unmatched(&diff.only_in_current);
    let renamed: Vec<&Rename> = diff.renamed.iter().take(limit).collect();
    let shown_pairs: &[SuggestedPair] =
        &diff.suggested_pairs[..diff.suggested_pairs.len().min(limit)];
    // Every warning about the two reports' context (a few kinds at most); notes about the
    // pairing of single kernels up to the limit.
    let mut notes_shown = 0;
    let warnings: Vec<&DiffWarning> = diff
        .warnings
        .iter()
        .filter(|w| match w {
            DiffWarning::Context(_) => true,
            DiffWarning::Pairing(_) => {
                notes_shown += 1;
                notes_shown <= limit
            }
        })
        .collect();
    let notes_total = diff
        .warnings
        .iter()
        .filter(|w| matches!(w, DiffWarning::Pairing(_)))
        .count();
    let more = "call again with a larger limit";
    let left_out: Vec<String> = [
        left_out_note("matched kernels", matched.len(), diff.matched.len(), more),
        left_out_note(
            "kernels only in the base",
            only_in_base.len(),
            diff.only_in_base.len(),
            more,
        ),
        left_out_note(
            "kernels only in the current report",
            only_in_current.len(),
            diff.only_in_current.len(),
            more,
        ),
        left_out_note("renamed kernels", renamed.len(), diff.renamed.len(), more),
        left_out_note(
            "suggested pairs",
            shown_pairs.len(),
            diff.suggested_pairs.len(),
            more,
        ),
        left_out_note("pairing notes", notes_shown.min(limit), notes_total, more),
    ]
    .into_iter()
    .flatten()
    .collect();
    let suggested: Vec<Json> = shown_pairs
        .iter()
        .map(|s| {
            json!({
                "base_id": s.base_id,
                "current_id": s.current_id,
                "base_function": s.base_function,
                "current_function": s.current_function,
                "reason": s.reason,
            })
        })
        .collect();
    let pair_hint = (!shown_pairs.is_empty()).then(|| {
        let list: Vec<String> = shown_pairs
            .iter()
            .map(|s| format!("\"{}={}\"", s.base_id, s.current_id))
            .collect();
        format!(
            "call compare again with \"pairs\": [{}] (on the command line: {})",
            list.join(", "),
            pair_argument(shown_pairs)
        )
    });
    let totals_text = export::totals_lines(diff);
    let verdicts = verdicts(diff);
    let mut summary = format!(
        "{} matched: {} faster, {} slower, {} unchanged (threshold {}%).",
        crate::model::format::count_text(diff.matched.len(), "kernel", "kernels"),
        verdicts["better"],
        verdicts["worse"],
        verdicts["unchanged"],
        diff.threshold_pct
    );
    if let Some(net) = totals_text.last() {
        summary.push_str(&format!(" {net}."));
    }
    if let Some(k) = by_impact.first()
        && let Some(t) = k.time_delta_ns()
    {
        summary.push_str(&format!(
            " Biggest change: {}→{} {} ({}).",
            k.base_id,
            k.current_id,
            k.name,
            time_delta_text(t)
        ));
    }
    if !diff.only_in_base.is_empty() || !diff.only_in_current.is_empty() {
        summary.push_str(&format!(
            " {} only in base, {} only in current.",
            diff.only_in_base.len(),
            diff.only_in_current.len()
        ));
    }
    for r in &renamed {
        summary.push_str(&format!(" {}.", r.sentence()));
    }
    if let Some(h) = &pair_hint {
        summary.push_str(&format!(" Renamed kernels suggested: {h}."));
    }
    for l in &left_out {
        summary.push_str(&format!(" {l}."));
    }
    ToolOutput {
        structured: json!({
            "base": report_json(base, hits.0),
            "current": report_json(current, hits.1),
            "threshold_pct": diff.threshold_pct,
            "regressed": diff.has_regression(),
            "verdicts": verdicts,
            "totals": doc["totals"],
            "totals_text": totals_text,
            "matched_count": diff.matched.len(),
            "matched": matched,
            "biggest_changes": changes,
            "only_in_base": only_in_base,
            "only_in_current": only_in_current,
            "renamed": renamed,
            "suggested_pairs": suggested,
            "pair_hint": pair_hint,
            "warnings": warnings,
            "left_out": left_out,
        }),
        summary,
    }
}

fn call(cx: &ToolContext<'_>, value: Json) -> Result<ToolOutput, ToolError> {
    let args: Args = arguments(NAME, value)?;
    let threshold = request::checked_threshold(args.threshold.unwrap_or(DEFAULT_THRESHOLD_PCT))
        .map_err(|e| ToolError::Arguments {
            tool: NAME.into(),
            message: format!("threshold: {e}"),
        })?;
    let pairs = parse_pairs(args.pairs.as_deref().unwrap_or_default())?;
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT).max(1);
    let opts = DiffOptions {
        threshold_pct: threshold,
        metrics: args.metrics.clone().filter(|m| !m.is_empty()),
        renames: RenamePolicy {
            auto_pair: args.auto_pair.unwrap_or(true),
            unpaired: Vec::new(),
        },
    };
    let (base_entry, base_hit) = open(cx, &args.base)?;
    let (current_entry, current_hit) = open(cx, &args.current)?;
    let one_lock = Arc::ptr_eq(&base_entry, &current_entry);
    let (base_guard, current_guard) = lock_pair(&base_entry, &current_entry);
    let base: &Report = &base_guard;
    let current: &Report = current_guard.as_deref().unwrap_or(base);
    let out = match (args.base_result_id, args.current_result_id) {
        (None, None) => {
            let manual = request::pairs_by_id(&pairs, base, current)
                .map_err(|e| ToolError::Failed(format!("pairs: {e}")))?;
            let request = CompareRequest {
                options: &opts,
                manual: &manual,
                keep: Keep::Shown {
                    max_changes: limit.max(DEFAULT_MAX_CHANGES),
                    also: &|_| false,
                },
            };
            let diff = request
                .run_until(base, current, &|| cx.is_cancelled())
                .ok_or(ToolError::Cancelled)?;
            answer(&diff, base, current, (base_hit, current_hit), limit)
        }
        (Some(b), Some(c)) => {
            let b = only_result(base, result_index(base, Some(b))?);
            let c = only_result(current, result_index(current, Some(c))?);
            let request = CompareRequest {
                options: &opts,
                manual: &[(0, 0)],
                keep: Keep::All,
            };
            let diff = request.run(&b, &c);
            answer(&diff, &b, &c, (base_hit, current_hit), limit)
        }
        _ => {
            return Err(ToolError::Arguments {
                tool: NAME.into(),
                message: "give both base_result_id and current_result_id, or neither".into(),
            });
        }
    };
    drop(current_guard);
    drop(base_guard);
    base_entry.trim();
    if !one_lock {
        current_entry.trim();
    }
    Ok(out)
}
