//! Building the side-by-side comparison (what the page shows) from the selected result and
//! the baselines: done once per selection or setting change, then only drawn.

use super::{DurationLine, MetricLine, SectionLines, Side, SideBySide, SideBySideKey};
use crate::analysis::compare::export::{delta_text, is_percentage, pct_text};
use crate::analysis::compare::metric_diff::{
    Speed, canonical_metrics, diff_metric, metric_label, speed_of,
};
use crate::analysis::compare::{
    BaselineStats, ContextWarning, DiffOptions, DiffWarning, KernelMatch, MatchKind, ReportDiff,
    Verdict, against_baselines, chosen_pair, compare_pair, context_warnings, metric_number,
    split_baselines,
};
use crate::analysis::occupancy::{self, OccupancyOptions};
use crate::core::baselines::kernel_name;
use crate::core::ids::{ReportId, ResultRef};
use crate::core::workspace::{OpenReport, Workspace};
use crate::model::format::NOT_MEASURED;
use crate::model::format::{metric_text, value_text};
use crate::model::source::SourceView;
use crate::model::{KernelResult, Metric, MetricView, Value, catalog, names};
use crate::output::text::safe_file_stem;
use crate::views::source;
use std::collections::BTreeMap;
use std::sync::Arc;

/// Where the comparison finds a result and its report: the workspace, or a copy of the few
/// results it compares ([`crate::views::compare::Snapshot`]).
pub trait ResultLookup {
    /// The result at `at` and its report.
    fn result(&self, at: ResultRef) -> Option<(&OpenReport, &KernelResult)>;

    /// The context differences between two open reports (every result of both is read).
    fn context_warnings(&self, base: ReportId, current: ReportId) -> Vec<ContextWarning>;

    /// The CUDA lines of the result at `at` ([`source::load_lines`]), for the why-list's line
    /// links; `None` where it has none. Read from its report each time, unless the lookup
    /// keeps them.
    fn source_lines(&self, generation: u64, at: ResultRef) -> Option<Arc<SourceView>> {
        let _ = generation;
        let (open, result) = self.result(at)?;
        source::load_lines(open.path.as_deref(), result)
            .ok()
            .map(Arc::new)
    }
}

impl ResultLookup for Workspace {
    fn result(&self, at: ResultRef) -> Option<(&OpenReport, &KernelResult)> {
        Workspace::result(self, at)
    }

    fn context_warnings(&self, base: ReportId, current: ReportId) -> Vec<ContextWarning> {
        match (self.report(base), self.report(current)) {
            (Some(b), Some(c)) => context_warnings(&b.report, &c.report),
            _ => Vec::new(),
        }
    }
}

/// A side of the comparison: the result at `at`, named by kernel and ID, in `color`.
pub fn side_of<W: ResultLookup + ?Sized>(
    workspace: &W,
    at: ResultRef,
    color: Option<[u8; 3]>,
) -> Option<Side> {
    let (open, result) = workspace.result(at)?;
    Some(Side {
        at,
        title: format!("{} · ID {}", kernel_name(result), result.id),
        full_name: result.name.demangled.clone(),
        report_name: open.name.clone(),
        color,
        pairing: None,
    })
}

/// The key under which a section row's metric is compared (as the diff names it).
pub fn row_key(section: &str, label: &str, metric: &Metric) -> String {
    if let Some(name) = metric.name.as_deref().filter(|n| !n.is_empty()) {
        return name.to_string();
    }
    catalog::metric_for(section, label).map_or_else(|| format!("{section}/{label}"), str::to_string)
}

/// A result's metric for a row: by key, else the row of the same section and label.
pub fn find_metric<'r>(
    result: &'r KernelResult,
    canonical: &BTreeMap<String, MetricView<'r>>,
    section: &str,
    label: &str,
    key: &str,
) -> Option<MetricView<'r>> {
    canonical.get(key).copied().or_else(|| {
        result
            .sections()
            .iter()
            .filter(|s| s.name == section)
            .flat_map(|s| &s.rows)
            .find(|r| r.label == label)
            .map(|r| r.metric.view())
    })
}

