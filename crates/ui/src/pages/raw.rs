//! The Raw page: every metric of the result (name, unit, value, instances), searchable by name,
//! in a virtualised table.

use crate::model::KernelResult;
use crate::model::format::value_and_unit;
use crate::pages::details::{metric_copy_menu, metric_tooltip};
use crate::pages::{Page, PageContext, PageIo};
use egui_extras::{Column, TableBuilder};
use sightline_app::core::ids::ResultRef;
use sightline_app::core::page_id::PageId;
use sightline_app::views::raw::RawView;

impl Page for RawView {
    fn id(&self) -> PageId {
        PageId::Raw
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, _io: &mut PageIo<'_>) {
        show(ui, cx.at, cx.result, self);
    }

    fn release(&mut self) {
        RawView::release(self);
    }
}

/// Shows the Raw page.
pub fn show(ui: &mut egui::Ui, at: ResultRef, result: &KernelResult, state: &mut RawView) {
    ui.horizontal(|ui| {
        let label = ui.label("Search metrics");
        ui.add(
            egui::TextEdit::singleline(&mut state.query)
                .hint_text("e.g. dram__bytes")
                .desired_width(280.0),
        )
        .labelled_by(label.id);
    });
    let total = result.metrics().len();
    let names = state.matches(at, result);
    ui.weak(format!(
        "{} of {}",
        names.len(),
        crate::model::format::count_text(total, "metric", "metrics")
    ));
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    egui::ScrollArea::horizontal()
        .id_salt("raw_metrics_wide")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            TableBuilder::new(ui)
                .id_salt("raw_metrics")
                .striped(true)
                .auto_shrink([false, false])
                .column(Column::remainder().at_least(240.0).clip(true))
                .column(Column::initial(110.0).at_least(50.0).clip(true))
                .column(Column::initial(160.0).at_least(60.0).clip(true))
                .column(Column::initial(80.0).at_least(40.0))
                .header(row_height + 2.0, |mut header| {
                    for title in ["Metric Name", "Metric Unit", "Metric Value", "Instances"] {
                        header.col(|ui| {
                            ui.strong(title);
                        });
                    }
                })
                .body(|body| {
                    body.rows(row_height, names.len(), |mut row| {
                        let Some(name) = names.get(row.index()) else {
                            return;
                        };
                        let Some(metric) = result.metrics().get(name.as_str()) else {
                            return;
                        };
                        let (value, _) = value_and_unit(&metric.value, &metric.unit);
                        // A metric without a value keeps its unit, as ncu's raw page does.
                        let unit = crate::model::format::unit_beside(&metric.value, &metric.unit);
                        row.col(|ui| {
                            let shown = ui
                                .monospace(name)
                                .on_hover_ui(|ui| metric_tooltip(ui, name, &metric));
                            metric_copy_menu(&shown, name, &metric);
                        });
                        row.col(|ui| {
                            ui.label(unit);
                        });
                        row.col(|ui| {
                            let shown = ui
                                .label(value)
                                .on_hover_ui(|ui| metric_tooltip(ui, name, &metric));
                            metric_copy_menu(&shown, name, &metric);
                        });
                        row.col(|ui| {
                            if !metric.instances.is_empty() {
                                ui.label(metric.instances.len().to_string());
                            }
                        });
                    });
                });
        });
}
