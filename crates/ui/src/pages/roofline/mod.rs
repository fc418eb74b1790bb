//! The Roofline page: the selected result's rooflines on log-log axes (each ceiling with its
//! values and ridge point, the memory- and compute-bound regions shaded, achieved points with a
//! hover tooltip), estimated rooflines marked with their assumptions, points above their roof
//! called out, an arrow from each visible baseline's achieved value to the selected result's
//! (labelled with the change, in the baseline's colour), and a report-wide chart of every
//! result sized by its duration.

use crate::analysis::occupancy::inputs::compute_capability;
use crate::analysis::roofline::labels::{LabelledRoof, RoofLabel, RoofLabels};
use crate::analysis::roofline::{
    self, AchievedPoint, Bound, Ceiling, Chart, ChartKind, MemoryLevel, Precision, Roofline,
    RooflineContext, RooflineOptions,
};
use crate::model::format::value_text;
use crate::model::names;
use crate::pages::PageContext;
use crate::pages::{Page, PageIo};
use crate::widgets::plot_util::{
    self, format_intensity, format_pct, format_rate, log_bounds, to_log,
};
use egui::{Color32, RichText};
use egui_plot::{
    Arrows, Line, LineStyle, MarkerShape, Plot, PlotPoint, PlotTransform, Points, Polygon, Text,
};
use sightline_app::cache::Cached;
use sightline_app::core::ids::{ReportId, ResultRef};
use sightline_app::core::page_id::PageId;
use sightline_app::core::workspace::Workspace;
use sightline_app::views::roofline::{BaselineArrow, RooflineScene, SceneKey, roofline_scene};

mod plot;
mod result;
mod wide;
use crate::model::format::NOT_MEASURED;
use plot::*;
use result::*;
use wide::*;

impl Page for RooflinePage {
    fn id(&self) -> PageId {
        PageId::Roofline
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, io: &mut PageIo<'_>) {
        show(ui, cx, self, &mut io.shared.assumed_cc);
    }

    fn release(&mut self) {
        RooflinePage::release(self);
    }
}

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
            WidePrecision::Largest => "Largest FP",
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
pub struct RooflinePage {
    chart: Option<ChartKind>,
    scope: Scope,
    precision: WidePrecision,
    level: MemoryLevel,
    reset_view: bool,
    last_view: Option<ViewKey>,
    contexts: Contexts,
    wide: Option<(WideKey, WidePoints)>,
    /// The selected result's roofline, charts and arrows, until the selection, the baselines
    /// or the architecture choice change.
    scene: Cached<SceneKey, Option<RooflineScene>>,
    select_request: Option<ResultRef>,
}

impl Default for RooflinePage {
    fn default() -> Self {
        RooflinePage {
            chart: None,
            scope: Scope::default(),
            precision: WidePrecision::default(),
            level: MemoryLevel::Dram,
            reset_view: false,
            last_view: None,
            contexts: None,
            wide: None,
            scene: Cached::default(),
            select_request: None,
        }
    }
}

impl RooflinePage {
    /// A result the user clicked in the report-wide chart, to select (taken once).
    pub fn take_selection_request(&mut self) -> Option<ResultRef> {
        self.select_request.take()
    }

    /// Drops the cached contexts and report-wide points (reports closed or replaced); they
    /// are built again when shown.
    pub fn release(&mut self) {
        self.contexts = None;
        self.wide = None;
        self.scene.clear();
    }

    /// The roofline context of a report, built once per workspace generation.
    fn context(&mut self, workspace: &Workspace, report: ReportId) -> RooflineContext {
        context_of(&mut self.contexts, workspace, report)
    }
}

/// Roofline contexts of the reports, per workspace generation.
pub(crate) type Contexts = Option<(u64, Vec<(ReportId, RooflineContext)>)>;

