//! The menu bar (File, View, Help) and the keyboard shortcuts that mirror it: both, and the
//! Help menu's list of keys, read the action table (`sightline_app::core::actions`), which
//! gives each action its text, tooltip, key and command.

use crate::widgets::theme::ThemeChoice;
use sightline_app::core::actions::{Action, ActionContext, Effect, Key, Shortcut, help_rows};
use sightline_app::core::commands::{Command, OpenRequest};
use sightline_app::core::settings::Settings;

/// With Up / Down: move the split between the results table and the page (Ctrl+Shift).
pub const SPLIT_MODIFIERS: egui::Modifiers = egui::Modifiers::COMMAND.plus(egui::Modifiers::SHIFT);

/// Keys that act where the pointer or the keyboard is (the results table, its filter, the
/// split, the Source page, plots, right-click menus), as the help lists them after the actions.
pub const KEYS_IN_PLACE: &[(&str, &str)] = &[
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
        "Source page: Up / Down, Enter",
        "Previous / next line or instruction of the pane last used; Enter: the line's SASS",
    ),
    ("Ctrl+wheel, Ctrl+plus / minus", "Zoom"),
    (
        "Right-click",
        "Copy a value, a name or a table row (text, TSV, Markdown)",
    ),
];

/// Every keyboard shortcut, as the Help menu lists it: (keys, what they do): the actions'
/// keys from the table, then the keys that act in place.
pub fn shortcut_list() -> Vec<(String, String)> {
    help_rows()
        .into_iter()
        .map(|row| (row.keys, row.what))
        .chain(
            KEYS_IN_PLACE
                .iter()
                .map(|(keys, what)| (keys.to_string(), what.to_string())),
        )
        .collect()
}

/// The toolkit's form of a key of the action table.
pub fn egui_key(key: Key) -> egui::Key {
    match key {
        Key::B => egui::Key::B,
        Key::O => egui::Key::O,
        Key::Q => egui::Key::Q,
        Key::R => egui::Key::R,
        Key::T => egui::Key::T,
        Key::V => egui::Key::V,
        Key::W => egui::Key::W,
        Key::Tab => egui::Key::Tab,
        Key::Num0 => egui::Key::Num0,
        Key::Num1 => egui::Key::Num1,
        Key::Num2 => egui::Key::Num2,
        Key::Num3 => egui::Key::Num3,
        Key::Num4 => egui::Key::Num4,
        Key::Num5 => egui::Key::Num5,
        Key::Num6 => egui::Key::Num6,
        Key::Num7 => egui::Key::Num7,
        Key::Num8 => egui::Key::Num8,
        Key::Num9 => egui::Key::Num9,
    }
}

/// The toolkit's form of a shortcut of the action table.
pub fn egui_shortcut(shortcut: Shortcut) -> egui::KeyboardShortcut {
    let mut modifiers = egui::Modifiers::NONE;
    if shortcut.command {
        modifiers = modifiers.plus(egui::Modifiers::COMMAND);
    }
    if shortcut.shift {
        modifiers = modifiers.plus(egui::Modifiers::SHIFT);
    }
    if shortcut.alt {
        modifiers = modifiers.plus(egui::Modifiers::ALT);
    }
    egui::KeyboardShortcut::new(modifiers, egui_key(shortcut.key))
}

/// The toolkit's form of an action's shortcut.
pub fn action_shortcut(action: Action) -> Option<egui::KeyboardShortcut> {
    action.shortcut().map(egui_shortcut)
}

/// Carries out an effect: a command goes to `commands`, a request to the window.
fn carry_out(ctx: &egui::Context, effect: Effect, commands: &mut Vec<Command>) {
    match effect {
        Effect::App(command) => commands.push(command),
        Effect::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
        Effect::Paste => ctx.send_viewport_cmd(egui::ViewportCommand::RequestPaste),
    }
}

