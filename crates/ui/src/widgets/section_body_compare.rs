//! Section bodies of a comparison: every body with both sides. Bar charts as paired bars
//! (baseline above, current below, on one scale) with the change; tables with each side, Δ
//! and Δ%; memory tables with the current value and its change in every cell; the memory
//! chart with both values and the change on each link, coloured by the change; the PM
//! sampling timeline with both series over one time axis.

use super::memory_chart::{self as chart_widget, LabelMode, Legend, Style};
use super::theme;
use super::timeline as timeline_widget;
use crate::analysis::sections::bars::PairedBarOrder;
use crate::analysis::sections::memory_chart::{Link, MemoryChart, Node};
use crate::analysis::sections::paired::{
    Paired, PairedChart, PairedContent, PairedGrid, PairedItem, PairedRow,
};
use crate::analysis::sections::stalls;
use crate::model::format::NOT_MEASURED;
use crate::model::format::value_text;
use crate::model::section_body::ItemKind;
use egui::{Color32, RichText, Sense, vec2};
use sightline_app::views::section_bodies::DrawnPairedSection;

/// The two sides' colours and names, and the noise threshold.
#[derive(Debug, Clone, Copy)]
pub struct Sides<'a> {
    pub base_color: Color32,
    pub current_color: Color32,
    pub base_name: &'a str,
    pub current_name: &'a str,
    pub threshold_pct: f64,
}

/// A value with its unit, `-` when the side has none.
fn text(v: Option<f64>, unit: &str) -> String {
    v.map_or(NOT_MEASURED.to_string(), |v| value_text(v, unit))
}

/// The signed change: `+1.50 us`.
fn delta_text(p: &Paired, unit: &str) -> String {
    match p.delta() {
        Some(d) if d > 0.0 => format!("+{}", value_text(d, unit)),
        Some(d) if d < 0.0 => format!("-{}", value_text(-d, unit)),
        Some(_) => "0".to_string(),
        None => String::new(),
    }
}

fn pct_text(p: &Paired) -> String {
    match p.delta_pct() {
        Some(d) => format!("{d:+.2}%"),
        None if p.delta().is_some() => "new".to_string(),
        None => String::new(),
    }
}

/// The colour of a change: by the metric's direction when it has one.
fn change_color(ui: &egui::Ui, p: &Paired, metric: Option<&str>, threshold: f64) -> Color32 {
    match p.verdict(metric, threshold) {
        Some(v) => theme::verdict_color(ui, v),
        None => ui.visuals().weak_text_color(),
    }
}

