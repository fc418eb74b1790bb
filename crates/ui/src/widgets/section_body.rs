//! Section bodies on the Details page: one body selector per section and the sections
//! extending it ("All" or one body), then each item drawn by kind with what the page's
//! view-model built for it: bar charts (stall reasons largest first with their meaning on
//! hover, pipe utilization, instruction mix, warps per scheduler), line charts (occupancy
//! graphs), the memory chart and memory tables, the PM sampling timeline, and plain tables
//! for the rest.

use super::memory_chart;
use super::timeline as timeline_widget;
use crate::analysis::sections::bars::BarOrder;
use crate::analysis::sections::hot_spots::HotSpotTable;
use crate::analysis::sections::memory_table::Grid;
use crate::analysis::sections::{numa, stalls};
use crate::model::format::{NOT_MEASURED, value_text as value_text_in};
use crate::model::section_body::{BodyItem, BodyRow, ItemKind};
use crate::model::{Metric, Value};
use egui::{Color32, RichText, Sense, Stroke, vec2};
use sightline_app::core::actions::Action;
use sightline_app::core::page_id::PageId;
use sightline_app::views::hot_spots::Lines;
use sightline_app::views::section_bodies::{DrawnSection, ItemDrawing};
use sightline_app::views::source::SourceTarget;

/// The value of a metric as the tables print it (the model's one formatter).
pub fn value_text(m: &Metric) -> String {
    crate::model::format::metric_text(m.view())
}

/// The name a body selector gives a body (`Body 2` when it has none).
pub fn body_name(i: usize, name: &str) -> String {
    if name.is_empty() {
        format!("Body {}", i + 1)
    } else {
        name.to_string()
    }
}

/// A body selector over these body names ("All" first), remembered under the section's name;
/// none is shown for a single body.
pub fn choose(ui: &mut egui::Ui, section: &str, names: &[String]) -> usize {
    let id = egui::Id::unique(("section_body_choice", section));
    let mut choice: usize = ui.data_mut(|d| *d.get_persisted_mut_or_default::<usize>(id));
    if names.len() > 1 {
        let name = |i: usize| -> String {
            if i == 0 {
                "All".to_string()
            } else {
                names[i - 1].clone()
            }
        };
        egui::ComboBox::new(("body_selector", section), "Body")
            .selected_text(name(choice.min(names.len())))
            .show_ui(ui, |ui| {
                for i in 0..=names.len() {
                    ui.selectable_value(&mut choice, i, name(i));
                }
            });
        ui.data_mut(|d| d.insert_persisted(id, choice));
    }
    if choice > names.len() { 0 } else { choice }
}

/// What the Details page adds to the bodies it draws: the hot spots of the Source Counters
/// tables, located and disassembled as far as the Source view has been read.
#[derive(Default)]
pub struct BodyExtras<'a> {
    pub hot_spots: &'a [HotSpotTable],
    pub lines: Option<&'a Lines>,
    /// The result's rooflines, drawn where the section has its roofline charts.
    pub roofline: Option<&'a sightline_app::views::roofline::RooflineScene>,
    /// Set when a hot-spot table was drawn in view (its lines are then worth reading).
    pub hot_spots_in_view: std::cell::Cell<bool>,
    /// Set once the notes of reading the lines were shown (above the first hot-spot table
    /// only, not repeated for each).
    pub lines_notes_shown: std::cell::Cell<bool>,
}

/// Draws the bodies of a section and of the sections extending it under one body selector,
/// as ncu-ui merges them, each item with its drawing and what the page adds.
pub fn show_group_with(ui: &mut egui::Ui, group: &[DrawnSection<'_>], extras: &BodyExtras<'_>) {
    chosen_bodies(
        ui,
        group,
        |s| (&s.section.name, &s.section.bodies),
        |b| (&b.name, &b.items),
        |i| &i.label,
        |ui, at, with_label| {
            let drawing = at.section.drawing.item(at.body, at.index);
            item_ui_with(ui, at.item, drawing, with_label, extras);
        },
    );
}

/// An item the body selector chose: its section, the position of its body in the section and
/// its own position in the body.
pub struct ItemAt<'a, S, I> {
    pub section: &'a S,
    pub body: usize,
    pub index: usize,
    pub item: &'a I,
}