/// The roofline context of a report from `contexts`, built there once per generation.
pub(crate) fn context_of(
    contexts: &mut Contexts,
    workspace: &Workspace,
    report: ReportId,
) -> RooflineContext {
    let generation = workspace.generation();
    if contexts.as_ref().is_none_or(|(g, _)| *g != generation) {
        *contexts = Some((generation, Vec::new()));
    }
    let Some((_, list)) = contexts.as_mut() else {
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

/// Shows the Roofline page.
pub fn show(
    ui: &mut egui::Ui,
    cx: &PageContext<'_>,
    state: &mut RooflinePage,
    assumed_cc: &mut Option<(u32, u32)>,
) {
    let options = RooflineOptions {
        assumed_cc: *assumed_cc,
    };
    // The scene is computed when the selection, the baselines or the architecture change;
    // a frame only draws it.
    let key = SceneKey::new(cx.workspace, cx.at, cx.baselines, &options);
    let mut cache = std::mem::take(&mut state.scene);
    let contexts = &mut state.contexts;
    let scene = cache.get_or_compute(key, |key| {
        roofline_scene(
            cx.workspace,
            key.at,
            cx.baselines,
            &options,
            &mut |report| context_of(contexts, cx.workspace, report),
        )
    });
    if let Some(scene) = scene {
        show_scene(ui, cx, state, assumed_cc, &options, scene);
    }
    state.scene = cache;
}

/// Shows the page of a computed scene.
fn show_scene(
    ui: &mut egui::Ui,
    cx: &PageContext<'_>,
    state: &mut RooflinePage,
    assumed_cc: &mut Option<(u32, u32)>,
    options: &RooflineOptions,
    scene: &RooflineScene,
) {
    let roof = &scene.roof;
    let charts = &scene.charts;
    let device = cx.open.report.device_of(cx.result);
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
            controls(ui, state, charts, chart_kind);
            if compute_capability(cx.result, device, None).is_err() {
                crate::pages::occupancy::architecture_picker(ui, assumed_cc);
            }
            let reset = std::mem::take(&mut state.reset_view);
            match state.scope {
                Scope::Result => {
                    let chart = chart_kind.and_then(|k| scene.chart(k).map(|c| (k, c)));
                    let arrows = chart_kind.map_or(&[][..], |k| scene.arrows(k));
                    result_view(ui, roof, chart, arrows, plot_height, reset);
                }
                Scope::Report | Scope::AllReports => {
                    wide_view(ui, cx, state, roof, options, plot_height, reset);
                }
            }
        });
}

/// The chart, scope and reset controls.
fn controls(
    ui: &mut egui::Ui,
    state: &mut RooflinePage,
    charts: &[(ChartKind, Chart)],
    current: Option<ChartKind>,
) {
    ui.horizontal_wrapped(|ui| {
        for scope in Scope::ALL {
            ui.selectable_value(&mut state.scope, scope, scope.label());
        }
        ui.separator();
        if state.scope == Scope::Result {
            let title = current.map_or_else(|| NOT_MEASURED.to_string(), |k| k.title());
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

/// What one plot draws.
struct PlotSpec<'s> {
    work_unit: &'static str,
    roofs: &'s [Roof],
    /// The roofs' labels ([`labels_of`]).
    labels: &'s RoofLabels,
    markers: &'s [Marker],
    /// Arrows from baselines to the selected result.
    arrows: &'s [BaselineArrow],
    /// The roof whose regions are shaded.
    shade: Option<usize>,
    estimated: bool,
    /// Default view, log10: ((x0, x1), (y0, y1)).
    bounds: ((f64, f64), (f64, f64)),
    height: f32,
    /// The plot's id (its memory holds the zoom): the page's plot, or a chart on Details.
    id: egui::Id,
}

/// The chart `kind` of a result's scene drawn small, without its tables (the Details page's
/// roofline section, as ncu-ui draws it there); false when the scene has no such chart.
pub fn inline_chart(
    ui: &mut egui::Ui,
    scene: &RooflineScene,
    kind: ChartKind,
    height: f32,
) -> bool {
    let Some(chart) = scene.chart(kind) else {
        return false;
    };
    let id = egui::Id::unique(("details_roofline", kind.title()));
    result::chart_plot(
        ui,
        &scene.roof,
        kind,
        chart,
        scene.arrows(kind),
        height,
        false,
        id,
    );
    true
}
