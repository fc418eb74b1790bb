//! The memory chart drawn with egui shapes (crisp at any zoom): logical units in green,
//! hardware units in blue (grey when nothing went through them), links labelled with
//! instructions, requests or bytes and coloured by % of peak on a purple-to-yellow scale with
//! its legend, a switch between transfer size, throughput and % of peak, and the metrics on
//! hover.

use super::memory_chart_layout::{self as layout, H, W, unit_rect};
use crate::analysis::sections::memory_chart::{Amount, Link, MemoryChart, Node, PeakMark};
use crate::model::format::NOT_MEASURED;
use crate::model::format::value_text;
use egui::{Align2, Color32, FontId, Pos2, Rect, Sense, Stroke, pos2, vec2};
use sightline_app::views::section_bodies::ChartModel;

/// What the link labels show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum LabelMode {
    #[default]
    TransferSize,
    Throughput,
    PercentOfPeak,
}

impl LabelMode {
    pub const ALL: [LabelMode; 3] = [
        LabelMode::TransferSize,
        LabelMode::Throughput,
        LabelMode::PercentOfPeak,
    ];

    pub fn name(self) -> &'static str {
        match self {
            LabelMode::TransferSize => "Transfer Size",
            LabelMode::Throughput => "Throughput",
            LabelMode::PercentOfPeak => "% Peak",
        }
    }
}

/// The colour of a percentage of peak: dark purple at 0 %, through red and orange, to pale
/// yellow at 100 %.
pub fn heat(pct: f64) -> Color32 {
    let stops: [(f64, [u8; 3]); 5] = [
        (0.0, [48, 18, 89]),
        (25.0, [120, 28, 109]),
        (50.0, [200, 55, 75]),
        (75.0, [245, 130, 40]),
        (100.0, [252, 240, 160]),
    ];
    let p = pct.clamp(0.0, 100.0);
    for w in stops.windows(2) {
        let ((a, ca), (b, cb)) = (w[0], w[1]);
        if p <= b {
            let t = ((p - a) / (b - a)) as f32;
            let mix =
                |i: usize| (f32::from(ca[i]) + t * (f32::from(cb[i]) - f32::from(ca[i]))) as u8;
            return Color32::from_rgb(mix(0), mix(1), mix(2));
        }
    }
    Color32::from_rgb(252, 240, 160)
}

/// A count in a few characters: `1.57 M`, `640`.
fn compact(v: f64) -> String {
    let a = v.abs();
    let (d, p) = if a >= 1e12 {
        (1e12, " T")
    } else if a >= 1e9 {
        (1e9, " G")
    } else if a >= 1e6 {
        (1e6, " M")
    } else if a >= 1e3 {
        (1e3, " K")
    } else {
        return value_text(v, "");
    };
    format!("{:.2}{p}", v / d)
}

/// Byte amounts as the chart writes them (`134.22 MB`).
fn bytes(v: f64, unit: &str) -> String {
    value_text(v, unit).replace("byte", "B")
}

/// A link's value as the mode shows it.
pub fn amount_text(l: &Link, mode: LabelMode) -> String {
    match mode {
        LabelMode::TransferSize => match (l.amount, l.amount_kind) {
            (Some(v), Amount::Bytes) => bytes(v, "byte"),
            (Some(v), k) => format!("{} {}", compact(v), k.short()),
            (None, _) => NOT_MEASURED.into(),
        },
        LabelMode::Throughput => match l.per_second {
            Some(v) if l.amount_kind == Amount::Bytes => bytes(v, "byte/s"),
            Some(v) => format!("{}/s", compact(v)),
            None => NOT_MEASURED.into(),
        },
        LabelMode::PercentOfPeak => match l.pct_of_peak {
            Some(p) => format!("{p:.2} %"),
            None => NOT_MEASURED.into(),
        },
    }
}

/// Draws the memory chart of a body item, built with its drawing.
pub fn show(ui: &mut egui::Ui, model: &ChartModel) {
    if model.chart.links.is_empty() {
        ui.weak("The memory chart's metrics were not collected.");
        return;
    }
    let view = mode_selector(ui);
    let chart = model.shown(view.hide_inactive);
    let mode = view.mode;
    let label = |l: &Link| amount_text(l, mode);
    let color = |ui: &egui::Ui, l: &Link| default_link_color(ui, l);
    let figure = |n: &Node| {
        n.figure
            .as_ref()
            .map(|(label, v, _)| format!("{label}: {v:.1} %"))
    };
    let hover = |ui: &mut egui::Ui, l: &Link| {
        ui.strong(format!("{} → {}", l.from.name(), l.to.name()));
        for m in LabelMode::ALL {
            ui.label(format!("{}: {}", m.name(), amount_text(l, m)));
        }
        ui.separator();
        for m in &l.metrics {
            ui.monospace(m);
        }
    };
    draw(
        ui,
        chart,
        &Style {
            link_label: &label,
            link_color: &color,
            node_figure: &figure,
            link_hover: &hover,
            legend: Legend::PercentOfPeak(&model.marks),
        },
    );
}

