//! Export buttons of the comparison pages: copy the comparison as CSV or Markdown (for a pull
//! request) to the clipboard, or save it to a file (the save dialog runs in the app, which
//! says so when no dialog can be shown).

use crate::analysis::compare::export::{self, DEFAULT_MAX_CHANGES, MarkdownOptions};
use crate::analysis::compare::{MatchedDiff, ReportDiff};
use crate::model::Report;
use sightline_app::core::commands::Command;

/// Hands each pair of a comparison, with every metric difference, to the callback it is given.
pub type EveryMetric<'a> = dyn Fn(&mut dyn FnMut(&MatchedDiff)) + 'a;

/// What is exported and under which names.
pub struct ExportSource<'a> {
    pub diff: &'a ReportDiff,
    /// When `diff` keeps only some metric differences of each pair: hands its pairs, compared
    /// again with every metric, to the callback one at a time (for the CSV, which lists them
    /// all).
    pub every_metric: Option<&'a EveryMetric<'a>>,
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
    let Some(pairs) = source.every_metric else {
        return export::to_csv(source.diff);
    };
    let mut bytes = Vec::new();
    // Writing into memory cannot fail for I/O reasons.
    let _ = export::write_csv_with_pairs(&mut bytes, source.diff, &mut |each| pairs(each));
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The comparison as Markdown.
pub fn markdown_text(source: &ExportSource<'_>) -> String {
    export::to_markdown(
        source.diff,
        &MarkdownOptions {
            title: source.title.clone(),
            max_changes: DEFAULT_MAX_CHANGES,
        },
    )
}

pub use sightline_app::format::safe_file_stem;

/// The four export buttons and the last export's outcome. The text is built only when a
/// button is pressed.
pub fn buttons(
    ui: &mut egui::Ui,
    source: &ExportSource<'_>,
    status: &mut Option<String>,
    commands: &mut Vec<Command>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.weak("Export");
        if ui
            .button("Copy CSV")
            .on_hover_text("One row per kernel and metric, to the clipboard")
            .clicked()
        {
            let text = csv_text(source);
            let rows = text.lines().count().saturating_sub(1);
            ui.ctx().copy_text(text);
            *status = Some(format!("Copied CSV ({rows} rows) to the clipboard."));
        }
        if ui
            .button("Copy Markdown")
            .on_hover_text("A table for a pull request, to the clipboard")
            .clicked()
        {
            ui.ctx().copy_text(markdown_text(source));
            *status = Some("Copied Markdown to the clipboard.".into());
        }
        if ui.button("Save CSV…").clicked() {
            commands.push(Command::SaveText {
                file_name: format!("{}.csv", source.file_stem),
                text: csv_text(source),
            });
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
                text: crate::analysis::compare::html::diff_html(
                    source.diff,
                    base,
                    current,
                    &source.title,
                ),
            });
        }
        if let Some(s) = status.as_deref() {
            ui.weak(s);
        }
    });
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
