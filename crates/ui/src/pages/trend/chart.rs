//! The Trend page's chart of the chosen kernel: its values over the runs (as measured or as a
//! percentage of its first run, its fastest run or the reference kernel) on the scale the
//! view-model resolved (a log axis labelled in real values: `500 us`, `2 ms`), the reference
//! kernel's line beside it where the values are as measured, runs that got worse in red and
//! the fastest ringed; drag to pan, Ctrl+wheel, right-drag or an axis drag to zoom, Reset view
//! or a double-click to go back; a click on a point opens the step into that run as a Compare.
//! Under it, the latest run against the run before, the first and the fastest.

use crate::analysis::compare::Verdict;
use crate::analysis::series::readings::{Judged, Scale, drawable};
use crate::model::format::{measured_text, value_text};
use crate::widgets::plot_util::{self, compact_value, log_bounds, log_value_label};
use crate::widgets::section_body::bar_color;
use crate::widgets::theme::verdict_color;
use egui::RichText;
use egui_plot::{
    GridInput, GridMark, HLine, Line, LineStyle, MarkerShape, Plot, PlotPoint, Points,
};
use sightline_app::core::commands::Command;
use sightline_app::core::page_id::PageId;
use sightline_app::views::trend::chart::{KernelRow, Reading, ScaleChoice, TrendChart};
use sightline_app::views::trend::{TrendChoice, TrendData, TrendFigure};

/// The chart's height, points.
const HEIGHT: f32 = 240.0;
/// The radius of a run's point, and how much farther a click still takes it.
const RADIUS: f32 = 4.0;
const CLICK_SLACK: f32 = 5.0;
/// Room above and below the values on a log axis, decades.
const LOG_PAD: f64 = 0.15;

/// The id of the chart (its memory holds the zoom and the screen transform).
pub fn chart_id() -> egui::Id {
    egui::Id::unique("sightline_trend_chart")
}

/// A change in percent: `+3.4%`.
pub(super) fn change_text(pct: f64) -> String {
    format!("{pct:+.1}%")
}

/// A share in percent (`12.1 %`), `-` where there is none.
pub(super) fn share_text(value: Option<f64>) -> String {
    value.filter(|v| v.is_finite()).map_or_else(
        || crate::model::format::NOT_MEASURED.into(),
        |v| format!("{v:.1} %"),
    )
}

/// What a reading is called on the page.
fn reading_name(reading: Reading) -> &'static str {
    match reading {
        Reading::Measured => "As measured",
        Reading::OfFirst => "% of first run",
        Reading::OfBest => "% of fastest run",
        Reading::OfReference => "% of reference",
    }
}

fn scale_name(scale: Scale) -> &'static str {
    match scale {
        Scale::Linear => "linear",
        Scale::Log => "log",
    }
}

/// The chart with its title and controls above it and the latest run's changes under it.
pub(super) fn chart_section(
    ui: &mut egui::Ui,
    data: &TrendData,
    rows: &[KernelRow],
    chart: &TrendChart,
    choice: &mut TrendChoice,
    commands: &mut Vec<Command>,
) {
    ui.add(
        egui::Label::new(RichText::new(format!("{} over the runs", chart.label)).strong())
            .truncate(),
    )
    .on_hover_text(&chart.whole);
    let reset = controls(ui, data, rows, chart, choice);
    let notes = [
        (chart.unread > 0).then(|| {
            format!(
                "{} not drawn: no value to read them against",
                crate::model::format::count_text(chart.unread, "run", "runs")
            )
        }),
        (chart.off_scale > 0).then(|| {
            format!(
                "{} at zero or below not drawn on the log axis",
                crate::model::format::count_text(chart.off_scale, "value", "values")
            )
        }),
    ];
    for note in notes.into_iter().flatten() {
        ui.add(egui::Label::new(RichText::new(note).weak()).wrap());
    }
    plot(ui, data, chart, &choice.figure, reset, commands);
    latest_line(ui, data, chart, &choice.figure);
}