/// What the chart shows, as its two switches set it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChartView {
    pub mode: LabelMode,
    /// Inactive units and links left out ("Hidden") instead of greyed out.
    pub hide_inactive: bool,
}

/// The switches between transfer size, throughput and % of peak, and between inactive units
/// greyed out or hidden; the choices are remembered.
pub fn mode_selector(ui: &mut egui::Ui) -> ChartView {
    let mode_id = egui::Id::unique("memory_chart_label_mode");
    let hide_id = egui::Id::unique("memory_chart_hide_inactive");
    let mut mode: LabelMode =
        ui.data_mut(|d| *d.get_persisted_mut_or_default::<LabelMode>(mode_id));
    let mut hide: bool = ui.data_mut(|d| *d.get_persisted_mut_or_default::<bool>(hide_id));
    ui.horizontal(|ui| {
        ui.weak("Show");
        for m in LabelMode::ALL {
            ui.selectable_value(&mut mode, m, m.name());
        }
        ui.separator();
        ui.weak("Inactive");
        ui.selectable_value(&mut hide, false, "Greyed Out");
        ui.selectable_value(&mut hide, true, "Hidden");
    });
    ui.data_mut(|d| {
        d.insert_persisted(mode_id, mode);
        d.insert_persisted(hide_id, hide);
    });
    ChartView {
        mode,
        hide_inactive: hide,
    }
}

/// A link's colour by its % of peak; grey when nothing went over it.
fn default_link_color(ui: &egui::Ui, l: &Link) -> Color32 {
    if !l.is_active() {
        return inactive(ui);
    }
    match l.pct_of_peak {
        Some(p) => heat(p),
        None if ui.visuals().dark_mode => Color32::from_rgb(150, 190, 150),
        None => Color32::from_rgb(60, 120, 60),
    }
}

/// The colour of an inactive link.
pub fn inactive(ui: &egui::Ui) -> Color32 {
    ui.visuals().weak_text_color().gamma_multiply(0.6)
}

/// What the legend at the right explains.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Legend<'a> {
    /// % of peak on the heat scale, with a marker for each of these links (highest first).
    PercentOfPeak(&'a [PeakMark]),
    /// The change of a comparison: decrease, no change, increase.
    Change,
}

/// How links and units are labelled, coloured and explained.
pub struct Style<'a> {
    pub link_label: &'a dyn Fn(&Link) -> String,
    pub link_color: &'a dyn Fn(&egui::Ui, &Link) -> Color32,
    pub node_figure: &'a dyn Fn(&Node) -> Option<String>,
    pub link_hover: &'a dyn Fn(&mut egui::Ui, &Link),
    pub legend: Legend<'a>,
}

/// The colour of a change in percent: blue for less, grey for none, orange for more, fully
/// saturated at ±100 %.
pub fn change_color(ui: &egui::Ui, pct: f64) -> Color32 {
    let dark = ui.visuals().dark_mode;
    let mid = if dark {
        Color32::from_gray(150)
    } else {
        Color32::from_gray(120)
    };
    let (lo, hi) = if dark {
        (
            Color32::from_rgb(80, 160, 255),
            Color32::from_rgb(255, 140, 40),
        )
    } else {
        (
            Color32::from_rgb(20, 90, 210),
            Color32::from_rgb(220, 100, 0),
        )
    };
    let t = (pct.abs() / 100.0).clamp(0.0, 1.0) as f32;
    let t = if pct != 0.0 { t.max(0.25) } else { 0.0 };
    let end = if pct < 0.0 { lo } else { hi };
    mid.lerp_to_gamma(end, t)
}

