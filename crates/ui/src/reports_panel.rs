//! The side list of files: open reports in the order they were opened (one click closes one; a
//! warnings badge that opens the list of what the reader skipped, a quieter one for its notes,
//! a mark when the file changed on disk), files still loading (spinner, size, time so far, a
//! Cancel button, and Cancel all when several load) and files that failed (their error, dismissable); then the baselines, each
//! shown or hidden with its checkbox, removable, and reopened when its file is closed.

use crate::output::arrival_text;
use crate::widgets::theme;
use sightline_app::core::actions::Action;
use sightline_app::core::baselines::Baseline;
use sightline_app::core::commands::{Command, OpenRequest};
use sightline_app::core::file_notices::{FileNoticeKind, FileNotices};
use sightline_app::core::ids::ResultRef;
use sightline_app::core::workspace::{PendingLoad, ReportArrival, Workspace};
use sightline_app::views::loading::load_progress;

/// Gives a button the name screen readers (and tests) know it by, when its text alone does
/// not say what it acts on.
pub fn spoken_name(response: egui::Response, name: &str) -> egui::Response {
    let name = name.to_string();
    response.widget_info(move || egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
    response
}

/// An icon button with a spoken name (`×` reads as "Close kernels.ncu-rep").
fn icon_button(ui: &mut egui::Ui, icon: &str, name: &str) -> egui::Response {
    spoken_name(ui.small_button(icon).on_hover_text(name), name)
}

/// How the files of the reports are watched: the note when they are polled (not on change
/// notifications), and the time a report of a followed folder settles by.
pub struct Watching<'a> {
    pub note: Option<&'a str>,
    pub settle: std::time::Duration,
}

/// Shows the list; what the user asks for goes to `commands`.
pub fn show(
    ui: &mut egui::Ui,
    workspace: &Workspace,
    file_notices: &FileNotices,
    selection: Option<ResultRef>,
    baselines: &[Baseline],
    commands: &mut Vec<Command>,
    watching: Watching<'_>,
) {
    let Watching {
        note: watch_note,
        settle,
    } = watching;
    // The heading, with the button that hides the panel at its right.
    ui.horizontal(|ui| {
        ui.heading("Reports");
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui
                .small_button("\u{25c2} Hide")
                .on_hover_text(
                    Action::ToggleReportsPanel
                        .with_key("Hide the Reports panel: the pages get its width"),
                )
                .clicked()
            {
                commands.push(Command::ToggleReportsPanel);
            }
        });
    });
    egui::ScrollArea::vertical()
        .id_salt("reports_panel")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            if workspace.reports().is_empty()
                && workspace.pending().is_empty()
                && workspace.failed().is_empty()
            {
                ui.weak("No report open.");
                if ui.button("Open the demo report").clicked() {
                    commands.push(Command::Open(OpenRequest::Demo));
                }
            }
            for open in workspace.reports() {
                ui.horizontal(|ui| {
                    if icon_button(ui, "×", &format!("Close {}", open.name)).clicked() {
                        commands.push(Command::CloseReport(open.id));
                    }
                    let selected = selection.is_some_and(|s| s.report == open.id);
                    let source = open
                        .path
                        .as_ref()
                        .map_or_else(|| open.name.clone(), |p| p.display().to_string());
                    let label = ui
                        .selectable_label(selected, &open.name)
                        .on_hover_text(format!(
                            "{source}\nloaded in {:.2} s",
                            open.load_time.as_secs_f64()
                        ));
                    if label.clicked() && !open.report.results.is_empty() {
                        commands.push(Command::Select(ResultRef {
                            report: open.id,
                            index: 0,
                        }));
                    }
                });
                ui.indent(("report_facts", open.id.0), |ui| {
                    let count = open.report.results.len();
                    match &open.arrival {
                        ReportArrival::Growing { writer } => {
                            growing_ui(ui, count, writer.as_ref(), settle);
                        }
                        arrival => {
                            ui.weak(format!(
                                "{} · {count} result{}",
                                open.report.format.name(),
                                if count == 1 { "" } else { "s" }
                            ));
                            if let ReportArrival::Settled(by) = arrival {
                                ui.weak(format!("settled: {}", arrival_text::settled_text(by)));
                            }
                        }
                    }
                    warnings_badge(ui, open.id.0, &open.report.warnings);
                    notes_badge(ui, open.id.0, &open.report.all_notes());
                    let changed = match file_notices.get(open.id) {
                        Some(FileNoticeKind::Changed) => Some("Changed on disk"),
                        Some(FileNoticeKind::Unreadable(_)) => Some("File no longer readable"),
                        Some(FileNoticeKind::ReloadFailed(_)) => Some("Reload failed"),
                        None => None,
                    };
                    if let Some(text) = changed {
                        ui.label(egui::RichText::new(text).color(ui.visuals().warn_fg_color));
                    }
                });
            }
            if let Some(note) = watch_note
                && workspace.reports().iter().any(|r| r.path.is_some())
            {
                ui.add(egui::Label::new(egui::RichText::new(note).small().weak()).wrap());
            }
            // With no report open the central panel shows the loads' progress (`welcome`),
            // drawn a few times a second; a spinner here would draw the window ten times.
            let spin = !workspace.reports().is_empty();
            pending_ui(ui, workspace.pending(), spin, commands);
            for failed in workspace.failed() {
                ui.horizontal(|ui| {
                    if icon_button(ui, "×", &format!("Dismiss {}", failed.name)).clicked() {
                        commands.push(Command::DismissFailed(failed.id));
                    }
                    ui.label(egui::RichText::new(&failed.name).color(theme::error_color(ui)));
                });
                ui.indent(("failed_facts", failed.id.0), |ui| {
                    ui.add(
                        egui::Label::new(
                            egui::RichText::new(failed.error.to_string())
                                .color(theme::error_color(ui)),
                        )
                        .wrap(),
                    );
                });
            }
            if !workspace.reports().is_empty() || !baselines.is_empty() {
                ui.add_space(8.0);
                baselines_ui(ui, baselines, commands);
            }
        });
}

