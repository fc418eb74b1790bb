//! How the Source page draws a row: values and changes as the tables print them, heat bars,
//! rule markers, column headers that scroll sideways with their rows, the statistics line and
//! the tooltips of an instruction's registers.

use crate::model::source::{Cell, SourceView};

/// The colour of the heat bars (reads on light and dark backgrounds).
const HEAT: egui::Color32 = egui::Color32::from_rgb(232, 96, 48);
/// Width of a heat bar, and in a pane narrower than [`NARROW`] (a laptop at zoom 1.5).
const BAR_WIDTH: f32 = 56.0;
const NARROW_BAR_WIDTH: f32 = 24.0;
const NARROW: f32 = 600.0;

/// A value as the tables print it.
pub(super) fn cell_text(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

/// A change as the Δ column prints it.
pub(super) fn delta_text(v: Option<f64>) -> String {
    match v {
        Some(v) if v > 0.0 => format!("+{}", cell_text(v)),
        Some(v) => cell_text(v),
        None => String::new(),
    }
}

/// The selected line's warp-stall samples by reason, most first.
pub(super) fn stall_reasons(ui: &mut egui::Ui, view: &SourceView, cells: &[Cell], line: u32) {
    let reasons = crate::analysis::source::stalls::stall_reasons(view, cells);
    if reasons.is_empty() {
        ui.label(format!("Line {line}: no warp-stall samples."));
        return;
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("Stall reasons of line {line}:"));
        for s in &reasons {
            let name = s.reason.strip_prefix("stall_").unwrap_or(s.reason);
            ui.label(
                egui::RichText::new(format!(
                    "{name} {} ({} not issued)",
                    cell_text(s.samples),
                    cell_text(s.not_issued)
                ))
                .monospace(),
            );
        }
    });
}

/// The header of a list of rows: blank above the heat bars, then `text` in the rows' columns;
/// `metric` (the value column's full name) on hover.
pub(super) struct Header<'a> {
    pub text: String,
    pub metric: &'a str,
}

fn column_header(ui: &mut egui::Ui, header: Header<'_>, bar: f32) {
    ui.horizontal(|ui| {
        let height = ui.text_style_height(&egui::TextStyle::Monospace);
        ui.allocate_exact_size(egui::vec2(bar, height), egui::Sense::hover());
        ui.add_space(ui.spacing().button_padding.x);
        ui.label(egui::RichText::new(header.text).monospace().strong())
            .on_hover_text(format!("Value: {}", header.metric));
    });
}

/// A pane of monospace rows, one for each index of `order`, drawn only where they show, under
/// `header`, which scrolls sideways with them. `scroll_to` (a position in `order`) brings
/// that row into view. A row is drawn by `row` with the width of its heat bar (narrower in a
/// narrow pane, so the code keeps the room).
pub(super) fn monospace_rows(
    ui: &mut egui::Ui,
    id: &str,
    order: &[usize],
    header: Option<Header<'_>>,
    scroll_to: Option<usize>,
    mut row: impl FnMut(&mut egui::Ui, usize, f32),
) {
    let bar = if ui.available_width() < NARROW {
        NARROW_BAR_WIDTH
    } else {
        BAR_WIDTH
    };
    let row_height =
        ui.text_style_height(&egui::TextStyle::Monospace) + ui.spacing().item_spacing.y;
    // The rows' sideways offset of the last frame: the header follows it.
    let across = ui.scope_id().with((id, "across"));
    let offset = ui.data(|d| d.get_temp::<f32>(across)).unwrap_or(0.0);
    if let Some(header) = header {
        egui::ScrollArea::horizontal()
            .id_salt((id, "header"))
            .scroll_bar_visibility(egui::containers::scroll_area::ScrollBarVisibility::AlwaysHidden)
            .scroll_source(egui::containers::scroll_area::ScrollSource::NONE)
            .horizontal_scroll_offset(offset)
            .auto_shrink([false, true])
            .show(ui, |ui| column_header(ui, header, bar));
    }
    let height = crate::pages::list_height(ui);
    let mut area = egui::ScrollArea::both()
        .id_salt(id)
        .auto_shrink([false, false])
        .max_height(height)
        .min_scrolled_height(height);
    if let Some(at) = scroll_to {
        area = area.vertical_scroll_offset((at as f32 * row_height - height / 3.0).max(0.0));
    }
    let shown = area.show_rows(ui, row_height, order.len(), |ui, rows| {
        for &i in &order[rows] {
            row(ui, i, bar);
        }
    });
    if shown.state.clamped_offset().x != offset {
        ui.data_mut(|d| d.insert_temp(across, shown.state.clamped_offset().x));
        ui.ctx().request_repaint();
    }
}

