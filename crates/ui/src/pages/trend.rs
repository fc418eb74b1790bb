//! The Trend page: every open report as a run of one series. Each kernel is a row with a small
//! line of its duration over the runs, its latest value and change (red where it got worse), a
//! mark where the latest run regressed against its history, and its share of a reference
//! kernel's duration where one is picked; the kernel chosen is charted over the runs for the
//! figure chosen, as measured or as a percentage of its first run, its fastest run or the
//! reference kernel, on a linear or a log axis (chosen by the values' span unless asked),
//! with zoom and pan; a click on a point opens that step as a Compare (the run before → this
//! run). Under the chart, the latest run against the run before, the first and the fastest,
//! and every run's values; then the biggest steps with their one-line why. Drawn from
//! [`sightline_app::views::trend`].

mod chart;
mod tables;

pub use chart::chart_id;

use crate::analysis::compare::Verdict;
use crate::analysis::series::SeriesOrder;
use crate::pages::{Page, PageContext, PageIo};
use crate::widgets::theme::verdict_color;
use sightline_app::core::commands::Command;
use sightline_app::views::trend::{TrendChoice, TrendData, TrendFigure, TrendStatus, TrendView};

impl Page for TrendView {
    fn id(&self) -> sightline_app::core::page_id::PageId {
        sightline_app::core::page_id::PageId::Trend
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
        let threshold = io.settings.threshold_pct();
        if let Some(note) = TrendView::growing_note(cx.workspace) {
            ui.label(egui::RichText::new(note).weak());
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
                    crate::widgets::calm_spinner::calm_spinner(ui);
                    ui.label("Matching the kernels through the runs…");
                });
            }
            TrendStatus::Failed(e) => {
                ui.label(e);
            }
            TrendStatus::Ready(data) => {
                show(ui, data, &mut choice, threshold, io.commands);
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
    choice: &mut TrendChoice,
    metric_text: &mut String,
    completions: &[&str],
) -> bool {
    let mut confirmed = false;
    ui.horizontal_wrapped(|ui| {
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
            .truncate()
            .width(170.0)
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
                    .desired_width(200.0),
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

/// The runs, the regressions, the kernels' table, the chosen kernel's chart and runs, and the
/// biggest steps, in one scrolled column as wide as the page.
fn show(
    ui: &mut egui::Ui,
    data: &TrendData,
    choice: &mut TrendChoice,
    threshold: f64,
    commands: &mut Vec<Command>,
) {
    let t = &data.trend;
    egui::ScrollArea::vertical()
        .id_salt("trend_page")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.add(
                egui::Label::new(
                    egui::RichText::new(format!(
                        "{}, {}: {}",
                        crate::model::format::count_text(t.runs.len(), "run", "runs"),
                        t.order_note,
                        t.runs
                            .iter()
                            .map(|r| r.label.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                    .weak(),
                )
                .wrap(),
            );
            for r in &data.regressions {
                ui.add(
                    egui::Label::new(
                        egui::RichText::new(format!("Regression: {}", r.line()))
                            .color(ui.visuals().error_fg_color),
                    )
                    .wrap(),
                );
            }
            let reference = data.reference(choice);
            let selected = choice.kernel.filter(|&k| k < t.kernels.len()).or(Some(0));
            let rows = data.rows(reference, threshold);
            if let Some(k) = tables::kernels_table(ui, &rows, selected, reference) {
                choice.kernel = Some(k);
            }
            if let Some(chart) = selected.and_then(|k| data.chart(k, choice, threshold)) {
                ui.add_space(8.0);
                chart::chart_section(ui, data, &rows, &chart, choice, commands);
                tables::runs_table(ui, data, &chart, &choice.figure);
            }
            if !t.steps.is_empty() {
                ui.add_space(8.0);
                ui.strong("Biggest steps");
                // A step that made a kernel slower beyond the noise threshold stands out.
                let verdicts = data.step_verdicts(threshold);
                for (s, verdict) in t.steps.iter().zip(verdicts) {
                    let line = egui::RichText::new(s.line(&t.runs, str::to_string, str::to_string));
                    let line = match verdict {
                        Verdict::Worse => line.color(verdict_color(ui, verdict)),
                        _ => line,
                    };
                    ui.add(egui::Label::new(line).wrap());
                }
            }
        });
}