/// A report still being written: its results so far, updated in place as they arrive, and
/// on hover what settles it (it is neither compared nor a run of the Trend until then).
fn growing_ui(
    ui: &mut egui::Ui,
    results: usize,
    writer: Option<&sightline_engine::parse::arrival::Writer>,
    settle: std::time::Duration,
) {
    let written_by = writer.map_or_else(String::new, |w| {
        format!("Written by {}; ", arrival_text::writer_text(w))
    });
    ui.horizontal(|ui| {
        crate::widgets::calm_spinner::calm_spinner(ui);
        ui.label(
            egui::RichText::new(arrival_text::growing_text(results))
                .color(ui.visuals().warn_fg_color),
        );
    })
    .response
    .on_hover_text(format!(
        "{written_by}{}. Until then it is left out of comparisons, the Trend and its rules.",
        arrival_text::settles_when_text(writer, settle)
    ));
}

/// A report's warnings (what its reader skipped or could not read) behind a badge with their
/// count; a click shows the list. Nothing when there are none.
fn warnings_badge(ui: &mut egui::Ui, report: u64, warnings: &[crate::model::Warning]) {
    if warnings.is_empty() {
        return;
    }
    let n = warnings.len();
    let title = egui::RichText::new(format!("{n} warning{}", if n == 1 { "" } else { "s" }))
        .color(ui.visuals().warn_fg_color);
    egui::CollapsingHeader::new(title)
        .id_salt(("report_warnings", report))
        .default_open(false)
        .show(ui, |ui| {
            for warning in warnings {
                ui.add(egui::Label::new(egui::RichText::new(warning.as_str()).small()).wrap());
            }
        });
}

/// A report's notes (what its reader passed over that loses nothing of ncu's: parts of a newer
/// report form, text around a pasted block) behind a quiet badge with their count.
fn notes_badge(ui: &mut egui::Ui, report: u64, notes: &[String]) {
    if notes.is_empty() {
        return;
    }
    let n = notes.len();
    let title = egui::RichText::new(format!("{n} note{}", if n == 1 { "" } else { "s" })).weak();
    egui::CollapsingHeader::new(title)
        .id_salt(("report_notes", report))
        .default_open(false)
        .show(ui, |ui| {
            for note in notes {
                ui.add(egui::Label::new(egui::RichText::new(note).small()).wrap());
            }
        });
}

