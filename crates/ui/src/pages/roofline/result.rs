//! The selected result's chart, its ceilings and points tables, and the notes on estimates.

use super::*;

/// The selected result's chart, its tables and notes.
pub(super) fn result_view(
    ui: &mut egui::Ui,
    roof: &Roofline,
    chart: Option<(ChartKind, &Chart)>,
    arrows: &[BaselineArrow],
    plot_height: f32,
    reset: bool,
) {
    let Some((kind, chart)) = chart else {
        ui.add_space(8.0);
        ui.label(
            "No roofline for this result: it has neither the roofline metrics (collect with \
             --set full) nor what an estimate needs (compute capability, SM count and \
             frequency, the roofline rule's percentages, DRAM throughput).",
        );
        assumptions_ui(ui, roof);
        return;
    };
    if roof.estimated {
        ui.label(
            RichText::new("Estimated roofline")
                .strong()
                .color(ui.visuals().warn_fg_color),
        );
        ui.label(
            "This source lacks the roofline metrics (collect with --set full for exact values); \
             the values are derived as listed under Assumptions.",
        );
    }
    for p in chart.points.iter().filter(|p| p.above_roof) {
        ui.label(
            RichText::new(above_roof_warning(&p.label, p, chart.work_unit))
                .color(ui.visuals().error_fg_color),
        );
    }
    if !chart_plot(ui, roof, kind, chart, arrows, plot_height, reset, plot_id()) {
        return;
    }
    arrows_legend(ui, arrows);
    ui.add_space(6.0);
    ceilings_table(ui, chart);
    ui.add_space(6.0);
    points_table(ui, chart);
    assumptions_ui(ui, roof);
}

/// Draws the plot of `chart` (its roofs, achieved points and the baselines' arrows); false
/// when nothing on it can be drawn on log axes.
#[allow(clippy::too_many_arguments)]
pub(super) fn chart_plot(
    ui: &mut egui::Ui,
    roof: &Roofline,
    kind: ChartKind,
    chart: &Chart,
    arrows: &[BaselineArrow],
    plot_height: f32,
    reset: bool,
    id: egui::Id,
) -> bool {
    let roofs: Vec<Roof> = chart
        .ceilings
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let (peak_name, slope_name) = roof_names(kind, &c.label);
            Roof {
                label: c.label.clone(),
                peak_name,
                slope_name,
                ceiling: c.clone(),
                color: ROOF_COLORS[i % ROOF_COLORS.len()],
            }
        })
        .collect();
    let markers: Vec<Marker> = chart
        .points
        .iter()
        .filter_map(|p| {
            let color = roofs.get(p.ceiling).map_or(ROOF_COLORS[0], |r| r.color);
            achieved_marker(p, chart.work_unit, color)
        })
        .collect();
    let Some(bounds) = chart.extent().and_then(|((xa, xb), (ya, yb))| {
        let x = log_bounds(xa, xb, 0.0)?;
        let y = log_bounds(ya, yb, 0.0)?;
        // Room for the baselines' ends of the arrows.
        let x = arrows.iter().fold(x, |(lo, hi), a| {
            (lo.min(a.from.0 - 0.3), hi.max(a.from.0 + 0.3))
        });
        let y = arrows
            .iter()
            .fold(y, |(lo, hi), a| (lo.min(a.from.1 - 0.3), hi.max(a.from.1)));
        Some((x, (y.0, y.1 + HEADROOM)))
    }) else {
        ui.label("Nothing on this chart can be drawn on log axes.");
        return false;
    };
    let labels = labels_of(&roofs);
    let spec = PlotSpec {
        work_unit: chart.work_unit,
        roofs: &roofs,
        labels: &labels,
        markers: &markers,
        arrows,
        shade: chart.points.first().map(|p| p.ceiling).or(Some(0)),
        estimated: roof.estimated,
        bounds,
        height: plot_height,
        id,
    };
    draw_plot(ui, &spec, reset);
    true
}

/// The short names of a ceiling's peak and slope from its label: `Single Precision Roofline`
/// gives (`FP32`, `DRAM`), `L2 Roofline` of the FP64 chart (`FP64`, `L2`), `DRAM Roofline
/// (Op:hmma ...)` (`Op:hmma ...`, `DRAM`).
pub(super) fn roof_names(kind: ChartKind, label: &str) -> (String, String) {
    let before = label.split(" Roofline").next().unwrap_or(label).to_string();
    match kind {
        ChartKind::FloatingPoint => {
            let peak = Precision::ALL
                .into_iter()
                .find(|p| label.starts_with(p.label()))
                .map_or(before, |p| p.name().to_string());
            (peak, level_label(MemoryLevel::Dram).to_string())
        }
        ChartKind::Hierarchical(p) => (p.name().to_string(), before),
        ChartKind::Tensor => {
            let path = label
                .split_once('(')
                .map_or("", |(_, rest)| rest.trim_end_matches(')'))
                .to_string();
            (path, before)
        }
    }
}

