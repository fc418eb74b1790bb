//! The side list of files: open reports (one click closes one), files still loading (spinner,
//! size, time so far) and files that failed (their error, dismissable); then the baselines,
//! each shown or hidden with its checkbox, removable, and reopened when its file is closed.

use super::baselines::Baseline;
use super::commands::{Command, OpenRequest};
use super::format::size_text;
use super::theme;
use super::workspace::{ResultRef, Workspace};

/// An icon button with a spoken name (`×` reads as "Close kernels.ncu-rep").
fn icon_button(ui: &mut egui::Ui, icon: &str, name: &str) -> egui::Response {
    let response = ui.small_button(icon).on_hover_text(name);
    let name = name.to_string();
    response.widget_info(move || egui::WidgetInfo::labeled(egui::Role::Button, true, &name));
    response
}

/// Shows the list; what the user asks for goes to `commands`.
pub fn show(
    ui: &mut egui::Ui,
    workspace: &Workspace,
    selection: &mut Option<ResultRef>,
    baselines: &mut [Baseline],
    commands: &mut Vec<Command>,
) {
    ui.heading("Reports");
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
                        *selection = Some(ResultRef {
                            report: open.id,
                            index: 0,
                        });
                    }
                });
                ui.indent(("report_facts", open.id.0), |ui| {
                    let count = open.report.results.len();
                    ui.weak(format!(
                        "{} · {count} result{}",
                        open.report.format.name(),
                        if count == 1 { "" } else { "s" }
                    ));
                    for warning in &open.report.warnings {
                        ui.weak(format!("Warning: {warning}"));
                    }
                });
            }
            for pending in workspace.pending() {
                ui.horizontal(|ui| {
                    ui.spinner();
                    ui.label(&pending.name);
                });
                ui.indent(("pending_facts", pending.id.0), |ui| {
                    let size = pending.size.map(size_text).unwrap_or_default();
                    ui.weak(format!(
                        "Loading {size} · {:.1} s",
                        pending.started.elapsed().as_secs_f64()
                    ));
                });
            }
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
                            egui::RichText::new(&failed.message).color(theme::error_color(ui)),
                        )
                        .wrap(),
                    );
                });
            }
            if !workspace.reports().is_empty() || !baselines.is_empty() {
                ui.add_space(8.0);
                baselines_ui(ui, selection, baselines, commands);
            }
        });
}

/// The baselines: a checkbox to show or hide each (in its colour), a button to remove it, its
/// report, or a button to open its file again.
fn baselines_ui(
    ui: &mut egui::Ui,
    selection: &mut Option<ResultRef>,
    baselines: &mut [Baseline],
    commands: &mut Vec<Command>,
) {
    ui.heading("Baselines");
    if baselines.is_empty() {
        ui.weak("None. Use \"Set as baseline\" in a result's header or its row's context menu.");
        return;
    }
    for (i, b) in baselines.iter_mut().enumerate() {
        let title = b.title();
        ui.horizontal(|ui| {
            if icon_button(ui, "×", &format!("Remove baseline {title}")).clicked() {
                commands.push(Command::RemoveBaseline(i));
            }
            let (rect, _) = ui.allocate_exact_size(egui::vec2(12.0, 12.0), egui::Sense::hover());
            ui.painter().rect_filled(rect, 2.0, b.color32());
            ui.checkbox(&mut b.visible, &title)
                .on_hover_text("Show this baseline in the comparisons");
        });
        ui.indent(("baseline_facts", i), |ui| match (b.attached, &b.path) {
            (Some(at), _) => {
                if ui
                    .link(&b.report_name)
                    .on_hover_text("Select this result")
                    .clicked()
                {
                    *selection = Some(at);
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
