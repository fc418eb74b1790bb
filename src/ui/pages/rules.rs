//! The Rules page: every rule result of the selected result in one list, the largest estimated
//! speedup first, each with its section; drawn from the page's view-model
//! ([`crate::app::views::rules`]).

use crate::app::core::page_id::PageId;
use crate::app::views::rules::{RuleLine, RulesView};
use crate::ui::pages::details::kind_tag;
use crate::ui::pages::{Page, PageContext, PageIo};
use crate::ui::widgets::theme;

impl Page for RulesView {
    fn id(&self) -> PageId {
        PageId::Rules
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, _io: &mut PageIo<'_>) {
        let list = self.list(cx.at, cx.workspace.generation(), cx.result);
        if list.lines.is_empty() {
            ui.label("No rule results: the report was collected without rules, or none applied.");
            return;
        }
        ui.weak(format!(
            "{} rule results, {} with an estimated speedup; largest first.",
            list.lines.len(),
            list.with_speedup
        ));
        egui::ScrollArea::vertical()
            .id_salt("rules_page")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for line in &list.lines {
                    rule_ui(ui, line);
                }
            });
    }

    fn release(&mut self) {
        RulesView::release(self);
    }
}

/// One rule: kind tag in its colour, title, estimated speedup, section; the message; its key
/// performance indicators behind a header.
fn rule_ui(ui: &mut egui::Ui, line: &RuleLine) {
    ui.add_space(4.0);
    egui::Frame::group(ui.style()).show(ui, |ui| {
        ui.set_width(ui.available_width());
        ui.horizontal_wrapped(|ui| {
            let color = theme::rule_color(ui, line.kind);
            ui.label(
                egui::RichText::new(kind_tag(line.kind))
                    .strong()
                    .monospace()
                    .color(color),
            );
            ui.label(egui::RichText::new(&line.title).strong());
            if let Some(speedup) = &line.speedup {
                ui.label(egui::RichText::new(speedup).color(color));
            }
            if !line.section.is_empty() {
                ui.weak(format!("in {}", line.section));
            }
        });
        ui.label(&line.message);
        if !line.focus_metrics.is_empty() {
            egui::CollapsingHeader::new("Key performance indicators")
                .id_salt(("rules_page_kpi", &line.section, &line.title))
                .show(ui, |ui| {
                    egui::Grid::new(("rules_page_kpi_grid", &line.section, &line.title))
                        .num_columns(2)
                        .show(ui, |ui| {
                            for (name, value) in &line.focus_metrics {
                                ui.monospace(name);
                                ui.label(crate::app::format::number_text(*value));
                                ui.end_row();
                            }
                        });
                });
        }
    });
}
