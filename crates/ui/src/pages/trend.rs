//! The Trend page: every open report as a run of one series. Each kernel is a row with a small
//! line of its duration over the runs, its latest value and change, a mark where the latest
//! run regressed against its history; the kernel chosen is charted over the runs for the
//! figure chosen, and a click on a point opens that step as a Compare (the run before → this
//! run). The biggest steps are listed with their one-line why. Drawn from
//! [`sightline_app::views::trend`].

use crate::analysis::series::SeriesOrder;
use crate::model::format::NOT_MEASURED;
use crate::model::format::{measured_text, value_text};
use crate::pages::{Page, PageContext, PageIo};
use crate::widgets::section_body::bar_color;
use egui_plot::{Line, MarkerShape, Plot, Points};
use sightline_app::core::commands::Command;
use sightline_app::core::page_id::PageId;
use sightline_app::views::trend::{TrendData, TrendFigure, TrendStatus, TrendView};

/// Width and height of a row's small line.
const SPARK: egui::Vec2 = egui::vec2(90.0, 16.0);

impl Page for TrendView {
    fn id(&self) -> PageId {
        PageId::Trend
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, io: &mut PageIo<'_>) {
        if crate::pages::trend_sweep::mode_toggle(ui, &mut self.mode) {
            crate::pages::trend_sweep::ui(&mut self.sweep, ui, cx);
            return;
        }
        let ctx = ui.ctx().clone();
        let wait = crate::screenshot_mode();
        let completions = self.metric_completions(cx.workspace, 8);
        let mut choice = self.choice.clone();
        let typed = choices_ui(ui, &mut choice, &mut self.metric_text, &completions);
        if typed {
            self.choice = choice.clone();
            self.chart_typed_metric();
            choice = self.choice.clone();
        }
        match self.status(cx.workspace, wait, move || ctx.request_repaint()) {
            TrendStatus::TooFew => {
                ui.label(
                    "Open two or more reports of the same program (versions of a kernel, \
                     nightly runs): each is a run of the series, in the order opened.",
                );
            }
            TrendStatus::Building => {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label("Matching the kernels through the runs…");
                });
            }
            TrendStatus::Failed(e) => {
                ui.label(e);
            }
            TrendStatus::Ready(data) => {
                show(ui, data, &mut choice, io.commands);
            }
        }
        if choice != self.choice {
            self.choice = choice;
        }
    }

    fn release(&mut self) {
        TrendView::release(self);
        self.sweep.release();
    }
}

/// The order of the runs and the figure charted: a preset, or a metric name typed (with the
/// names of the open reports that match offered below it). Returns whether a typed metric is
/// to be charted (Enter, or a name picked).
fn choices_ui(
    ui: &mut egui::Ui,
    choice: &mut sightline_app::views::trend::TrendChoice,
    metric_text: &mut String,
    completions: &[&str],
) -> bool {
    let mut confirmed = false;
    ui.horizontal(|ui| {
        ui.label("Runs");
        ui.selectable_value(&mut choice.order, SeriesOrder::Given, "in the order opened");
        ui.selectable_value(&mut choice.order, SeriesOrder::Captured, "by capture time");
        ui.separator();
        let shown = TrendFigure::NAMED
            .iter()
            .find(|(f, _)| *f == choice.figure)
            .map_or_else(
                || match &choice.figure {
                    TrendFigure::Metric(m) => m.clone(),
                    _ => String::new(),
                },
                |(_, name)| (*name).to_string(),
            );
        egui::ComboBox::from_label("Chart")
            .selected_text(shown)
            .show_ui(ui, |ui| {
                for (figure, name) in TrendFigure::NAMED {
                    ui.selectable_value(&mut choice.figure, figure, name);
                }
            });
        let label = ui.label("Metric");
        let edit = ui
            .add(
                egui::TextEdit::singleline(metric_text)
                    .hint_text("or a metric name")
                    .desired_width(220.0),
            )
            .labelled_by(label.id)
            .on_hover_text("Type a metric name (or part of one) and press Enter to chart it");
        if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
            confirmed = true;
        }
    });
    // The metric names of the open reports that match what is typed, until one is charted.
    let charted = matches!(&choice.figure, TrendFigure::Metric(m) if m == metric_text.trim());
    if !completions.is_empty() && !charted {
        ui.horizontal_wrapped(|ui| {
            ui.weak("Metrics:");
            for name in completions {
                if ui.small_button(*name).clicked() {
                    *metric_text = (*name).to_string();
                    confirmed = true;
                }
            }
        });
    }
    confirmed
}

