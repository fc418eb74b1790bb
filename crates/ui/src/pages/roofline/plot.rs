//! Drawing a roofline plot: roofs, shaded regions, markers, arrows and roof labels.

use super::*;

/// Draws the plot, its hover tooltip and click; returns the result a click selected.
pub(super) fn draw_plot(ui: &mut egui::Ui, spec: &PlotSpec<'_>, reset: bool) -> Option<ResultRef> {
    let ((x0, x1), (y0, y1)) = spec.bounds;
    let rate_unit = format!("{}/s", spec.work_unit);
    let axis_unit = rate_unit.clone();
    let text_color = ui.visuals().text_color();
    let weak_color = ui.visuals().weak_text_color();
    let background = ui.visuals().extreme_bg_color;
    let mut plot = Plot::new("roofline_plot")
        .id(spec.id)
        .height(spec.height)
        .default_x_bounds(x0, x1)
        .default_y_bounds(y0, y1)
        .x_grid_spacer(plot_util::log_grid_marks)
        .y_grid_spacer(plot_util::log_grid_marks)
        .x_axis_formatter(|mark, range| plot_util::log_tick_label(mark, range, ""))
        .y_axis_formatter(move |mark, range| plot_util::log_tick_label(mark, range, &axis_unit))
        .x_axis_label(format!("Arithmetic Intensity [{}/byte]", spec.work_unit))
        .y_axis_label(format!("Performance [{rate_unit}]"))
        .y_axis_min_width(78.0)
        .show_x(false)
        .show_y(false)
        // The wheel scrolls the page; drag pans, right-drag boxes or axis drags zoom.
        .allow_scroll(false)
        .allow_axis_zoom_drag(true);
    if reset {
        plot = plot.reset();
    }
    let response = plot.show(ui, |plot_ui| {
        if let Some(roof) = spec.shade.and_then(|i| spec.roofs.get(i)) {
            shade_regions(plot_ui, &roof.ceiling, (x0, x1), (y0, y1), weak_color);
        }
        for roof in spec.roofs {
            draw_roof(plot_ui, roof, background);
        }
        roof_labels(plot_ui, spec.roofs, spec.labels, text_color, spec.work_unit);
        for m in spec.markers {
            if m.ring {
                plot_ui.points(
                    Points::new("", vec![[m.x, m.y]])
                        .shape(MarkerShape::Circle)
                        .radius(m.radius + 4.0)
                        .filled(false)
                        .color(text_color)
                        .allow_hover(false),
                );
            }
            plot_ui.points(
                Points::new(m.legend.clone(), vec![[m.x, m.y]])
                    .shape(m.shape)
                    .radius(m.radius)
                    .filled(m.filled)
                    .color(m.color)
                    .allow_hover(false),
            );
        }
        for a in spec.arrows {
            draw_arrow(plot_ui, a);
        }
    });
    let rect = response.response.rect;
    plot_util::note_plot_area(ui.ctx(), rect);
    if spec.estimated {
        ui.painter().text(
            egui::pos2(rect.right() - 10.0, rect.top() + 8.0),
            egui::Align2::RIGHT_TOP,
            "ESTIMATED (see Assumptions)",
            egui::FontId::proportional(13.0),
            ui.visuals().warn_fg_color,
        );
    }
    let pointer = response
        .response
        .hover_pos()
        .or_else(|| response.response.interact_pointer_pos());
    let hovered = pointer.and_then(|p| nearest_marker(spec.markers, &response.transform, p));
    let marker = hovered.and_then(|i| spec.markers.get(i))?;
    if response.response.hovered() {
        egui::Tooltip::always_open(
            ui.ctx().clone(),
            response.response.layer_id,
            response.response.id,
            egui::PopupAnchor::Pointer,
        )
        .gap(12.0)
        .show(|ui| {
            ui.strong(&marker.title);
            for line in &marker.lines {
                ui.label(line);
            }
            if let Some(w) = &marker.warning {
                ui.label(RichText::new(w).color(ui.visuals().error_fg_color));
            }
        });
    }
    if response.response.clicked() {
        return marker.target;
    }
    None
}

/// A baseline's arrow: a hollow marker at the baseline's value, the arrow to the selected
/// result's, and the change written at its middle.
pub(super) fn draw_arrow(plot_ui: &mut egui_plot::PlotUi<'_>, a: &BaselineArrow) {
    let color = crate::widgets::theme::rgb(a.color);
    plot_ui.points(
        Points::new("", vec![[a.from.0, a.from.1]])
            .shape(MarkerShape::Circle)
            .radius(5.0)
            .filled(false)
            .color(color)
            .allow_hover(false),
    );
    let from = plot_ui.screen_from_plot(PlotPoint::new(a.from.0, a.from.1));
    let to = plot_ui.screen_from_plot(PlotPoint::new(a.to.0, a.to.1));
    if from.distance(to) < 2.0 {
        return;
    }
    plot_ui.arrows(
        Arrows::new("", vec![[a.from.0, a.from.1]], vec![[a.to.0, a.to.1]])
            .color(color)
            .tip_length(12.0)
            .allow_hover(false),
    );
    // Beside the middle of the arrow, in the baseline's colour.
    let middle = plot_ui.plot_from_screen(from.lerp(to, 0.5) + egui::vec2(10.0, 0.0));
    plot_ui.text(
        Text::new(
            "",
            middle,
            RichText::new(&a.label).size(LABEL_SIZE).color(color),
        )
        .anchor(egui::Align2::LEFT_CENTER)
        .allow_hover(false),
    );
}