/// The rows to compare: each section of the current result, then sections only a baseline
/// has; within a section the current rows, then rows only a baseline has. Results without
/// sections compare every metric under one heading.
pub fn row_plan(results: &[&KernelResult]) -> Vec<(String, Vec<(String, String)>)> {
    let mut plan: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for r in results {
        for s in r.sections() {
            let name = if s.name.is_empty() {
                s.identifier.clone().unwrap_or_else(|| "Section".into())
            } else {
                s.name.clone()
            };
            let pos = match plan.iter().position(|(n, _)| *n == name) {
                Some(p) => p,
                None => {
                    plan.push((name.clone(), Vec::new()));
                    plan.len() - 1
                }
            };
            let Some((_, rows)) = plan.get_mut(pos) else {
                continue;
            };
            for row in &s.rows {
                if !rows.iter().any(|(label, _)| *label == row.label) {
                    rows.push((row.label.clone(), row_key(&name, &row.label, &row.metric)));
                }
            }
        }
    }
    if plan.is_empty() {
        let mut keys: Vec<String> = results
            .iter()
            .flat_map(|r| canonical_metrics(r).into_keys())
            .collect();
        keys.sort();
        keys.dedup();
        let rows = keys
            .into_iter()
            .filter(|k| !k.starts_with("breakdown:"))
            .map(|k| (metric_label(&k), k))
            .collect();
        plan.push(("Metrics".into(), rows));
    }
    plan
}

/// `+1.23 us`, `-172.13 us`, `0`.
pub fn signed_value_text(delta: f64, unit: &str) -> String {
    if delta == 0.0 {
        return "0".into();
    }
    let sign = if delta < 0.0 { "-" } else { "+" };
    format!("{sign}{}", value_text(delta.abs(), unit))
}

/// The mean of the baselines' values as a metric, to diff the current value against.
pub fn mean_metric(values: &[Option<f64>], unit: &str) -> Option<Metric> {
    let present: Vec<f64> = values.iter().flatten().copied().collect();
    if present.is_empty() {
        return None;
    }
    let mean = present.iter().sum::<f64>() / present.len() as f64;
    Some(Metric::new(None, Value::Double(mean), unit))
}

/// The context warnings of the pairs of different reports that `key` compares, in the order
/// of its baselines, each message once; `None` when `warnings_of` does not know those of some
/// pair (yet).
pub fn context_messages(
    key: &SideBySideKey,
    mut warnings_of: impl FnMut(ReportId, ReportId) -> Option<Vec<ContextWarning>>,
) -> Option<Vec<DiffWarning>> {
    let mut messages: Vec<DiffWarning> = Vec::new();
    let current = key.current.report;
    for b in key.bases.iter().filter(|b| b.at.report != current) {
        for w in warnings_of(b.at.report, current)? {
            if !messages
                .iter()
                .any(|m| matches!(m, DiffWarning::Context(c) if c.message == w.message))
            {
                messages.push(DiffWarning::Context(w));
            }
        }
    }
    Some(messages)
}