fn show(
    ui: &mut egui::Ui,
    data: &TrendData,
    choice: &mut sightline_app::views::trend::TrendChoice,
    commands: &mut Vec<Command>,
) {
    let t = &data.trend;
    ui.weak(format!(
        "{}, {}: {}",
        crate::model::format::count_text(t.runs.len(), "run", "runs"),
        t.order_note,
        t.runs
            .iter()
            .map(|r| r.label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ));
    if !data.regressions.is_empty() {
        for r in &data.regressions {
            ui.colored_label(
                ui.visuals().error_fg_color,
                format!("Regression: {}", r.line()),
            );
        }
    }
    let selected = choice.kernel.filter(|&k| k < t.kernels.len()).or(Some(0));
    egui::ScrollArea::vertical()
        .id_salt("trend_page")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            egui::Grid::new("trend_kernels")
                .striped(true)
                .num_columns(5)
                .show(ui, |ui| {
                    for h in ["Kernel", "Duration over the runs", "Latest", "Change", ""] {
                        ui.weak(h);
                    }
                    ui.end_row();
                    for (k, kernel) in t.kernels.iter().enumerate() {
                        let names = kernel.names.join(" \u{2192} ");
                        if ui
                            .selectable_label(selected == Some(k), &names)
                            .on_hover_text(&names)
                            .clicked()
                        {
                            choice.kernel = Some(k);
                        }
                        let means = kernel.means();
                        sparkline(ui, &means);
                        let latest = means.last().copied().flatten();
                        ui.label(
                            latest.map_or_else(|| NOT_MEASURED.into(), |v| measured_text(v, "ns")),
                        );
                        let before = means.iter().rev().skip(1).find_map(|m| *m);
                        ui.label(match (latest, before) {
                            (Some(l), Some(b)) if b > 0.0 && l.is_finite() && b.is_finite() => {
                                format!("{:+.1}%", (l - b) / b * 100.0)
                            }
                            _ => String::new(),
                        });
                        if data.regressed(k) {
                            ui.colored_label(ui.visuals().error_fg_color, "regressed");
                        } else {
                            ui.label("");
                        }
                        ui.end_row();
                    }
                });
            if let Some(k) = selected {
                ui.add_space(8.0);
                chart(ui, data, k, &choice.figure, commands);
            }
            if !t.steps.is_empty() {
                ui.add_space(8.0);
                ui.strong("Biggest steps");
                for s in &t.steps {
                    let line = s.line(&t.runs, str::to_string, str::to_string);
                    ui.label(line);
                }
            }
        });
}

/// A small line of the values over the runs, with a gap where a run does not launch the
/// kernel.
fn sparkline(ui: &mut egui::Ui, values: &[Option<f64>]) {
    let (rect, _) = ui.allocate_exact_size(SPARK, egui::Sense::hover());
    if !ui.is_rect_visible(rect) {
        return;
    }
    // A damaged mean (no number) is drawn as a gap.
    let (lo, hi) = crate::analysis::series::finite_range(values);
    let n = values.len().max(2) as f32;
    let at = |i: usize, v: f64| {
        let y = if hi > lo {
            ((v - lo) / (hi - lo)) as f32
        } else {
            0.5
        };
        egui::pos2(
            rect.left() + rect.width() * i as f32 / (n - 1.0),
            rect.bottom() - rect.height() * y,
        )
    };
    let stroke = egui::Stroke::new(1.5, bar_color(ui, false));
    let mut previous: Option<egui::Pos2> = None;
    for (i, v) in values.iter().enumerate() {
        match v.filter(|v| v.is_finite()) {
            Some(v) => {
                let p = at(i, v);
                if let Some(q) = previous {
                    ui.painter().line_segment([q, p], stroke);
                }
                ui.painter().circle_filled(p, 1.5, stroke.color);
                previous = Some(p);
            }
            None => previous = None,
        }
    }
}

/// The chosen kernel's figure over the runs; a click on a point opens the step into that run
/// as a Compare.
fn chart(
    ui: &mut egui::Ui,
    data: &TrendData,
    k: usize,
    figure: &TrendFigure,
    commands: &mut Vec<Command>,
) {
    let t = &data.trend;
    let values = data.values(k, figure);
    let kernel = &t.kernels[k];
    ui.strong(format!("{} over the runs", kernel.names.join(" \u{2192} ")));
    if values.iter().all(Option::is_none) {
        ui.weak("No run has this figure for the kernel.");
        return;
    }
    let unit = figure.unit();
    let points: Vec<[f64; 2]> = values
        .iter()
        .enumerate()
        .filter_map(|(i, v)| v.filter(|v| v.is_finite()).map(|v| [i as f64, v]))
        .collect();
    let labels: Vec<String> = t.runs.iter().map(|r| r.label.clone()).collect();
    let color = bar_color(ui, false);
    let axis_labels = labels.clone();
    let response = Plot::new(("trend_chart", k))
        .height(220.0)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .include_y(0.0)
        .y_axis_min_width(72.0)
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
                axis_labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_axis_formatter(move |mark, _| value_text(mark.value, unit))
        .label_formatter(move |hover| match hover {
            egui_plot::HoverPosition::NearDataPoint { position, .. } => {
                let i = position.x.round().max(0.0) as usize;
                Some(format!(
                    "{}: {}\nclick: compare with the run before",
                    labels.get(i).cloned().unwrap_or_default(),
                    value_text(position.y, unit)
                ))
            }
            egui_plot::HoverPosition::Elsewhere { .. } => None,
        })
        .show(ui, |plot_ui| {
            plot_ui.line(Line::new("", points.clone()).color(color));
            plot_ui.points(
                Points::new("runs", points.clone())
                    .shape(MarkerShape::Circle)
                    .radius(4.0)
                    .color(color),
            );
            plot_ui
                .response()
                .clicked()
                .then(|| plot_ui.pointer_coordinate())
                .flatten()
        });
    if let Some(at) = response.inner {
        let run = at.x.round().max(0.0) as usize;
        if let Some((before, current)) = data.step_into(k, run) {
            commands.push(Command::SetBaseline(before));
            commands.push(Command::Select(current));
            commands.push(Command::ShowPage(PageId::Compare));
        }
    }
}
