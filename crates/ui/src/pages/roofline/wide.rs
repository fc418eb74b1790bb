//! The report-wide chart: every result of a report (or of all open reports) as one point
//! sized by its duration.

use super::*;
use crate::model::format::NOT_MEASURED;

/// The report-wide chart: one point per result, sized by duration, clickable.
pub(super) fn wide_view(
    ui: &mut egui::Ui,
    cx: &PageContext<'_>,
    state: &mut RooflinePage,
    roof: &Roofline,
    options: &RooflineOptions,
    plot_height: f32,
    reset: bool,
) {
    let key = WideKey {
        generation: cx.workspace.generation(),
        scope: state.scope,
        report: cx.at.report,
        precision: state.precision,
        level: state.level,
        assumed_cc: options.assumed_cc,
    };
    let wide = match &state.wide {
        Some((k, w)) if *k == key => w.clone(),
        _ => {
            let w = wide_points(cx, state, options);
            state.wide = Some((key, w.clone()));
            w
        }
    };
    let level = state.level;
    let mut precisions: Vec<Precision> = Vec::new();
    for p in Precision::ALL {
        if wide.points.iter().any(|w| w.precision == p) {
            precisions.push(p);
        }
    }
    let roofs: Vec<Roof> = precisions
        .iter()
        .filter_map(|&p| {
            let peak_work = roof.peak_work.get(p).filter(|v| *v > 0.0)?;
            let peak_traffic = roof.peak_traffic.get(level).filter(|v| *v > 0.0)?;
            let label = format!("{} Roofline ({})", p.name(), level_label(level));
            Some(Roof {
                label: label.clone(),
                peak_name: p.name().to_string(),
                slope_name: level_label(level).to_string(),
                ceiling: Ceiling {
                    label,
                    peak_work,
                    peak_traffic,
                },
                color: precision_color(p),
            })
        })
        .collect();
    let longest = wide
        .points
        .iter()
        .filter_map(|w| w.duration_ns)
        .fold(0.0f64, f64::max);
    let many_reports = state.scope == Scope::AllReports;
    // The selected result last, so it is drawn on top.
    let (mut markers, selected): (Vec<Marker>, Vec<Marker>) = wide
        .points
        .iter()
        .filter_map(|w| wide_marker(w, cx.at, longest, many_reports))
        .partition(|m| !m.ring);
    markers.extend(selected);

    let estimated = wide.points.iter().any(|w| w.point.estimated);
    if estimated {
        ui.label(
            RichText::new("Some points are estimated (hollow markers)")
                .strong()
                .color(ui.visuals().warn_fg_color),
        );
    }
    for w in wide.points.iter().filter(|w| w.point.above_roof) {
        let what = format!("{} (ID {}, {})", w.kernel, w.id, w.report_name);
        ui.label(
            RichText::new(above_roof_warning(&what, &w.point, "FLOP"))
                .color(ui.visuals().error_fg_color),
        );
    }
    let Some(bounds) = wide_bounds(&roofs, &wide.points) else {
        ui.label(format!(
            "No result has {} work and {} traffic to draw.",
            state.precision.label(),
            level_label(level)
        ));
        return;
    };
    let labels = labels_of(&roofs);
    let spec = PlotSpec {
        work_unit: "FLOP",
        roofs: &roofs,
        labels: &labels,
        markers: &markers,
        arrows: &[],
        shade: (!roofs.is_empty()).then_some(0),
        estimated,
        bounds,
        height: plot_height,
        id: plot_id(),
    };
    if let Some(at) = draw_plot(ui, &spec, reset) {
        state.select_request = Some(at);
    }
    ui.weak(format!(
        "{} drawn, each sized by its duration; hover for details, click to select.{}",
        crate::model::format::count_text(wide.points.len(), "result", "results"),
        if wide.skipped > 0 {
            format!(
                " {} {} no {} work, no {} traffic or no peaks and {} left out.",
                wide.skipped,
                if wide.skipped == 1 {
                    "result has"
                } else {
                    "results have"
                },
                match state.precision {
                    WidePrecision::Largest => "FP",
                    WidePrecision::Fixed(p) => p.name(),
                },
                level_label(level),
                if wide.skipped == 1 { "is" } else { "are" },
            )
        } else {
            String::new()
        }
    ));
    if many_reports {
        let shapes: Vec<String> = cx
            .workspace
            .reports()
            .iter()
            .enumerate()
            .map(|(i, r)| format!("{} = {}", REPORT_SHAPES[i % REPORT_SHAPES.len()].1, r.name))
            .collect();
        ui.weak(format!("Markers: {}", shapes.join(", ")));
    }
    if !roofs.is_empty() {
        ui.weak(format!(
            "Ceilings of the selected result ({}).",
            cx.result.name.function
        ));
    }
}