/// Builds the comparison of `key.current` with `key.bases`; `None` when a side is no longer
/// open.
pub fn side_by_side<W: ResultLookup + ?Sized>(
    workspace: &W,
    key: &SideBySideKey,
) -> Option<SideBySide> {
    let threshold = f64::from_bits(key.threshold_bits);
    let current = side_of(workspace, key.current, None)?;
    let (cur_open, cur) = workspace.result(key.current)?;
    let mut base_results: Vec<(&OpenReport, &KernelResult)> = Vec::new();
    for side in &key.bases {
        base_results.push(workspace.result(side.at)?);
    }
    let bases: Vec<&KernelResult> = base_results.iter().map(|(_, r)| *r).collect();
    let single = bases.len() == 1;
    let mut notes: Vec<String> = Vec::new();
    let in_mean = baselines_in_mean(cur, &bases, &key.bases, &mut notes);
    let cur_canonical = canonical_metrics(cur);
    let base_canonical: Vec<BTreeMap<String, MetricView<'_>>> =
        bases.iter().map(|b| canonical_metrics(b)).collect();

    // The duration first: it decides the verdict of throughput-like metrics.
    let cur_duration = cur_canonical.get(names::DURATION).copied();
    let base_durations: Vec<Option<f64>> = bases
        .iter()
        .map(|b| metric_number(b, names::DURATION))
        .enumerate()
        .map(|(i, v)| v.filter(|_| in_mean.contains(&i)))
        .collect();
    let duration_diff = match (single, cur_duration) {
        (true, Some(c)) => base_canonical
            .first()
            .and_then(|m| m.get(names::DURATION))
            .and_then(|b| diff_metric(names::DURATION, b, &c, threshold, Speed::Unknown)),
        (false, Some(c)) => mean_metric(&base_durations, &c.unit)
            .and_then(|m| diff_metric(names::DURATION, &m.view(), &c, threshold, Speed::Unknown)),
        _ => None,
    };
    let speed = speed_of(duration_diff.as_ref());
    let plan = row_plan(
        &std::iter::once(cur)
            .chain(bases.iter().copied())
            .collect::<Vec<_>>(),
    );
    let mut sections = Vec::new();
    for (section, rows) in plan {
        let mut lines = Vec::new();
        for (label, key) in rows {
            let c = find_metric(cur, &cur_canonical, &section, &label, &key);
            let bs: Vec<Option<MetricView<'_>>> = bases
                .iter()
                .zip(&base_canonical)
                .map(|(b, canon)| find_metric(b, canon, &section, &label, &key))
                .collect();
            lines.push(metric_line(
                &label, &key, c, &bs, &in_mean, threshold, speed,
            ));
        }
        sections.push(SectionLines {
            name: section,
            lines,
        });
    }

    let sol_rows: [(&'static str, &'static str, bool); 5] = [
        ("Compute (SM) Throughput", names::SOL_COMPUTE, false),
        ("Memory Throughput", names::SOL_MEMORY, true),
        ("L1/TEX Cache Throughput", names::SOL_L1, true),
        ("L2 Cache Throughput", names::SOL_L2, true),
        ("DRAM Throughput", names::SOL_DRAM, true),
    ];
    let all: Vec<&KernelResult> = bases.iter().copied().chain(std::iter::once(cur)).collect();
    let sol = sol_rows
        .into_iter()
        .map(|(label, metric, memory)| {
            let values: Vec<Option<f64>> = all.iter().map(|r| metric_number(r, metric)).collect();
            (label, metric, memory, values)
        })
        .filter(|(_, _, _, v)| v.iter().any(Option::is_some))
        .collect();
    let reports: Vec<&OpenReport> = base_results
        .iter()
        .map(|(o, _)| *o)
        .chain(std::iter::once(cur_open))
        .collect();
    let occupancy = occupancy_rows(&all, &reports);

    let warnings =
        context_messages(key, |b, c| Some(workspace.context_warnings(b, c))).unwrap_or_default();
    let mut matched = Vec::new();
    let opts = DiffOptions {
        threshold_pct: threshold,
        metrics: None,
        ..DiffOptions::default()
    };
    // Each pair described as `diff` describes a pair: its kind, template arguments, grid and
    // block.
    let pairs: Vec<KernelMatch> = key
        .bases
        .iter()
        .zip(&bases)
        .map(|(side, b)| chosen_pair((side.at.index, b), (key.current.index, cur), side.pairing))
        .collect();
    let same_function =
        |p: &KernelMatch| matches!(p.kind, MatchKind::Exact | MatchKind::TemplateArgs);
    // Against other kernels only (none of the baselines is the same function, nor paired
    // with the current result by the comparison) the changes are shown, but neither side is
    // an improvement on the other.
    let other_kernel = key
        .bases
        .iter()
        .zip(&pairs)
        .all(|(side, p)| side.pairing.is_none() && !same_function(p));
    let duration = duration_diff.as_ref().map(|d| {
        let base = d
            .base_f64()
            .map_or_else(|| NOT_MEASURED.into(), |v| value_text(v, "ns"));
        let now = d
            .current_f64()
            .map_or_else(|| NOT_MEASURED.into(), |v| value_text(v, "ns"));
        // Two different kernels: which way the time went, but not that it was won or lost.
        let won = d
            .delta()
            .map(if other_kernel {
                crate::analysis::compare::export::time_change_text
            } else {
                crate::analysis::compare::export::time_delta_text
            })
            .unwrap_or_default();
        let of = if single {
            String::new()
        } else if in_mean.len() == bases.len() {
            format!(" (mean of {} baselines)", bases.len())
        } else {
            format!(
                " (mean of {} of {} baselines, those of the same kernel)",
                in_mean.len(),
                bases.len()
            )
        };
        DurationLine {
            text: format!(
                "Duration {now}, was {base}{of}: {} · {won}",
                delta_text(Some(d))
            ),
            verdict: d.verdict,
        }
    });

    for ((side, b), pair) in key.bases.iter().zip(&bases).zip(pairs) {
        let (base_name, cur_name) = (kernel_name(b), kernel_name(cur));
        let same_function = same_function(&pair);
        let changes = &pair.changes;
        if !same_function && side.pairing.is_some() {
            notes.push(format!(
                "{} paired with {cur_name} by the comparison: {}.",
                side.title,
                changes.join("; ")
            ));
        } else if !same_function {
            let launch: Vec<&str> = changes
                .iter()
                .map(String::as_str)
                .filter(|c| c.starts_with("grid changed") || c.starts_with("block changed"))
                .collect();
            let launch = if launch.is_empty() {
                String::new()
            } else {
                format!(" ({})", launch.join("; "))
            };
            notes.push(if other_kernel {
                format!(
                    "Different kernels: {} against {cur_name}{launch}; their changes are \
                     shown without a verdict.",
                    side.title
                )
            } else {
                format!(
                    "Different kernels: {} against {cur_name}{launch}.",
                    side.title
                )
            });
        } else if !changes.is_empty() {
            notes.push(format!("{}: {}.", side.title, changes.join("; ")));
        }
        let name = if base_name == cur_name {
            crate::analysis::compare::normalize::display_name(cur).to_string()
        } else {
            format!("{base_name} → {cur_name}")
        };
        // What changed is listed for two different kernels too (their differences), in the
        // order the duration's change gives; two kernels the comparison does not pair get no
        // verdicts.
        let mut m = compare_pair(b, cur, &pair, &opts);
        m.name = name;
        if !same_function && side.pairing.is_none() {
            m.diff = m.diff.without_verdicts();
        }
        // With one baseline, each change is tied to the lines that carry it; both results'
        // code is read only when some change is one a Source page column measures.
        if single
            && source::why_needs_lines(&m.why)
            && let (Some(base_lines), Some(cur_lines)) = (
                workspace.source_lines(key.generation, side.at),
                workspace.source_lines(key.generation, key.current),
            )
        {
            source::link_why_to_lines(&mut m.why, &base_lines, &cur_lines);
        }
        matched.push(m);
    }
    let export = ReportDiff {
        matched,
        only_in_base: Vec::new(),
        only_in_current: Vec::new(),
        warnings: warnings.clone(),
        context: Vec::new(),
        match_notes: Vec::new(),
        suggested_pairs: Vec::new(),
        renamed: Vec::new(),
        threshold_pct: threshold,
        restricted: false,
    };
    let base_titles: Vec<String> = key.bases.iter().map(|b| b.title.clone()).collect();
    let export_title = format!(
        "Comparison: {} → {} ({})",
        base_titles.join(", "),
        current.title,
        current.report_name
    );
    let file_stem = safe_file_stem(&format!(
        "compare_{}_vs_{}",
        kernel_name(cur),
        bases.first().map(|b| kernel_name(b)).unwrap_or_default()
    ));
    let (mut duration, mut sections) = (duration, sections);
    if other_kernel {
        let neutral = |v: &mut Verdict| {
            if matches!(v, Verdict::Better | Verdict::Worse) {
                *v = Verdict::Neutral;
            }
        };
        if let Some(d) = &mut duration {
            neutral(&mut d.verdict);
        }
        for line in sections.iter_mut().flat_map(|s| s.lines.iter_mut()) {
            if let Some(v) = &mut line.verdict {
                neutral(v);
            }
        }
    }
    Some(SideBySide {
        bases: key.bases.clone(),
        current,
        duration,
        sol,
        occupancy,
        sections,
        warnings,
        notes,
        export,
        export_title,
        file_stem,
    })
}

