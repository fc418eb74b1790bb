//! The Compare page: the selected result side by side with the visible baselines (or with the
//! partner picked in the report comparison). Every section's metrics in columns with Δ, Δ%, a
//! better/worse verdict from the direction table and a small bar; several baselines give
//! `current (Δ% against their mean, z=…)` as ncu does. Above them the duration change, the
//! speed-of-light bars and the occupancy of each side, the context warnings, and export.

use super::baselines::{VisibleBaseline, kernel_name};
use super::commands::Command;
use super::compare_export::{self, ExportSource};
use super::format::metric_text;
use super::pages::PageContext;
use super::workspace::ResultRef;
use super::{sol_bars, theme};
use crate::analysis::compare::direction::Direction;
use crate::analysis::compare::export::delta_text;
use crate::analysis::compare::matching::launch_shape;
use crate::analysis::compare::metric_diff::{
    Speed, canonical_metrics, diff_metric, metric_label, speed_of,
};
use crate::analysis::compare::{
    BaselineStats, DiffOptions, MatchKind, MatchedDiff, ReportDiff, Verdict, against_baselines,
    context_warnings, diff_results, metric_number,
};
use crate::analysis::occupancy::{self, OccupancyOptions};
use crate::model::units::format_value;
use crate::model::{KernelResult, Metric, Value, catalog, names};
use egui::{Color32, RichText};
use std::collections::BTreeMap;

/// Colour of a partner picked in the report comparison (it is no baseline).
const PAIR_COLOR: Color32 = Color32::from_rgb(232, 121, 52);
/// Size of the Δ% bar; a change of 100 % or more fills one half.
const DELTA_BAR_SIZE: egui::Vec2 = egui::vec2(90.0, 12.0);
/// Size of a speed-of-light bar in the side-by-side table.
const SOL_BAR_SIZE: egui::Vec2 = egui::vec2(110.0, 14.0);

/// One side of the comparison.
#[derive(Debug, Clone, PartialEq)]
struct Side {
    at: ResultRef,
    /// `matmul_naive · ID 3`.
    title: String,
    report_name: String,
    color: Color32,
}

/// What the cached comparison was built from.
#[derive(Debug, Clone, PartialEq)]
struct CacheKey {
    generation: u64,
    current: ResultRef,
    bases: Vec<Side>,
    threshold_bits: u64,
}

/// One metric row.
#[derive(Debug, Clone)]
struct MetricLine {
    label: String,
    key: String,
    /// The value of each baseline, `-` where it has none.
    baselines: Vec<String>,
    /// The current value; with several baselines `current (Δ%, z=…)`.
    current: String,
    /// current − baseline with its unit (one baseline only).
    delta: String,
    delta_pct: Option<f64>,
    pct_text: String,
    /// `None` when a side lacks the metric.
    verdict: Option<Verdict>,
    direction: Direction,
}

impl MetricLine {
    fn changed(&self) -> bool {
        matches!(
            self.verdict,
            Some(Verdict::Better | Verdict::Worse | Verdict::Neutral)
        )
    }
}

/// The metric rows of one section.
#[derive(Debug, Clone)]
struct SectionLines {
    name: String,
    lines: Vec<MetricLine>,
}

/// The duration change in one line.
#[derive(Debug, Clone)]
struct DurationLine {
    text: String,
    verdict: Verdict,
}

/// Everything the page shows, computed once per selection, baseline set and threshold.
struct SideBySide {
    key: CacheKey,
    current: Side,
    bases: Vec<Side>,
    duration: Option<DurationLine>,
    /// (label, metric, memory-like, value per side: baselines then current).
    sol: Vec<(&'static str, &'static str, bool, Vec<Option<f64>>)>,
    /// (label, text per side: baselines then current).
    occupancy: Vec<(&'static str, Vec<String>)>,
    sections: Vec<SectionLines>,
    warnings: Vec<String>,
    notes: Vec<String>,
    export: ReportDiff,
    export_title: String,
    file_stem: String,
}

/// The partner picked in the report comparison and the cached comparison.
#[derive(Default)]
pub struct CompareViewState {
    /// (base, current): shown instead of the baselines while `current` is selected.
    pinned: Option<(ResultRef, ResultRef)>,
    cache: Option<SideBySide>,
}

impl CompareViewState {
    /// Compares `current` with `base` until another result is selected.
    pub fn pin(&mut self, base: ResultRef, current: ResultRef) {
        self.pinned = Some((base, current));
    }

