//! `trend` with `by_size`: the reports read as a sweep over problem sizes, each kernel's mean
//! duration and achieved FLOP/s per version and size; the same answer as `sightline trend
//! --by-size --format json` on the same files.

use super::{ToolContext, ToolError, ToolOutput, open};
use crate::analysis::series::detached_keeping;
use crate::analysis::series::request::TrendRequest;
use crate::analysis::series::sweep::{Sweep, SweepError, SweepFigure, sweep, sweep_metrics};
use crate::model::Report;
use crate::model::format::{count_text, value_text};
use crate::output::sweep_json::sweep_json;
use crate::output::sweep_tables::{cell_text, heading, names_text};

/// How many kernels the summary names.
const SUMMARY_KERNELS: usize = 5;

/// Builds the sweep of `reports` (paths under the server's roots) as `request` (a sweep)
/// asks.
pub(super) fn call(
    cx: &ToolContext<'_>,
    reports: &[String],
    request: &TrendRequest,
) -> Result<ToolOutput, ToolError> {
    let keep = sweep_metrics(request.metric.as_deref());
    let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
    // One report at a time: read (or taken from the cache), reduced to what the sweep reads,
    // let go; sizes and versions are read from the real paths, as the command reads them.
    let mut copies: Vec<Report> = Vec::with_capacity(reports.len());
    let mut paths = Vec::with_capacity(reports.len());
    for path in reports {
        cx.check()?;
        let (cached, _) = open(cx, path)?;
        copies.push(detached_keeping(&cached.lock(), &keep));
        cached.trim();
        paths.push(cached.path.clone());
    }
    cx.check()?;
    let refs: Vec<&Report> = copies.iter().collect();
    let s = sweep(&refs, &paths, &request.sweep_options())
        .map_err(|e| ToolError::Failed(refusal(&e)))?;
    Ok(ToolOutput {
        summary: summary(&s),
        structured: sweep_json(&s),
    })
}

/// Why a sweep was refused, with the reports left out before it was.
pub fn refusal(e: &SweepError) -> String {
    std::iter::once(e.to_string())
        .chain(e.left_out().iter().cloned())
        .collect::<Vec<_>>()
        .join("; ")
}

/// The sweep in a paragraph: what it is over, and for the first kernels the figures of each
/// version at the largest size.
fn summary(s: &Sweep) -> String {
    let mut out = format!(
        "{}; {}.",
        heading(s),
        count_text(s.kernels.len(), "kernel", "kernels")
    );
    let largest = s.sizes.len().saturating_sub(1);
    for k in s.kernels.iter().take(SUMMARY_KERNELS) {
        let at: Vec<String> = k
            .lines
            .iter()
            .filter_map(|line| {
                let p = line.points.get(largest)?.as_ref()?;
                let rate = p
                    .flop_per_s
                    .map_or(String::new(), |f| format!(", {}", value_text(f, "FLOP/s")));
                Some(format!(
                    "{} {}{rate}",
                    line.version,
                    cell_text(SweepFigure::Duration, Some(p.launches.mean_ns))
                ))
            })
            .collect();
        if !at.is_empty() {
            out.push_str(&format!(
                " {} at {}: {}.",
                names_text(k),
                s.size_label(largest),
                at.join("; ")
            ));
        }
    }
    if s.kernels.len() > SUMMARY_KERNELS {
        out.push_str(" The structured answer has every kernel.");
    }
    for line in &s.left_out {
        out.push_str(&format!(" {line}."));
    }
    out
}
