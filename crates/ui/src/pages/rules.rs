//! The Rules page: every rule result of the selected result in one list, the largest estimated
//! speedup first, each with its section; drawn from the page's view-model
//! ([`sightline_app::views::rules`]).

use crate::pages::{Page, PageContext, PageIo};
use crate::widgets::rule_card;
use sightline_app::core::commands::Command;
use sightline_app::core::page_id::PageId;
use sightline_app::views::rules::RulesView;

impl Page for RulesView {
    fn id(&self) -> PageId {
        PageId::Rules
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, io: &mut PageIo<'_>) {
        let list = self.list(cx.at, cx.workspace.generation(), cx.result);
        if list.lines.is_empty() {
            ui.label("No rule results: the report was collected without rules, or none applied.");
            return;
        }
        ui.weak(format!(
            "{}, {} with an estimated speedup; largest first.",
            crate::model::format::count_text(list.lines.len(), "rule result", "rule results"),
            list.with_speedup
        ));
        egui::ScrollArea::vertical()
            .id_salt("rules_page")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                for line in &list.lines {
                    rule_card::show(ui, line);
                }
            });
        // A rule's marker clicked: the Source page opens there.
        if let Some(target) = crate::widgets::section_body::take_source_jump(ui.ctx()) {
            io.shared.source_jump = Some((cx.at, target));
            io.commands.push(Command::ShowPage(PageId::Source));
        }
    }

    fn release(&mut self) {
        RulesView::release(self);
    }
}