    /// Drops the cached comparison (reports closed or replaced); it is built again when shown.
    pub fn release(&mut self) {
        self.cache = None;
    }

    /// The partner shown instead of the baselines for `current`, if any.
    pub fn pinned_base(&self, current: ResultRef) -> Option<ResultRef> {
        self.pinned.filter(|p| p.1 == current).map(|p| p.0)
    }
}

fn side_of(cx: &PageContext<'_>, at: ResultRef, color: Color32) -> Option<Side> {
    let (open, result) = cx.workspace.result(at)?;
    Some(Side {
        at,
        title: format!("{} · ID {}", kernel_name(result), result.id),
        report_name: open.name.clone(),
        color,
    })
}

fn baseline_sides(cx: &PageContext<'_>, baselines: &[VisibleBaseline]) -> Vec<Side> {
    baselines
        .iter()
        .filter(|b| b.at != cx.at)
        .filter_map(|b| side_of(cx, b.at, b.color))
        .collect()
}

/// Shows the Compare page.
pub fn show(
    ui: &mut egui::Ui,
    cx: &PageContext<'_>,
    state: &mut CompareViewState,
    settings: &mut super::settings::Settings,
    status: &mut Option<String>,
    commands: &mut Vec<Command>,
) {
    if state.pinned.is_some_and(|p| p.1 != cx.at) {
        state.pinned = None;
    }
    let pinned = state.pinned_base(cx.at);
    let bases: Vec<Side> = match pinned {
        Some(base) => {
            let color = cx
                .baselines
                .iter()
                .find(|b| b.at == base)
                .map_or(PAIR_COLOR, |b| b.color);
            side_of(cx, base, color).into_iter().collect()
        }
        None => baseline_sides(cx, cx.baselines),
    };
    let Some(current) = side_of(cx, cx.at, ui.visuals().strong_text_color()) else {
        return;
    };
    if let Some(base) = pinned {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new("Pair picked in the report comparison.")
                    .color(ui.visuals().warn_fg_color),
            );
            if ui.button("Keep it as a baseline").clicked() {
                commands.push(Command::SetBaseline(base));
            }
            if ui.button("Compare with the baselines instead").clicked() {
                state.pinned = None;
            }
        });
    }
    if bases.is_empty() {
        empty_ui(ui, cx);
        return;
    }
    let key = CacheKey {
        generation: cx.workspace.generation(),
        current: cx.at,
        bases,
        threshold_bits: settings.threshold_pct().to_bits(),
    };
    if state.cache.as_ref().is_none_or(|c| c.key != key) {
        state.cache = build(cx, key, current, settings.threshold_pct());
    }
    let Some(view) = state.cache.as_ref() else {
        ui.weak("The results to compare are no longer open.");
        return;
    };
    egui::ScrollArea::both()
        .id_salt("compare_page")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            top_ui(ui, view, settings, status, commands);
            ui.separator();
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| sol_ui(ui, view));
                ui.add_space(24.0);
                ui.vertical(|ui| occupancy_ui(ui, view));
            });
            ui.separator();
            metrics_ui(ui, view, settings.compare_changed_only);
        });
}

/// What to do when there is nothing to compare with.
fn empty_ui(ui: &mut egui::Ui, cx: &PageContext<'_>) {
    ui.add_space(8.0);
    if cx.baselines.iter().any(|b| b.at == cx.at) && cx.baselines.len() == 1 {
        ui.label("This result is the only baseline shown. Select another result to compare it.");
    } else {
        ui.label("No baseline to compare with.");
    }
    ui.weak(
        "Make a result a baseline with \"Set as baseline\" above, or right-click a row of the \
         results table. Baselines come from any open report, each in its own colour; the \
         Baselines list on the left shows, hides and removes them, and they are kept across \
         restarts. Report vs report compares two whole reports.",
    );
}

