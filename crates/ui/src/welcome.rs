//! The central panel while no report is open: the files being read, each with its progress
//! and a Cancel button, or, with none, what can be opened and how.

use sightline_app::core::commands::{Command, OpenRequest};
use sightline_app::views::loading::LoadProgress;

/// Most loads shown one by one; the reports panel lists them all.
const MOST_SHOWN: usize = 6;

/// Width of a load's progress bar (less in a narrow window).
const BAR_WIDTH: f32 = 360.0;

/// Draws the loads in `pending`, or the welcome when there are none.
pub fn show(ui: &mut egui::Ui, pending: &[LoadProgress], commands: &mut Vec<Command>) {
    ui.vertical_centered(|ui| {
        ui.add_space(ui.available_height() * 0.25);
        if pending.is_empty() {
            welcome(ui, commands);
        } else {
            loading(ui, pending, commands);
        }
    });
}

fn welcome(ui: &mut egui::Ui, commands: &mut Vec<Command>) {
    ui.heading("Open a Nsight Compute result");
    ui.add_space(8.0);
    ui.label(".ncu-rep reports, ncu text output, CSV exports, session pages, GUI copies");
    ui.weak("Drag files here, paste ncu text with Ctrl+V, or use File > Open (Ctrl+O).");
    ui.add_space(8.0);
    if ui.button("Open…").clicked() {
        commands.push(Command::ShowOpenDialog);
    }
    if ui.button("Open the demo report").clicked() {
        commands.push(Command::Open(OpenRequest::Demo));
    }
}

fn loading(ui: &mut egui::Ui, pending: &[LoadProgress], commands: &mut Vec<Command>) {
    ui.heading(match pending {
        [one] => format!("Opening {}", one.title),
        _ => format!("Opening {} files", pending.len()),
    });
    ui.add_space(12.0);
    for load in pending.iter().take(MOST_SHOWN) {
        if pending.len() > 1 {
            ui.label(&load.title);
        }
        ui.add(
            egui::ProgressBar::new(load.fraction.unwrap_or(0.0))
                .desired_width(ui.available_width().min(BAR_WIDTH))
                .show_percentage(),
        );
        ui.weak(&load.facts);
        let cancel = ui.button("Cancel");
        let spoken = format!("Cancel opening {}", load.name);
        let cancel = crate::reports_panel::spoken_name(cancel, &spoken);
        if cancel.clicked() {
            commands.push(Command::CancelLoad(load.id));
        }
        ui.add_space(8.0);
    }
    if pending.len() > MOST_SHOWN {
        ui.weak(format!(
            "and {} more, listed under Reports",
            pending.len() - MOST_SHOWN
        ));
    }
}