/// Draws a chart with the given labels, colours and hover text.
pub fn draw(ui: &mut egui::Ui, chart: &MemoryChart, style: &Style<'_>) {
    let legend_w = match style.legend {
        Legend::PercentOfPeak(_) => 150.0,
        Legend::Change => 70.0,
    };
    let width = (ui.available_width() - legend_w).clamp(300.0, 1400.0);
    let scale = width / W;
    let (rect, resp) = ui.allocate_exact_size(vec2(width + legend_w, H * scale), Sense::hover());
    let painter = ui.painter_at(rect);
    let at = |p: Pos2| rect.min + (p.to_vec2() * scale);
    let dark = ui.visuals().dark_mode;
    let text = ui.visuals().text_color();
    let grey = ui.visuals().weak_text_color().gamma_multiply(0.6);
    let font = FontId::proportional(11.0 * scale.clamp(0.8, 1.4));

    // Labels are measured in screen points and placed in virtual units.
    let galleys: Vec<std::sync::Arc<egui::Galley>> = chart
        .links
        .iter()
        .map(|l| {
            let color = if l.is_active() { text } else { grey };
            painter.layout_no_wrap((style.link_label)(l), font.clone(), color)
        })
        .collect();
    let sizes: Vec<egui::Vec2> = galleys
        .iter()
        .map(|g| (g.size() + vec2(2.0, 2.0)) / scale)
        .collect();
    let placed = layout::place(chart, &sizes);

    // Links under the boxes, inactive ones first so that active ones stay on top where they
    // share the kernel's bus.
    let mut hovered: Option<&Link> = None;
    let pointer = resp.hover_pos();
    let order = chart
        .links
        .iter()
        .zip(&placed)
        .filter(|(l, _)| !l.is_active())
        .chain(
            chart
                .links
                .iter()
                .zip(&placed)
                .filter(|(l, _)| l.is_active()),
        );
    for (l, p) in order {
        let points: Vec<Pos2> = p.path.iter().map(|&q| at(q)).collect();
        let color = (style.link_color)(ui, l);
        let stroke = Stroke::new(3.0 * scale.max(0.7), color);
        painter.add(egui::Shape::line(points.clone(), stroke));
        let (a, b) = (points[points.len() - 2], points[points.len() - 1]);
        let dir = (b - a).normalized();
        let normal = vec2(-dir.y, dir.x);
        let head = 7.0 * scale.max(0.7);
        painter.add(egui::Shape::convex_polygon(
            vec![
                b,
                b - dir * head + normal * head * 0.6,
                b - dir * head - normal * head * 0.6,
            ],
            color,
            Stroke::NONE,
        ));
        if let Some(pos) = pointer {
            let near = points.windows(2).any(|s| {
                let (a, b) = (s[0], s[1]);
                let t = ((pos - a).dot(b - a) / (b - a).length_sq().max(1e-3)).clamp(0.0, 1.0);
                (a + (b - a) * t).distance(pos) < 8.0
            });
            let on_label = Rect::from_min_max(at(p.label.min), at(p.label.max)).contains(pos);
            if near || on_label {
                hovered = Some(l);
            }
        }
    }

    // Boxes.
    for n in &chart.nodes {
        let r = unit_rect(n.unit);
        let r = Rect::from_min_max(at(r.min), at(r.max));
        let fill = match (n.unit.is_logical(), n.active, dark) {
            (_, false, true) => Color32::from_gray(70),
            (_, false, false) => Color32::from_gray(200),
            (true, true, true) => Color32::from_rgb(46, 110, 60),
            (true, true, false) => Color32::from_rgb(150, 210, 150),
            (false, true, true) => Color32::from_rgb(40, 80, 140),
            (false, true, false) => Color32::from_rgb(150, 185, 235),
        };
        painter.rect_filled(r, 4.0, fill);
        painter.rect_stroke(
            r,
            4.0,
            Stroke::new(1.0, text.gamma_multiply(0.5)),
            egui::StrokeKind::Inside,
        );
        let figure = (style.node_figure)(n);
        // A figure of two lines (a comparison's) moves the name up.
        let lines = figure.as_ref().map_or(1.0, |f| f.lines().count() as f32);
        let name_at = if figure.is_some() {
            r.center() - vec2(0.0, 7.0 * lines * scale)
        } else {
            r.center()
        };
        painter.text(
            name_at,
            Align2::CENTER_CENTER,
            n.unit.name(),
            font.clone(),
            text,
        );
        if let Some(figure) = figure {
            painter.text(
                r.center() + vec2(0.0, 8.0 * lines.min(1.5) * scale),
                Align2::CENTER_CENTER,
                figure,
                font.clone(),
                text,
            );
        }
    }

    // Link labels beside their links, where the layout found room.
    for (galley, p) in galleys.into_iter().zip(&placed) {
        let r = Rect::from_min_max(at(p.label.min), at(p.label.max));
        let origin = r.center() - galley.size() / 2.0;
        painter.galley(origin, galley, text);
    }

    match style.legend {
        Legend::PercentOfPeak(marks) => heat_legend(&painter, marks, rect, legend_w, text),
        Legend::Change => change_legend(ui, &painter, rect, legend_w, text),
    }

    if let Some(l) = hovered {
        resp.on_hover_ui_at_pointer(|ui| (style.link_hover)(ui, l));
    }
}

