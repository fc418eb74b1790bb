//! The bar across the window for open reports whose file changed on disk (a report still being
//! copied, a new run written over it): "<file> changed on disk — Reload / Dismiss"; also for a
//! file that vanished or cannot be read any more, and for a reload that failed (the report
//! loaded before stays).

use super::commands::Command;
use super::file_watch::FileState;
use super::theme;
use super::workspace::{ReportId, Workspace};

/// What the bar says about one open report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileNoticeKind {
    /// The file has another size or modification time than the version shown.
    Changed,
    /// The file is gone or cannot be opened; the text says which.
    Unreadable(String),
    /// Reading the file again failed; the text is the reader's error.
    ReloadFailed(String),
}

/// A notice about the file of one open report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileNotice {
    pub report: ReportId,
    pub kind: FileNoticeKind,
}

/// The notices, at most one per report, in the order they came.
#[derive(Debug, Default)]
pub struct FileNotices {
    list: Vec<FileNotice>,
}

impl FileNotices {
    /// Every notice.
    pub fn list(&self) -> &[FileNotice] {
        &self.list
    }

    /// The notice about `report`, if any.
    pub fn get(&self, report: ReportId) -> Option<&FileNoticeKind> {
        self.list
            .iter()
            .find(|n| n.report == report)
            .map(|n| &n.kind)
    }

    /// Sets (or replaces) the notice about `report`.
    pub fn set(&mut self, report: ReportId, kind: FileNoticeKind) {
        match self.list.iter_mut().find(|n| n.report == report) {
            Some(n) => n.kind = kind,
            None => self.list.push(FileNotice { report, kind }),
        }
    }

    /// Removes the notice about `report`.
    pub fn remove(&mut self, report: ReportId) {
        self.list.retain(|n| n.report != report);
    }

    /// Removes every notice.
    pub fn clear(&mut self) {
        self.list = Vec::new();
    }

    /// Follows what the watching thread saw: `None` means the file is the version shown again.
    pub fn apply(&mut self, report: ReportId, state: Option<FileState>) {
        match state {
            None => self.remove(report),
            Some(FileState::Changed(_)) => self.set(report, FileNoticeKind::Changed),
            Some(FileState::Unreadable(why)) => self.set(report, FileNoticeKind::Unreadable(why)),
        }
    }
}

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
    super::reports_panel::spoken_name(ui.button(text), name)
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
                ui.spinner();
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