/// Shortcuts that work anywhere in the window: every action of the table with a key, where it
/// can be done now (the actions on the selection act on a visible one only).
pub fn shortcuts(ctx: &egui::Context, cx: &ActionContext, commands: &mut Vec<Command>) {
    // A press with Shift or Alt held matches the shortcut without them too: those that hold
    // more of them are tried first (Ctrl+Shift+Tab before Ctrl+Tab).
    for extra in (0..=2).rev() {
        for action in Action::all() {
            let Some(shortcut) = action.shortcut() else {
                continue;
            };
            if shortcut.extra_modifiers() != extra || action.key_arrives_as_paste() {
                continue;
            }
            let Some(effect) = action.effect(cx) else {
                continue;
            };
            if ctx.input_mut(|i| i.consume_shortcut(&egui_shortcut(shortcut))) {
                carry_out(ctx, effect, commands);
            }
        }
    }
}

/// A menu entry for `action`: its text, its shortcut on the right, its tooltip; greyed out
/// where it cannot be done now.
fn action_button(
    ui: &mut egui::Ui,
    action: Action,
    cx: &ActionContext,
    commands: &mut Vec<Command>,
) {
    let mut button = egui::Button::new(action.label());
    if let Some(shortcut) = action_shortcut(action) {
        button = button.shortcut_text(ui.ctx().format_shortcut(&shortcut));
    }
    let effect = action.effect(cx);
    let mut response = ui.add_enabled(effect.is_some(), button);
    if let Some(tooltip) = action.tooltip() {
        response = response.on_hover_text(tooltip);
    }
    if response.clicked()
        && let Some(effect) = effect
    {
        let paste = matches!(effect, Effect::Paste);
        carry_out(ui.ctx(), effect, commands);
        if paste {
            ui.close();
        }
    }
}

/// Shows the menu bar.
pub fn show(
    ui: &mut egui::Ui,
    settings: &mut Settings,
    cx: &ActionContext,
    commands: &mut Vec<Command>,
) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| file_menu(ui, settings, cx, commands));
        ui.menu_button("View", |ui| view_menu(ui, settings, cx, commands));
        ui.menu_button("Help", help_menu);
    });
}

fn file_menu(
    ui: &mut egui::Ui,
    settings: &Settings,
    cx: &ActionContext,
    commands: &mut Vec<Command>,
) {
    action_button(ui, Action::Open, cx, commands);
    action_button(ui, Action::FollowFolder, cx, commands);
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
    action_button(ui, Action::Paste, cx, commands);
    action_button(ui, Action::OpenDemo, cx, commands);
    let mut reload = settings.reload_changed_files;
    if ui
        .checkbox(&mut reload, "Reload changed files automatically")
        .on_hover_text("Read an open report's file again as soon as it changes on disk")
        .changed()
    {
        commands.push(Command::SetReloadChangedFiles(reload));
    }
    ui.separator();
    action_button(ui, Action::CloseReport, cx, commands);
    action_button(ui, Action::CloseAll, cx, commands);
    action_button(ui, Action::ReopenClosed, cx, commands);
    ui.separator();
    action_button(ui, Action::Quit, cx, commands);
}

fn view_menu(
    ui: &mut egui::Ui,
    settings: &mut Settings,
    cx: &ActionContext,
    commands: &mut Vec<Command>,
) {
    ui.label("Theme");
    for choice in [ThemeChoice::Dark, ThemeChoice::Light] {
        ui.radio_value(&mut settings.theme, choice, choice.label());
    }
    ui.separator();
    ui.label("Page");
    for action in Action::all() {
        if let Action::ShowPage(page) = action {
            let radio = ui.radio_value(&mut settings.page, page, action.label());
            if let Some(shortcut) = action_shortcut(action) {
                radio.on_hover_text(ui.ctx().format_shortcut(&shortcut));
            }
        }
    }
    ui.separator();
    action_button(ui, Action::NextReport, cx, commands);
    action_button(ui, Action::PreviousReport, cx, commands);
    action_button(ui, Action::ToggleBaseline, cx, commands);
    ui.separator();
    let panel = Action::ToggleReportsPanel;
    let mut shown = !settings.panels.reports_hidden;
    let mut checkbox = ui.checkbox(&mut shown, panel.label());
    if let Some(shortcut) = action_shortcut(panel) {
        checkbox = checkbox.on_hover_text(ui.ctx().format_shortcut(&shortcut));
    }
    if checkbox.changed() {
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
            for (keys, what) in shortcut_list() {
                ui.monospace(keys);
                ui.label(what);
                ui.end_row();
            }
        });
}