/// The body selector of a group of sections (`S`, with bodies `B` of items `I`), then each
/// chosen body: its name and its items drawn by `item`, told whether to show the item's label
/// (not when a body's only item repeats the body's name).
pub fn chosen_bodies<S, B, I>(
    ui: &mut egui::Ui,
    group: &[S],
    section: impl Fn(&S) -> (&str, &[B]),
    body: impl Fn(&B) -> (&str, &[I]),
    item_label: impl Fn(&I) -> &str,
    item: impl Fn(&mut egui::Ui, ItemAt<'_, S, I>, bool),
) {
    let Some(first) = group.first() else {
        return;
    };
    // Every body of the group: its section, its position there, the body.
    let bodies: Vec<(&S, usize, &B)> = group
        .iter()
        .flat_map(|s| section(s).1.iter().enumerate().map(move |(k, b)| (s, k, b)))
        .collect();
    let names: Vec<String> = bodies
        .iter()
        .enumerate()
        .map(|(i, (_, _, b))| body_name(i, body(b).0))
        .collect();
    let choice = choose(ui, section(first).0, &names);
    for (i, (s, in_section, b)) in bodies.iter().enumerate() {
        if choice != 0 && choice != i + 1 {
            continue;
        }
        let section_name = section(s).0;
        let (name, items) = body(b);
        if !name.is_empty() {
            ui.add_space(4.0);
            ui.label(RichText::new(name).strong());
        }
        for (k, it) in items.iter().enumerate() {
            let repeats_title = items.len() == 1 && item_label(it) == name;
            let at = ItemAt {
                section: *s,
                body: *in_section,
                index: k,
                item: it,
            };
            ui.push_id((section_name, i, k), |ui| item(ui, at, !repeats_title));
        }
    }
}

/// One body item with its drawing and what the page adds.
fn item_ui_with(
    ui: &mut egui::Ui,
    item: &BodyItem,
    drawing: &ItemDrawing,
    with_label: bool,
    extras: &BodyExtras<'_>,
) {
    if with_label && !item.label.is_empty() {
        let units = item.rows.iter().map(|r| r.metric.unit.as_str());
        ui.label(RichText::new(stalls::chart_caption(&item.label, units)).italics());
    }
    if let Some(note) = &item.note {
        ui.weak(note);
    }
    match (drawing, item.kind) {
        (ItemDrawing::MemoryChart(chart), _) => memory_chart::show(ui, chart),
        (ItemDrawing::MemoryTable(grid), _) => memory_table_ui(ui, grid),
        (ItemDrawing::Bars(order), _) => bars(ui, item, order),
        (ItemDrawing::Timeline(tl), _) => {
            let color = bar_color(ui, false);
            timeline_widget::show(
                ui,
                &[timeline_widget::Side {
                    timeline: tl,
                    color,
                    name: "",
                }],
            );
        }
        (_, ItemKind::LineChart) => lines(ui, item),
        (_, ItemKind::NumaTable) => numa_ui(ui, item),
        (_, ItemKind::MetricInstancesTable) => super::instances_table::show(ui, item),
        (_, ItemKind::SuffixTable) if item.rows.iter().all(|r| r.group.is_some()) => {
            suffix_table(ui, item);
        }
        (_, ItemKind::RooflineChart) => {
            // ncu-ui draws the chart here; its inputs (hundreds of rows for the tensor
            // rooflines) stay one click away.
            let kind = crate::analysis::roofline::ChartKind::ALL
                .into_iter()
                .find(|k| k.title() == item.label);
            let drawn = match (extras.roofline, kind) {
                (Some(scene), Some(kind)) => {
                    crate::pages::roofline::inline_chart(ui, scene, kind, 260.0)
                }
                _ => false,
            };
            if drawn {
                ui.weak(format!(
                    "{}.",
                    Action::ShowPage(PageId::Roofline)
                        .with_key("Tables, zoom and every result of the report: the Roofline page")
                ));
            } else {
                // Why not depends on the form: the view-model says.
                ui.weak(match (extras.roofline, kind) {
                    (Some(scene), Some(kind)) => scene.undrawn_note(kind),
                    _ => sightline_app::views::roofline::drawn_on_the_page(),
                });
            }
            egui::CollapsingHeader::new(format!(
                "Chart inputs ({})",
                crate::model::format::count_text(item.rows.len(), "value", "values")
            ))
            .id_salt(("roofline_inputs", &item.label))
            .default_open(false)
            .show(ui, |ui| table(ui, item));
        }
        (_, ItemKind::SourceMetricTable) => {
            match extras.hot_spots.iter().find(|t| t.label == item.label) {
                Some(hot) => {
                    if ui.is_rect_visible(ui.available_rect_before_wrap()) {
                        extras.hot_spots_in_view.set(true);
                    }
                    let lines = extras
                        .lines
                        .filter(|_| !extras.lines_notes_shown.replace(true));
                    hot_spots(ui, hot, lines);
                }
                None => table(ui, item),
            }
        }
        _ => table(ui, item),
    }
    if let Some(d) = &item.description {
        ui.weak(d);
    }
    ui.add_space(6.0);
}

/// Hover text of a row: label, metric, value, and a stall reason's meaning.
fn row_tooltip(ui: &mut egui::Ui, row: &BodyRow) {
    ui.strong(&row.label);
    if let Some(name) = row.metric.name {
        ui.monospace(name.as_str());
    }
    ui.label(value_text(&row.metric));
    if let Some(m) =
        stalls::meaning(&row.label).or_else(|| row.metric.name.as_deref().and_then(stalls::meaning))
    {
        ui.separator();
        ui.label(m);
    }
}

/// A bar's fill: a stall reason in warm colours, the rest in the theme's accent.
pub fn bar_color(ui: &egui::Ui, stall: bool) -> Color32 {
    match (stall, ui.visuals().dark_mode) {
        (true, true) => Color32::from_rgb(222, 140, 50),
        (true, false) => Color32::from_rgb(220, 120, 30),
        (false, true) => Color32::from_rgb(64, 126, 205),
        (false, false) => Color32::from_rgb(90, 150, 225),
    }
}

/// One labelled horizontal bar row.
fn bar_row(
    ui: &mut egui::Ui,
    label: &str,
    value: f64,
    max: f64,
    text: &str,
    stall: bool,
) -> egui::Response {
    let label_w = 260.0_f32.min(ui.available_width() * 0.4);
    let height = 18.0;
    let width = ui.available_width().max(200.0);
    let (rect, resp) = ui.allocate_exact_size(vec2(width, height), Sense::hover());
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
    let value_w = 110.0;
    let track = egui::Rect::from_min_max(
        rect.left_top() + vec2(label_w, 3.0),
        rect.right_bottom() - vec2(value_w, 3.0),
    );
    painter.rect_filled(track, 2.0, crate::theme::bar_track(ui));
    let frac = if max > 0.0 && value.is_finite() {
        (value / max).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut fill = track;
    fill.set_width((track.width() * frac as f32).max(if value > 0.0 { 1.0 } else { 0.0 }));
    painter.rect_filled(fill, 2.0, bar_color(ui, stall));
    painter.text(
        rect.right_center() - vec2(2.0, 0.0),
        egui::Align2::RIGHT_CENTER,
        text,
        font,
        text_color,
    );
    resp
}

/// A bar chart in the order its drawing gives: one bar per row, or per instance when the rows
/// are instanced (the opcode mix); stall reasons with their meaning on hover.
fn bars(ui: &mut egui::Ui, item: &BodyItem, order: &BarOrder) {
    let stall = stalls::is_stall_chart(&item.label);
    match order {
        BarOrder::Instanced(groups) => {
            for (row, group) in item.rows.iter().zip(groups) {
                ui.weak(format!("{} (total {})", row.label, value_text(&row.metric)));
                for (id, v) in &group.bars {
                    let text = crate::model::format::value_text(*v, &row.metric.unit);
                    bar_row(ui, id, *v, group.max, &text, false).on_hover_text(format!(
                        "{}: {id}",
                        row.metric.name.as_deref().unwrap_or("")
                    ));
                }
            }
        }
        BarOrder::Rows { order, max } => {
            for row in order.iter().filter_map(|&k| item.rows.get(k)) {
                let v = row.metric.as_f64().unwrap_or(0.0);
                let text = match row.metric.as_f64() {
                    Some(v) if v.is_finite() => crate::model::format::value_text(
                        v,
                        stalls::display_unit(&item.label, &row.metric.unit),
                    ),
                    _ => value_text(&row.metric),
                };
                bar_row(ui, &row.label, v, *max, &text, stall)
                    .on_hover_ui(|ui| row_tooltip(ui, row));
            }
        }
    }
}

/// Line charts (occupancy graphs): each instanced row as a polyline over its instances, the
/// highlighted x (the current launch) marked.
fn lines(ui: &mut egui::Ui, item: &BodyItem) {
    let series: Vec<(&BodyRow, Vec<(f64, f64)>)> = item
        .rows
        .iter()
        .filter(|r| !r.metric.instances.is_empty())
        .map(|r| {
            let pts = r
                .metric
                .instances
                .iter()
                .enumerate()
                .map(|(k, i)| {
                    let x = i.id.as_ref().and_then(Value::as_f64).unwrap_or(k as f64);
                    (x, i.value.as_f64().unwrap_or(0.0))
                })
                .collect();
            (r, pts)
        })
        .collect();
    if series.is_empty() {
        table(ui, item);
        return;
    }
    let (outer, resp) =
        ui.allocate_exact_size(vec2(ui.available_width().min(560.0), 188.0), Sense::hover());
    let painter = ui.painter_at(outer);
    // Room for the scale and the axis titles: the y title above, the y values on the left,
    // the x range and the x title below.
    let rect = egui::Rect::from_min_max(outer.min + vec2(48.0, 14.0), outer.max - vec2(0.0, 32.0));
    painter.rect_stroke(
        rect,
        2.0,
        Stroke::new(1.0, ui.visuals().weak_text_color()),
        egui::StrokeKind::Inside,
    );
    let all = series.iter().flat_map(|s| s.1.iter());
    let (mut x0, mut x1, mut y1) = (f64::MAX, f64::MIN, 0.0f64);
    for &(x, y) in all {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if x1 <= x0 {
        x1 = x0 + 1.0;
    }
    let y1 = if y1 > 0.0 { y1 } else { 1.0 };
    let to_screen = |x: f64, y: f64| {
        egui::pos2(
            rect.left() + 4.0 + ((x - x0) / (x1 - x0)) as f32 * (rect.width() - 8.0),
            rect.bottom() - 4.0 - (y / y1) as f32 * (rect.height() - 8.0),
        )
    };
    let color = bar_color(ui, false);
    for (_, pts) in &series {
        let line: Vec<egui::Pos2> = pts.iter().map(|&(x, y)| to_screen(x, y)).collect();
        painter.add(egui::Shape::line(line, Stroke::new(1.5, color)));
    }
    for h in &item.highlight {
        if let Some(x) = h.metric.as_f64() {
            let a = to_screen(x, 0.0);
            let b = to_screen(x, y1);
            painter.line_segment([a, b], Stroke::new(1.0, Color32::from_rgb(230, 80, 80)));
        }
    }
    // The graphs' units name the y and the x unit ("%/register", "%/byte").
    let (unit, x_unit) = series.first().map_or(("", ""), |(r, _)| {
        let mut parts = r.metric.unit.split('/');
        (parts.next().unwrap_or(""), parts.next().unwrap_or(""))
    });
    let weak = ui.visuals().weak_text_color();
    let font = egui::FontId::proportional(11.0);
    let scale = [
        (
            rect.left_top() - vec2(4.0, 0.0),
            egui::Align2::RIGHT_TOP,
            crate::model::format::value_text(y1, unit),
        ),
        (
            rect.left_bottom() - vec2(4.0, 0.0),
            egui::Align2::RIGHT_BOTTOM,
            crate::model::format::value_text(0.0, unit),
        ),
        (
            rect.left_bottom() + vec2(0.0, 3.0),
            egui::Align2::LEFT_TOP,
            crate::model::format::value_text(x0, x_unit),
        ),
        (
            rect.right_bottom() + vec2(0.0, 3.0),
            egui::Align2::RIGHT_TOP,
            crate::model::format::value_text(x1, x_unit),
        ),
    ];
    for (pos, align, text) in scale {
        painter.text(pos, align, text, font.clone(), weak);
    }
    let y_title = item
        .value_axis
        .as_ref()
        .map(|a| a.label.as_str())
        .filter(|l| !l.is_empty())
        .unwrap_or_else(|| series.first().map_or("", |(r, _)| r.label.as_str()));
    let text = ui.visuals().text_color();
    painter.text(
        rect.left_top() - vec2(0.0, 2.0),
        egui::Align2::LEFT_BOTTOM,
        y_title,
        font.clone(),
        text,
    );
    if !item.category_axis.is_empty() {
        painter.text(
            egui::pos2(rect.center().x, outer.bottom() - 1.0),
            egui::Align2::CENTER_BOTTOM,
            &item.category_axis,
            font.clone(),
            text,
        );
    }
    let names: Vec<String> = series
        .iter()
        .map(|(r, _)| format!("{} ({})", r.label, r.metric.name.as_deref().unwrap_or("")))
        .collect();
    resp.on_hover_text(format!(
        "{}\nx from {} to {}; highest {}",
        names.join("\n"),
        crate::model::format::value_text(x0, x_unit),
        crate::model::format::value_text(x1, x_unit),
        crate::model::format::value_text(y1, unit)
    ));
}

/// The id under which a clicked hot-spot address waits for the page to read it.
fn jump_id() -> egui::Id {
    egui::Id::unique("section_body_source_jump")
}

/// Takes the address of the hot spot clicked in this frame, if any (to open the Source page
/// there).
pub fn take_source_jump(ctx: &egui::Context) -> Option<SourceTarget> {
    ctx.data_mut(|d| {
        let target = d.get_temp::<SourceTarget>(jump_id());
        d.remove::<SourceTarget>(jump_id());
        target
    })
}

/// Asks to open the Source page at `target` (taken by the page that drew the link).
pub fn request_source_jump(ui: &egui::Ui, target: SourceTarget) {
    ui.data_mut(|d| d.insert_temp(jump_id(), target));
}

/// A Source Counters table as ncu's "Hotspot Locations": the hottest instructions with their
/// line, SASS, value, share and the metrics behind it, each opening the Source page at its
/// instruction; the table's metrics one click away.
fn hot_spots(ui: &mut egui::Ui, hot: &HotSpotTable, lines: Option<&Lines>) {
    match lines {
        Some(Lines::Reading) => {
            ui.horizontal(|ui| {
                crate::widgets::calm_spinner::calm_spinner(ui);
                ui.weak("Reading the lines and SASS of the hot spots…");
            });
        }
        Some(Lines::Unavailable(why)) => {
            ui.weak(why.as_str());
        }
        Some(Lines::Read(notes)) => {
            for note in notes {
                ui.weak(note.as_str());
            }
        }
        _ => {}
    }
    if hot.rows.is_empty() {
        ui.weak("No instruction has a value in this table.");
    } else {
        egui::ScrollArea::horizontal()
            .id_salt((&hot.label, "hot_spots_scroll"))
            .show(ui, |ui| {
                egui::Grid::new((&hot.label, "hot_spots"))
                    .striped(true)
                    .num_columns(5)
                    .show(ui, |ui| {
                        for h in ["Location", "Instruction", "Value", "Share", "Made of"] {
                            ui.weak(h);
                        }
                        ui.end_row();
                        for spot in &hot.rows {
                            if ui
                                .link(&spot.location)
                                .on_hover_text("Open the Source page at this instruction")
                                .clicked()
                            {
                                request_source_jump(ui, SourceTarget::Address(spot.address));
                            }
                            ui.monospace(&spot.instruction);
                            ui.label(&spot.value_text);
                            ui.label(&spot.share_text);
                            ui.weak(&spot.reasons);
                            ui.end_row();
                        }
                    });
            });
    }
    egui::CollapsingHeader::new(format!("Metrics ({})", hot.metrics.len()))
        .id_salt((&hot.label, "hot_spot_metrics"))
        .default_open(false)
        .show(ui, |ui| {
            egui::Grid::new((&hot.label, "hot_spot_metric_rows"))
                .striped(true)
                .num_columns(2)
                .show(ui, |ui| {
                    for (label, value) in &hot.metrics {
                        ui.label(label);
                        ui.label(value);
                        ui.end_row();
                    }
                });
        });
}

/// A plain table: label, group, value, with the metric on hover.
fn table(ui: &mut egui::Ui, item: &BodyItem) {
    let grouped = item.rows.iter().any(|r| r.group.is_some());
    egui::Grid::new("body_table")
        .striped(true)
        .num_columns(if grouped { 3 } else { 2 })
        .show(ui, |ui| {
            for row in &item.rows {
                if grouped {
                    ui.weak(row.group.as_deref().unwrap_or(""));
                }
                ui.label(&row.label).on_hover_ui(|ui| row_tooltip(ui, row));
                ui.label(value_text(&row.metric))
                    .on_hover_ui(|ui| row_tooltip(ui, row));
                ui.end_row();
            }
        });
}

/// A suffix table as ncu-ui draws it: one row per instance (a tensor datapath, an SM), one
/// column per suffix (`# Operations / s`, `Peak %`); operation counts scaled (`15.69 POP/s`).
fn suffix_table(ui: &mut egui::Ui, item: &BodyItem) {
    let mut columns: Vec<String> = Vec::new();
    let mut labels: Vec<&str> = Vec::new();
    for row in &item.rows {
        let group = row.group.as_deref().unwrap_or_default();
        if !columns.iter().any(|c| c == group) {
            columns.push(group.to_string());
        }
        if !labels.contains(&row.label.as_str()) {
            labels.push(&row.label);
        }
    }
    let id = format!("suffix_table_{}", item.label);
    labelled_grid(ui, &id, &columns, |ui| {
        for label in &labels {
            ui.label(*label);
            for column in &columns {
                let row = item
                    .rows
                    .iter()
                    .find(|r| r.label == *label && r.group.as_deref() == Some(column.as_str()));
                match row {
                    Some(row) => {
                        ui.label(suffix_cell_text(column, &row.metric))
                            .on_hover_ui(|ui| row_tooltip(ui, row));
                    }
                    None => {
                        ui.weak(NOT_MEASURED);
                    }
                }
            }
            ui.end_row();
        }
    });
}

/// A suffix table's cell: counts of operations without a stored unit take one from their
/// column (`OP/s`, `OP/cycle`, `OP`) and are scaled; other values as the tables print them.
fn suffix_cell_text(column: &str, metric: &Metric) -> String {
    let unit = metric.unit.as_str();
    let operations = column.contains("Operations");
    match metric.value.as_f64() {
        Some(v) if unit.is_empty() && operations => {
            let unit = if column.ends_with("/ s") {
                "OP/s"
            } else if column.ends_with("/ Cycle") {
                "OP/cycle"
            } else {
                "OP"
            };
            value_text_in(v, unit)
        }
        _ => value_text(metric),
    }
}

/// A striped grid that scrolls sideways, with a blank corner and `columns` as its header row;
/// `rows` adds the rows, each starting with its label.
pub fn labelled_grid(
    ui: &mut egui::Ui,
    id: &str,
    columns: &[String],
    rows: impl FnOnce(&mut egui::Ui),
) {
    egui::ScrollArea::horizontal()
        .id_salt((id, "scroll"))
        .show(ui, |ui| {
            egui::Grid::new(id)
                .striped(true)
                .num_columns(columns.len() + 1)
                .show(ui, |ui| {
                    ui.weak("");
                    for c in columns {
                        ui.weak(c);
                    }
                    ui.end_row();
                    rows(ui);
                });
        });
}

/// The unit a memory table cell writes after its number: none for counts, which the column
/// names (Instructions, Sectors, Requests), so that the wide tables stay readable as ncu prints
/// them; bytes, rates and percentages keep theirs.
pub fn memory_cell_unit(unit: &str) -> &str {
    match unit {
        "inst" | "sector" | "request" | "sector/request" | "cycle" | "wavefront" => "",
        u => u,
    }
}

/// A memory table: rows by access type, columns by what is counted; the metric on hover.
fn memory_table_ui(ui: &mut egui::Ui, g: &Grid) {
    if g.rows.is_empty() {
        ui.weak("No metrics of this table were collected.");
        return;
    }
    labelled_grid(ui, "memory_table", &g.columns, |ui| {
        for r in &g.rows {
            ui.label(RichText::new(&r.label).strong());
            for cell in &r.cells {
                match cell {
                    Some(c) => {
                        let text = match c.value {
                            Some(v) => value_text_in(v, memory_cell_unit(&c.unit)),
                            None => NOT_MEASURED.to_string(),
                        };
                        let unused = c.value.is_none();
                        let label = if unused {
                            ui.weak(text)
                        } else {
                            ui.label(text)
                        };
                        label.on_hover_text(if unused {
                            format!("{} (UNUSED: not collected)", c.metric)
                        } else {
                            c.metric.clone()
                        });
                    }
                    None => {
                        ui.label("");
                    }
                }
            }
            ui.end_row();
        }
    });
    if !g.other.is_empty() {
        egui::CollapsingHeader::new(format!("Other metrics of this table ({})", g.other.len()))
            .id_salt("memory_table_other")
            .default_open(false)
            .show(ui, |ui| {
                egui::Grid::new("memory_table_other_grid")
                    .striped(true)
                    .num_columns(2)
                    .show(ui, |ui| {
                        for c in &g.other {
                            ui.monospace(&c.metric);
                            ui.label(match c.value {
                                Some(v) => value_text_in(v, &c.unit),
                                None => NOT_MEASURED.to_string(),
                            });
                            ui.end_row();
                        }
                    });
            });
    }
}

/// The NUMA affinity table: one row per GPU, the metric of each column on hover.
fn numa_ui(ui: &mut egui::Ui, item: &BodyItem) {
    let t = numa::table(item);
    if t.rows.is_empty() {
        ui.weak("No NUMA affinity metrics were collected.");
        return;
    }
    egui::Grid::new("numa_table")
        .striped(true)
        .num_columns(t.columns.len())
        .show(ui, |ui| {
            for (c, m) in t.columns.iter().zip(&t.metrics) {
                let l = ui.weak(c);
                if !m.is_empty() {
                    l.on_hover_text(m);
                }
            }
            ui.end_row();
            for row in &t.rows {
                for cell in row {
                    ui.label(cell);
                }
                ui.end_row();
            }
        });
}
