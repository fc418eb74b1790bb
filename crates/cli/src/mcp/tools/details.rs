//! `result_details`: one result in full: its summary row, the Speed of Light section, every
//! section with its metrics (value in the base unit, the unit, and the value as ncu prints
//! it), and the rules, highest estimated speedup first, with their guidance.

use super::{
    Entry, ToolContext, ToolError, ToolOutput, arguments, input_schema, left_out_note,
    number_or_null, object_schema, open, report_json, report_schema, result_index,
};
use crate::model::format::{number_json, value_json};
use crate::model::{KernelResult, RuleResult, Section};
use crate::output::result_json::{row_json, rule_json};
use crate::output::table::value_text;
use rmcp::schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value as Json, json};

const NAME: &str = "result_details";
const DEFAULT_RULES: usize = 10;

pub(super) const ENTRY: Entry = Entry {
    name: NAME,
    title: "Details of one result",
    description: "One result of a report in full: Speed of Light (its section's metrics), every other section with its metrics (value in base units, unit, and as Nsight Compute prints it), and the rules with their estimated speedup, message and guidance, highest speedup first. `sections` narrows the sections; `max_rules` sets how many rules are listed.",
    input: input_schema::<Args>,
    output,
    call,
};

/// Arguments of `result_details`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct Args {
    /// Report file under the server's roots.
    report: String,
    /// Result ID as list_results gives it (default: the first result).
    #[serde(default)]
    result_id: Option<u64>,
    /// Only sections whose name or identifier contains one of these texts (case-insensitive),
    /// such as "SpeedOfLight" or "Memory"; default: every section.
    #[serde(default)]
    sections: Option<Vec<String>>,
    /// How many rules to list, highest estimated speedup first (default 10).
    #[serde(default)]
    max_rules: Option<usize>,
}

fn metric_schema() -> Json {
    object_schema(json!({
        "label": {"type": "string"},
        "key": {"type": ["string", "null"], "description": "ncu metric name"},
        "value": {"description": "value in the base unit (number or text)"},
        "unit": {"type": "string", "description": "base unit (ns, byte, %, ...)"},
        "text": {"type": "string", "description": "the value as ncu prints it, scaled"},
    }))
}

fn output() -> Json {
    object_schema(json!({
        "report": report_schema(),
        "result": {"type": "object", "description": "the summary row, as list_results gives it"},
        "speed_of_light": {"type": ["object", "null"], "properties": {
            "compute_pct": number_or_null("compute throughput, % of peak"),
            "memory_pct": number_or_null("memory throughput, % of peak"),
            "duration_ns": number_or_null("duration in ns"),
            "metrics": {"type": "array", "items": metric_schema()},
        }},
        "sections": {"type": "array", "items": object_schema(json!({
            "name": {"type": "string"},
            "identifier": {"type": ["string", "null"]},
            "metrics": {"type": "array", "items": metric_schema()},
            "rules": {"type": "array", "items": {"type": "string"}, "description": "titles of the section's rules"},
        }))},
        "rules": {"type": "array", "items": object_schema(json!({
            "kind": {"type": "string"},
            "title": {"type": "string"},
            "section": {"type": ["string", "null"]},
            "speedup_kind": {"type": ["string", "null"], "description": "global: of the whole kernel; local: of one unit"},
            "speedup_pct": number_or_null("estimated speedup, %"),
            "message": {"type": "string"},
            "guidance": {"type": "array"},
        }))},
        "left_out": {"type": ["string", "null"]},
    }))
}

fn section_metrics(s: &Section) -> Vec<Json> {
    s.rows
        .iter()
        .map(|row| {
            json!({
                "label": row.label,
                "key": row.metric.name.map(|k| k.to_string()),
                "value": value_json(&row.metric.value),
                "unit": row.metric.unit,
                "text": value_text(&row.metric),
            })
        })
        .collect()
}

fn is_speed_of_light(s: &Section) -> bool {
    s.identifier.as_deref() == Some("SpeedOfLight") || s.name.contains("Speed Of Light")
}