/// Draws the bodies of the paired sections (a section and those extending it), with one body
/// selector over all of them.
pub fn show(ui: &mut egui::Ui, sections: &[DrawnPairedSection<'_>], sides: &Sides<'_>) {
    super::section_body::chosen_bodies(
        ui,
        sections,
        |s| (&s.section.name, &s.section.bodies),
        |b| (&b.name, &b.items),
        |i| &i.label,
        |ui, at, with_label| {
            let bars = at.section.drawing.item(at.body, at.index);
            item_ui(ui, at.item, bars, with_label, sides);
        },
    );
}

/// One paired item, with its bars in order when it is drawn as bars.
pub fn item_ui(
    ui: &mut egui::Ui,
    item: &PairedItem,
    bars_order: Option<&PairedBarOrder>,
    with_label: bool,
    sides: &Sides<'_>,
) {
    if with_label && !item.label.is_empty() {
        let rows = match &item.content {
            PairedContent::Rows(rows) => rows.as_slice(),
            _ => &[],
        };
        let units = rows.iter().map(|r| r.unit.as_str());
        ui.label(RichText::new(stalls::chart_caption(&item.label, units)).italics());
    }
    match item.only_current {
        Some(true) => ui.weak(format!("Only {} has this item.", sides.current_name)),
        Some(false) => ui.weak(format!("Only {} has this item.", sides.base_name)),
        None => ui.allocate_response(vec2(0.0, 0.0), Sense::hover()),
    };
    match &item.content {
        PairedContent::MemoryChart(c) => chart_ui(ui, c, sides),
        PairedContent::MemoryTable(g) => grid_ui(ui, g, sides),
        PairedContent::Timeline { base, current } => {
            let mut list = Vec::new();
            if let Some(c) = current {
                list.push(timeline_widget::Side {
                    timeline: c,
                    color: sides.current_color,
                    name: sides.current_name,
                });
            }
            if let Some(b) = base {
                list.push(timeline_widget::Side {
                    timeline: b,
                    color: sides.base_color,
                    name: sides.base_name,
                });
            }
            timeline_widget::show(ui, &list);
        }
        PairedContent::Rows(rows) => match (item.kind, bars_order) {
            (ItemKind::BarChart | ItemKind::HistogramChart, Some(order)) => {
                bars(ui, item, rows, order, sides)
            }
            _ => table(ui, rows, sides),
        },
    }
    ui.add_space(6.0);
}

/// Hover text of a paired value.
fn value_tooltip(
    ui: &mut egui::Ui,
    label: &str,
    metric: Option<&str>,
    unit: &str,
    p: &Paired,
    sides: &Sides<'_>,
) {
    ui.strong(label);
    if let Some(m) = metric {
        ui.monospace(m);
    }
    ui.colored_label(
        sides.base_color,
        format!("{}: {}", sides.base_name, text(p.base, unit)),
    );
    ui.colored_label(
        sides.current_color,
        format!("{}: {}", sides.current_name, text(p.current, unit)),
    );
    if p.delta().is_some() {
        ui.label(format!("Δ {} ({})", delta_text(p, unit), pct_text(p)));
    }
    if let Some(m) = stalls::meaning(label).or_else(|| metric.and_then(stalls::meaning)) {
        ui.separator();
        ui.label(m);
    }
}

/// One paired bar row: label, the baseline's bar above the current one, both values and Δ%.
fn bar_pair(
    ui: &mut egui::Ui,
    label: &str,
    p: &Paired,
    max: f64,
    unit: &str,
    metric: Option<&str>,
    sides: &Sides<'_>,
) -> egui::Response {
    let label_w = 240.0_f32.min(ui.available_width() * 0.35);
    let value_w = 250.0;
    let width = ui.available_width().max(label_w + value_w + 120.0);
    let (rect, resp) = ui.allocate_exact_size(vec2(width, 22.0), Sense::hover());
    if !ui.is_rect_visible(rect) {
        return resp;
    }
    let painter = ui.painter_at(rect);
    let text_color = ui.visuals().text_color();
    let font = egui::FontId::proportional(12.0);
    painter.text(
        rect.left_center() + vec2(2.0, 0.0),
        egui::Align2::LEFT_CENTER,
        label,
        font.clone(),
        text_color,
    );
    let track = egui::Rect::from_min_max(
        rect.left_top() + vec2(label_w, 2.0),
        rect.right_bottom() - vec2(value_w, 2.0),
    );
    painter.rect_filled(track, 2.0, crate::theme::bar_track(ui));
    let half = track.height() / 2.0;
    for (k, (v, color)) in [(p.base, sides.base_color), (p.current, sides.current_color)]
        .into_iter()
        .enumerate()
    {
        let Some(v) = v else { continue };
        let frac = if max > 0.0 {
            (v / max).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let top = track.top() + half * k as f32;
        let w = (track.width() * frac as f32).max(if v > 0.0 { 1.0 } else { 0.0 });
        let bar =
            egui::Rect::from_min_size(egui::pos2(track.left(), top + 0.5), vec2(w, half - 1.0));
        painter.rect_filled(bar, 1.0, color);
    }
    let change = change_color(ui, p, metric, sides.threshold_pct);
    let pct = pct_text(p);
    painter.text(
        rect.right_center() - vec2(2.0, 0.0),
        egui::Align2::RIGHT_CENTER,
        &pct,
        font.clone(),
        change,
    );
    painter.text(
        rect.right_center() - vec2(70.0, 0.0),
        egui::Align2::RIGHT_CENTER,
        format!("{} → {}", text(p.base, unit), text(p.current, unit)),
        font,
        text_color,
    );
    resp
}

/// Paired bars in the order their drawing gives: the stall reasons largest first with their
/// meaning on hover; instanced rows (the opcode mix) one pair per instance.
fn bars(
    ui: &mut egui::Ui,
    item: &PairedItem,
    rows: &[PairedRow],
    order: &PairedBarOrder,
    sides: &Sides<'_>,
) {
    legend(ui, sides);
    match order {
        PairedBarOrder::Instanced(groups) => {
            for (row, group) in rows.iter().zip(groups) {
                ui.weak(format!(
                    "{} (total {} → {})",
                    row.label,
                    text(row.value.base, &row.unit),
                    text(row.value.current, &row.unit)
                ));
                for (id, p) in group.order.iter().filter_map(|&k| row.instances.get(k)) {
                    bar_pair(ui, id, p, group.max, "", None, sides).on_hover_ui(|ui| {
                        value_tooltip(ui, id, row.metric.as_deref(), "", p, sides);
                    });
                }
            }
        }
        PairedBarOrder::Rows { order, max } => {
            for row in order.iter().filter_map(|&k| rows.get(k)) {
                bar_pair(
                    ui,
                    &row.label,
                    &row.value,
                    *max,
                    stalls::display_unit(&item.label, &row.unit),
                    row.metric.as_deref(),
                    sides,
                )
                .on_hover_ui(|ui| row_tooltip(ui, row, sides));
            }
        }
    }
}

/// A paired row's values on hover: [`value_tooltip`] of its label, metric, unit and values.
fn row_tooltip(ui: &mut egui::Ui, row: &PairedRow, sides: &Sides<'_>) {
    value_tooltip(
        ui,
        &row.label,
        row.metric.as_deref(),
        &row.unit,
        &row.value,
        sides,
    );
}

/// The two sides' swatches.
fn legend(ui: &mut egui::Ui, sides: &Sides<'_>) {
    ui.horizontal(|ui| {
        theme::swatch(ui, sides.base_color);
        ui.weak(sides.base_name);
        theme::swatch(ui, sides.current_color);
        ui.weak(sides.current_name);
    });
}

/// A table: label, group, each side, Δ and Δ%, coloured by the verdict.
fn table(ui: &mut egui::Ui, rows: &[PairedRow], sides: &Sides<'_>) {
    let grouped = rows.iter().any(|r| r.group.is_some());
    egui::Grid::new("paired_table")
        .striped(true)
        .num_columns(if grouped { 6 } else { 5 })
        .show(ui, |ui| {
            if grouped {
                ui.weak("");
            }
            ui.weak("");
            ui.label(
                RichText::new(sides.base_name)
                    .color(sides.base_color)
                    .small(),
            );
            ui.label(
                RichText::new(sides.current_name)
                    .color(sides.current_color)
                    .small(),
            );
            ui.weak("Δ");
            ui.weak("Δ%");
            ui.end_row();
            for row in rows {
                if grouped {
                    ui.weak(row.group.as_deref().unwrap_or(""));
                }
                let tip = |ui: &mut egui::Ui| row_tooltip(ui, row, sides);
                ui.label(&row.label).on_hover_ui(tip);
                ui.label(text(row.value.base, &row.unit));
                ui.label(text(row.value.current, &row.unit));
                let c = change_color(ui, &row.value, row.metric.as_deref(), sides.threshold_pct);
                ui.label(RichText::new(delta_text(&row.value, &row.unit)).color(c));
                ui.label(RichText::new(pct_text(&row.value)).color(c));
                ui.end_row();
            }
        });
}

/// A memory table: each cell the current value and its change; both sides on hover.
fn grid_ui(ui: &mut egui::Ui, g: &PairedGrid, sides: &Sides<'_>) {
    if g.rows.is_empty() {
        ui.weak("Neither side collected the metrics of this table.");
        return;
    }
    super::section_body::labelled_grid(ui, "paired_memory_table", &g.columns, |ui| {
        for r in &g.rows {
            ui.label(RichText::new(&r.label).strong());
            for cell in &r.cells {
                let Some(c) = cell else {
                    ui.label("");
                    continue;
                };
                let color = change_color(ui, &c.value, Some(&c.metric), sides.threshold_pct);
                ui.vertical(|ui| {
                    ui.style_mut().wrap_mode = Some(egui::TextWrapMode::Extend);
                    ui.label(text(
                        c.value.current,
                        super::section_body::memory_cell_unit(&c.unit),
                    ));
                    if c.value.delta().is_some_and(|d| d != 0.0) {
                        ui.label(RichText::new(pct_text(&c.value)).small().color(color));
                    }
                })
                .response
                .on_hover_ui(|ui| {
                    value_tooltip(ui, &r.label, Some(&c.metric), &c.unit, &c.value, sides);
                });
            }
            ui.end_row();
        }
    });
}

/// The memory chart of a comparison: the links of either side, labelled with both values and
/// coloured by the change.
fn chart_ui(ui: &mut egui::Ui, c: &PairedChart, sides: &Sides<'_>) {
    if c.links.is_empty() {
        ui.weak("Neither side collected the memory chart's metrics.");
        return;
    }
    let view = chart_widget::mode_selector(ui);
    let mode = view.mode;
    let paired_of = |l: &Link| c.links.iter().find(|p| p.from == l.from && p.to == l.to);
    let pick = |p: &Paired| p.current.or(p.base);
    let chart = MemoryChart {
        nodes: c
            .nodes
            .iter()
            .map(|n| Node {
                unit: n.unit,
                figure: n
                    .figure
                    .as_ref()
                    .and_then(|(label, v, m)| pick(v).map(|x| (*label, x, m.clone()))),
                active: n.active,
            })
            .collect(),
        links: c
            .links
            .iter()
            .map(|p| Link {
                from: p.from,
                to: p.to,
                amount_kind: p.amount_kind,
                amount: pick(&p.amount),
                per_second: pick(&p.per_second),
                pct_of_peak: pick(&p.pct_of_peak),
                metrics: p.metrics.clone(),
            })
            .collect(),
    };
    let value_of = |p: &crate::analysis::sections::paired::PairedLink| match mode {
        LabelMode::TransferSize => p.amount,
        LabelMode::Throughput => p.per_second,
        LabelMode::PercentOfPeak => p.pct_of_peak,
    };
    let side_text = |p: &crate::analysis::sections::paired::PairedLink, v: Option<f64>| {
        let l = Link {
            from: p.from,
            to: p.to,
            amount_kind: p.amount_kind,
            amount: v,
            per_second: v,
            pct_of_peak: v,
            metrics: Vec::new(),
        };
        if v.is_none() {
            NOT_MEASURED.to_string()
        } else {
            chart_widget::amount_text(&l, mode)
        }
    };
    // The current value, and the change on a second line when there is one (the gaps between
    // the units are narrow); both values on hover.
    let label = |l: &Link| match paired_of(l) {
        Some(p) => {
            let v = value_of(p);
            let c = side_text(p, v.current);
            match v.delta() {
                Some(d) if d != 0.0 => format!("{c}\n{}", pct_text(&v)),
                Some(_) => c,
                None => format!("{} → {c}", side_text(p, v.base)),
            }
        }
        None => String::new(),
    };
    let color = |ui: &egui::Ui, l: &Link| match paired_of(l) {
        Some(p)
            if p.amount.base.is_some_and(|v| v > 0.0)
                || p.amount.current.is_some_and(|v| v > 0.0) =>
        {
            chart_widget::change_color(ui, p.amount.delta_pct().unwrap_or(0.0))
        }
        _ => chart_widget::inactive(ui),
    };
    let figure = |n: &Node| {
        let p = c.nodes.iter().find(|p| p.unit == n.unit)?;
        let (label, v, _) = p.figure.as_ref()?;
        let t = |x: Option<f64>| x.map_or(NOT_MEASURED.to_string(), |x| format!("{x:.1}"));
        Some(format!("{label}\n{} → {} %", t(v.base), t(v.current)))
    };
    let hover = |ui: &mut egui::Ui, l: &Link| {
        let Some(p) = paired_of(l) else { return };
        ui.strong(format!("{} → {}", l.from.name(), l.to.name()));
        egui::Grid::new("paired_link_tip").show(ui, |ui| {
            ui.label("");
            ui.colored_label(sides.base_color, sides.base_name);
            ui.colored_label(sides.current_color, sides.current_name);
            ui.label("Δ%");
            ui.end_row();
            for (m, v) in [
                (LabelMode::TransferSize, p.amount),
                (LabelMode::Throughput, p.per_second),
                (LabelMode::PercentOfPeak, p.pct_of_peak),
            ] {
                ui.label(m.name());
                let t = |x: Option<f64>| {
                    let l = Link {
                        from: p.from,
                        to: p.to,
                        amount_kind: p.amount_kind,
                        amount: x,
                        per_second: x,
                        pct_of_peak: x,
                        metrics: Vec::new(),
                    };
                    if x.is_none() {
                        NOT_MEASURED.to_string()
                    } else {
                        chart_widget::amount_text(&l, m)
                    }
                };
                ui.label(t(v.base));
                ui.label(t(v.current));
                ui.label(pct_text(&v));
                ui.end_row();
            }
        });
        ui.separator();
        for m in &p.metrics {
            ui.monospace(m);
        }
    };
    // A link is inactive when nothing went over it on either side.
    let chart = if view.hide_inactive {
        chart.without_inactive(|l| {
            paired_of(l).is_none_or(|p| {
                !p.amount.base.is_some_and(|v| v > 0.0)
                    && !p.amount.current.is_some_and(|v| v > 0.0)
            })
        })
    } else {
        chart
    };
    chart_widget::draw(
        ui,
        &chart,
        &Style {
            link_label: &label,
            link_color: &color,
            node_figure: &figure,
            link_hover: &hover,
            legend: Legend::Change,
        },
    );
    ui.weak(format!(
        "Links: the value of {} and its change against {}, coloured by the change of the amount \
         transferred; both values on hover.",
        sides.current_name, sides.base_name
    ));
}
