//! The bar across the window for open reports whose file changed on disk (a report still being
//! copied, a new run written over it): "<file> changed on disk — Reload / Dismiss"; also for a
//! file that vanished or cannot be read any more, and for a reload that failed (the report
//! loaded before stays).

use super::widgets::theme;
use sightline_app::core::commands::Command;
use sightline_app::core::file_notices::{FileNoticeKind, FileNotices};
use sightline_app::core::workspace::Workspace;

/// The bar's frame: a panel tinted with the warning colour.
pub fn frame(style: &egui::Style) -> egui::Frame {
    let panel = egui::Frame::side_top_panel(style);
    let tint = style.visuals.warn_fg_color.gamma_multiply(0.12);
    panel.fill(blend(style.visuals.panel_fill, tint))
}

/// `top` (with its alpha) over the opaque `bottom`.
fn blend(bottom: egui::Color32, top: egui::Color32) -> egui::Color32 {
    let a = f32::from(top.a()) / 255.0;
    let mix = |b: u8, t: u8| (f32::from(b) * (1.0 - a) + f32::from(t)).round().min(255.0) as u8;
    egui::Color32::from_rgb(
        mix(bottom.r(), top.r()),
        mix(bottom.g(), top.g()),
        mix(bottom.b(), top.b()),
    )
}

/// A button whose spoken name says which file it acts on ("Reload kernels.txt").
fn named_button(ui: &mut egui::Ui, text: &str, name: &str) -> egui::Response {
    crate::reports_panel::spoken_name(ui.button(text), name)
}

/// Shows one line per notice; the buttons' commands go to `commands`.
pub fn show(
    ui: &mut egui::Ui,
    notices: &FileNotices,
    workspace: &Workspace,
    commands: &mut Vec<Command>,
) {
    for notice in notices.list() {
        let Some(open) = workspace.report(notice.report) else {
            continue;
        };
        let name = &open.name;
        let warn = ui.visuals().warn_fg_color;
        ui.horizontal_wrapped(|ui| {
            if workspace.is_reloading(notice.report) {
                crate::widgets::calm_spinner::calm_spinner(ui);
                ui.label(format!("Reloading {name}…"));
                return;
            }
            match &notice.kind {
                FileNoticeKind::Changed => {
                    ui.label(egui::RichText::new(format!("{name} changed on disk")).color(warn));
                    ui.weak("—");
                    if named_button(ui, "Reload", &format!("Reload {name}"))
                        .on_hover_text("Read the file again; the report keeps its place")
                        .clicked()
                    {
                        commands.push(Command::ReloadReport(notice.report));
                    }
                    if ui
                        .button("Always reload")
                        .on_hover_text(
                            "Read files of open reports again as soon as they change \
                             (File menu to undo)",
                        )
                        .clicked()
                    {
                        commands.push(Command::SetReloadChangedFiles(true));
                    }
                }
                FileNoticeKind::Unreadable(why) => {
                    ui.label(
                        egui::RichText::new(format!("{name} {why}; the report shown stays open"))
                            .color(warn),
                    );
                }
                FileNoticeKind::ReloadFailed(message) => {
                    ui.label(
                        egui::RichText::new(format!(
                            "Reloading {name} failed: {message}. The report shown is the one \
                             loaded before."
                        ))
                        .color(theme::error_color(ui)),
                    );
                    if named_button(ui, "Try again", &format!("Reload {name}")).clicked() {
                        commands.push(Command::ReloadReport(notice.report));
                    }
                }
            }
            if named_button(ui, "Dismiss", &format!("Dismiss the notice about {name}")).clicked() {
                commands.push(Command::DismissFileNotice(notice.report));
            }
        });
    }
}