/// The scale, the reading, the reference kernel and Reset view; returns whether the view is
/// to be reset.
fn controls(
    ui: &mut egui::Ui,
    data: &TrendData,
    rows: &[KernelRow],
    chart: &TrendChart,
    choice: &mut TrendChoice,
) -> bool {
    let mut reset = false;
    ui.horizontal_wrapped(|ui| {
        ui.label("Scale");
        for scale in ScaleChoice::ALL {
            let text = match scale {
                ScaleChoice::Auto => format!("Auto ({})", scale_name(chart.auto_scale)),
                ScaleChoice::Linear => "Linear".into(),
                ScaleChoice::Log => "Log".into(),
            };
            ui.selectable_value(&mut choice.scale, scale, text)
                .on_hover_text(
                    "Auto: a log axis where the values charted span more than ten times, \
                     else linear",
                );
        }
        ui.separator();
        ui.label("Values");
        for r in Reading::ALL {
            let enabled = r != Reading::OfReference || chart.reference.is_some();
            let button = egui::Button::selectable(chart.reading == r, reading_name(r));
            if ui
                .add_enabled(enabled, button)
                .on_disabled_hover_text("Pick a reference kernel first")
                .clicked()
            {
                choice.reading = r;
            }
        }
        ui.separator();
        let picked = chart.reference.as_ref().map(|r| r.kernel);
        let mut pick = picked;
        egui::ComboBox::from_label("Reference")
            .selected_text(
                chart
                    .reference
                    .as_ref()
                    .map_or("none", |r| r.label.as_str()),
            )
            .truncate()
            .width(150.0)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut pick, None, "none");
                for (k, row) in rows.iter().enumerate() {
                    ui.selectable_value(&mut pick, Some(k), &row.label)
                        .on_hover_text(&row.whole);
                }
            })
            .response
            .on_hover_text(
                "A kernel launched in the same runs (a library's, say) to read the charted \
                 kernel against, run by run",
            );
        if pick != picked {
            choice.pick_reference(
                pick.and_then(|k| data.trend.kernels.get(k))
                    .map(|k| k.name.clone()),
            );
        }
        if ui
            .button("Reset view")
            .on_hover_text(
                "Back to every run in view. Drag to pan; Ctrl+wheel, right-drag a box or drag \
                 an axis to zoom; double-click also resets.",
            )
            .clicked()
        {
            reset = true;
        }
    });
    reset
}

/// Where a value lies on the chart's value axis: its log on a log axis; none where the scale
/// cannot place it.
fn axis_value(value: f64, scale: Scale) -> Option<f64> {
    if !drawable(value, scale) {
        return None;
    }
    Some(match scale {
        Scale::Log => value.log10(),
        Scale::Linear => value,
    })
}

/// A value of the figure as measured, as the page spells it (`291.71 us`, `45.12 %`).
fn value_words(value: f64, figure: &TrendFigure) -> String {
    match figure {
        TrendFigure::Duration => measured_text(value, figure.unit()),
        _ => value_text(value, figure.unit()),
    }
}

/// Grid lines at whole runs: each run while they are far enough apart, else every 2nd, 5th,
/// 10th, 20th… (the thicker every 5 and 10 of those).
fn run_marks(input: GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    if !(lo.is_finite() && hi.is_finite() && input.base_step_size.is_finite()) || hi <= lo {
        return Vec::new();
    }
    let mut step = 1.0;
    for m in [2.0, 2.5, 2.0].iter().cycle() {
        if step >= input.base_step_size {
            break;
        }
        step *= m;
    }
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first.max(0)..=last)
        .map(|i| {
            let value = i as f64 * step;
            let step_size = if i % 10 == 0 {
                step * 10.0
            } else if i % 5 == 0 {
                step * 5.0
            } else {
                step
            };
            GridMark { value, step_size }
        })
        .collect()
}

