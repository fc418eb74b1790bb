//! The Roofline page: the selected result's rooflines on log-log axes (each ceiling with its
//! values and ridge point, the memory- and compute-bound regions shaded, achieved points with a
//! hover tooltip), estimated rooflines marked with their assumptions, points above their roof
//! called out, an arrow from each visible baseline's achieved value to the selected result's
//! (labelled with the change, in the baseline's colour), and a report-wide chart of every
//! result sized by its duration.

use super::baselines::VisibleBaseline;
use super::pages::PageContext;
use super::plot_util::{self, format_intensity, format_pct, format_rate, log_bounds, to_log};
use super::workspace::{ReportId, ResultRef, Workspace};
use crate::analysis::occupancy::inputs::compute_capability;
use crate::analysis::roofline::{
    self, AchievedPoint, Bound, Ceiling, Chart, ChartKind, MemoryLevel, Precision, Roofline,
    RooflineContext, RooflineOptions,
};
use crate::model::names;
use crate::model::units::format_value;
use egui::{Color32, RichText};
use egui_plot::{
    Arrows, Line, LineStyle, MarkerShape, Plot, PlotPoint, PlotTransform, Points, Polygon, Text,
};

/// Bandwidth unit of the ceilings.
const TRAFFIC_UNIT: &str = "B/s";
/// Text size of the labels inside the plot.
const LABEL_SIZE: f32 = 13.0;
/// Plot height limits, points.
const PLOT_MIN_HEIGHT: f32 = 300.0;
const PLOT_MAX_HEIGHT: f32 = 620.0;
/// How far beyond the default view the roofs and regions are drawn, decades.
const FAR: f64 = 12.0;
/// Room above the highest roof for its label, decades.
const HEADROOM: f64 = 0.35;
/// Extra pointer distance (beyond a marker's radius) that still hovers it, points.
const HOVER_SLACK: f32 = 4.0;
/// Marker radius of the report-wide chart: smallest, and added for the longest result.
const WIDE_MIN_RADIUS: f32 = 3.5;
const WIDE_EXTRA_RADIUS: f32 = 12.0;

/// The ceiling colours, in order.
const ROOF_COLORS: [Color32; 6] = [
    Color32::from_rgb(70, 140, 230),
    Color32::from_rgb(235, 140, 40),
    Color32::from_rgb(60, 175, 110),
    Color32::from_rgb(180, 100, 210),
    Color32::from_rgb(215, 85, 85),
    Color32::from_rgb(40, 175, 185),
];
const MEMORY_REGION: Color32 = Color32::from_rgba_unmultiplied_const(70, 140, 230, 34);
const COMPUTE_REGION: Color32 = Color32::from_rgba_unmultiplied_const(60, 175, 110, 34);
/// Marker shapes of the reports in the all-reports chart, by report order.
const REPORT_SHAPES: [(MarkerShape, &str); 6] = [
    (MarkerShape::Circle, "circle"),
    (MarkerShape::Square, "square"),
    (MarkerShape::Diamond, "diamond"),
    (MarkerShape::Up, "triangle"),
    (MarkerShape::Down, "down triangle"),
    (MarkerShape::Asterisk, "asterisk"),
];

/// The id of the roofline plot (its memory holds the zoom and the screen transform).
pub fn plot_id() -> egui::Id {
    egui::Id::unique("sightline_roofline_plot")
}

/// What the chart shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Scope {
    /// The selected result's own charts.
    #[default]
    Result,
    /// One point per result of the selected result's report.
    Report,
    /// One point per result of every open report.
    AllReports,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Result, Scope::Report, Scope::AllReports];

    pub fn label(self) -> &'static str {
        match self {
            Scope::Result => "Selected result",
            Scope::Report => "All results of this report",
            Scope::AllReports => "All open reports",
        }
    }
}

/// Which FP work the report-wide chart plots per result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum WidePrecision {
    /// The precision with the most achieved work.
    #[default]
    Largest,
    Fixed(Precision),
}

impl WidePrecision {
    const ALL: [WidePrecision; 4] = [
        WidePrecision::Largest,
        WidePrecision::Fixed(Precision::Fp32),
        WidePrecision::Fixed(Precision::Fp64),
        WidePrecision::Fixed(Precision::Fp16),
    ];

