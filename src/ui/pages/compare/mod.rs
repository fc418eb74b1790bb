//! The Compare page: the selected result side by side with the visible baselines (or with the
//! partner picked in the report comparison). Every section's metrics in columns with Δ, Δ%, a
//! better/worse verdict from the direction table and a small bar; several baselines give
//! `current (Δ% against their mean, z=…)` as ncu does. Above them the duration change, the
//! speed-of-light bars and the occupancy of each side, the context warnings, and export.

use crate::analysis::compare::direction::Direction;
use crate::analysis::compare::export::delta_text;
use crate::analysis::compare::matching::launch_shape;
use crate::analysis::compare::metric_diff::{
    Speed, canonical_metrics, diff_metric, metric_label, speed_of,
};
use crate::analysis::compare::{
    BaselineStats, DiffOptions, MatchKind, MatchedDiff, ReportDiff, Verdict, against_baselines,
    context_warnings, diff_results, metric_number, split_baselines,
};
use crate::analysis::occupancy::{self, OccupancyOptions};
use crate::app::baselines::{VisibleBaseline, kernel_name};
use crate::app::commands::Command;
use crate::app::format::metric_text;
use crate::app::format::value_text;
use crate::app::page_id::PageId;
use crate::app::workspace::ResultRef;
use crate::model::{KernelResult, Metric, Value, catalog, names};
use crate::ui::pages::PageContext;
use crate::ui::pages::{Page, PageIo};
use crate::ui::widgets::compare_export::{self, ExportSource};
use crate::ui::widgets::{sol_bars, theme};
use egui::{Color32, RichText};
use std::collections::BTreeMap;

mod build;
mod table;
use build::*;
use table::*;

impl Page for CompareViewState {
    fn id(&self) -> PageId {
        PageId::Compare
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, io: &mut PageIo<'_>) {
        show(
            ui,
            cx,
            self,
            io.settings,
            &mut io.shared.export_status,
            io.commands,
        );
    }

    fn release(&mut self) {
        CompareViewState::release(self);
    }
}

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
        .filter_map(|b| side_of(cx, b.at, crate::ui::widgets::theme::rgb(b.color)))
        .collect()
}

/// Shows the Compare page.
pub fn show(
    ui: &mut egui::Ui,
    cx: &PageContext<'_>,
    state: &mut CompareViewState,
    settings: &mut crate::app::settings::Settings,
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
                .map_or(PAIR_COLOR, |b| crate::ui::widgets::theme::rgb(b.color));
            side_of(cx, base, color).into_iter().collect()
        }
        None => baseline_sides(cx, cx.baselines),
    };
    let current_color = ui.visuals().strong_text_color();
    let Some(current) = side_of(cx, cx.at, current_color) else {
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
    // The current side is drawn in the theme's text colour, which the cache does not follow
    // (built under the dark theme it would be white on white under the light one).
    if let Some(view) = state.cache.as_mut() {
        view.current.color = current_color;
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

/// The ranked explanations of the change, against one baseline: the first that agree with the
/// duration coloured by its verdict, the others plain.
fn why_ui(ui: &mut egui::Ui, view: &SideBySide) {
    let [pair] = view.export.matched.as_slice() else {
        return;
    };
    if pair.why.is_empty() {
        return;
    }
    let verdict = pair.diff.duration.as_ref().map(|d| d.verdict);
    egui::CollapsingHeader::new("Why it changed")
        .default_open(true)
        .show(ui, |ui| {
            for w in pair
                .why
                .iter()
                .take(crate::analysis::compare::export::MAX_WHY)
            {
                let text = RichText::new(&w.text);
                match (w.agrees, verdict) {
                    (Some(true), Some(v)) => ui.label(text.color(theme::verdict_color(ui, v))),
                    (Some(false), _) => ui.weak(w.text.as_str()),
                    _ => ui.label(text),
                }
                .on_hover_text(if w.agrees == Some(true) {
                    "Points the way the duration went"
                } else if w.agrees == Some(false) {
                    "Points against the way the duration went"
                } else {
                    "The duration did not say which way"
                });
            }
        });
}

/// Sides, duration, options, warnings and export.
fn top_ui(
    ui: &mut egui::Ui,
    view: &SideBySide,
    settings: &mut crate::app::settings::Settings,
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
    why_ui(ui, view);
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
                        ui.label(crate::app::format::percent_text(*v));
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
            &[0],
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
            &[0, 1],
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
            &[0],
            2.0,
            Speed::Unknown,
        );
        assert_eq!(missing.verdict, None);
        assert_eq!(missing.current, "-");
    }

    #[test]
    fn baselines_out_of_the_mean_change_nothing() {
        let all = metric_line(
            "Duration",
            names::DURATION,
            Some(&m(5.73, "")),
            &[Some(&m(82.73, "")), Some(&m(1.57, ""))],
            &[0, 1],
            2.0,
            Speed::Unknown,
        );
        let with_other = metric_line(
            "Duration",
            names::DURATION,
            Some(&m(5.73, "")),
            &[
                Some(&m(82.73, "")),
                Some(&m(1000.0, "")),
                Some(&m(1.57, "")),
            ],
            &[0, 2],
            2.0,
            Speed::Unknown,
        );
        assert_eq!(with_other.current, all.current);
        assert_eq!(
            with_other.baselines.len(),
            3,
            "every baseline keeps its column"
        );
        let one = metric_line(
            "Duration",
            names::DURATION,
            Some(&m(1.57, "")),
            &[Some(&m(1000.0, "")), Some(&m(82.73, ""))],
            &[1],
            2.0,
            Speed::Unknown,
        );
        assert_eq!(one.current, "1.57 (-98.10%)");
    }

    #[test]
    fn signed_values() {
        assert_eq!(signed_value_text(-172_130.0, "ns"), "-172.13 us");
        assert_eq!(signed_value_text(1_500.0, "ns"), "+1.50 us");
    }
}
