//! The section bodies of the comparison: the current result's bodies paired with the first
//! baseline's (charts, tables, memory chart and tables, PM sampling), one collapsible group
//! per section with the sections extending it, under one body selector.

use super::*;
use crate::widgets::section_body_compare::{self, Sides};
use sightline_app::views::section_bodies::{DrawnPairedSection, PairedBodies};

/// Shows the bodies of every section with both sides (against the first baseline).
pub(super) fn bodies_ui(
    ui: &mut egui::Ui,
    sections: &PairedBodies,
    view: &SideBySide,
    threshold_pct: f64,
    focus: Option<&str>,
) {
    let Some(base) = view.bases.first() else {
        return;
    };
    if sections.is_empty() {
        return;
    }
    if focus.is_none() {
        ui.separator();
        ui.strong("Section bodies");
        if view.bases.len() > 1 {
            ui.weak(format!("Against the first baseline, {}.", base.title));
        }
    }
    // The report names tell the sides apart when the kernels have the same name and ID.
    let (base_name, current_name) = (
        format!("{} ({})", base.title, base.report_name),
        format!("{} ({})", view.current.title, view.current.report_name),
    );
    let sides = Sides {
        base_color: side_color(ui, base),
        current_color: side_color(ui, &view.current),
        base_name: &base_name,
        current_name: &current_name,
        threshold_pct,
    };
    for (i, at) in sections.groups.iter().enumerate() {
        let group: Vec<DrawnPairedSection<'_>> =
            at.iter().filter_map(|&k| sections.drawn(k)).collect();
        let Some(first) = group.first().map(|d| d.section) else {
            continue;
        };
        if focus.is_some_and(|f| !group.iter().any(|d| d.section.name.contains(f))) {
            continue;
        }
        if group
            .iter()
            .all(|d| d.section.bodies.iter().all(|b| b.items.is_empty()))
        {
            continue;
        }
        egui::CollapsingHeader::new(RichText::new(&first.name).strong())
            .id_salt(("compare_bodies", &first.name, i))
            .default_open(true)
            .show(ui, |ui| section_body_compare::show(ui, &group, &sides));
    }
}