/// Sides, duration, options, warnings and export.
fn top_ui(
    ui: &mut egui::Ui,
    view: &SideBySide,
    settings: &mut super::settings::Settings,
    status: &mut Option<String>,
    commands: &mut Vec<Command>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.weak("Current");
        side_label(ui, &view.current);
        ui.weak(if view.bases.len() == 1 {
            "against"
        } else {
            "against the mean of"
        });
        for b in &view.bases {
            side_label(ui, b);
        }
    });
    if let Some(d) = &view.duration {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(&d.text).strong());
            ui.label(
                RichText::new(d.verdict.name())
                    .strong()
                    .color(theme::verdict_color(ui, d.verdict)),
            );
        });
    }
    for w in &view.warnings {
        ui.label(RichText::new(format!("Warning: {w}")).color(ui.visuals().warn_fg_color));
    }
    for n in &view.notes {
        ui.weak(n);
    }
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut settings.compare_changed_only, "Changed only")
            .on_hover_text("List only metrics that changed beyond the noise threshold");
        noise_threshold(ui, &mut settings.compare_threshold_pct);
    });
    compare_export::buttons(
        ui,
        &ExportSource {
            diff: &view.export,
            title: view.export_title.clone(),
            file_stem: view.file_stem.clone(),
        },
        status,
        commands,
    );
}

/// A side's mark and name in its colour, with its report.
fn side_label(ui: &mut egui::Ui, side: &Side) {
    theme::swatch(ui, side.color);
    ui.label(
        RichText::new(format!("{} ({})", side.title, side.report_name))
            .color(side.color)
            .strong(),
    );
}

/// The column titles of the side-by-side grids: the baselines, then the current result.
fn header_cells(ui: &mut egui::Ui, view: &SideBySide) {
    for side in view.bases.iter().chain(std::iter::once(&view.current)) {
        ui.vertical(|ui| {
            ui.horizontal(|ui| {
                theme::swatch(ui, side.color);
                ui.add(egui::Label::new(RichText::new(&side.title).color(side.color)).extend());
            });
            ui.add(egui::Label::new(RichText::new(&side.report_name).weak()).extend());
        });
    }
}

/// The speed-of-light bars of every side.
fn sol_ui(ui: &mut egui::Ui, view: &SideBySide) {
    ui.strong("GPU Speed Of Light Throughput");
    if view.sol.is_empty() {
        ui.weak("No side has speed-of-light throughput metrics.");
        return;
    }
    egui::Grid::new("compare_sol")
        .num_columns(view.bases.len() + 2)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            ui.label("");
            header_cells(ui, view);
            ui.end_row();
            for (label, metric, memory, values) in &view.sol {
                ui.label(*label).on_hover_text(*metric);
                for v in values {
                    ui.horizontal(|ui| {
                        sol_bars::percent_bar(ui, *v, *memory, SOL_BAR_SIZE);
                        ui.label(super::format::percent_text(*v));
                    });
                }
                ui.end_row();
            }
        });
}

/// The occupancy of every side.
fn occupancy_ui(ui: &mut egui::Ui, view: &SideBySide) {
    ui.strong("Occupancy");
    egui::Grid::new("compare_occupancy")
        .num_columns(view.bases.len() + 2)
        .striped(true)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            ui.label("");
            header_cells(ui, view);
            ui.end_row();
            for (label, values) in &view.occupancy {
                ui.label(*label);
                for v in values {
                    ui.label(v);
                }
                ui.end_row();
            }
        });
}

/// Widths of the metric table's columns, the same in every section so they line up.
const LABEL_WIDTH: f32 = 240.0;
const VALUE_WIDTH: f32 = 130.0;
/// The current value with several baselines: `246.11 us (-41.16%, z=-1.20)`.
const STATS_WIDTH: f32 = 230.0;
const DELTA_WIDTH: f32 = 120.0;
const PCT_WIDTH: f32 = 70.0;
const VERDICT_WIDTH: f32 = 64.0;

