//! The Trend page's "By size" view: the open reports as a sweep over problem sizes (the size
//! read from each report's folder or file name, or with a pattern typed here). The kernel
//! chosen is charted against the size for the figure chosen (mean duration or achieved
//! FLOP/s), one line per version, on log axes where the values span more than tenfold, with
//! the table behind the chart. Drawn from [`sightline_app::views::sweep`]; the Trend page
//! shows it when its "Runs | By size" toggle says so.

use crate::model::format::value_text;
use crate::output::line_chart::tick_text;
use crate::output::sweep_tables::{heading, names_text};
use crate::pages::PageContext;
use crate::widgets::plot_util::{log_grid_marks, log_tick_label};
use egui_plot::{Corner, GridMark, Legend, Line, MarkerShape, Plot, Points};
use sightline_app::views::sweep::{
    FIGURES, SweepChart, SweepChoice, SweepData, SweepStatus, SweepView, TrendMode,
};

/// The versions' colours, in turn (those of the sweep's HTML page).
const LINE_COLOURS: [egui::Color32; 8] = [
    egui::Color32::from_rgb(0x3b, 0x82, 0xf6),
    egui::Color32::from_rgb(0xf5, 0x9e, 0x0b),
    egui::Color32::from_rgb(0x10, 0xb9, 0x81),
    egui::Color32::from_rgb(0xef, 0x44, 0x44),
    egui::Color32::from_rgb(0x8b, 0x5c, 0xf6),
    egui::Color32::from_rgb(0x06, 0xb6, 0xd4),
    egui::Color32::from_rgb(0xec, 0x48, 0x99),
    egui::Color32::from_rgb(0x84, 0xcc, 0x16),
];

/// The "Runs | By size" toggle; whether the page shows the sweep.
pub fn mode_toggle(ui: &mut egui::Ui, mode: &mut TrendMode) -> bool {
    if screenshot_by_size() {
        *mode = TrendMode::BySize;
    }
    ui.horizontal(|ui| {
        ui.selectable_value(mode, TrendMode::Runs, "Runs")
            .on_hover_text("Every open report as a run of one series");
        ui.selectable_value(mode, TrendMode::BySize, "By size")
            .on_hover_text(
                "Versions profiled at several problem sizes: each kernel against the size, \
                 one line per version",
            );
    });
    ui.separator();
    *mode == TrendMode::BySize
}

/// Draws the sweep of the open reports.
pub fn ui(view: &mut SweepView, ui: &mut egui::Ui, cx: &PageContext<'_>) {
    pattern_ui(ui, view);
    let ctx = ui.ctx().clone();
    let wait = crate::screenshot_mode();
    let mut choice = view.choice;
    match view.status(cx.workspace, wait, move || ctx.request_repaint()) {
        SweepStatus::TooFew => {
            ui.label(
                "Open the reports of several versions profiled at several problem sizes, each \
                 in a folder named by its size (N=1024/v1.ncu-rep) or named so itself \
                 (v1_N=1024.ncu-rep): each kernel is charted against the size, one line per \
                 version.",
            );
        }
        SweepStatus::Building => {
            ui.horizontal(|ui| {
                crate::widgets::calm_spinner::calm_spinner(ui);
                ui.label("Reading the sizes and matching the kernels across the versions…");
            });
        }
        SweepStatus::Failed(e) => {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
        SweepStatus::Ready(data) => show(ui, data, &mut choice),
    }
    view.choice = choice;
}

/// Where the sizes come from: folders and file names (nothing typed), or a pattern typed and
/// confirmed with Enter.
fn pattern_ui(ui: &mut egui::Ui, view: &mut SweepView) {
    ui.horizontal(|ui| {
        let label = ui.label("Sizes from");
        let edit = ui
            .add(
                egui::TextEdit::singleline(&mut view.pattern_text)
                    .hint_text("folder names (N=1024), or a pattern such as N=(\\d+)")
                    .desired_width(280.0),
            )
            .labelled_by(label.id)
            .on_hover_text(
                "A regular expression found in each report's path; its first group is the \
                 size. Press Enter to read the sizes with it; empty: folders named by size",
            );
        if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
            view.confirm_pattern();
        }
        if let Some(p) = view.pattern() {
            ui.weak(format!("reading sizes with {p}"));
        }
    });
}