    fn label(self) -> &'static str {
        match self {
            WidePrecision::Largest => "Largest FP work",
            WidePrecision::Fixed(p) => p.name(),
        }
    }

    fn pick(self, roof: &Roofline) -> Option<(Precision, f64)> {
        let work = |p: Precision| roof.achieved_work.get(p).filter(|w| *w > 0.0);
        match self {
            WidePrecision::Fixed(p) => work(p).map(|w| (p, w)),
            WidePrecision::Largest => Precision::ALL
                .into_iter()
                .filter_map(|p| work(p).map(|w| (p, w)))
                .max_by(|a, b| a.1.total_cmp(&b.1)),
        }
    }
}

fn level_label(l: MemoryLevel) -> &'static str {
    match l {
        MemoryLevel::Dram => "DRAM",
        MemoryLevel::L2 => "L2",
        MemoryLevel::L1 => "L1",
    }
}

fn precision_color(p: Precision) -> Color32 {
    match p {
        Precision::Fp32 => ROOF_COLORS[0],
        Precision::Fp64 => ROOF_COLORS[1],
        Precision::Fp16 => ROOF_COLORS[3],
    }
}

/// What identifies a view: when it changes, the zoom is reset.
#[derive(Debug, Clone, Copy, PartialEq)]
struct ViewKey {
    at: ResultRef,
    scope: Scope,
    chart: Option<ChartKind>,
    precision: WidePrecision,
    level: MemoryLevel,
    assumed_cc: Option<(u32, u32)>,
}

/// What the report-wide points were computed from.
#[derive(Debug, Clone, Copy, PartialEq)]
struct WideKey {
    generation: u64,
    scope: Scope,
    report: ReportId,
    precision: WidePrecision,
    level: MemoryLevel,
    assumed_cc: Option<(u32, u32)>,
}

/// One result of the report-wide chart.
#[derive(Debug, Clone)]
struct WidePoint {
    at: ResultRef,
    report_order: usize,
    report_name: String,
    id: u64,
    kernel: String,
    duration_ns: Option<f64>,
    precision: Precision,
    level: MemoryLevel,
    point: AchievedPoint,
}

/// The report-wide points and how many results had none.
#[derive(Debug, Clone, Default)]
struct WidePoints {
    points: Vec<WidePoint>,
    skipped: usize,
}

/// Choices and caches of the Roofline page.
pub struct RooflineViewState {
    chart: Option<ChartKind>,
    scope: Scope,
    precision: WidePrecision,
    level: MemoryLevel,
    reset_view: bool,
    last_view: Option<ViewKey>,
    contexts: Option<(u64, Vec<(ReportId, RooflineContext)>)>,
    wide: Option<(WideKey, WidePoints)>,
    select_request: Option<ResultRef>,
}

impl Default for RooflineViewState {
    fn default() -> Self {
        RooflineViewState {
            chart: None,
            scope: Scope::default(),
            precision: WidePrecision::default(),
            level: MemoryLevel::Dram,
            reset_view: false,
            last_view: None,
            contexts: None,
            wide: None,
            select_request: None,
        }
    }
}

impl RooflineViewState {
    /// A result the user clicked in the report-wide chart, to select (taken once).
    pub fn take_selection_request(&mut self) -> Option<ResultRef> {
        self.select_request.take()
    }

    /// Drops the cached contexts and report-wide points (reports closed or replaced); they
    /// are built again when shown.
    pub fn release(&mut self) {
        self.contexts = None;
        self.wide = None;
    }

    /// The roofline context of a report, built once per workspace generation.
    fn context(&mut self, workspace: &Workspace, report: ReportId) -> RooflineContext {
        let generation = workspace.generation();
        if self.contexts.as_ref().is_none_or(|(g, _)| *g != generation) {
            self.contexts = Some((generation, Vec::new()));
        }
        let Some((_, list)) = self.contexts.as_mut() else {
            return RooflineContext::default();
        };
        if let Some((_, c)) = list.iter().find(|(id, _)| *id == report) {
            return c.clone();
        }
        let context = workspace
            .report(report)
            .map(|open| RooflineContext::from_results(&open.report.results))
            .unwrap_or_default();
        list.push((report, context.clone()));
        context
    }
}

