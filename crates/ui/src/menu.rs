//! The menu bar (File, View, Help) and the keyboard shortcuts that mirror it.

use crate::widgets::theme::ThemeChoice;
use sightline_app::core::commands::{Command, OpenRequest};
use sightline_app::core::ids::ResultRef;
use sightline_app::core::page_id::PageId;
use sightline_app::core::settings::Settings;

const fn ctrl(key: egui::Key) -> egui::KeyboardShortcut {
    egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, key)
}

/// Ctrl+O (Cmd+O on macOS).
pub const OPEN_SHORTCUT: egui::KeyboardShortcut = ctrl(egui::Key::O);
/// Ctrl+Q.
pub const QUIT_SHORTCUT: egui::KeyboardShortcut = ctrl(egui::Key::Q);
/// Ctrl+B: set the selected result as a baseline, or stop using it as one.
pub const BASELINE_SHORTCUT: egui::KeyboardShortcut = ctrl(egui::Key::B);
/// Ctrl+Shift+T: open again what the last close closed.
pub const UNDO_CLOSE_SHORTCUT: egui::KeyboardShortcut = egui::KeyboardShortcut::new(
    egui::Modifiers::COMMAND.plus(egui::Modifiers::SHIFT),
    egui::Key::T,
);

/// Ctrl+Shift+R: hide the Reports panel, or show it again.
pub const REPORTS_PANEL_SHORTCUT: egui::KeyboardShortcut = egui::KeyboardShortcut::new(
    egui::Modifiers::COMMAND.plus(egui::Modifiers::SHIFT),
    egui::Key::R,
);

/// With Up / Down: move the split between the results table and the page (Ctrl+Shift).
pub const SPLIT_MODIFIERS: egui::Modifiers = egui::Modifiers::COMMAND.plus(egui::Modifiers::SHIFT);

/// Ctrl+W: close the selected result's report.
pub const CLOSE_SHORTCUT: egui::KeyboardShortcut = ctrl(egui::Key::W);
/// Ctrl+Tab: the next report.
pub const NEXT_REPORT_SHORTCUT: egui::KeyboardShortcut = ctrl(egui::Key::Tab);
/// Ctrl+Shift+Tab: the previous report.
pub const PREVIOUS_REPORT_SHORTCUT: egui::KeyboardShortcut = egui::KeyboardShortcut::new(
    egui::Modifiers::COMMAND.plus(egui::Modifiers::SHIFT),
    egui::Key::Tab,
);

/// Every keyboard shortcut, as the Help menu lists it: (keys, what they do).
pub const SHORTCUT_LIST: &[(&str, &str)] = &[
    ("Ctrl+O", "Open files"),
    ("Ctrl+V", "Open ncu text from the clipboard"),
    ("Up / Down", "Previous / next result"),
    ("Home / End", "First / last result"),
    ("Page Up / Page Down", "A page of results up / down"),
    (
        "Ctrl+F",
        "Filter the results by kernel name (Enter: to the table)",
    ),
    (
        "Ctrl+Shift+Up / Down",
        "Results table smaller / larger (smallest: folded to one line)",
    ),
    ("Esc", "Clear the filter"),
    (
        "Ctrl+1 … Ctrl+9",
        "Details, Raw, Session, Roofline, Occupancy, Compare, Report vs report, Source, Rules",
    ),
    (
        "Ctrl+B",
        "Set the selected result as a baseline (again: remove it)",
    ),
    ("Ctrl+W", "Close the selected result's report"),
    (
        "Ctrl+Shift+T",
        "Open again what was closed last (undo a close)",
    ),
    ("Ctrl+Tab / Ctrl+Shift+Tab", "Next / previous report"),
    ("Ctrl+Shift+R", "Hide the Reports panel (again: show it)"),
    (
        "Source page: Up / Down, Enter",
        "Previous / next line or instruction of the pane last used; Enter: the line's SASS",
    ),
    ("Ctrl+wheel, Ctrl+plus / minus", "Zoom"),
    (
        "Right-click",
        "Copy a value, a name or a table row (text, TSV, Markdown)",
    ),
    ("Ctrl+Q", "Quit"),
];

