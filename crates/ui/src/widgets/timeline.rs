//! The PM sampling timeline: per row group a header, per sampled metric a strip with its
//! values as a filled line over the shared time axis, the highest value at the right, and the
//! values under the pointer on hover. An overlay row (ncu 2026.3) draws its metrics over each
//! other in one strip, each in its own colour; a markers row draws each sample as a mark. A
//! "Workload Execution" strip on top shows when the workload ran. A comparison draws the
//! baseline's series over the same axis in the baseline's colour.

use crate::analysis::sections::timeline::{Group, Series, Timeline};
use crate::model::format::NOT_MEASURED;
use crate::model::format::value_text;
use crate::model::section_body::TimelineRowKind;
use egui::{Align2, Color32, FontId, Rect, Sense, Stroke, pos2, vec2};

/// Height of one series strip.
const STRIP_H: f32 = 26.0;
/// Width of the label column and of the value column.
const LABEL_W: f32 = 210.0;
const VALUE_W: f32 = 90.0;

/// A timeline to draw, with its colour.
pub struct Side<'a> {
    pub timeline: &'a Timeline,
    pub color: Color32,
    pub name: &'a str,
}

/// A duration in nanoseconds as the axis writes it.
fn time_text(ns: f64) -> String {
    value_text(ns, "ns")
}