/// A cell of a fixed width; `right` aligns numbers to its right edge.
fn fixed_cell(
    ui: &mut egui::Ui,
    width: f32,
    right: bool,
    text: impl Into<egui::WidgetText>,
) -> egui::Response {
    let layout = if right {
        egui::Layout::right_to_left(egui::Align::Center)
    } else {
        egui::Layout::left_to_right(egui::Align::Center)
    };
    let height = ui.spacing().interact_size.y;
    ui.allocate_ui_with_layout(egui::vec2(width, height), layout, |ui| {
        ui.set_min_width(width);
        ui.add(egui::Label::new(text).truncate())
    })
    .inner
}

/// Every section's metrics side by side.
fn metrics_ui(ui: &mut egui::Ui, view: &SideBySide, changed_only: bool) {
    let single = view.bases.len() == 1;
    let mut shown_any = false;
    for (i, section) in view.sections.iter().enumerate() {
        let lines: Vec<&MetricLine> = section
            .lines
            .iter()
            .filter(|l| !changed_only || l.changed())
            .collect();
        if lines.is_empty() {
            continue;
        }
        shown_any = true;
        egui::CollapsingHeader::new(RichText::new(&section.name).strong())
            .id_salt(("compare_section", &section.name, i))
            .default_open(true)
            .show(ui, |ui| {
                egui::Grid::new(("compare_metrics", i))
                    .striped(true)
                    .num_columns(view.bases.len() + if single { 6 } else { 4 })
                    .spacing([12.0, 2.0])
                    .show(ui, |ui| {
                        fixed_cell(ui, LABEL_WIDTH, false, RichText::new("Metric Name").weak());
                        for b in &view.bases {
                            fixed_cell(
                                ui,
                                VALUE_WIDTH,
                                true,
                                RichText::new(&b.title).color(b.color).small(),
                            );
                        }
                        let current_width = if single { VALUE_WIDTH } else { STATS_WIDTH };
                        fixed_cell(
                            ui,
                            current_width,
                            true,
                            RichText::new(&view.current.title).small().strong(),
                        );
                        if single {
                            fixed_cell(ui, DELTA_WIDTH, true, RichText::new("Δ").weak());
                            fixed_cell(ui, PCT_WIDTH, true, RichText::new("Δ%").weak());
                        }
                        fixed_cell(ui, VERDICT_WIDTH, false, RichText::new("Verdict").weak());
                        ui.weak(if single { "Change" } else { "Δ% vs mean" });
                        ui.end_row();
                        for line in lines {
                            line_ui(ui, line, single);
                            ui.end_row();
                        }
                    });
            });
    }
    if !shown_any {
        ui.weak(if changed_only {
            "No metric changed beyond the noise threshold."
        } else {
            "The results have no metrics to compare."
        });
    }
}

fn line_ui(ui: &mut egui::Ui, line: &MetricLine, single: bool) {
    fixed_cell(ui, LABEL_WIDTH, false, line.label.as_str()).on_hover_text(format!(
        "{}\nbetter when {}",
        line.key,
        direction_words(line.direction)
    ));
    for v in &line.baselines {
        fixed_cell(ui, VALUE_WIDTH, true, v.as_str());
    }
    let color = line.verdict.map(|v| theme::verdict_color(ui, v));
    let colored = |text: &str| match color {
        Some(c) => RichText::new(text).color(c),
        None => RichText::new(text),
    };
    let current_width = if single { VALUE_WIDTH } else { STATS_WIDTH };
    fixed_cell(ui, current_width, true, colored(&line.current));
    if single {
        fixed_cell(ui, DELTA_WIDTH, true, colored(&line.delta));
        fixed_cell(ui, PCT_WIDTH, true, colored(&line.pct_text));
    }
    let verdict = match line.verdict {
        Some(v @ (Verdict::Better | Verdict::Worse)) => {
            RichText::new(v.name()).color(theme::verdict_color(ui, v))
        }
        Some(Verdict::Neutral) => {
            RichText::new("changed").color(theme::verdict_color(ui, Verdict::Neutral))
        }
        _ => RichText::new(""),
    };
    fixed_cell(ui, VERDICT_WIDTH, false, verdict);
    delta_bar(ui, line.delta_pct, line.verdict);
}

fn direction_words(d: Direction) -> &'static str {
    match d {
        Direction::Lower => "lower",
        Direction::Higher => "higher",
        Direction::HigherIfFaster => "higher, if the kernel also got faster",
        Direction::Neutral => "neither (no direction)",
    }
}