/// The plot itself; a click on a point of the charted kernel opens the step into its run.
fn plot(
    ui: &mut egui::Ui,
    data: &TrendData,
    chart: &TrendChart,
    figure: &TrendFigure,
    reset: bool,
    commands: &mut Vec<Command>,
) {
    let t = &data.trend;
    let scale = chart.scale;
    let unit = chart.unit;
    let place = |run: usize, v: Option<f64>| Some([run as f64, axis_value(v?, scale)?]);
    let points: Vec<(usize, [f64; 2])> = chart
        .runs
        .iter()
        .filter_map(|r| Some((r.run, place(r.run, r.shown)?)))
        .collect();
    if points.is_empty() {
        ui.weak("No run has a value to chart for this kernel.");
        return;
    }
    let reference: Option<(String, Vec<[f64; 2]>)> =
        chart.reference.as_ref().filter(|r| r.drawn).map(|r| {
            let at = r
                .values
                .iter()
                .enumerate()
                .filter_map(|(run, v)| place(run, *v))
                .collect();
            (format!("{} (reference)", r.label), at)
        });
    let name = chart.label.clone();
    let color = bar_color(ui, false);
    let worse = verdict_color(ui, Verdict::Worse);
    let weak = ui.visuals().weak_text_color();
    // The hover text of each run of the kernel, and of the reference.
    let hover: Vec<String> = chart
        .runs
        .iter()
        .map(|r| {
            let label = t.runs.get(r.run).map_or("", |run| run.label.as_str());
            let mut lines = vec![format!("{label}: {}", r.name.as_deref().unwrap_or(""))];
            if let Some(v) = r.measured {
                lines.push(value_words(v, figure));
            }
            if chart.reading != Reading::Measured {
                lines.push(format!(
                    "{} {}",
                    share_text(r.shown),
                    match chart.reading {
                        Reading::OfFirst => "of the first run",
                        Reading::OfBest => "of the fastest run",
                        _ => "of the reference",
                    }
                ));
            }
            if let Some(step) = r.step {
                lines.push(format!(
                    "{} from the run before",
                    change_text(step.change.pct)
                ));
            }
            if chart.best_run == Some(r.run) {
                lines.push("the fastest run".into());
            }
            // The kernel's first run has no run before it to compare with.
            if chart.first_run.is_some_and(|first| r.run > first) {
                lines.push("click: compare with the run before".into());
            }
            lines.join("\n")
        })
        .collect();
    let reference_hover: Vec<String> = chart.reference.as_ref().map_or_else(Vec::new, |r| {
        r.values
            .iter()
            .enumerate()
            .map(|(run, v)| {
                let label = t.runs.get(run).map_or("", |r| r.label.as_str());
                let value = v.map_or_else(String::new, |v| value_words(v, figure));
                format!("{label}: {} (reference)\n{value}", r.label)
            })
            .collect()
    });
    let reference_name = reference.as_ref().map(|(n, _)| n.clone());
    if let Some((reference_name, _)) = &reference {
        // What the two lines are, above the chart (a legend inside it would hide points).
        ui.horizontal_wrapped(|ui| {
            crate::widgets::theme::swatch(ui, color);
            ui.label(&chart.label);
            ui.add_space(12.0);
            crate::widgets::theme::swatch(ui, weak);
            ui.label(reference_name).on_hover_text("dashed");
        });
    }
    let labels: Vec<String> = t.runs.iter().map(|r| r.label.clone()).collect();
    let axis_unit = unit;
    let mut plot = Plot::new("trend_chart")
        .id(chart_id())
        .height(HEIGHT)
        // Room above and below the points for their markers.
        .set_margin_fraction(egui::vec2(0.05, 0.1))
        .y_axis_min_width(64.0)
        // The wheel scrolls the page; drag pans, Ctrl+wheel, right-drag or an axis drag zooms.
        .allow_scroll(false)
        .allow_axis_zoom_drag(true)
        .x_grid_spacer(run_marks)
        .x_axis_formatter(move |mark, _| {
            let i = mark.value.round();
            if (mark.value - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .label_formatter(move |hover_at| match hover_at {
            egui_plot::HoverPosition::NearDataPoint {
                plot_name,
                position,
                ..
            } => {
                let run = position.x.round().max(0.0) as usize;
                let texts = if reference_name.as_deref() == Some(*plot_name) {
                    &reference_hover
                } else {
                    &hover
                };
                texts.get(run).cloned()
            }
            egui_plot::HoverPosition::Elsewhere { .. } => None,
        });
    // Every value charted, on the axis, for the log axis' bounds.
    let ys: Vec<f64> = points
        .iter()
        .map(|(_, p)| p[1])
        .chain(reference.iter().flat_map(|(_, r)| r.iter().map(|p| p[1])))
        .collect();
    match scale {
        Scale::Log => {
            let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            plot = plot
                .y_grid_spacer(plot_util::log_grid_marks)
                .y_axis_formatter(move |mark, range| log_value_label(mark, range, axis_unit));
            // At least a decade in view, so that the axis has labels.
            if let Some((a, b)) = log_bounds(10f64.powf(lo), 10f64.powf(hi), LOG_PAD) {
                plot = plot.include_y(a).include_y(b);
            }
        }
        Scale::Linear => {
            plot = plot.include_y(0.0).y_axis_formatter(move |mark, _| {
                if mark.value == 0.0 {
                    "0".into()
                } else {
                    compact_value(mark.value, axis_unit)
                }
            });
        }
    }
    let base = (chart.reading != Reading::Measured)
        .then(|| axis_value(100.0, scale))
        .flatten();
    if let Some(b) = base {
        plot = plot.include_y(b);
    }
    // A new view (kernel, figure, reading, scale, reference) starts with every run in view.
    let view = egui::Id::unique((
        chart.kernel,
        figure,
        chart.reading,
        scale,
        chart.reference.as_ref().map(|r| r.kernel),
    ));
    let memory = chart_id().with("view");
    let changed = ui.data_mut(|d| {
        let before = d.get_temp::<egui::Id>(memory);
        d.insert_temp(memory, view);
        before.is_some_and(|v| v != view)
    });
    if reset || changed {
        plot = plot.reset();
    }
    let best = chart
        .best_run
        .and_then(|b| points.iter().find(|(run, _)| *run == b).map(|(_, p)| *p));
    let regressed: Vec<[f64; 2]> = points
        .iter()
        .filter(|(run, _)| {
            chart
                .runs
                .get(*run)
                .and_then(|r| r.step)
                .map(|s: Judged| s.verdict)
                == Some(Verdict::Worse)
        })
        .map(|(_, p)| *p)
        .collect();
    let line: Vec<[f64; 2]> = points.iter().map(|(_, p)| *p).collect();
    let response = plot.show(ui, |plot_ui| {
        if let Some(b) = base {
            plot_ui.hline(
                HLine::new("", b)
                    .color(weak)
                    .style(LineStyle::dashed_loose())
                    .allow_hover(false),
            );
        }
        if let Some((reference_name, at)) = &reference {
            plot_ui.line(
                Line::new(reference_name.clone(), at.clone())
                    .color(weak)
                    .style(LineStyle::dashed_loose()),
            );
            plot_ui.points(
                Points::new(reference_name.clone(), at.clone())
                    .shape(MarkerShape::Square)
                    .radius(3.0)
                    .color(weak),
            );
        }
        plot_ui.line(Line::new(name.clone(), line.clone()).color(color));
        plot_ui.points(
            Points::new(name.clone(), line.clone())
                .shape(MarkerShape::Circle)
                .radius(RADIUS)
                .color(color),
        );
        if !regressed.is_empty() {
            plot_ui.points(
                Points::new(name.clone(), regressed)
                    .shape(MarkerShape::Circle)
                    .radius(RADIUS + 1.0)
                    .color(worse),
            );
        }
        if let Some(b) = best {
            plot_ui.points(
                Points::new("", vec![b])
                    .shape(MarkerShape::Circle)
                    .radius(RADIUS + 4.0)
                    .filled(false)
                    .color(color)
                    .allow_hover(false),
            );
        }
    });
    plot_util::note_plot_area(ui.ctx(), response.response.rect);
    if !response.response.clicked() {
        return;
    }
    // The point clicked: the kernel's nearest to the pointer, within its marker.
    let Some(pointer) = response.response.interact_pointer_pos() else {
        return;
    };
    let run = points
        .iter()
        .map(|(run, p)| {
            let at = response
                .transform
                .position_from_point(&PlotPoint::new(p[0], p[1]));
            (*run, at.distance(pointer))
        })
        .filter(|(_, d)| *d <= RADIUS + CLICK_SLACK)
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(run, _)| run);
    if let Some((before, current)) = run.and_then(|run| data.step_into(chart.kernel, run)) {
        commands.push(Command::SetBaseline(before));
        commands.push(Command::Select(current));
        commands.push(Command::ShowPage(PageId::Compare));
    }
}

/// The latest run of the kernel against the run before, the first and the fastest, each in
/// the colour of its verdict.
fn latest_line(ui: &mut egui::Ui, data: &TrendData, chart: &TrendChart, figure: &TrendFigure) {
    let Some(latest) = &chart.latest else {
        return;
    };
    let run_label = |run: usize| data.trend.runs.get(run).map_or("", |r| r.label.as_str());
    let measured = chart
        .runs
        .get(latest.latest)
        .and_then(|r| r.measured)
        .map_or_else(String::new, |v| value_words(v, figure));
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("Latest ({}): {measured}", run_label(latest.latest)));
        let parts = [
            (latest.previous, "the run before"),
            (latest.first, "the first run"),
            (latest.best, "the fastest run"),
        ];
        for (judged, what) in parts {
            let Some(j) = judged else { continue };
            ui.weak("\u{b7}");
            let text = if j.change.from_run == j.change.to_run {
                format!("is {what}")
            } else {
                format!(
                    "{} against {what} ({})",
                    change_text(j.change.pct),
                    run_label(j.change.from_run)
                )
            };
            let color = match j.verdict {
                Verdict::Unchanged => ui.visuals().text_color(),
                v => verdict_color(ui, v),
            };
            ui.label(RichText::new(text).color(color));
        }
    });
}