/// The points of every result in scope.
pub(super) fn wide_points(
    cx: &PageContext<'_>,
    state: &mut RooflinePage,
    options: &RooflineOptions,
) -> WidePoints {
    let mut out = WidePoints::default();
    let reports: Vec<(usize, &sightline_app::core::workspace::OpenReport)> = cx
        .workspace
        .reports()
        .iter()
        .enumerate()
        .filter(|(_, r)| state.scope == Scope::AllReports || r.id == cx.at.report)
        .collect();
    for (order, open) in reports {
        let context = state.context(cx.workspace, open.id);
        for (index, result) in open.report.results.iter().enumerate() {
            let roof = roofline::analyze(result, open.report.device_of(result), &context, options);
            match wide_point(&roof, state.precision, state.level) {
                Some((precision, point)) => out.points.push(WidePoint {
                    at: ResultRef {
                        report: open.id,
                        index,
                    },
                    report_order: order,
                    report_name: open.name.clone(),
                    id: result.id,
                    kernel: if result.name.function.is_empty() {
                        result.name.demangled.clone()
                    } else {
                        result.name.function.clone()
                    },
                    duration_ns: result.number(names::DURATION),
                    precision,
                    level: state.level,
                    point,
                }),
                None => out.skipped += 1,
            }
        }
    }
    out
}

/// One result's point against its own roof.
pub(super) fn wide_point(
    roof: &Roofline,
    precision: WidePrecision,
    level: MemoryLevel,
) -> Option<(Precision, AchievedPoint)> {
    let (p, work) = precision.pick(roof)?;
    let ceiling = Ceiling {
        label: format!("{} Roofline ({})", p.name(), level_label(level)),
        peak_work: roof.peak_work.get(p).filter(|v| *v > 0.0)?,
        peak_traffic: roof.peak_traffic.get(level).filter(|v| *v > 0.0)?,
    };
    let traffic = roof.achieved_traffic.get(level)?;
    let point = AchievedPoint::place(
        format!("{} vs {}", p.name(), level_label(level)),
        work,
        traffic,
        0,
        &ceiling,
        roof.estimated,
    )?;
    Some((p, point))
}

/// The marker of one result in the report-wide chart.
pub(super) fn wide_marker(
    w: &WidePoint,
    selected: ResultRef,
    longest: f64,
    shapes: bool,
) -> Option<Marker> {
    let scale = match w.duration_ns {
        Some(d) if longest > 0.0 && d > 0.0 => (d / longest).sqrt() as f32,
        _ => 0.0,
    };
    let mut lines = vec![
        w.report_name.clone(),
        format!(
            "Duration: {}",
            w.duration_ns
                .map_or_else(|| NOT_MEASURED.into(), |d| value_text(d, "ns"))
        ),
        format!(
            "{} work against {} traffic",
            w.precision.name(),
            level_label(w.level)
        ),
    ];
    lines.extend(point_lines(&w.point, "FLOP"));
    lines.push("Click to select".into());
    let shape = if w.point.above_roof {
        MarkerShape::Cross
    } else if shapes {
        REPORT_SHAPES[w.report_order % REPORT_SHAPES.len()].0
    } else {
        MarkerShape::Circle
    };
    Some(Marker {
        legend: format!("{} results", w.precision.name()),
        x: to_log(w.point.intensity)?,
        y: to_log(w.point.work)?,
        radius: WIDE_MIN_RADIUS + WIDE_EXTRA_RADIUS * scale,
        color: if w.point.above_roof {
            ROOF_COLORS[4]
        } else {
            precision_color(w.precision)
        },
        shape,
        filled: !w.point.estimated,
        ring: w.at == selected,
        title: format!("{} (ID {})", w.kernel, w.id),
        lines,
        warning: w
            .point
            .above_roof
            .then(|| "Above its roof: units, precision or counting are off".into()),
        target: Some(w.at),
    })
}

/// The default view of the report-wide chart, log10.
pub(super) fn wide_bounds(
    roofs: &[Roof],
    points: &[WidePoint],
) -> Option<((f64, f64), (f64, f64))> {
    let xs = roofs
        .iter()
        .map(|r| r.ceiling.ridge())
        .chain(points.iter().map(|w| w.point.intensity));
    let ys = roofs
        .iter()
        .map(|r| r.ceiling.peak_work)
        .chain(points.iter().map(|w| w.point.work));
    let range = |it: &mut dyn Iterator<Item = f64>| {
        it.filter(|v| v.is_finite() && *v > 0.0)
            .fold(None, |acc: Option<(f64, f64)>, v| {
                Some(acc.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v))))
            })
    };
    let (xa, xb) = range(&mut { xs })?;
    let (ya, yb) = range(&mut { ys })?;
    let x = log_bounds(xa / 10.0, xb * 10.0, 0.0)?;
    let y = log_bounds(ya / 10.0, yb * 2.0, 0.0)?;
    Some((x, (y.0, y.1 + HEADROOM)))
}