/// A bar from the middle: right for an increase, left for a decrease, full half at ±100 %.
fn delta_bar(ui: &mut egui::Ui, pct: Option<f64>, verdict: Option<Verdict>) {
    let (rect, _) = ui.allocate_exact_size(DELTA_BAR_SIZE, egui::Sense::hover());
    if !ui.is_rect_visible(rect) {
        return;
    }
    let painter = ui.painter();
    painter.rect_filled(rect, 2.0, theme::bar_track(ui));
    let mid = rect.center().x;
    if let (Some(p), Some(v)) = (pct.filter(|p| p.is_finite()), verdict) {
        let frac = (p.abs() / 100.0).min(1.0) as f32;
        let len = (rect.width() / 2.0 * frac).max(1.0);
        let (left, right) = if p >= 0.0 {
            (mid, mid + len)
        } else {
            (mid - len, mid)
        };
        let bar = egui::Rect::from_x_y_ranges(left..=right, rect.y_range());
        painter.rect_filled(bar, 1.0, theme::verdict_color(ui, v));
    }
    painter.vline(
        mid,
        rect.y_range(),
        ui.visuals().widgets.noninteractive.fg_stroke,
    );
}

/// The key under which a section row's metric is compared (as the diff names it).
fn row_key(section: &str, label: &str, metric: &Metric) -> String {
    if let Some(name) = metric.name.as_deref().filter(|n| !n.is_empty()) {
        return name.to_string();
    }
    catalog::metric_for(section, label).map_or_else(|| format!("{section}/{label}"), str::to_string)
}

/// A result's metric for a row: by key, else the row of the same section and label.
fn find_metric<'r>(
    result: &'r KernelResult,
    canonical: &BTreeMap<String, &'r Metric>,
    section: &str,
    label: &str,
    key: &str,
) -> Option<&'r Metric> {
    canonical.get(key).copied().or_else(|| {
        result
            .sections
            .iter()
            .filter(|s| s.name == section)
            .flat_map(|s| &s.rows)
            .find(|r| r.label == label)
            .map(|r| &r.metric)
    })
}

