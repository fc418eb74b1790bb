//! `trend`: a series of reports as one table of every kernel over the runs, renames followed,
//! with the biggest steps and the regressions of the latest run against its history; the same
//! answer as `sightline trend --format json`. With `by_size`, a sweep over problem sizes
//! ([`super::trend_sweep`]).

use super::super::cache::CachedReport;
use super::{
    Entry, ToolContext, ToolError, ToolOutput, arguments, input_schema, left_out_note,
    object_schema, open,
};
use crate::analysis::path_names::run_labels;
use crate::analysis::series::regression::regressions;
use crate::analysis::series::request::{TrendFormat, TrendRequest};
use crate::analysis::series::{SeriesOrder, detached, explain_steps, runs_to_explain, trend_table};
use crate::model::Report;
use crate::output::trend_json::{regression_text, trend_json};
use rmcp::schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value as Json, json};
use std::sync::Arc;

const NAME: &str = "trend";
const DEFAULT_LIMIT: usize = 50;

pub(super) const ENTRY: Entry = Entry {
    name: NAME,
    title: "A kernel's story across many runs",
    description: "Reads a series of Nsight Compute reports (several runs of the same program: versions of a kernel, nightly runs) and matches every kernel through the whole series, renames included. Gives each kernel's mean duration per run (launches aggregated: count, total, mean, min, max), the biggest steps between runs with what changed, and the kernels whose latest run regressed against the runs before it (by default beyond the median of the last 5 by more than 3 spreads, so noise does not alarm). With `by_size`, reads the reports as a sweep over problem sizes instead (versions profiled at several sizes, the size in each path such as `N=1024/v1.ncu-rep`) and gives each kernel's mean duration and achieved FLOP/s per version and size.",
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
    /// How many kernels and regressions to list, the longest in the latest run first
    /// (default 50).
    #[serde(default)]
    limit: Option<usize>,
    /// Read the reports as a sweep over problem sizes instead of a series of runs: versions of
    /// a program each profiled at several sizes, the size in each report's path (a folder
    /// named `1024` or `N=1024`, or a `N=1024` part of the file name), the version the rest of
    /// it. Answers each kernel's mean duration and achieved FLOP/s per version and size, as
    /// `sightline trend --by-size --format json` does (`order`, `fail_on` and `limit` do not
    /// apply).
    #[serde(default)]
    by_size: bool,
    /// With `by_size`: a regular expression that finds the size in each report's path below
    /// the folder the reports share; its first group (or the group named `size`) is the size,
    /// as in `N=(\d+)`.
    #[serde(default)]
    size_pattern: Option<String>,
}