/// Shortcuts that work anywhere in the window; `selection` is the selected result.
pub fn shortcuts(ctx: &egui::Context, selection: Option<ResultRef>, commands: &mut Vec<Command>) {
    let pressed =
        |shortcut: &egui::KeyboardShortcut| ctx.input_mut(|i| i.consume_shortcut(shortcut));
    if pressed(&OPEN_SHORTCUT) {
        commands.push(Command::ShowOpenDialog);
    }
    if pressed(&UNDO_CLOSE_SHORTCUT) {
        commands.push(Command::UndoClose);
    }
    if pressed(&REPORTS_PANEL_SHORTCUT) {
        commands.push(Command::ToggleReportsPanel);
    }
    if pressed(&QUIT_SHORTCUT) {
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
    }
    // The longer combination first: Ctrl+Tab would also match Ctrl+Shift+Tab.
    if pressed(&PREVIOUS_REPORT_SHORTCUT) {
        commands.push(Command::NextReport { back: true });
    }
    if pressed(&NEXT_REPORT_SHORTCUT) {
        commands.push(Command::NextReport { back: false });
    }
    for &page in PageId::ALL {
        if let Some(key) = crate::pages::digit_key(page.number())
            && pressed(&ctrl(key))
        {
            commands.push(Command::ShowPage(page));
        }
    }
    if let Some(at) = selection {
        if pressed(&BASELINE_SHORTCUT) {
            commands.push(Command::ToggleBaseline(at));
        }
        if pressed(&CLOSE_SHORTCUT) {
            commands.push(Command::CloseReport(at.report));
        }
    }
}

/// Shows the menu bar.
pub fn show(
    ui: &mut egui::Ui,
    settings: &mut Settings,
    can_undo_close: bool,
    commands: &mut Vec<Command>,
) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            file_menu(ui, settings, can_undo_close, commands)
        });
        ui.menu_button("View", |ui| view_menu(ui, settings));
        ui.menu_button("Help", help_menu);
    });
}

fn file_menu(
    ui: &mut egui::Ui,
    settings: &Settings,
    can_undo_close: bool,
    commands: &mut Vec<Command>,
) {
    let open = egui::Button::new("Open…").shortcut_text(ui.ctx().format_shortcut(&OPEN_SHORTCUT));
    if ui.add(open).clicked() {
        commands.push(Command::ShowOpenDialog);
    }
    if ui
        .button("Follow folder…")
        .on_hover_text(
            "Open a folder's reports, and those written there later as their writes complete \
             (the Trend page shows the series)",
        )
        .clicked()
    {
        commands.push(Command::ShowFollowDialog);
    }
    ui.menu_button("Open Recent", |ui| {
        if settings.recent_files.is_empty() {
            ui.weak("No recent files");
        }
        for path in &settings.recent_files {
            let name = crate::output::text::file_name(path);
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
    let paste = egui::Button::new("Paste ncu text")
        .shortcut_text(ui.ctx().format_shortcut(&ctrl(egui::Key::V)));
    if ui
        .add(paste)
        .on_hover_text("Open text copied from a terminal or from Nsight Compute")
        .clicked()
    {
        ui.ctx()
            .send_viewport_cmd(egui::ViewportCommand::RequestPaste);
        ui.close();
    }
    if ui.button("Open demo report").clicked() {
        commands.push(Command::Open(OpenRequest::Demo));
    }
    let mut reload = settings.reload_changed_files;
    if ui
        .checkbox(&mut reload, "Reload changed files automatically")
        .on_hover_text("Read an open report's file again as soon as it changes on disk")
        .changed()
    {
        commands.push(Command::SetReloadChangedFiles(reload));
    }
    ui.separator();
    if ui.button("Close all reports").clicked() {
        commands.push(Command::CloseAll);
    }
    let reopen = egui::Button::new("Reopen closed report")
        .shortcut_text(ui.ctx().format_shortcut(&UNDO_CLOSE_SHORTCUT));
    if ui.add_enabled(can_undo_close, reopen).clicked() {
        commands.push(Command::UndoClose);
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
    let mut shown = !settings.panels.reports_hidden;
    if ui
        .checkbox(&mut shown, "Reports panel")
        .on_hover_text("Ctrl+Shift+R")
        .changed()
    {
        settings.panels.reports_hidden = !shown;
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
    ui.strong("Keyboard shortcuts");
    egui::Grid::new("shortcut_list")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for (keys, what) in SHORTCUT_LIST {
                ui.monospace(*keys);
                ui.label(*what);
                ui.end_row();
            }
        });
}

#[cfg(test)]
mod tests {
    use super::SHORTCUT_LIST;
    use sightline_app::core::page_id::PageId;

    #[test]
    fn the_help_lists_every_page_key_in_order() {
        let (keys, pages) = SHORTCUT_LIST
            .iter()
            .find(|(k, _)| k.starts_with("Ctrl+1"))
            .expect("page keys");
        // Every page with a digit key (1 to 9), in tab order.
        let keyed: Vec<&str> = PageId::ALL
            .iter()
            .filter(|p| crate::pages::digit_key(p.number()).is_some())
            .map(|p| p.label())
            .collect();
        assert_eq!(*keys, format!("Ctrl+1 … Ctrl+{}", keyed.len()));
        assert_eq!(*pages, keyed.join(", "));
    }
}