/// Every rule with the name of its section, highest estimated speedup first (global
/// estimates before local ones).
fn ranked_rules(r: &KernelResult) -> Vec<(Option<&str>, &RuleResult)> {
    let mut rules: Vec<(Option<&str>, &RuleResult)> = r
        .sections()
        .iter()
        .flat_map(|s| {
            s.rules
                .iter()
                .map(move |rule| (Some(s.name.as_str()), rule))
        })
        .chain(r.rules().iter().map(|rule| (None, rule)))
        .collect();
    let key = |rule: &RuleResult| match rule.speedup {
        Some((crate::model::SpeedupKind::Global, v)) => (2, v),
        Some((crate::model::SpeedupKind::Local, v)) => (1, v),
        None => (0, 0.0),
    };
    rules.sort_by(|a, b| {
        let (ka, kb) = (key(a.1), key(b.1));
        kb.0.cmp(&ka.0).then(kb.1.total_cmp(&ka.1))
    });
    rules
}

fn call(cx: &ToolContext<'_>, value: Json) -> Result<ToolOutput, ToolError> {
    let args: Args = arguments(NAME, value)?;
    let (cached, hit) = open(cx, &args.report)?;
    let out = {
        let rep = cached.lock();
        let index = result_index(&rep, args.result_id)?;
        let r = &rep.results[index];
        if let Some(e) = r.body_error() {
            return Err(ToolError::Failed(format!("result {}: {e}", r.id)));
        }
        let wanted = |s: &Section| {
            args.sections.as_ref().is_none_or(|names| {
                names.iter().any(|n| {
                    let n = n.to_lowercase();
                    s.name.to_lowercase().contains(&n)
                        || s.identifier
                            .as_deref()
                            .is_some_and(|i| i.to_lowercase().contains(&n))
                })
            })
        };
        let sections: Vec<Json> = r
            .sections()
            .iter()
            .filter(|s| wanted(s) && !is_speed_of_light(s))
            .map(|s| {
                json!({
                    "name": s.name,
                    "identifier": s.identifier,
                    "metrics": section_metrics(s),
                    "rules": s.rules.iter().map(RuleResult::heading).collect::<Vec<_>>(),
                })
            })
            .collect();
        let h = crate::analysis::headline::headline(r);
        let sol = r.sections().iter().find(|s| is_speed_of_light(s));
        let speed_of_light = json!({
            "compute_pct": number_json(h.sol_compute_pct),
            "memory_pct": number_json(h.sol_memory_pct),
            "duration_ns": number_json(h.duration_ns),
            "metrics": sol.map(section_metrics).unwrap_or_default(),
        });
        let ranked = ranked_rules(r);
        let max_rules = args.max_rules.unwrap_or(DEFAULT_RULES);
        let rules: Vec<Json> = ranked
            .iter()
            .take(max_rules)
            .map(|(section, rule)| {
                let mut j = rule_json(rule);
                j["section"] = json!(section);
                j["message"] = json!(rule.message);
                j
            })
            .collect();
        let left_out = left_out_note(
            "rules",
            rules.len(),
            ranked.len(),
            "call again with a larger max_rules for the others",
        );
        let mut summary = format!("Result {} {}", r.id, r.name.function);
        if let Some(d) = h.duration_ns {
            summary.push_str(&format!(": {}", crate::model::format::value_text(d, "ns")));
        }
        if let (Some(c), Some(m)) = (h.sol_compute_pct, h.sol_memory_pct) {
            summary.push_str(&format!(", SOL compute {c:.1}% memory {m:.1}%"));
        }
        summary.push_str(&format!(
            "; {}, {}",
            crate::model::format::count_text(sections.len(), "section", "sections"),
            crate::model::format::count_text(ranked.len(), "rule", "rules")
        ));
        if let Some((_, top)) = ranked.first() {
            summary.push_str(&format!("; top rule: {}", top.heading()));
            if let Some((_, s)) = top.speedup {
                summary.push_str(&format!(" (est. speedup {s:.1}%)"));
            }
        }
        summary.push('.');
        if let Some(l) = &left_out {
            summary.push_str(&format!(" {l}."));
        }
        ToolOutput {
            structured: json!({
                "report": report_json(&rep, hit),
                "result": row_json(r),
                "speed_of_light": speed_of_light,
                "sections": sections,
                "rules": rules,
                "left_out": left_out,
            }),
            summary,
        }
    };
    cached.trim();
    Ok(out)
}
