//! One rule result as a card: its kind tag in the kind's colour, title, estimated speedup and
//! section; the message (the key performance indicators' guidance on hover); the indicators
//! behind a header. The Details page's sections and the Rules page draw rules with it.

use crate::widgets::theme;
use sightline_app::views::rules::RuleLine;

/// Draws `line` as a card.
pub fn show(ui: &mut egui::Ui, line: &RuleLine) {
    ui.add_space(4.0);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.horizontal_wrapped(|ui| {
            let color = theme::rule_color(ui, line.kind);
            ui.label(
                egui::RichText::new(line.kind.tag())
                    .strong()
                    .monospace()
                    .color(color),
            );
            if !line.title.is_empty() {
                ui.label(egui::RichText::new(&line.title).strong());
            }
            if let Some(speedup) = &line.speedup {
                ui.label(egui::RichText::new(speedup).color(color));
            }
            if !line.section.is_empty() {
                ui.weak(format!("in {}", line.section));
            }
        });
        let message = ui.label(&line.message);
        if !line.places.is_empty() {
            // The lines and instructions the rule points at, each opening the Source page there.
            ui.horizontal_wrapped(|ui| {
                ui.weak("On the Source page:");
                for (label, target) in &line.places {
                    if ui
                        .link(label)
                        .on_hover_text("Open the Source page here")
                        .clicked()
                    {
                        crate::widgets::section_body::request_source_jump(ui, target.clone());
                    }
                }
            });
        }
        if !line.guidance.is_empty() {
            message.on_hover_text(line.guidance.join("\n"));
        }
        if !line.focus_metrics.is_empty() {
            egui::CollapsingHeader::new("Key performance indicators")
                .id_salt(("kpi", &line.section, &line.title))
                .show(ui, |ui| {
                    egui::Grid::new(("kpi_grid", &line.section, &line.title))
                        .num_columns(2)
                        .show(ui, |ui| {
                            for (name, value) in &line.focus_metrics {
                                ui.monospace(name);
                                ui.label(crate::model::format::number_text(*value));
                                ui.end_row();
                            }
                        });
                });
        }
    });
}