/// The column's statistics over the rows listed: count, sum and its share of the function,
/// least, most, mean.
pub(super) fn stats_line(ui: &mut egui::Ui, rows: &str, s: &sightline_app::views::source::Stats) {
    if s.count == 0 {
        return;
    }
    let share = s
        .share_pct
        .map_or(String::new(), |p| format!(" ({p:.1} % of the function)"));
    ui.weak(format!(
        "{} {rows}: sum {}{share} \u{b7} min {} \u{b7} max {} \u{b7} mean {}",
        s.count,
        cell_text(s.sum),
        cell_text(s.min),
        cell_text(s.max),
        cell_text(s.mean)
    ));
}

/// The mark of the rules that point at a line or an instruction, in the colour of the most
/// severe, with what each says on hover; a blank of the same width elsewhere.
pub(super) fn marker_glyph(ui: &mut egui::Ui, view: &SourceView, marks: Option<&Vec<usize>>) {
    let markers: Vec<&crate::model::source::PlacedMarker> = marks
        .into_iter()
        .flatten()
        .filter_map(|&m| view.markers.get(m))
        .collect();
    let Some(worst) = markers.iter().map(|m| m.kind).max_by_key(|k| k.severity()) else {
        ui.monospace(" ");
        return;
    };
    let color = crate::widgets::theme::rule_color(ui, worst);
    let text = markers
        .iter()
        .map(|m| format!("{} {}: {}", m.kind.tag(), m.rule, m.tooltip))
        .collect::<Vec<_>>()
        .join("\n");
    ui.label(egui::RichText::new("\u{25b6}").monospace().color(color))
        .on_hover_text(text);
}

/// A bar `width` wide whose length is `fraction` of it.
pub(super) fn heat_bar(ui: &mut egui::Ui, fraction: f64, width: f32) {
    let height = ui.text_style_height(&egui::TextStyle::Monospace);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(width, height), egui::Sense::hover());
    ui.painter()
        .rect_filled(rect, 1.0, ui.visuals().faint_bg_color);
    let fraction = if fraction.is_finite() {
        fraction.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let mut bar = rect;
    bar.set_width(rect.width() * fraction as f32);
    ui.painter().rect_filled(bar, 1.0, HEAT);
}

/// The tooltip of an instruction's registers: what is live, what it reads and from where.
pub(super) fn register_text(
    view: &SourceView,
    r: &crate::model::source::RegisterUse,
    high: bool,
) -> String {
    let mut text = format!(
        "Live: {} registers, {} predicates, {} uniform registers",
        r.live_registers, r.live_predicates, r.live_uniform_registers
    );
    if high && let Some(n) = view.registers_per_thread {
        text.push_str(&format!(
            "\nNear the {n} registers per thread the kernel was compiled to"
        ));
    }
    if !r.writes.is_empty() {
        text.push_str(&format!("\nWrites {}", r.writes.join(", ")));
    }
    for (reg, at) in &r.reads_from {
        let sass = view
            .instructions
            .iter()
            .find(|i| i.address == *at)
            .and_then(|i| i.sass.as_deref())
            .unwrap_or("");
        text.push_str(&format!(
            "\nReads {reg}, written at {at:#x} {}",
            sass.trim()
        ));
    }
    text.push_str("\nClick: highlight the instructions whose results it reads");
    text
}
