//! The menu bar (File, View, Help) and the keyboard shortcuts that mirror it.

use crate::app::commands::{Command, OpenRequest};
use crate::app::page_id::PageId;
use crate::app::settings::Settings;
use crate::ui::widgets::theme::ThemeChoice;

/// Ctrl+O (Cmd+O on macOS).
pub const OPEN_SHORTCUT: egui::KeyboardShortcut =
    egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::O);
/// Ctrl+Q.
pub const QUIT_SHORTCUT: egui::KeyboardShortcut =
    egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::Q);

/// Shortcuts that work anywhere in the window.
pub fn shortcuts(ctx: &egui::Context, commands: &mut Vec<Command>) {
    if ctx.input_mut(|i| i.consume_shortcut(&OPEN_SHORTCUT)) {
        commands.push(Command::ShowOpenDialog);
    }
    if ctx.input_mut(|i| i.consume_shortcut(&QUIT_SHORTCUT)) {
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

/// Shows the menu bar.
pub fn show(ui: &mut egui::Ui, settings: &mut Settings, commands: &mut Vec<Command>) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| file_menu(ui, settings, commands));
        ui.menu_button("View", |ui| view_menu(ui, settings));
        ui.menu_button("Help", help_menu);
    });
}

fn file_menu(ui: &mut egui::Ui, settings: &Settings, commands: &mut Vec<Command>) {
    let open = egui::Button::new("Open…").shortcut_text(ui.ctx().format_shortcut(&OPEN_SHORTCUT));
    if ui.add(open).clicked() {
        commands.push(Command::ShowOpenDialog);
    }
    ui.menu_button("Open Recent", |ui| {
        if settings.recent_files.is_empty() {
            ui.weak("No recent files");
        }
        for path in &settings.recent_files {
            let name = crate::app::format::file_name(path);
            if ui
                .button(&name)
                .on_hover_text(path.display().to_string())
                .clicked()
            {
                commands.push(Command::Open(OpenRequest::Path(path.clone())));
            }
        }
        if !settings.recent_files.is_empty() {
            ui.separator();
            if ui.button("Clear recent files").clicked() {
                commands.push(Command::ClearRecent);
            }
        }
    });
    if ui.button("Open demo report").clicked() {
        commands.push(Command::Open(OpenRequest::Demo));
    }
    ui.separator();
    if ui.button("Close all reports").clicked() {
        commands.push(Command::CloseAll);
    }
    ui.separator();
    let quit = egui::Button::new("Quit").shortcut_text(ui.ctx().format_shortcut(&QUIT_SHORTCUT));
    if ui.add(quit).clicked() {
        ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
    }
}

fn view_menu(ui: &mut egui::Ui, settings: &mut Settings) {
    ui.label("Theme");
    for choice in [ThemeChoice::Dark, ThemeChoice::Light] {
        ui.radio_value(&mut settings.theme, choice, choice.label());
    }
    ui.separator();
    ui.label("Page");
    for &page in PageId::ALL {
        ui.radio_value(&mut settings.page, page, page.label());
    }
    ui.separator();
    if ui.button("Zoom in").clicked() {
        settings.zoom_factor = Settings::clamp_zoom(settings.zoom_factor + 0.1);
    }
    if ui.button("Zoom out").clicked() {
        settings.zoom_factor = Settings::clamp_zoom(settings.zoom_factor - 0.1);
    }
    if ui.button("Reset zoom").clicked() {
        settings.zoom_factor = 1.0;
    }
}

fn help_menu(ui: &mut egui::Ui) {
    ui.label(format!("sightline {}", env!("CARGO_PKG_VERSION")));
    ui.weak("A viewer for NVIDIA Nsight Compute results.");
    ui.separator();
    ui.label("Open: Ctrl+O, drag files in, or pass them on the command line");
    ui.label("Paste ncu text: Ctrl+V");
    ui.label("Select results: click, or Up/Down");
    ui.label("Baselines: Set as baseline in the header, or right-click a row");
    ui.label("Zoom: Ctrl+wheel, Ctrl+plus/minus");
}
