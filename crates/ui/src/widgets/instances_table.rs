//! A metric-instances table (ncu 2026.3) on the Details page: per metric, one row per
//! instance under the template's instance and value column headers, with the further values
//! the report stores on an instance beside its value.

use crate::model::format::value_text as number_text;
use crate::model::section_body::BodyItem;

/// Draws the table of a resolved metric-instances item.
pub fn show(ui: &mut egui::Ui, item: &BodyItem) {
    let header = |text: &str, fallback: &'static str| {
        if text.is_empty() {
            fallback.to_string()
        } else {
            text.to_string()
        }
    };
    let values = item.value_axis.as_ref().map_or("", |a| a.label.as_str());
    egui::Grid::new(("instances_table", &item.label))
        .striped(true)
        .num_columns(4)
        .show(ui, |ui| {
            ui.weak("Metric");
            ui.weak(header(&item.category_axis, "Instance"));
            ui.weak(header(values, "Value"));
            ui.weak("Instance Values");
            ui.end_row();
            for row in &item.rows {
                ui.label(row.group.as_deref().unwrap_or(""));
                ui.label(&row.label);
                ui.label(crate::model::format::metric_text(row.metric.view()));
                let extra: Vec<String> = row
                    .metric
                    .instances
                    .iter()
                    .map(|i| match i.value.as_f64() {
                        Some(x) => number_text(x, row.metric.unit.as_str()),
                        None => i.value.to_string(),
                    })
                    .collect();
                ui.label(extra.join("; "));
                ui.end_row();
            }
        });
}