/// The warning for a point above its roof.
pub(super) fn above_roof_warning(what: &str, p: &AchievedPoint, work_unit: &str) -> String {
    let unit = format!("{work_unit}/s");
    format!(
        "Warning: {what} lies above its roof ({} is {} of the roof's {} at {}). The units, the \
         precision or the counting of this value are off{}.",
        format_rate(p.work, &unit),
        format_pct(p.pct_of_roof),
        format_rate(p.roof, &unit),
        format_intensity(p.intensity, work_unit),
        if p.estimated {
            ", or the estimate is too coarse"
        } else {
            ""
        }
    )
}

pub(super) fn bound_text(b: Bound) -> &'static str {
    match b {
        Bound::Memory => "Memory bound",
        Bound::Compute => "Compute bound",
    }
}

/// The tooltip lines of an achieved point.
pub(super) fn point_lines(p: &AchievedPoint, work_unit: &str) -> Vec<String> {
    let unit = format!("{work_unit}/s");
    let mut lines = vec![
        format!(
            "Arithmetic intensity: {}",
            format_intensity(p.intensity, work_unit)
        ),
        format!("Performance: {}", format_rate(p.work, &unit)),
        format!(
            "{} of the roof above it ({})",
            format_pct(p.pct_of_roof),
            format_rate(p.roof, &unit)
        ),
        bound_text(p.bound).to_string(),
    ];
    if p.estimated {
        lines.push("Estimated (see Assumptions)".into());
    }
    lines
}

/// The marker of an achieved point; `None` where it cannot go on log axes.
pub(super) fn achieved_marker(
    p: &AchievedPoint,
    work_unit: &str,
    color: Color32,
) -> Option<Marker> {
    Some(Marker {
        legend: if p.estimated {
            format!("{} (estimated)", p.label)
        } else {
            p.label.clone()
        },
        x: to_log(p.intensity)?,
        y: to_log(p.work)?,
        radius: if p.above_roof { 7.0 } else { 5.5 },
        color: if p.above_roof { ROOF_COLORS[4] } else { color },
        shape: if p.above_roof {
            MarkerShape::Cross
        } else {
            MarkerShape::Circle
        },
        filled: !p.estimated,
        ring: false,
        title: p.label.clone(),
        lines: point_lines(p, work_unit),
        warning: p
            .above_roof
            .then(|| "Above its roof: units, precision or counting are off".into()),
        target: None,
    })
}

/// The ceilings of a chart with their values.
pub(super) fn ceilings_table(ui: &mut egui::Ui, chart: &Chart) {
    let work = format!("{}/s", chart.work_unit);
    egui::Grid::new("roofline_ceilings")
        .striped(true)
        .num_columns(4)
        .show(ui, |ui| {
            ui.strong("Roofline");
            ui.strong("Peak performance");
            ui.strong("Peak bandwidth");
            ui.strong("Ridge point");
            ui.end_row();
            for c in &chart.ceilings {
                ui.label(&c.label);
                ui.label(format_rate(c.peak_work, &work));
                ui.label(format_rate(c.peak_traffic, TRAFFIC_UNIT));
                ui.label(format_intensity(c.ridge(), chart.work_unit));
                ui.end_row();
            }
        });
}

/// The achieved points of a chart with their position under the roof.
pub(super) fn points_table(ui: &mut egui::Ui, chart: &Chart) {
    if chart.points.is_empty() {
        ui.weak("No achieved value on this chart (no work of this kind, or no traffic).");
        return;
    }
    let work = format!("{}/s", chart.work_unit);
    egui::Grid::new("roofline_points")
        .striped(true)
        .num_columns(6)
        .show(ui, |ui| {
            ui.strong("Achieved value");
            ui.strong("Arithmetic intensity");
            ui.strong("Performance");
            ui.strong("Roof above it");
            ui.strong("Of the roof");
            ui.strong("Bound");
            ui.end_row();
            for p in &chart.points {
                ui.label(&p.label);
                ui.label(format_intensity(p.intensity, chart.work_unit));
                ui.label(format_rate(p.work, &work));
                ui.label(format_rate(p.roof, &work));
                let pct = RichText::new(format_pct(p.pct_of_roof));
                ui.label(if p.above_roof {
                    pct.color(ui.visuals().error_fg_color)
                } else {
                    pct
                });
                ui.label(bound_text(p.bound));
                ui.end_row();
            }
        });
}

/// The list of assumptions behind an estimated roofline.
pub(super) fn assumptions_ui(ui: &mut egui::Ui, roof: &Roofline) {
    if roof.assumptions.is_empty() {
        return;
    }
    ui.add_space(6.0);
    egui::CollapsingHeader::new(RichText::new("Assumptions").strong())
        .id_salt("roofline_assumptions")
        .default_open(true)
        .show(ui, |ui| {
            for a in &roof.assumptions {
                ui.label(format!("• {a}"));
            }
        });
}