/// Draws the timeline (`sides[0]` decides the rows; later sides are drawn over it).
pub fn show(ui: &mut egui::Ui, sides: &[Side<'_>]) {
    let Some(first) = sides.first() else {
        return;
    };
    if sides.iter().all(|s| s.timeline.is_empty()) {
        ui.weak("No samples were collected.");
        return;
    }
    let end = sides
        .iter()
        .map(|s| s.timeline.end_ns)
        .fold(0.0, f64::max)
        .max(1.0);
    let untimed = first
        .timeline
        .groups
        .iter()
        .flat_map(|g| &g.series)
        .map(|s| s.untimed)
        .max()
        .unwrap_or(0);
    ui.weak(format!(
        "{} of sampling, times from the first sample{}",
        time_text(end),
        if untimed > 0 {
            format!("; {untimed} sample without a timestamp left out")
        } else {
            String::new()
        }
    ));
    // Indented as the strips inside the groups' headers, so that all share one time axis.
    if sides.iter().any(|s| s.timeline.workload.is_some()) {
        ui.indent("pm_timeline_workload", |ui| workload_strip(ui, sides, end));
    }
    for (gi, group) in first.timeline.groups.iter().enumerate() {
        egui::CollapsingHeader::new(egui::RichText::new(&group.label).strong())
            .id_salt(("pm_timeline_group", &group.label, gi))
            .default_open(true)
            .show(ui, |ui| {
                if group.drawn_as == Some(TimelineRowKind::Overlay) && sides.len() == 1 {
                    overlay_strip(ui, group, end);
                    return;
                }
                let marks = group.drawn_as == Some(TimelineRowKind::Markers);
                for series in &group.series {
                    let others: Vec<(Option<&Series>, &Side<'_>)> = sides
                        .iter()
                        .map(|s| (s.timeline.series(&series.label), s))
                        .collect();
                    strip(ui, series, &others, end, marks);
                }
            });
    }
    ui.indent("pm_timeline_axis", |ui| axis(ui, end));
}

/// The time axis under the strips.
fn axis(ui: &mut egui::Ui, end: f64) {
    let width = ui.available_width().max(LABEL_W + VALUE_W + 100.0);
    let (rect, _) = ui.allocate_exact_size(vec2(width, 16.0), Sense::hover());
    let painter = ui.painter_at(rect);
    let plot = plot_x(rect);
    let text = ui.visuals().weak_text_color();
    for k in 0..=4 {
        let t = end * f64::from(k) / 4.0;
        let x = plot.0 + (plot.1 - plot.0) * k as f32 / 4.0;
        let align = match k {
            0 => Align2::LEFT_TOP,
            4 => Align2::RIGHT_TOP,
            _ => Align2::CENTER_TOP,
        };
        painter.text(
            pos2(x, rect.top() + 2.0),
            align,
            time_text(t),
            FontId::proportional(10.0),
            text,
        );
    }
}

/// The x range of the plot within a row.
fn plot_x(rect: Rect) -> (f32, f32) {
    (rect.left() + LABEL_W, rect.right() - VALUE_W)
}

/// The highest value of a strip, at its right end.
fn max_label(ui: &egui::Ui, painter: &egui::Painter, rect: Rect, max: f64, unit: &str) {
    painter.text(
        rect.right_center() - vec2(2.0, 0.0),
        Align2::RIGHT_CENTER,
        format!("max {}", value_text(max, unit)),
        FontId::proportional(10.5),
        ui.visuals().weak_text_color(),
    );
}

/// With the pointer over the plot: a line at the pointer, and the time there.
fn pointer_time(
    ui: &egui::Ui,
    painter: &egui::Painter,
    resp: &egui::Response,
    plot: Rect,
    end: f64,
) -> Option<f64> {
    let p = resp.hover_pos().filter(|p| plot.contains(*p))?;
    painter.vline(
        p.x,
        plot.y_range(),
        Stroke::new(1.0, ui.visuals().text_color().gamma_multiply(0.5)),
    );
    Some(f64::from((p.x - plot.left()) / plot.width()) * end)
}

/// Colours of the metrics of an overlay row, in order (cycling).
const OVERLAY_COLORS: [[u8; 3]; 6] = [
    [0x4c, 0x9a, 0xe0],
    [0xe0, 0x8a, 0x3c],
    [0x5c, 0xb8, 0x5c],
    [0xc8, 0x5c, 0xc8],
    [0xd8, 0xc0, 0x40],
    [0x40, 0xc0, 0xc0],
];

/// An overlay row: its metrics as lines over each other in one strip, each in its colour and
/// scaled to the highest value of all; the labels in their colours on the left; every value
/// at the pointer on hover.
fn overlay_strip(ui: &mut egui::Ui, group: &Group, end: f64) {
    let width = ui.available_width().max(LABEL_W + VALUE_W + 100.0);
    let height = (STRIP_H * 1.6).max(14.0 * group.series.len() as f32 + 6.0);
    let (rect, resp) = ui.allocate_exact_size(vec2(width, height), Sense::hover());
    if !ui.is_rect_visible(rect) {
        return;
    }
    let painter = ui.painter_at(rect);
    let color = |k: usize| crate::theme::rgb(OVERLAY_COLORS[k % OVERLAY_COLORS.len()]);
    for (k, series) in group.series.iter().enumerate() {
        painter.text(
            pos2(rect.left() + 2.0, rect.top() + 4.0 + 14.0 * k as f32),
            Align2::LEFT_TOP,
            &series.label,
            FontId::proportional(11.0),
            color(k),
        );
    }
    let (x0, x1) = plot_x(rect);
    let plot = Rect::from_x_y_ranges(x0..=x1, rect.top() + 2.0..=rect.bottom() - 2.0);
    painter.rect_filled(plot, 1.0, crate::theme::bar_track(ui));
    let max = group.series.iter().map(Series::max).fold(0.0, f64::max);
    let scale = if max > 0.0 { max } else { 1.0 };
    for (k, series) in group.series.iter().enumerate() {
        let line: Vec<egui::Pos2> = series
            .points
            .iter()
            .map(|&(t, v)| {
                pos2(
                    plot.left() + (t / end) as f32 * plot.width(),
                    plot.bottom() - (v / scale) as f32 * (plot.height() - 2.0),
                )
            })
            .collect();
        painter.add(egui::Shape::line(line, Stroke::new(1.4, color(k))));
    }
    let unit = group.series.first().map_or("", |s| s.unit.as_str());
    max_label(ui, &painter, rect, max, unit);
    if let Some(t) = pointer_time(ui, &painter, &resp, plot, end) {
        resp.on_hover_ui_at_pointer(|ui| {
            ui.strong(&group.label);
            ui.label(format!("at {}", time_text(t)));
            for (k, series) in group.series.iter().enumerate() {
                let v = series
                    .value_at(t)
                    .map_or(NOT_MEASURED.to_string(), |v| value_text(v, &series.unit));
                ui.colored_label(color(k), format!("{}: {v}", series.label));
            }
        });
    }
}

/// Draws a series of a markers row: a mark at each sample with a value, as tall as the value
/// (at least a third of the strip, so small events stay visible).
fn marks(painter: &egui::Painter, points: &[egui::Pos2], bottom: f32, height: f32, color: Color32) {
    for p in points {
        let top = p.y.min(bottom - height / 3.0);
        painter.line_segment([pos2(p.x, bottom), pos2(p.x, top)], Stroke::new(1.5, color));
        painter.circle_filled(pos2(p.x, top), 2.0, color);
    }
}

/// One series strip: label, the filled line of each side (or, for a markers row, a mark per
/// sample), the highest value.
fn strip(
    ui: &mut egui::Ui,
    series: &Series,
    sides: &[(Option<&Series>, &Side<'_>)],
    end: f64,
    as_marks: bool,
) {
    let width = ui.available_width().max(LABEL_W + VALUE_W + 100.0);
    let (rect, resp) = ui.allocate_exact_size(vec2(width, STRIP_H), Sense::hover());
    if !ui.is_rect_visible(rect) {
        return;
    }
    let painter = ui.painter_at(rect);
    let text = ui.visuals().text_color();
    let font = FontId::proportional(11.5);
    painter.text(
        rect.left_center() + vec2(2.0, 0.0),
        Align2::LEFT_CENTER,
        &series.label,
        font.clone(),
        text,
    );
    let (x0, x1) = plot_x(rect);
    let plot = Rect::from_x_y_ranges(x0..=x1, rect.top() + 2.0..=rect.bottom() - 2.0);
    painter.rect_filled(plot, 1.0, crate::theme::bar_track(ui));
    let max = sides
        .iter()
        .filter_map(|(s, _)| s.map(Series::max))
        .fold(0.0, f64::max);
    let scale = if max > 0.0 { max } else { 1.0 };
    let to_screen = |t: f64, v: f64| {
        pos2(
            plot.left() + (t / end) as f32 * plot.width(),
            plot.bottom() - (v / scale) as f32 * (plot.height() - 2.0),
        )
    };
    let several = sides.len() > 1;
    // Later sides (the current result) on top.
    for (s, side) in sides.iter().rev() {
        let Some(s) = s else { continue };
        if s.points.is_empty() {
            continue;
        }
        if as_marks {
            let at: Vec<egui::Pos2> = s
                .points
                .iter()
                .filter(|p| p.1 != 0.0)
                .map(|&(t, v)| to_screen(t, v))
                .collect();
            marks(&painter, &at, plot.bottom(), plot.height(), side.color);
            continue;
        }
        let line: Vec<egui::Pos2> = s.points.iter().map(|&(t, v)| to_screen(t, v)).collect();
        if !several {
            // The area under the line as one mesh (no seams between its columns).
            let fill = side.color.gamma_multiply(0.35);
            let mut mesh = egui::Mesh::default();
            for w in line.windows(2) {
                let base = mesh.vertices.len() as u32;
                for p in [
                    w[0],
                    w[1],
                    pos2(w[1].x, plot.bottom()),
                    pos2(w[0].x, plot.bottom()),
                ] {
                    mesh.colored_vertex(p, fill);
                }
                mesh.add_triangle(base, base + 1, base + 2);
                mesh.add_triangle(base, base + 2, base + 3);
            }
            painter.add(egui::Shape::mesh(mesh));
        }
        painter.add(egui::Shape::line(line, Stroke::new(1.2, side.color)));
    }
    max_label(ui, &painter, rect, max, &series.unit);
    if let Some(t) = pointer_time(ui, &painter, &resp, plot, end) {
        resp.on_hover_ui_at_pointer(|ui| {
            ui.strong(&series.label);
            if let Some(m) = &series.metric {
                ui.monospace(m);
            }
            ui.label(format!("at {}", time_text(t)));
            for (s, side) in sides {
                let v = s.and_then(|s| s.value_at(t));
                let v = v.map_or(NOT_MEASURED.to_string(), |v| value_text(v, &series.unit));
                if several {
                    ui.colored_label(side.color, format!("{}: {v}", side.name));
                } else {
                    ui.label(v);
                }
            }
        });
    }
}

/// The "Workload Execution" strip: a bar per side from the workload's start to its end.
fn workload_strip(ui: &mut egui::Ui, sides: &[Side<'_>], end: f64) {
    let width = ui.available_width().max(LABEL_W + VALUE_W + 100.0);
    let (rect, resp) = ui.allocate_exact_size(vec2(width, STRIP_H), Sense::hover());
    if !ui.is_rect_visible(rect) {
        return;
    }
    let painter = ui.painter_at(rect);
    painter.text(
        rect.left_center() + vec2(2.0, 0.0),
        Align2::LEFT_CENTER,
        "Workload Execution",
        FontId::proportional(11.5),
        ui.visuals().strong_text_color(),
    );
    let (x0, x1) = plot_x(rect);
    let plot = Rect::from_x_y_ranges(x0..=x1, rect.top() + 2.0..=rect.bottom() - 2.0);
    painter.rect_filled(plot, 1.0, crate::theme::bar_track(ui));
    let x_of = |t: f64| plot.left() + (t.clamp(0.0, end) / end) as f32 * plot.width();
    let spans: Vec<(&Side<'_>, (f64, f64))> = sides
        .iter()
        .filter_map(|s| Some((s, s.timeline.workload?)))
        .collect();
    let lane = plot.height() / spans.len().max(1) as f32;
    for (k, (side, (start, stop))) in spans.iter().enumerate() {
        let top = plot.top() + lane * k as f32;
        let bar = Rect::from_x_y_ranges(
            x_of(*start)..=x_of(*stop).max(x_of(*start) + 1.0),
            top + 1.0..=top + lane - 1.0,
        );
        painter.rect_filled(bar, 2.0, side.color.gamma_multiply(0.8));
    }
    if let Some((_, (start, stop))) = spans.last() {
        painter.text(
            rect.right_center() - vec2(2.0, 0.0),
            Align2::RIGHT_CENTER,
            time_text(stop - start),
            FontId::proportional(10.5),
            ui.visuals().weak_text_color(),
        );
    }
    resp.on_hover_ui_at_pointer(|ui| {
        ui.strong("Workload Execution");
        ui.monospace("profiler__timestamp_workload_start_0 … _end_0");
        for (side, (start, stop)) in &spans {
            let text = format!(
                "from {} to {} ({})",
                time_text(*start),
                time_text(*stop),
                time_text(stop - start)
            );
            if sides.len() > 1 {
                ui.colored_label(side.color, format!("{}: {text}", side.name));
            } else {
                ui.label(text);
            }
        }
    });
}
