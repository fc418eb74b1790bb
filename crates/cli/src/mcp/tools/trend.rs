//! `trend`: a series of reports as one table of every kernel over the runs, renames followed,
//! with the biggest steps and the regressions of the latest run against its history; the same
//! answer as `sightline trend --format json`.

use super::{
    Entry, ToolContext, ToolError, ToolOutput, arguments, input_schema, object_schema, open,
};
use crate::analysis::path_names::run_labels;
use crate::analysis::series::regression::{DEFAULT_RULE, TrendRule, regressions};
use crate::analysis::series::{SeriesOrder, TrendOptions, trend};
use crate::model::Report;
use crate::output::trend_json::{regression_text, trend_json};
use rmcp::schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value as Json, json};

const NAME: &str = "trend";

pub(super) const ENTRY: Entry = Entry {
    name: NAME,
    title: "A kernel's story across many runs",
    description: "Reads a series of Nsight Compute reports (several runs of the same program: versions of a kernel, nightly runs) and matches every kernel through the whole series, renames included. Gives each kernel's mean duration per run (launches aggregated: count, total, mean, min, max), the biggest steps between runs with what changed, and the kernels whose latest run regressed against the runs before it (by default beyond the median of the last 5 by more than 3 spreads, so noise does not alarm).",
    input: input_schema::<Args>,
    output,
    call,
};

/// Arguments of `trend`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(crate = "rmcp::schemars")]
struct Args {
    /// The report files of the series, oldest first (relative to the server's first root or
    /// absolute under one of its roots).
    reports: Vec<String>,
    /// `given` (default: the order of `reports`) or `captured` (by capture time).
    #[serde(default)]
    order: Option<String>,
    /// A metric (ncu name) to aggregate per run beside the duration.
    #[serde(default)]
    metric: Option<String>,
    /// Regression rules: a comma list of `duration>medianN+Kspread` and `duration>P%`
    /// (default `duration>median5+3spread`).
    #[serde(default)]
    fail_on: Option<String>,
}

fn output() -> Json {
    object_schema(json!({
        "runs": {"type": "array", "items": {"type": "object"}, "description": "the runs in the order used, with their labels"},
        "order": {"type": "string"},
        "order_note": {"type": "string", "description": "the order used, in words"},
        "metric": {"type": ["string", "null"]},
        "kernels": {"type": "array", "items": {"type": "object"}, "description": "every kernel with its names and one point per run (null where the run does not launch it)"},
        "steps": {"type": "array", "items": {"type": "object"}, "description": "the biggest changes between runs, with their why"},
        "regressions": {"type": "array", "items": {"type": "object"}},
    }))
}

fn call(cx: &ToolContext<'_>, value: Json) -> Result<ToolOutput, ToolError> {
    let args: Args = arguments(NAME, value)?;
    let bad = |message: String| ToolError::Arguments {
        tool: NAME.into(),
        message,
    };
    if args.reports.len() < 2 {
        return Err(bad("a series needs at least two reports".into()));
    }
    let order = match args.order.as_deref() {
        None | Some("given") => SeriesOrder::Given,
        Some("captured") => SeriesOrder::Captured,
        Some(other) => {
            return Err(bad(format!(
                "order is `given` or `captured`, not `{other}`"
            )));
        }
    };
    let written = args.fail_on.unwrap_or_else(|| DEFAULT_RULE.to_string());
    let rules = TrendRule::parse_list(&written).map_err(|e| bad(e.to_string()))?;
    let opened = args
        .reports
        .iter()
        .map(|path| open(cx, path).map(|(cached, _)| cached))
        .collect::<Result<Vec<_>, _>>()?;
    let guards: Vec<_> = opened.iter().map(|c| c.lock()).collect();
    let reports: Vec<&Report> = guards.iter().map(|g| &**g).collect();
    let paths: Vec<&std::path::Path> = opened.iter().map(|c| c.path.as_path()).collect();
    let labels = run_labels(&paths);
    let options = TrendOptions {
        order,
        metric: args.metric,
        steps: 0,
    };
    let t = trend(&reports, &labels, &options);
    let found = regressions(&t, &rules);
    let mut summary = format!(
        "{} ({}), {}.",
        crate::model::format::count_text(t.runs.len(), "run", "runs"),
        t.order_note,
        crate::model::format::count_text(t.kernels.len(), "kernel", "kernels")
    );
    if let Some(step) = t.steps.first() {
        summary.push_str(&format!(
            " Biggest step: {} {} → {} ({:+.1}%).",
            step.kernel, t.runs[step.from].label, t.runs[step.to].label, step.change_pct
        ));
    }
    match found.as_slice() {
        [] => summary.push_str(" No regression in the latest run."),
        list => {
            for r in list {
                summary.push_str(&format!(" Regression: {}.", regression_text(r)));
            }
        }
    }
    let structured = trend_json(&t, &found);
    drop(guards);
    Ok(ToolOutput {
        structured,
        summary,
    })
}