/// Shows the Roofline page.
pub fn show(
    ui: &mut egui::Ui,
    cx: &PageContext<'_>,
    state: &mut RooflineViewState,
    assumed_cc: &mut Option<(u32, u32)>,
) {
    let options = RooflineOptions {
        assumed_cc: *assumed_cc,
    };
    let context = state.context(cx.workspace, cx.at.report);
    let device = cx.open.report.device_of(cx.result);
    let roof = roofline::analyze(cx.result, device, &context, &options);
    let charts: Vec<(ChartKind, Chart)> = ChartKind::ALL
        .into_iter()
        .map(|k| (k, roof.chart(k)))
        .filter(|(_, c)| !c.is_empty())
        .collect();
    let chart_kind = state
        .chart
        .filter(|k| charts.iter().any(|(c, _)| c == k))
        .or_else(|| charts.first().map(|(k, _)| *k));

    let key = ViewKey {
        at: cx.at,
        scope: state.scope,
        chart: chart_kind,
        precision: state.precision,
        level: state.level,
        assumed_cc: *assumed_cc,
    };
    if state.last_view != Some(key) {
        state.reset_view = state.last_view.is_some();
        state.last_view = Some(key);
    }

    egui::ScrollArea::vertical()
        .id_salt("roofline_page")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            // The single-result chart leaves room for its tables; the report-wide one has
            // only a line of text under it.
            let share = if state.scope == Scope::Result {
                0.68
            } else {
                0.86
            };
            let plot_height =
                (ui.available_height() * share).clamp(PLOT_MIN_HEIGHT, PLOT_MAX_HEIGHT);
            controls(ui, state, &charts, chart_kind);
            if compute_capability(cx.result, device, None).is_err() {
                super::occupancy_view::architecture_picker(ui, assumed_cc);
            }
            let reset = std::mem::take(&mut state.reset_view);
            match state.scope {
                Scope::Result => {
                    let chart = charts
                        .iter()
                        .find(|(k, _)| Some(*k) == chart_kind)
                        .map(|(k, c)| (*k, c));
                    let arrows = chart.map_or_else(Vec::new, |(kind, chart)| {
                        baseline_arrows(cx, state, &options, kind, chart)
                    });
                    result_view(ui, &roof, chart, &arrows, plot_height, reset);
                }
                Scope::Report | Scope::AllReports => {
                    wide_view(ui, cx, state, &roof, &options, plot_height, reset);
                }
            }
        });
}

/// The chart, scope and reset controls.
fn controls(
    ui: &mut egui::Ui,
    state: &mut RooflineViewState,
    charts: &[(ChartKind, Chart)],
    current: Option<ChartKind>,
) {
    ui.horizontal_wrapped(|ui| {
        for scope in Scope::ALL {
            ui.selectable_value(&mut state.scope, scope, scope.label());
        }
        ui.separator();
        if state.scope == Scope::Result {
            let title = current.map_or_else(|| "-".to_string(), |k| k.title());
            egui::ComboBox::from_label("Chart")
                .selected_text(title)
                .show_ui(ui, |ui| {
                    for (kind, chart) in charts {
                        let mut chosen = current;
                        if ui
                            .selectable_value(&mut chosen, Some(*kind), chart.title.as_str())
                            .clicked()
                        {
                            state.chart = Some(*kind);
                        }
                    }
                });
        } else {
            egui::ComboBox::from_label("Work")
                .selected_text(state.precision.label())
                .show_ui(ui, |ui| {
                    for p in WidePrecision::ALL {
                        ui.selectable_value(&mut state.precision, p, p.label());
                    }
                });
            egui::ComboBox::from_label("Traffic")
                .selected_text(level_label(state.level))
                .show_ui(ui, |ui| {
                    for l in MemoryLevel::ALL {
                        ui.selectable_value(&mut state.level, l, level_label(l));
                    }
                });
        }
        if ui
            .button("Reset view")
            .on_hover_text(
                "Back to the whole chart. Drag to pan; right-drag a box, drag an axis or pinch \
                 to zoom; double-click also resets.",
            )
            .clicked()
        {
            state.reset_view = true;
        }
    });
}

/// A ceiling as drawn.
struct Roof {
    label: String,
    /// What the flat part is the peak of (`FP32`), and what the slope is the bandwidth of
    /// (`DRAM`), for the labels in the plot.
    peak_name: String,
    slope_name: String,
    ceiling: Ceiling,
    color: Color32,
}

/// A marker as drawn, with its tooltip.
struct Marker {
    legend: String,
    x: f64,
    y: f64,
    radius: f32,
    color: Color32,
    shape: MarkerShape,
    filled: bool,
    /// A ring around the marker (the selected result).
    ring: bool,
    title: String,
    lines: Vec<String>,
    warning: Option<String>,
    /// The result a click selects.
    target: Option<ResultRef>,
}