fn show(ui: &mut egui::Ui, data: &SweepData, choice: &mut SweepChoice) {
    let s = &data.sweep;
    ui.weak(heading(s));
    for line in &s.left_out {
        ui.colored_label(ui.visuals().warn_fg_color, line);
    }
    if s.kernels.is_empty() {
        ui.label("No kernel in the reports of the sweep.");
        return;
    }
    let k = choice.kernel.filter(|&k| k < s.kernels.len()).unwrap_or(0);
    let offered: Vec<_> = FIGURES
        .iter()
        .filter(|(f, _)| s.figures().contains(f))
        .collect();
    ui.horizontal(|ui| {
        egui::ComboBox::from_label("Kernel")
            .selected_text(names_text(&s.kernels[k]))
            .show_ui(ui, |ui| {
                for (i, kernel) in s.kernels.iter().enumerate() {
                    if ui.selectable_label(i == k, names_text(kernel)).clicked() {
                        choice.kernel = Some(i);
                    }
                }
            });
        ui.separator();
        for (figure, name) in &offered {
            ui.selectable_value(&mut choice.figure, *figure, *name);
        }
    });
    let figure = if offered.iter().any(|(f, _)| *f == choice.figure) {
        choice.figure
    } else {
        FIGURES[0].0
    };
    egui::ScrollArea::vertical()
        .id_salt("trend_sweep")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            ui.strong(format!(
                "{} against {}",
                names_text(&s.kernels[k]),
                s.parameter
            ));
            let chart = data.chart(k, figure);
            plot(ui, &chart, &s.parameter, k);
            ui.add_space(8.0);
            let (heads, rows) = data.table(k, figure);
            // A grid per kernel and figure: each lays out its own column widths.
            egui::Grid::new(("trend_sweep_table", k, figure.unit()))
                .striped(true)
                .num_columns(heads.len() + 1)
                .show(ui, |ui| {
                    ui.weak("Version");
                    for h in &heads {
                        ui.weak(h);
                    }
                    ui.end_row();
                    for (version, cells) in &rows {
                        ui.label(version);
                        for c in cells {
                            ui.label(c);
                        }
                        ui.end_row();
                    }
                });
        });
}

/// The chart: a line and points per version, the sizes marked on the x axis.
fn plot(ui: &mut egui::Ui, chart: &SweepChart, parameter: &str, k: usize) {
    let unit = chart.unit;
    let (log_x, log_y) = (chart.log_x, chart.log_y);
    let marks = chart.size_marks.clone();
    let span = marks
        .iter()
        .copied()
        .fold(f64::NEG_INFINITY, f64::max)
        .max(marks.first().copied().unwrap_or(0.0) + 1.0);
    let mut p = Plot::new(("trend_sweep_chart", k))
        .height(300.0)
        .legend(Legend::default().position(Corner::LeftTop))
        .set_margin_fraction(egui::vec2(0.04, 0.1))
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .x_axis_label(format!(
            "{parameter}{}",
            if log_x { " (log scale)" } else { "" }
        ))
        .y_axis_min_width(72.0)
        .x_grid_spacer(move |_| {
            marks
                .iter()
                .map(|&value| GridMark {
                    value,
                    step_size: span,
                })
                .collect()
        })
        .x_axis_formatter(move |mark, _| {
            format!("{}", SweepChart::value(mark.value, log_x).round())
        })
        .label_formatter(move |hover| match hover {
            egui_plot::HoverPosition::NearDataPoint {
                plot_name,
                position,
                ..
            } => Some(format!(
                "{plot_name}\n{}: {}",
                SweepChart::value(position.x, log_x).round(),
                value_text(SweepChart::value(position.y, log_y), unit)
            )),
            egui_plot::HoverPosition::Elsewhere { .. } => None,
        });
    // Ticks are spelled as the HTML chart spells them (`100 us`, `5 TFLOP/s`); on a log axis
    // only the marks `log_tick_label` would label.
    p = if log_y {
        p.y_grid_spacer(log_grid_marks)
            .y_axis_formatter(move |mark, range| {
                if log_tick_label(mark, range, "").is_empty() {
                    String::new()
                } else {
                    tick_text(SweepChart::value(mark.value, true), unit)
                }
            })
    } else {
        p.include_y(0.0)
            .y_axis_formatter(move |mark, _| tick_text(mark.value, unit))
    };
    p.show(ui, |plot_ui| {
        for (i, line) in chart.lines.iter().enumerate() {
            let color = LINE_COLOURS[i % LINE_COLOURS.len()];
            plot_ui.line(Line::new(line.version.clone(), line.points.clone()).color(color));
            plot_ui.points(
                Points::new(line.version.clone(), line.points.clone())
                    .shape(MarkerShape::Circle)
                    .radius(4.0)
                    .color(color),
            );
        }
    });
}

/// For documentation screenshots (`EFRAME_SCREENSHOT_TO` set): whether
/// `SIGHTLINE_SCREENSHOT_TREND=size` asks for the By size view.
fn screenshot_by_size() -> bool {
    static BY_SIZE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *BY_SIZE.get_or_init(|| {
        std::env::var_os("EFRAME_SCREENSHOT_TO").is_some()
            && std::env::var("SIGHTLINE_SCREENSHOT_TREND").is_ok_and(|v| v == "size")
    })
}