/// The files still loading, each with a Cancel button (and Cancel all when there are several),
/// its size and the time so far; a load waiting for a free core says it is queued. With
/// `spin`, each has a spinner (otherwise its place is kept empty).
fn pending_ui(ui: &mut egui::Ui, pending: &[PendingLoad], spin: bool, commands: &mut Vec<Command>) {
    if pending.len() > 1 {
        ui.horizontal(|ui| {
            ui.weak(format!("Loading {} files", pending.len()));
            if ui.small_button("Cancel all").clicked() {
                commands.push(Command::CancelAllLoads);
            }
        });
    }
    for load in pending.iter().map(load_progress) {
        ui.horizontal(|ui| {
            if spin {
                crate::widgets::calm_spinner::calm_spinner(ui);
            } else {
                ui.add_space(ui.style().spacing.interact_size.y);
            }
            ui.label(&load.title);
            if icon_button(ui, "Cancel", &format!("Cancel {}", load.name)).clicked() {
                commands.push(Command::CancelLoad(load.id));
            }
        });
        ui.indent(("pending_facts", load.id.0), |ui| {
            let facts = ui.weak(&load.facts);
            if load.queued {
                facts.on_hover_text("Waits for a free core: files load a few at a time");
            }
        });
    }
}

/// The baselines: a checkbox to show or hide each (in its colour), a button to remove it, its
/// report, or a button to open its file again.
fn baselines_ui(ui: &mut egui::Ui, baselines: &[Baseline], commands: &mut Vec<Command>) {
    ui.heading("Baselines");
    if baselines.is_empty() {
        ui.weak("None. Use \"Set as baseline\" in a result's header or its row's context menu.");
        return;
    }
    for (i, b) in baselines.iter().enumerate() {
        let title = b.title();
        ui.horizontal(|ui| {
            if icon_button(ui, "×", &format!("Remove baseline {title}")).clicked() {
                commands.push(Command::RemoveBaseline(i));
            }
            let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            ui.painter()
                .rect_filled(rect, 2.0, crate::widgets::theme::rgb(b.color));
            let mut visible = b.visible;
            if ui
                .checkbox(&mut visible, &title)
                .on_hover_text("Show this baseline in the comparisons")
                .changed()
            {
                commands.push(Command::ShowBaseline { index: i, visible });
            }
        });
        ui.indent(("baseline_facts", i), |ui| match (b.attached, &b.path) {
            (Some(at), _) => {
                if ui
                    .link(&b.report_name)
                    .on_hover_text("Select this result")
                    .clicked()
                {
                    commands.push(Command::Select(at));
                }
            }
            (None, Some(path)) => {
                ui.horizontal_wrapped(|ui| {
                    ui.weak(format!("{} is not open", b.report_name))
                        .on_hover_text(path.display().to_string());
                    if ui.small_button("Open").clicked() {
                        commands.push(Command::Open(OpenRequest::Path(path.clone())));
                    }
                });
            }
            (None, None) => {
                ui.weak(format!("{} is not open", b.report_name));
            }
        });
    }
}

/// The folder followed, with the button that stops following it, and why it is looked at
/// every few seconds when it is (`polling`).
pub fn following(
    ui: &mut egui::Ui,
    dir: &std::path::Path,
    polling: Option<&str>,
    commands: &mut Vec<Command>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.label(egui::RichText::new("Following").strong());
        ui.add(egui::Label::new(crate::output::text::file_name(dir)).truncate())
            .on_hover_text(format!(
                "{}: reports written there open as they arrive, shown as being written until \
                 they settle",
                dir.display()
            ));
        if ui.small_button("Stop").clicked() {
            commands.push(Command::StopFollowing);
        }
    });
    if let Some(why) = polling {
        ui.add(
            egui::Label::new(
                egui::RichText::new(format!("Looked at every few seconds ({why})"))
                    .small()
                    .weak(),
            )
            .wrap(),
        );
    }
    ui.separator();
}