/// An arrow from a baseline's achieved value to the selected result's, log10 coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct BaselineArrow {
    pub from: (f64, f64),
    pub to: (f64, f64),
    pub color: Color32,
    /// The change of performance (`+35% FLOP/s`).
    pub label: String,
    /// The baseline (`matmul_naive · ID 3`) and the achieved value it belongs to.
    pub baseline: String,
    pub point: String,
}

/// The change of an achieved performance as the arrows label it: `+35% FLOP/s`, `-4.2% FLOP/s`.
pub fn change_label(base_work: f64, current_work: f64, work_unit: &str) -> String {
    let pct = (current_work / base_work - 1.0) * 100.0;
    if !pct.is_finite() {
        return format!("{work_unit}/s changed");
    }
    if pct.abs() >= 10.0 {
        format!("{pct:+.0}% {work_unit}/s")
    } else {
        format!("{pct:+.1}% {work_unit}/s")
    }
}

/// One arrow per visible baseline and achieved value both have on this chart.
fn baseline_arrows(
    cx: &PageContext<'_>,
    state: &mut RooflineViewState,
    options: &RooflineOptions,
    kind: ChartKind,
    chart: &Chart,
) -> Vec<BaselineArrow> {
    let mut out = Vec::new();
    for b in cx.baselines.iter().filter(|b| b.at != cx.at) {
        out.extend(arrows_of(cx, state, options, kind, chart, b));
    }
    out
}

fn arrows_of(
    cx: &PageContext<'_>,
    state: &mut RooflineViewState,
    options: &RooflineOptions,
    kind: ChartKind,
    chart: &Chart,
    b: &VisibleBaseline,
) -> Vec<BaselineArrow> {
    let Some((open, result)) = cx.workspace.result(b.at) else {
        return Vec::new();
    };
    let context = state.context(cx.workspace, b.at.report);
    let roof = roofline::analyze(result, open.report.device_of(result), &context, options);
    let theirs = roof.chart(kind);
    chart
        .points
        .iter()
        .filter_map(|p| {
            let q = theirs.points.iter().find(|q| q.label == p.label)?;
            Some(BaselineArrow {
                from: (to_log(q.intensity)?, to_log(q.work)?),
                to: (to_log(p.intensity)?, to_log(p.work)?),
                color: b.color,
                label: change_label(q.work, p.work, chart.work_unit),
                baseline: b.title.clone(),
                point: p.label.clone(),
            })
        })
        .collect()
}

/// What one plot draws.
struct PlotSpec<'s> {
    work_unit: &'static str,
    roofs: &'s [Roof],
    markers: &'s [Marker],
    /// Arrows from baselines to the selected result.
    arrows: &'s [BaselineArrow],
    /// The roof whose regions are shaded.
    shade: Option<usize>,
    estimated: bool,
    /// Default view, log10: ((x0, x1), (y0, y1)).
    bounds: ((f64, f64), (f64, f64)),
    height: f32,
}

/// The selected result's chart, its tables and notes.
fn result_view(
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
        return;
    };
    let spec = PlotSpec {
        work_unit: chart.work_unit,
        roofs: &roofs,
        markers: &markers,
        arrows,
        shade: chart.points.first().map(|p| p.ceiling).or(Some(0)),
        estimated: roof.estimated,
        bounds,
        height: plot_height,
    };
    draw_plot(ui, &spec, reset);
    arrows_legend(ui, arrows);
    ui.add_space(6.0);
    ceilings_table(ui, chart);
    ui.add_space(6.0);
    points_table(ui, chart);
    assumptions_ui(ui, roof);
}