/// The arrows in words under the chart, in the baselines' colours.
pub(super) fn arrows_legend(ui: &mut egui::Ui, arrows: &[BaselineArrow]) {
    if arrows.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.weak("From baselines (hollow markers) to this result:");
        for a in arrows {
            let color = crate::widgets::theme::rgb(a.color);
            crate::widgets::theme::swatch(ui, color);
            ui.label(
                RichText::new(format!("{} {}: {}", a.baseline, a.point, a.label)).color(color),
            );
        }
    });
}

/// The index of the marker under the pointer (the nearest within its radius).
pub(super) fn nearest_marker(
    markers: &[Marker],
    transform: &PlotTransform,
    pointer: egui::Pos2,
) -> Option<usize> {
    markers
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let at = transform.position_from_point(&PlotPoint::new(m.x, m.y));
            let d = at.distance(pointer);
            (d <= m.radius + HOVER_SLACK).then_some((i, d))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(i, _)| i)
}

/// log10 coordinates of a ceiling: (ridge x, peak y, bandwidth offset: y = x + bw).
pub(super) fn roof_geometry(c: &Ceiling) -> Option<(f64, f64, f64)> {
    Some((
        to_log(c.ridge())?,
        to_log(c.peak_work)?,
        to_log(c.peak_traffic)?,
    ))
}

/// The memory-bound (under the slope) and compute-bound (under the flat roof) regions.
pub(super) fn shade_regions(
    plot_ui: &mut egui_plot::PlotUi<'_>,
    c: &Ceiling,
    (x0, x1): (f64, f64),
    (y0, _): (f64, f64),
    label_color: Color32,
) {
    let Some((ridge, peak, bw)) = roof_geometry(c) else {
        return;
    };
    let floor = y0 - FAR;
    let slope_start = floor - bw;
    plot_ui.polygon(
        Polygon::new(
            "Memory-bound region",
            vec![[slope_start, floor], [ridge, peak], [ridge, floor]],
        )
        .fill_color(MEMORY_REGION)
        .stroke(egui::Stroke::new(0.0, MEMORY_REGION.to_opaque()))
        .allow_hover(false),
    );
    plot_ui.polygon(
        Polygon::new(
            "Compute-bound region",
            vec![
                [ridge, floor],
                [ridge, peak],
                [x1 + FAR, peak],
                [x1 + FAR, floor],
            ],
        )
        .fill_color(COMPUTE_REGION)
        .stroke(egui::Stroke::new(0.0, COMPUTE_REGION.to_opaque()))
        .allow_hover(false),
    );
    let label_y = y0 + 0.08 * (peak - y0).max(0.5);
    if ridge > x0 {
        plot_ui.text(
            Text::new(
                "",
                PlotPoint::new(ridge - 0.05, label_y),
                RichText::new("Memory bound").size(LABEL_SIZE),
            )
            .color(label_color)
            .anchor(egui::Align2::RIGHT_BOTTOM)
            .allow_hover(false),
        );
    }
    if ridge < x1 {
        plot_ui.text(
            Text::new(
                "",
                PlotPoint::new(ridge + 0.05, label_y),
                RichText::new("Compute bound").size(LABEL_SIZE),
            )
            .color(label_color)
            .anchor(egui::Align2::LEFT_BOTTOM)
            .allow_hover(false),
        );
    }
}

/// One roof: the slope and flat line, the dashed peak guide and the ridge point.
pub(super) fn draw_roof(plot_ui: &mut egui_plot::PlotUi<'_>, roof: &Roof, background: Color32) {
    let Some((ridge, peak, bw)) = roof_geometry(&roof.ceiling) else {
        return;
    };
    let bounds = plot_ui.plot_bounds();
    let left = bounds.min()[0].min(ridge) - FAR;
    let right = bounds.max()[0].max(ridge) + FAR;
    plot_ui.line(
        Line::new(
            roof.label.clone(),
            vec![[left, left + bw], [ridge, peak], [right, peak]],
        )
        .color(roof.color)
        .width(2.0)
        .allow_hover(false),
    );
    plot_ui.line(
        Line::new("", vec![[left, peak], [ridge, peak]])
            .color(roof.color.gamma_multiply(0.45))
            .width(1.0)
            .style(LineStyle::dashed_loose())
            .allow_hover(false),
    );
    plot_ui.points(
        Points::new("", vec![[ridge, peak]])
            .shape(MarkerShape::Square)
            .radius(4.0)
            .filled(true)
            .color(background)
            .allow_hover(false),
    );
    plot_ui.points(
        Points::new("", vec![[ridge, peak]])
            .shape(MarkerShape::Square)
            .radius(4.0)
            .filled(false)
            .color(roof.color)
            .allow_hover(false),
    );
}