/// Fills a legend's scale `lg` bottom to top in 40 bands, each the colour `color(t0, t1)` of
/// its share `t0..t1` of the height.
fn scale_bands(painter: &egui::Painter, lg: Rect, color: impl Fn(f32, f32) -> Color32) {
    let steps = 40;
    for i in 0..steps {
        let t0 = i as f32 / steps as f32;
        let t1 = (i + 1) as f32 / steps as f32;
        let band = Rect::from_min_max(
            pos2(lg.left(), lg.bottom() - t1 * lg.height()),
            pos2(lg.right(), lg.bottom() - t0 * lg.height()),
        );
        painter.rect_filled(band, 0.0, color(t0, t1));
    }
}

/// The legend of % of peak: the scale with its ticks, and beside it a mark per active link
/// named by its units, spread so that no two names overlap.
fn heat_legend(
    painter: &egui::Painter,
    marks: &[PeakMark],
    rect: Rect,
    legend_w: f32,
    text: Color32,
) {
    let lg = Rect::from_min_size(
        rect.right_top() + vec2(-legend_w + 34.0, 10.0),
        vec2(12.0, rect.height() - 24.0),
    );
    scale_bands(painter, lg, |t0, _| heat(f64::from(t0) * 100.0));
    let small = FontId::proportional(10.0);
    let y_of = |pct: f64| lg.bottom() - (pct.clamp(0.0, 100.0) as f32 / 100.0) * lg.height();
    for (pct, label) in [(0.0, "0 %"), (50.0, "50 %"), (100.0, "100 %")] {
        painter.text(
            pos2(lg.left() - 4.0, y_of(pct)),
            Align2::RIGHT_CENTER,
            label,
            small.clone(),
            text,
        );
    }
    // Marks: each active link's % of peak, its name beside it.
    let wanted: Vec<f32> = marks.iter().map(|m| y_of(m.pct)).collect();
    let row_h = 12.0;
    let ys = layout::spread_marks(&wanted, row_h, lg.top() - 6.0, lg.bottom() + 6.0);
    let x = lg.right() + 2.0;
    for ((m, &y), &label_y) in marks.iter().zip(&wanted).zip(&ys) {
        painter.add(egui::Shape::convex_polygon(
            vec![pos2(x, y), pos2(x + 6.0, y - 4.0), pos2(x + 6.0, y + 4.0)],
            text,
            Stroke::NONE,
        ));
        if (label_y - y).abs() > 1.0 {
            painter.line_segment(
                [pos2(x + 6.0, y), pos2(x + 10.0, label_y)],
                Stroke::new(1.0, text.gamma_multiply(0.5)),
            );
        }
        painter.text(
            pos2(x + 12.0, label_y),
            Align2::LEFT_CENTER,
            &m.text,
            small.clone(),
            text,
        );
    }
}

/// The legend of a comparison's change: −100 % at the bottom, +100 % at the top.
fn change_legend(ui: &egui::Ui, painter: &egui::Painter, rect: Rect, legend_w: f32, text: Color32) {
    let lg = Rect::from_min_size(
        rect.right_top() + vec2(-legend_w + 20.0, 14.0),
        vec2(14.0, rect.height() - 40.0),
    );
    scale_bands(painter, lg, |t0, t1| {
        let pct = (f64::from(t0 + t1) / 2.0 - 0.5) * 200.0;
        change_color(ui, if pct.abs() < 3.0 { 0.0 } else { pct })
    });
    for (pct, label) in [(-100.0, "-100 %"), (0.0, "0"), (100.0, "+100 %")] {
        let y = lg.bottom() - ((pct as f32 + 100.0) / 200.0) * lg.height();
        painter.text(
            pos2(lg.right() + 3.0, y),
            Align2::LEFT_CENTER,
            label,
            FontId::proportional(10.0),
            text,
        );
    }
}