/// The rows to compare: each section of the current result, then sections only a baseline
/// has; within a section the current rows, then rows only a baseline has. Results without
/// sections compare every metric under one heading.
fn row_plan(results: &[&KernelResult]) -> Vec<(String, Vec<(String, String)>)> {
    let mut plan: Vec<(String, Vec<(String, String)>)> = Vec::new();
    for r in results {
        for s in &r.sections {
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
fn signed_value_text(delta: f64, unit: &str) -> String {
    if delta == 0.0 {
        return "0".into();
    }
    let sign = if delta < 0.0 { "-" } else { "+" };
    format!("{sign}{}", format_value(delta.abs(), unit))
}

/// The mean of the baselines' values as a metric, to diff the current value against.
fn mean_metric(values: &[Option<f64>], unit: &str) -> Option<Metric> {
    let present: Vec<f64> = values.iter().flatten().copied().collect();
    if present.is_empty() {
        return None;
    }
    let mean = present.iter().sum::<f64>() / present.len() as f64;
    Some(Metric::new(None, Value::Double(mean), unit))
}

/// Builds the comparison; `None` when a side is no longer open.
fn build(cx: &PageContext<'_>, key: CacheKey, current: Side, threshold: f64) -> Option<SideBySide> {
    let (cur_open, cur) = cx.workspace.result(cx.at)?;
    let mut base_results: Vec<(&crate::ui::workspace::OpenReport, &KernelResult)> = Vec::new();
    for side in &key.bases {
        base_results.push(cx.workspace.result(side.at)?);
    }
    let bases: Vec<&KernelResult> = base_results.iter().map(|(_, r)| *r).collect();
    let single = bases.len() == 1;
    let cur_canonical = canonical_metrics(cur);
    let base_canonical: Vec<BTreeMap<String, &Metric>> =
        bases.iter().map(|b| canonical_metrics(b)).collect();

    // The duration first: it decides the verdict of throughput-like metrics.
    let cur_duration = cur_canonical.get(names::DURATION).copied();
    let base_durations: Vec<Option<f64>> = bases
        .iter()
        .map(|b| metric_number(b, names::DURATION))
        .collect();
    let duration_diff = match (single, cur_duration) {
        (true, Some(c)) => base_canonical
            .first()
            .and_then(|m| m.get(names::DURATION))
            .and_then(|b| diff_metric(names::DURATION, b, c, threshold, Speed::Unknown)),
        (false, Some(c)) => mean_metric(&base_durations, &c.unit)
            .and_then(|m| diff_metric(names::DURATION, &m, c, threshold, Speed::Unknown)),
        _ => None,
    };
    let speed = speed_of(duration_diff.as_ref());
    let duration = duration_diff.as_ref().map(|d| {
        let base = d
            .base_f64()
            .map_or_else(|| "-".into(), |v| format_value(v, "ns"));
        let now = d
            .current_f64()
            .map_or_else(|| "-".into(), |v| format_value(v, "ns"));
        let won = d
            .delta()
            .map(crate::analysis::compare::export::time_delta_text)
            .unwrap_or_default();
        let of = if single {
            String::new()
        } else {
            format!(" (mean of {} baselines)", bases.len())
        };
        DurationLine {
            text: format!(
                "Duration {now}, was {base}{of}: {} · {won}",
                delta_text(Some(d))
            ),
            verdict: d.verdict,
        }
    });

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
            let bs: Vec<Option<&Metric>> = bases
                .iter()
                .zip(&base_canonical)
                .map(|(b, canon)| find_metric(b, canon, &section, &label, &key))
                .collect();
            lines.push(metric_line(&label, &key, c, &bs, threshold, speed));
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
    let reports: Vec<&crate::ui::workspace::OpenReport> = base_results
        .iter()
        .map(|(o, _)| *o)
        .chain(std::iter::once(cur_open))
        .collect();
    let occupancy = occupancy_rows(&all, &reports);

    let mut warnings: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let mut matched = Vec::new();
    let opts = DiffOptions {
        threshold_pct: threshold,
        metrics: None,
    };
    for (side, (open, b)) in key.bases.iter().zip(&base_results) {
        if open.id != cur_open.id {
            for w in context_warnings(&open.report, &cur_open.report) {
                if !warnings.contains(&w.message) {
                    warnings.push(w.message);
                }
            }
        }
        let shapes = (launch_shape(b), launch_shape(cur));
        let shape_differs = matches!(shapes, (Some(x), Some(y)) if x != y);
        if let (true, Some((bg, bb)), Some((cg, cb))) = (shape_differs, shapes.0, shapes.1) {
            notes.push(format!(
                "Launch shapes differ: {bg}×{bb} ({}) against {cg}×{cb}.",
                side.title
            ));
        }
        let (base_name, cur_name) = (kernel_name(b), kernel_name(cur));
        if base_name != cur_name {
            notes.push(format!(
                "Different kernels: {} against {cur_name}.",
                side.title
            ));
        }
        let name = if base_name == cur_name {
            crate::analysis::compare::normalize::display_name(cur).to_string()
        } else {
            format!("{base_name} → {cur_name}")
        };
        matched.push(MatchedDiff {
            base_index: side.at.index,
            current_index: cx.at.index,
            base_id: b.id,
            current_id: cur.id,
            name,
            kind: MatchKind::Exact,
            shape_differs,
            base_duration_ns: metric_number(b, names::DURATION),
            current_duration_ns: metric_number(cur, names::DURATION),
            diff: diff_results(b, cur, &opts),
        });
    }
    let export = ReportDiff {
        matched,
        only_in_base: Vec::new(),
        only_in_current: Vec::new(),
        warnings: warnings.clone(),
        context: Vec::new(),
        match_notes: Vec::new(),
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
    let file_stem = compare_export::safe_file_stem(&format!(
        "compare_{}_vs_{}",
        kernel_name(cur),
        bases.first().map(|b| kernel_name(b)).unwrap_or_default()
    ));
    Some(SideBySide {
        bases: key.bases.clone(),
        key,
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

/// One metric row: the values, Δ, Δ% and verdict.
fn metric_line(
    label: &str,
    key: &str,
    current: Option<&Metric>,
    bases: &[Option<&Metric>],
    threshold: f64,
    speed: Speed,
) -> MetricLine {
    let text = |m: Option<&Metric>| m.map_or_else(|| "-".to_string(), metric_text);
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
        let Some(d) = base.and_then(|b| diff_metric(key, b, c, threshold, speed)) else {
            return line;
        };
        line.delta = d
            .delta()
            .filter(|x| x.is_finite())
            .map(|x| signed_value_text(x, &d.unit))
            .unwrap_or_default();
        line.delta_pct = d.delta_pct;
        line.pct_text = delta_text(Some(&d));
        line.verdict = Some(d.verdict);
        line.direction = d.direction;
        return line;
    }
    let values: Vec<Option<f64>> = bases.iter().map(|m| m.and_then(Metric::as_f64)).collect();
    match c.as_f64() {
        Some(cv) => {
            let Some(stats): Option<BaselineStats> = against_baselines(cv, &values) else {
                return line;
            };
            line.current = stats.cell_text(&metric_text(c));
            line.delta_pct = stats.delta_pct;
            line.pct_text = crate::analysis::compare::export::pct_text(stats.delta_pct, true);
            if let Some(d) = mean_metric(&values, &c.unit)
                .and_then(|m| diff_metric(key, &m, c, threshold, speed))
            {
                line.verdict = Some(d.verdict);
            }
        }
        None => {
            let present: Vec<&Metric> = bases.iter().flatten().copied().collect();
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
fn occupancy_rows(
    results: &[&KernelResult],
    reports: &[&crate::ui::workspace::OpenReport],
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
    let pct = |v: Option<f64>| super::format::percent_text(v);
    let dash = || "-".to_string();
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
                    a.as_ref()
                        .map_or_else(dash, |a| super::occupancy_view::limiter_text(&a.occupancy))
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
                        format_value(a.launch.shared_mem_per_block() as f64, "byte")
                    })
                })
                .collect(),
        ),
    ];
    rows.retain(|(_, v)| v.iter().any(|s| s != "-"));
    rows
}

/// The noise threshold (%) under which a change counts as unchanged, shared by both compare pages.
pub fn noise_threshold(ui: &mut egui::Ui, threshold_pct: &mut f64) {
    let label = ui.label("Noise threshold");
    ui.add(
        egui::DragValue::new(threshold_pct)
            .range(0.0..=100.0)
            .speed(0.1)
            .suffix(" %"),
    )
    .labelled_by(label.id);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(v: f64, unit: &str) -> Metric {
        Metric::new(None, Value::Double(v), unit)
    }

    #[test]
    fn one_baseline_gives_delta_and_verdict() {
        let (b, c) = (m(418_240.0, "ns"), m(246_110.0, "ns"));
        let line = metric_line(
            "Duration",
            names::DURATION,
            Some(&c),
            &[Some(&b)],
            2.0,
            Speed::Unknown,
        );
        assert_eq!(line.delta, "-172.13 us");
        assert_eq!(line.pct_text, "-41.16%");
        assert_eq!(line.verdict, Some(Verdict::Better));
    }

    #[test]
    fn several_baselines_give_mean_delta_and_z() {
        // ncu-reference §1.13: 5.73 with baselines 82.73 and 1.57 gives z = −0.65.
        let line = metric_line(
            "Duration",
            names::DURATION,
            Some(&m(5.73, "")),
            &[Some(&m(82.73, "")), Some(&m(1.57, ""))],
            2.0,
            Speed::Unknown,
        );
        assert_eq!(line.current, "5.73 (-86.41%, z=-0.65)");
        assert_eq!(line.verdict, Some(Verdict::Better));
        let missing = metric_line(
            "Duration",
            names::DURATION,
            None,
            &[Some(&m(1.0, ""))],
            2.0,
            Speed::Unknown,
        );
        assert_eq!(missing.verdict, None);
        assert_eq!(missing.current, "-");
    }

    #[test]
    fn signed_values() {
        assert_eq!(signed_value_text(-172_130.0, "ns"), "-172.13 us");
        assert_eq!(signed_value_text(1_500.0, "ns"), "+1.50 us");
    }
}