/// The labels of `roofs` (roofs without log geometry have none).
pub(super) fn labels_of(roofs: &[Roof]) -> RoofLabels {
    roofline::labels::roof_labels(roofs.iter().enumerate().filter_map(|(index, roof)| {
        let (ridge, _, _) = roof_geometry(&roof.ceiling)?;
        Some(LabelledRoof {
            index,
            ridge,
            peak_work: roof.ceiling.peak_work,
            peak_traffic: roof.ceiling.peak_traffic,
            peak_name: &roof.peak_name,
            slope_name: &roof.slope_name,
        })
    }))
}

/// Each distinct peak labelled above its flat roof, right of every ridge; each distinct
/// bandwidth labelled under its slope, left of its ridge; both with the names of what they
/// bound (`FP32 66.93 TFLOP/s`, `DRAM 3.35 TB/s`); `labels` come highest first.
pub(super) fn roof_labels(
    plot_ui: &mut egui_plot::PlotUi<'_>,
    roofs: &[Roof],
    labels: &RoofLabels,
    text_color: Color32,
    work_unit: &str,
) {
    let unit = format!("{work_unit}/s");
    let color = |g: &RoofLabel| match roofs.get(g.first) {
        Some(roof) if g.count == 1 => roof.color,
        _ => text_color,
    };
    // Labels are placed in order of priority (the highest peaks, then the fastest slopes); one
    // that would overlap a placed label is hidden, and shown while the pointer is near it.
    let pointer = plot_ui
        .pointer_coordinate()
        .map(|p| plot_ui.screen_from_plot(p));
    let mut placed: Vec<egui::Rect> = Vec::new();
    let mut place = |plot_ui: &mut egui_plot::PlotUi<'_>,
                     at: PlotPoint,
                     anchor: egui::Align2,
                     text: String,
                     color: Color32| {
        let size = egui::vec2(
            text.chars().count() as f32 * LABEL_SIZE * 0.55,
            LABEL_SIZE * 1.3,
        );
        let rect = anchor.anchor_size(plot_ui.screen_from_plot(at), size);
        let free = !placed.iter().any(|r| r.shrink(1.0).intersects(rect));
        let hovered = pointer.is_some_and(|p| rect.expand(6.0).contains(p));
        if free {
            placed.push(rect);
        } else if !hovered {
            return;
        }
        plot_ui.text(
            Text::new("", at, RichText::new(text).size(LABEL_SIZE))
                .color(color)
                .anchor(anchor)
                .allow_hover(false),
        );
    };
    // Right of every ridge, so no slope crosses a peak's label; above its line, or below it
    // when the line above is too close for two labels.
    let right = labels
        .peaks
        .iter()
        .map(|g| g.ridge)
        .fold(f64::MIN, f64::max);
    let mut previous_line: Option<f32> = None;
    let mut previous_below = false;
    for g in &labels.peaks {
        let Some(y) = to_log(g.value) else { continue };
        let screen_y = plot_ui.screen_from_plot(PlotPoint::new(right, y)).y;
        let crowded = previous_line.is_some_and(|p| (screen_y - p).abs() < 2.0 * LABEL_SIZE);
        let below = crowded && !previous_below;
        previous_line = Some(screen_y);
        previous_below = below;
        let (dy, anchor) = if below {
            (-0.02, egui::Align2::LEFT_TOP)
        } else {
            (0.02, egui::Align2::LEFT_BOTTOM)
        };
        let text = format!("{} {}", g.names.join(", "), format_rate(g.value, &unit));
        place(
            plot_ui,
            PlotPoint::new(right + 0.1, y + dy),
            anchor,
            text,
            color(g),
        );
    }
    let left = plot_ui.plot_bounds().min()[0];
    for g in &labels.slopes {
        let Some(b) = to_log(g.value) else { continue };
        // Under the slope, starting half a decade left of the ridge (or at the left edge).
        let x = (g.ridge - 0.6).max(left + 0.05).min(g.ridge - 0.2);
        let text = format!(
            "{} {}",
            g.names.join(", "),
            format_rate(g.value, TRAFFIC_UNIT)
        );
        place(
            plot_ui,
            PlotPoint::new(x, x + b - 0.06),
            egui::Align2::LEFT_TOP,
            text,
            color(g),
        );
    }
}
