//! The metrics table of the side-by-side comparison: one line per metric with each side's
//! value, the change and its verdict.

use super::*;
use crate::widgets::copy_menu::{self, copy_button};

/// Widths of the metric table's columns, the same in every section so they line up.
pub(super) const LABEL_WIDTH: f32 = 240.0;
pub(super) const VALUE_WIDTH: f32 = 130.0;
/// The current value with several baselines: `246.11 us (-41.16%, z=-1.20)`.
pub(super) const STATS_WIDTH: f32 = 230.0;
pub(super) const DELTA_WIDTH: f32 = 120.0;
pub(super) const PCT_WIDTH: f32 = 70.0;
pub(super) const VERDICT_WIDTH: f32 = 64.0;

/// A cell of a fixed width; `right` aligns numbers to its right edge.
pub(super) fn fixed_cell(
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
pub(super) fn metrics_ui(ui: &mut egui::Ui, view: &SideBySide, changed_only: bool) {
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
                                RichText::new(&b.title).color(side_color(ui, b)),
                            );
                        }
                        let current_width = if single { VALUE_WIDTH } else { STATS_WIDTH };
                        fixed_cell(
                            ui,
                            current_width,
                            true,
                            RichText::new(&view.current.title).strong(),
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

pub(super) fn line_ui(ui: &mut egui::Ui, line: &MetricLine, single: bool) {
    let label = fixed_cell(ui, LABEL_WIDTH, false, line.label.as_str()).on_hover_text(format!(
        "{}\nbetter when {}",
        line.key,
        direction_words(line.direction)
    ));
    line_menu(&label, line, None);
    for v in &line.baselines {
        let cell = fixed_cell(ui, VALUE_WIDTH, true, v.as_str());
        line_menu(&cell, line, Some(v));
    }
    let color = line.verdict.map(|v| theme::verdict_color(ui, v));
    let colored = |text: &str| match color {
        Some(c) => RichText::new(text).color(c),
        None => RichText::new(text),
    };
    let current_width = if single { VALUE_WIDTH } else { STATS_WIDTH };
    let cell = fixed_cell(ui, current_width, true, colored(&line.current));
    line_menu(&cell, line, Some(&line.current));
    if single {
        let cell = fixed_cell(ui, DELTA_WIDTH, true, colored(&line.delta));
        line_menu(&cell, line, Some(&line.delta));
        let cell = fixed_cell(ui, PCT_WIDTH, true, colored(&line.pct_text));
        line_menu(&cell, line, Some(&line.pct_text));
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

/// The right-click menu of a compared metric's cell: copy the cell's value, the label, the
/// metric name, or the whole line as TSV or Markdown (as the Details tables do).
fn line_menu(response: &egui::Response, line: &MetricLine, value: Option<&String>) {
    response.context_menu(|ui| {
        if let Some(value) = value {
            copy_button(ui, "Copy value", || value.clone());
        }
        copy_button(ui, "Copy label", || line.label.clone());
        copy_button(ui, "Copy metric name", || line.key.clone());
        let mut header = vec!["Metric".to_string()];
        let mut cells = vec![line.label.clone()];
        for (i, v) in line.baselines.iter().enumerate() {
            header.push(if line.baselines.len() == 1 {
                "Baseline".into()
            } else {
                format!("Baseline {}", i + 1)
            });
            cells.push(v.clone());
        }
        header.push("Current".into());
        cells.push(line.current.clone());
        if line.baselines.len() == 1 {
            header.extend(["Δ".to_string(), "Δ %".to_string()]);
            cells.extend([line.delta.clone(), line.pct_text.clone()]);
        }
        let header: Vec<&str> = header.iter().map(String::as_str).collect();
        copy_menu::row_buttons(ui, &header, &cells);
    });
}

pub(super) fn direction_words(d: Direction) -> &'static str {
    match d {
        Direction::Lower => "lower",
        Direction::Higher => "higher",
        Direction::HigherIfFaster => "higher, if the kernel also got faster",
        Direction::Neutral => "neither (no direction)",
    }
}

/// A bar from the middle: right for an increase, left for a decrease, full half at ±100 %.
pub(super) fn delta_bar(ui: &mut egui::Ui, pct: Option<f64>, verdict: Option<Verdict>) {
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