/// The short names of a ceiling's peak and slope from its label: `Single Precision Roofline`
/// gives (`FP32`, `DRAM`), `L2 Roofline` of the FP64 chart (`FP64`, `L2`), `DRAM Roofline
/// (Op:hmma ...)` (`Op:hmma ...`, `DRAM`).
fn roof_names(kind: ChartKind, label: &str) -> (String, String) {
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
fn above_roof_warning(what: &str, p: &AchievedPoint, work_unit: &str) -> String {
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

fn bound_text(b: Bound) -> &'static str {
    match b {
        Bound::Memory => "Memory bound",
        Bound::Compute => "Compute bound",
    }
}

/// The tooltip lines of an achieved point.
fn point_lines(p: &AchievedPoint, work_unit: &str) -> Vec<String> {
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
fn achieved_marker(p: &AchievedPoint, work_unit: &str, color: Color32) -> Option<Marker> {
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
fn ceilings_table(ui: &mut egui::Ui, chart: &Chart) {
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
fn points_table(ui: &mut egui::Ui, chart: &Chart) {
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
fn assumptions_ui(ui: &mut egui::Ui, roof: &Roofline) {
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

/// The report-wide chart: one point per result, sized by duration, clickable.
fn wide_view(
    ui: &mut egui::Ui,
    cx: &PageContext<'_>,
    state: &mut RooflineViewState,
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
    let mut markers: Vec<Marker> = wide
        .points
        .iter()
        .filter_map(|w| wide_marker(w, cx.at, longest, many_reports))
        .collect();
    // The selected result last, so it is drawn on top.
    markers.sort_by_key(|m| m.ring);

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
    let spec = PlotSpec {
        work_unit: "FLOP",
        roofs: &roofs,
        markers: &markers,
        arrows: &[],
        shade: (!roofs.is_empty()).then_some(0),
        estimated,
        bounds,
        height: plot_height,
    };
    if let Some(at) = draw_plot(ui, &spec, reset) {
        state.select_request = Some(at);
    }
    ui.weak(format!(
        "{} results drawn, each sized by its duration; hover for details, click to select.{}",
        wide.points.len(),
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
fn wide_points(
    cx: &PageContext<'_>,
    state: &mut RooflineViewState,
    options: &RooflineOptions,
) -> WidePoints {
    let mut out = WidePoints::default();
    let reports: Vec<(usize, &super::workspace::OpenReport)> = cx
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
fn wide_point(
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
fn wide_marker(w: &WidePoint, selected: ResultRef, longest: f64, shapes: bool) -> Option<Marker> {
    let scale = match w.duration_ns {
        Some(d) if longest > 0.0 && d > 0.0 => (d / longest).sqrt() as f32,
        _ => 0.0,
    };
    let mut lines = vec![
        w.report_name.clone(),
        format!(
            "Duration: {}",
            w.duration_ns
                .map_or_else(|| "-".into(), |d| format_value(d, "ns"))
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
fn wide_bounds(roofs: &[Roof], points: &[WidePoint]) -> Option<((f64, f64), (f64, f64))> {
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

/// Draws the plot, its hover tooltip and click; returns the result a click selected.
fn draw_plot(ui: &mut egui::Ui, spec: &PlotSpec<'_>, reset: bool) -> Option<ResultRef> {
    let ((x0, x1), (y0, y1)) = spec.bounds;
    let rate_unit = format!("{}/s", spec.work_unit);
    let axis_unit = rate_unit.clone();
    let text_color = ui.visuals().text_color();
    let weak_color = ui.visuals().weak_text_color();
    let background = ui.visuals().extreme_bg_color;
    let mut plot = Plot::new("roofline_plot")
        .id(plot_id())
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
        roof_labels(plot_ui, spec.roofs, text_color, spec.work_unit);
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
fn draw_arrow(plot_ui: &mut egui_plot::PlotUi<'_>, a: &BaselineArrow) {
    plot_ui.points(
        Points::new("", vec![[a.from.0, a.from.1]])
            .shape(MarkerShape::Circle)
            .radius(5.0)
            .filled(false)
            .color(a.color)
            .allow_hover(false),
    );
    let from = plot_ui.screen_from_plot(PlotPoint::new(a.from.0, a.from.1));
    let to = plot_ui.screen_from_plot(PlotPoint::new(a.to.0, a.to.1));
    if from.distance(to) < 2.0 {
        return;
    }
    plot_ui.arrows(
        Arrows::new("", vec![[a.from.0, a.from.1]], vec![[a.to.0, a.to.1]])
            .color(a.color)
            .tip_length(12.0)
            .allow_hover(false),
    );
    // Beside the middle of the arrow, in the baseline's colour.
    let middle = plot_ui.plot_from_screen(from.lerp(to, 0.5) + egui::vec2(10.0, 0.0));
    plot_ui.text(
        Text::new(
            "",
            middle,
            RichText::new(&a.label).size(LABEL_SIZE).color(a.color),
        )
        .anchor(egui::Align2::LEFT_CENTER)
        .allow_hover(false),
    );
}

/// The arrows in words under the chart, in the baselines' colours.
fn arrows_legend(ui: &mut egui::Ui, arrows: &[BaselineArrow]) {
    if arrows.is_empty() {
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.weak("From baselines (hollow markers) to this result:");
        for a in arrows {
            super::theme::swatch(ui, a.color);
            ui.label(
                RichText::new(format!("{} {}: {}", a.baseline, a.point, a.label)).color(a.color),
            );
        }
    });
}

/// The index of the marker under the pointer (the nearest within its radius).
fn nearest_marker(
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
fn roof_geometry(c: &Ceiling) -> Option<(f64, f64, f64)> {
    Some((
        to_log(c.ridge())?,
        to_log(c.peak_work)?,
        to_log(c.peak_traffic)?,
    ))
}

/// The memory-bound (under the slope) and compute-bound (under the flat roof) regions.
fn shade_regions(
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
fn draw_roof(plot_ui: &mut egui_plot::PlotUi<'_>, roof: &Roof, background: Color32) {
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

/// Whether two values are the same to display precision.
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs())
}

/// Each distinct peak labelled above its flat roof, right of every ridge; each distinct
/// bandwidth labelled under its slope, left of its ridge; both with the names of what they
/// bound (`FP32 66.93 TFLOP/s`, `DRAM 3.35 TB/s`).
fn roof_labels(
    plot_ui: &mut egui_plot::PlotUi<'_>,
    roofs: &[Roof],
    text_color: Color32,
    work_unit: &str,
) {
    struct Group {
        value: f64,
        ridge: f64,
        color: Color32,
        names: Vec<String>,
        count: usize,
    }
    fn add(
        groups: &mut Vec<Group>,
        value: f64,
        ridge: f64,
        color: Color32,
        name: &str,
        far: fn(f64, f64) -> f64,
    ) {
        match groups.iter_mut().find(|g| same(g.value, value)) {
            Some(g) => {
                g.ridge = far(g.ridge, ridge);
                g.count += 1;
                if !g.names.iter().any(|n| n == name) {
                    g.names.push(name.to_string());
                }
            }
            None => groups.push(Group {
                value,
                ridge,
                color,
                names: vec![name.to_string()],
                count: 1,
            }),
        }
    }
    let unit = format!("{work_unit}/s");
    let mut peaks: Vec<Group> = Vec::new();
    let mut slopes: Vec<Group> = Vec::new();
    for roof in roofs {
        let Some((ridge, _, _)) = roof_geometry(&roof.ceiling) else {
            continue;
        };
        let c = &roof.ceiling;
        add(
            &mut peaks,
            c.peak_work,
            ridge,
            roof.color,
            &roof.peak_name,
            f64::max,
        );
        add(
            &mut slopes,
            c.peak_traffic,
            ridge,
            roof.color,
            &roof.slope_name,
            f64::min,
        );
    }
    let color = |g: &Group| if g.count > 1 { text_color } else { g.color };
    // Right of every ridge, so no slope crosses a peak's label; above its line, or below it
    // when the line above is too close for two labels.
    let right = peaks.iter().map(|g| g.ridge).fold(f64::MIN, f64::max);
    peaks.sort_by(|a, b| b.value.total_cmp(&a.value));
    let mut previous_line: Option<f32> = None;
    let mut previous_below = false;
    for g in &peaks {
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
        plot_ui.text(
            Text::new(
                "",
                PlotPoint::new(right + 0.1, y + dy),
                RichText::new(text).size(LABEL_SIZE),
            )
            .color(color(g))
            .anchor(anchor)
            .allow_hover(false),
        );
    }
    let left = plot_ui.plot_bounds().min()[0];
    for g in &slopes {
        let Some(b) = to_log(g.value) else { continue };
        // Under the slope, starting half a decade left of the ridge (or at the left edge).
        let x = (g.ridge - 0.6).max(left + 0.05).min(g.ridge - 0.2);
        let text = format!(
            "{} {}",
            g.names.join(", "),
            format_rate(g.value, TRAFFIC_UNIT)
        );
        plot_ui.text(
            Text::new(
                "",
                PlotPoint::new(x, x + b - 0.06),
                RichText::new(text).size(LABEL_SIZE),
            )
            .color(color(g))
            .anchor(egui::Align2::LEFT_TOP)
            .allow_hover(false),
        );
    }
}