/// The answer's schema: a series of runs (`runs`, `steps`, `regressions`), or with `by_size`
/// a sweep (`parameter`, `sizes`, `versions`, `reports`); both have `kernels`, `metric` and
/// `left_out`.
fn output() -> Json {
    let mut schema = object_schema(json!({
        "runs": {"type": "array", "items": {"type": "object"}, "description": "the runs in the order used, with their labels"},
        "order": {"type": "string"},
        "order_note": {"type": "string", "description": "the order used, in words"},
        "metric": {"type": ["string", "null"]},
        "kernels": {"type": "array", "items": {"type": "object"}, "description": "every kernel with its names and one point per run (null where the run does not launch it); with by_size, one line per version with a point per size"},
        "steps": {"type": "array", "items": {"type": "object"}, "description": "the biggest changes between runs, with their why"},
        "regressions": {"type": "array", "items": {"type": "object"}},
        "kernel_count": {"type": "integer", "description": "kernels in the series, listed or not"},
        "left_out": {"type": "array", "items": {"type": "string"}, "description": "lists cut to the limit; with by_size, the reports left out of the sweep"},
        "parameter": {"type": "string", "description": "by_size: what the sizes are called (`N`)"},
        "sizes": {"type": "array", "items": {"type": "integer"}, "description": "by_size: the sizes, smallest first"},
        "versions": {"type": "array", "items": {"type": "string"}, "description": "by_size: the versions, in their natural order"},
        "size_pattern": {"type": ["string", "null"], "description": "by_size: the pattern the sizes were read with"},
        "reports": {"type": "array", "items": {"type": "object"}, "description": "by_size: the report of each version and size"},
    }));
    schema["required"] = json!(["kernels", "metric", "left_out"]);
    schema
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
    if args.by_size {
        if args.order.is_some() || args.fail_on.is_some() || args.limit.is_some() {
            return Err(bad(
                "`order`, `fail_on` and `limit` are for a series of runs, not a sweep (`by_size`)"
                    .into(),
            ));
        }
        let request =
            TrendRequest::sizes(args.size_pattern.as_deref(), args.metric, TrendFormat::Json)
                .map_err(|e| bad(e.to_string()))?;
        return super::trend_sweep::call(cx, &args.reports, &request);
    }
    if args.size_pattern.is_some() {
        return Err(bad(
            "`size_pattern` reads the sizes of a sweep: set `by_size`".into(),
        ));
    }
    let order = args
        .order
        .as_deref()
        .map(str::parse::<SeriesOrder>)
        .transpose()
        .map_err(|e| bad(e.to_string()))?;
    let request = TrendRequest::runs(
        order.unwrap_or_default(),
        args.fail_on.as_deref(),
        args.metric,
        TrendFormat::Json,
    )
    .map_err(|e| bad(e.to_string()))?;
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT).max(1);
    let options = request.trend_options();
    // One report at a time: read (or taken from the cache), reduced to what the trend reads,
    // let go. A report named twice (`a.ncu-rep`, `./a.ncu-rep`) is never locked twice, and a
    // series longer than the cache holds never holds every file open.
    let mut reports = Vec::with_capacity(args.reports.len());
    let mut paths = Vec::with_capacity(args.reports.len());
    for path in &args.reports {
        cx.check()?;
        let (cached, _) = open(cx, path)?;
        reports.push(detached(&cached.lock(), options.metric.as_deref()));
        cached.trim();
        paths.push(cached.path.clone());
    }
    let labels = run_labels(&paths.iter().map(|p| p.as_path()).collect::<Vec<_>>());
    let refs: Vec<&Report> = reports.iter().collect();
    cx.check()?;
    let mut t = trend_table(&refs, &labels, &options);
    // The why of each step, from the runs it compares, read again (a few at most).
    let mut again: Vec<(usize, Arc<CachedReport>)> = Vec::new();
    for input in runs_to_explain(&t) {
        cx.check()?;
        if let Some(path) = args.reports.get(input) {
            again.push((input, open(cx, path)?.0));
        }
    }
    {
        // Locked in the order of their paths, each report once.
        let mut order: Vec<&Arc<CachedReport>> = again.iter().map(|(_, c)| c).collect();
        order.sort_by(|a, b| {
            a.path
                .cmp(&b.path)
                .then(Arc::as_ptr(a).cmp(&Arc::as_ptr(b)))
        });
        order.dedup_by(|a, b| Arc::ptr_eq(a, b));
        let guards: Vec<_> = order.iter().map(|c| (Arc::as_ptr(c), c.lock())).collect();
        explain_steps(&mut t, |input| {
            let (_, cached) = again.iter().find(|(i, _)| *i == input)?;
            guards
                .iter()
                .find(|(p, _)| *p == Arc::as_ptr(cached))
                .map(|(_, g)| &**g)
        });
    }
    for (_, cached) in &again {
        cached.trim();
    }
    let mut found = regressions(&t, request.rules());
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
    // Lists cut to the limit, and said.
    let kernel_count = t.kernels.len();
    let regression_count = found.len();
    t.kernels.truncate(limit);
    found.truncate(limit);
    match found.as_slice() {
        [] => summary.push_str(" No regression in the latest run."),
        list => {
            for r in list {
                summary.push_str(&format!(" Regression: {}.", regression_text(r)));
            }
        }
    }
    let more = "call again with a larger limit";
    let left_out: Vec<String> = [
        left_out_note("kernels", t.kernels.len(), kernel_count, more),
        left_out_note("regressions", found.len(), regression_count, more),
    ]
    .into_iter()
    .flatten()
    .collect();
    for l in &left_out {
        summary.push_str(&format!(" {l}."));
    }
    let mut structured = trend_json(&t, &found);
    structured["kernel_count"] = json!(kernel_count);
    structured["left_out"] = json!(left_out);
    Ok(ToolOutput {
        structured,
        summary,
    })
}
