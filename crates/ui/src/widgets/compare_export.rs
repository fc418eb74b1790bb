//! Export buttons of the comparison pages: copy the comparison as CSV or Markdown (for a pull
//! request) to the clipboard, or save it to a file (the save dialog runs in the app, which
//! says so when no dialog can be shown).

use crate::analysis::compare::ReportDiff;
use crate::analysis::compare::export::DEFAULT_MAX_CHANGES;
use crate::model::Report;
use crate::output::compare::MarkdownOptions;
use sightline_app::core::commands::Command;
use sightline_app::views::report_compare::CsvTarget;

/// What is exported and under which names.
pub struct ExportSource<'a> {
    pub diff: &'a ReportDiff,
    /// When `diff` keeps only some metric differences of each pair, the CSV (which lists them
    /// all) is written in the background by the page's view-model: whether it is being
    /// written now. `None`: the CSV is written from `diff` at once.
    pub csv_in_background: Option<bool>,
    /// The Markdown heading (`Comparison: a → b`).
    pub title: String,
    /// The file name offered by the save dialog, without extension.
    pub file_stem: String,
    /// The two reports compared, for the self-contained HTML page (`diff --format html`);
    /// `None` where the comparison is of results of several reports.
    pub reports: Option<(&'a Report, &'a Report)>,
}

/// The comparison as CSV.
pub fn csv_text(source: &ExportSource<'_>) -> String {
    crate::output::compare::to_csv(source.diff)
}

/// The comparison as Markdown.
pub fn markdown_text(source: &ExportSource<'_>) -> String {
    crate::output::compare::to_markdown(
        source.diff,
        &MarkdownOptions {
            title: source.title.clone(),
            max_changes: DEFAULT_MAX_CHANGES,
        },
    )
}

pub use crate::output::text::safe_file_stem;

/// The export buttons and the last export's outcome. The text is built only when a button is
/// pressed; a CSV written in the background is asked for by the answer (where it goes).
pub fn buttons(
    ui: &mut egui::Ui,
    source: &ExportSource<'_>,
    status: &mut Option<String>,
    commands: &mut Vec<Command>,
) -> Option<CsvTarget> {
    let mut background = None;
    let writing = source.csv_in_background == Some(true);
    ui.horizontal_wrapped(|ui| {
        ui.weak("Export");
        if ui
            .add_enabled(!writing, egui::Button::new("Copy CSV"))
            .on_hover_text("One row per kernel and metric, to the clipboard")
            .clicked()
        {
            if source.csv_in_background.is_some() {
                background = Some(CsvTarget::Clipboard);
            } else {
                let text = csv_text(source);
                *status = Some(copied_csv_status(&text));
                ui.ctx().copy_text(text);
            }
        }
        if ui
            .button("Copy Markdown")
            .on_hover_text("A table for a pull request, to the clipboard")
            .clicked()
        {
            ui.ctx().copy_text(markdown_text(source));
            *status = Some("Copied Markdown to the clipboard.".into());
        }
        if ui
            .add_enabled(!writing, egui::Button::new("Save CSV…"))
            .clicked()
        {
            if source.csv_in_background.is_some() {
                background = Some(CsvTarget::File);
            } else {
                commands.push(Command::SaveText {
                    file_name: format!("{}.csv", source.file_stem),
                    text: csv_text(source),
                });
            }
        }
        if ui.button("Save Markdown…").clicked() {
            commands.push(Command::SaveText {
                file_name: format!("{}.md", source.file_stem),
                text: markdown_text(source),
            });
        }
        if let Some((base, current)) = source.reports
            && ui
                .button("Save HTML…")
                .on_hover_text(
                    "One self-contained page (no network, light and dark) to attach to a CI run \
                     or a pull request: the same page as `sightline diff --format html`",
                )
                .clicked()
        {
            commands.push(Command::SaveText {
                file_name: format!("{}.html", source.file_stem),
                text: crate::output::compare::html::diff_html(
                    source.diff,
                    base,
                    current,
                    &source.title,
                ),
            });
        }
        if writing {
            crate::widgets::calm_spinner::calm_spinner(ui);
            ui.weak("Writing the CSV (every metric of every pair)…");
        } else if let Some(s) = status.as_deref() {
            ui.weak(s);
        }
    });
    background
}

/// What the window says once a CSV is on the clipboard.
pub fn copied_csv_status(text: &str) -> String {
    let rows = text.lines().count().saturating_sub(1);
    format!("Copied CSV ({rows} rows) to the clipboard.")
}

#[cfg(test)]
mod tests {
    use super::safe_file_stem;

    #[test]
    fn file_stems_are_plain() {
        assert_eq!(
            safe_file_stem("kernels_basic.details.txt vs kernels_full"),
            "kernels_basic.details.txt_vs_kernels_full"
        );
        assert_eq!(safe_file_stem("→"), "comparison");
    }
}