/// The indices of the baselines the mean Δ% and z-score cover: those of the same kernel as the
/// current result (see [`split_baselines`]), the others named in a note. When none is of the
/// same kernel (two versions of one kernel under different names) the mean covers them all.
pub fn baselines_in_mean(
    current: &KernelResult,
    bases: &[&KernelResult],
    sides: &[Side],
    notes: &mut Vec<String>,
) -> Vec<usize> {
    let all: Vec<usize> = (0..bases.len()).collect();
    if bases.len() < 2 {
        return all;
    }
    let split = split_baselines(current, bases);
    if split.matching.is_empty() {
        notes.push(
            "No baseline is of the same kernel as the current result: the mean covers them all."
                .into(),
        );
        return all;
    }
    if !split.other.is_empty() {
        let names: Vec<&str> = split
            .other
            .iter()
            .filter_map(|&i| sides.get(i).map(|s| s.title.as_str()))
            .collect();
        notes.push(format!(
            "Other kernels, not in the mean: {}.",
            names.join(", ")
        ));
    }
    split.matching
}

/// One metric row: the values, Δ, Δ% and verdict; with several baselines Δ% and z cover only
/// the baselines of `in_mean`.
pub fn metric_line(
    label: &str,
    key: &str,
    current: Option<MetricView<'_>>,
    bases: &[Option<MetricView<'_>>],
    in_mean: &[usize],
    threshold: f64,
    speed: Speed,
) -> MetricLine {
    let text = |m: Option<MetricView<'_>>| m.map_or_else(|| NOT_MEASURED.to_string(), metric_text);
    let mut line = MetricLine {
        label: label.to_string(),
        key: key.to_string(),
        baselines: bases.iter().map(|m| text(*m)).collect(),
        current: text(current),
        delta: String::new(),
        delta_pct: None,
        pct_text: String::new(),
        verdict: None,
        direction: crate::analysis::compare::direction_of(key),
    };
    let Some(c) = current else {
        return line;
    };
    if let [base] = bases {
        let Some(d) = base.and_then(|b| diff_metric(key, &b, &c, threshold, speed)) else {
            return line;
        };
        line.delta_pct = d.delta_pct;
        if is_percentage(&d) {
            // The change in points under Δ, the relative change under Δ%.
            line.delta = delta_text(Some(&d));
            line.pct_text = if d.within_precision {
                "≈0%".to_string()
            } else {
                pct_text(d.delta_pct, true)
            };
        } else {
            line.delta = d
                .delta()
                .filter(|x| x.is_finite())
                .map(|x| signed_value_text(x, &d.unit))
                .unwrap_or_default();
            line.pct_text = delta_text(Some(&d));
        }
        line.verdict = Some(d.verdict);
        line.direction = d.direction;
        return line;
    }
    let bases: Vec<Option<MetricView<'_>>> = in_mean
        .iter()
        .filter_map(|&i| bases.get(i).copied())
        .collect();
    let values: Vec<Option<f64>> = bases
        .iter()
        .map(|m| m.and_then(MetricView::as_f64))
        .collect();
    match c.as_f64() {
        Some(cv) => {
            let Some(stats): Option<BaselineStats> = against_baselines(cv, &values) else {
                return line;
            };
            line.current = stats.cell_text(&metric_text(c));
            line.delta_pct = stats.delta_pct;
            line.pct_text = pct_text(stats.delta_pct, true);
            if let Some(d) = mean_metric(&values, &c.unit)
                .and_then(|m| diff_metric(key, &m.view(), &c, threshold, speed))
            {
                line.verdict = Some(d.verdict);
            }
        }
        None => {
            let present: Vec<MetricView<'_>> = bases.iter().flatten().copied().collect();
            if !present.is_empty() {
                let same = present.iter().all(|b| b.value == c.value);
                line.verdict = Some(if same {
                    Verdict::Unchanged
                } else {
                    Verdict::Neutral
                });
            }
        }
    }
    line
}

/// Theoretical and achieved occupancy, warps, limiter and launch inputs of every side.
pub fn occupancy_rows(
    results: &[&KernelResult],
    reports: &[&OpenReport],
) -> Vec<(&'static str, Vec<String>)> {
    let options = OccupancyOptions {
        assumed_cc: None,
        table_only: false,
    };
    let analyses: Vec<_> = results
        .iter()
        .zip(reports)
        .map(|(r, open)| occupancy::analyze(r, open.report.device_of(r), &options).ok())
        .collect();
    let pct = |v: Option<f64>| crate::model::format::percent_text(v);
    let dash = || NOT_MEASURED.to_string();
    let mut rows: Vec<(&'static str, Vec<String>)> = vec![
        (
            "Theoretical Occupancy",
            results
                .iter()
                .zip(&analyses)
                .map(|(r, a)| {
                    pct(a
                        .as_ref()
                        .map(|a| a.occupancy.occupancy_pct)
                        .or_else(|| r.number(names::THEORETICAL_OCCUPANCY)))
                })
                .collect(),
        ),
        (
            "Achieved Occupancy",
            results
                .iter()
                .map(|r| pct(r.number(names::ACHIEVED_OCCUPANCY)))
                .collect(),
        ),
        (
            "Theoretical Active Warps per SM",
            analyses
                .iter()
                .map(|a| {
                    a.as_ref()
                        .map_or_else(dash, |a| a.occupancy.active_warps.to_string())
                })
                .collect(),
        ),
        (
            "Achieved Active Warps Per SM",
            analyses
                .iter()
                .map(|a| {
                    a.as_ref()
                        .and_then(|a| a.achieved_warps_per_sm)
                        .map_or_else(dash, |v| format!("{v:.2}"))
                })
                .collect(),
        ),
        (
            "Limiter",
            analyses
                .iter()
                .map(|a| {
                    a.as_ref().map_or_else(dash, |a| {
                        crate::views::occupancy::limiter_text(&a.occupancy)
                    })
                })
                .collect(),
        ),
        (
            "Block Size",
            analyses
                .iter()
                .map(|a| {
                    a.as_ref()
                        .map_or_else(dash, |a| a.launch.block_size.to_string())
                })
                .collect(),
        ),
        (
            "Registers Per Thread",
            analyses
                .iter()
                .map(|a| {
                    a.as_ref()
                        .map_or_else(dash, |a| a.launch.registers_per_thread.to_string())
                })
                .collect(),
        ),
        (
            "Shared Memory Per Block",
            analyses
                .iter()
                .map(|a| {
                    a.as_ref().map_or_else(dash, |a| {
                        value_text(a.launch.shared_mem_per_block() as f64, "byte")
                    })
                })
                .collect(),
        ),
    ];
    rows.retain(|(_, v)| v.iter().any(|s| s != NOT_MEASURED));
    rows
}
