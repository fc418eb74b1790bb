//! Right-click menus that copy: a value, a name, or a table row as plain text, TSV or
//! Markdown. The text goes to the system clipboard (eframe's `clipboard` feature).

/// A button in an open context menu that copies `text()` and closes the menu.
pub fn copy_button(ui: &mut egui::Ui, label: &str, text: impl FnOnce() -> String) {
    if ui.button(label).clicked() {
        ui.ctx().copy_text(text());
        ui.close();
    }
}

/// A right-click menu on `response` with one copy button per `(label, text)`.
pub fn copy_menu(response: &egui::Response, items: impl FnOnce() -> Vec<(&'static str, String)>) {
    response.context_menu(|ui| {
        for (label, text) in items() {
            copy_button(ui, label, || text);
        }
    });
}

/// The copy buttons of a table row: its cells as TSV and as a Markdown table (with `header`).
pub fn row_buttons(ui: &mut egui::Ui, header: &[&str], cells: &[String]) {
    let table = || {
        vec![
            header.iter().map(|h| (*h).to_string()).collect::<Vec<_>>(),
            cells.to_vec(),
        ]
    };
    copy_button(ui, "Copy row (TSV)", || {
        crate::output::clipboard::tsv(&table())
    });
    copy_button(ui, "Copy row (Markdown)", || {
        crate::output::clipboard::markdown(&table())
    });
}
