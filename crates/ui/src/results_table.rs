//! The results table across every open report: sortable by each column, filtered by kernel
//! name and NVTX range (`nvtx:forward/attn`), virtualised (only visible rows are laid out),
//! keyboard up/down moves the selection. The NVTX column shows where some result has a range.
//! Baselines carry a dot in their colour; a row's context menu sets or removes one.

use crate::widgets::copy_menu::copy_button;
use crate::widgets::theme;
use egui_extras::{Column, TableBuilder};
use sightline_app::core::baselines;
use sightline_app::core::commands::Command;
use sightline_app::core::ids::ResultRef;
use sightline_app::core::rows::{RowSummary, SortColumn, SortState};
use sightline_app::core::state::AppState;
use sightline_app::core::table_view::{Move, TableView};
use sightline_app::core::workspace::Workspace;

/// What the table keeps between frames besides the state's [`TableView`].
#[derive(Default)]
pub struct ResultsTable {
    /// Row (in visible order) to scroll into view on the next frame.
    scroll_to: Option<usize>,
    /// How many rows fit on screen (last frame), for Page Up / Page Down.
    page_rows: usize,
    /// The selection, sort and filter of the last frame: when any changes (a report opened,
    /// a sort, a result chosen on another page, more results), the selected row is scrolled into
    /// view.
    followed: Option<(Option<ResultRef>, SortState, String, usize)>,
    /// Whether the page below has the keyboard's paging keys (the pointer was last over it):
    /// then Page Up/Down, Home and End scroll the page, not the table.
    pub page_has_paging_keys: bool,
    /// Whether the page takes Up and Down (the Source page with the keyboard): they then move
    /// in its lists, never the selected result.
    pub page_takes_arrows: bool,
}

/// Ctrl+F: to the filter box.
pub const FIND_SHORTCUT: egui::KeyboardShortcut =
    egui::KeyboardShortcut::new(egui::Modifiers::COMMAND, egui::Key::F);

/// The filter box's widget id.
pub fn filter_id() -> egui::Id {
    egui::Id::unique("results_filter")
}

impl ResultsTable {
    /// Moves the selection in visible order (see [`TableView::moved`]) and scrolls it into
    /// view.
    pub fn move_selection(
        &mut self,
        view: &mut TableView,
        workspace: &Workspace,
        sort: SortState,
        selection: Option<ResultRef>,
        to: Move,
        commands: &mut Vec<Command>,
    ) {
        if let Some((pos, at)) = view.moved(workspace, sort, selection, to) {
            commands.push(Command::Select(at));
            self.scroll_to = Some(pos);
        }
    }

    /// The filter box and the table of `state`'s rows; clicks change its selection and sort,
    /// baseline changes go to `commands`.
    pub fn show(&mut self, ui: &mut egui::Ui, state: &mut AppState, commands: &mut Vec<Command>) {
        let AppState {
            table: view,
            workspace,
            settings,
            selection,
            ..
        } = state;
        let workspace = &*workspace;
        // The order of the rows (changed by a click on a header) and the baselines.
        let sort = &mut settings.sort;
        let baseline_list = &settings.baselines;
        self.keyboard(ui, view, workspace, *sort, *selection, commands);
        ui.horizontal(|ui| {
            let label = ui.label("Filter kernels");
            let edit = ui
                .add(
                    egui::TextEdit::singleline(&mut view.filter)
                        .id(filter_id())
                        .hint_text(if workspace.any_nvtx() {
                            "kernel name, nvtx:range/path"
                        } else {
                            "kernel name"
                        })
                        .desired_width(220.0),
                )
                .labelled_by(label.id)
                .on_hover_text(
                    "A part of the kernel name (template values with or without their casts); \
                     nvtx:forward/attn keeps the results launched under that NVTX range",
                );
            if edit.changed() {
                commands.push(Command::FollowFilter);
            }
            // Enter leaves the box for the table: its keys move the selection again.
            if edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                self.page_has_paging_keys = false;
            }
            if !view.filter.is_empty() && ui.button("Clear filter").clicked() {
                view.filter.clear();
            }
            let shown = view.order(workspace, *sort).len();
            let total = workspace.result_count();
            if shown == 0 && total > 0 && !view.filter.is_empty() {
                // An empty table says why, where the eye is: next to the filter.
                ui.colored_label(
                    ui.visuals().warn_fg_color,
                    if view.filters_nvtx() {
                        format!("No result matches \u{201c}{}\u{201d}", view.filter.trim())
                    } else {
                        format!(
                            "No kernel name contains \u{201c}{}\u{201d}",
                            view.filter.trim()
                        )
                    },
                );
                ui.weak(format!(
                    "0 of {}",
                    crate::model::format::count_text(total, "result", "results")
                ));
            } else {
                ui.weak(format!(
                    "{shown} of {}",
                    crate::model::format::count_text(total, "result", "results")
                ));
                // The header below still shows the selected result: say that the filter hides
                // its row.
                if selection.is_some()
                    && !view.filter.is_empty()
                    && view.position_of(workspace, *sort, *selection).is_none()
                {
                    ui.colored_label(
                        ui.visuals().warn_fg_color,
                        "The selected result is hidden by the filter",
                    );
                }
            }
            ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                if ui
                    .small_button("\u{25b4} Fold table")
                    .on_hover_text(
                        "Fold the results table to one line and give the page the room \
                         (Ctrl+Shift+Up below its least height)",
                    )
                    .clicked()
                {
                    settings.panels.results_collapsed = true;
                }
            });
        });
        let now = (
            *selection,
            *sort,
            view.filter.clone(),
            workspace.result_count(),
        );
        if self.followed.as_ref() != Some(&now) {
            if self.scroll_to.is_none() {
                self.scroll_to = view.position_of(workspace, *sort, *selection);
            }
            self.followed = Some(now);
        }
        let scroll_to = self.scroll_to.take();
        let order = view.order(workspace, *sort);
        let rows = workspace.rows();
        let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
        self.page_rows = ((ui.available_height() / row_height) as usize)
            .saturating_sub(2)
            .max(1);
        let mut clicked_header = None;
        let mut clicked_row = None;
        let columns = SortColumn::shown(workspace.any_nvtx());
        // The Report column as wide as its longest label (within bounds), so that labels are
        // whole at its first width. The table starts again with its first widths when that
        // width or the columns change.
        let report_width = (text_width(ui, workspace.longest_report_label()) + 16.0)
            .clamp(REPORT_MIN_WIDTH, REPORT_MAX_WIDTH)
            .ceil();
        egui::ScrollArea::horizontal()
            .id_salt("results_table_wide")
            .auto_shrink([false, false])
            .show(ui, |ui| {
                let mut table = TableBuilder::new(ui)
                    .id_salt(("results_table", columns.len(), report_width as u32))
                    // The panel, not the table, decides the height (down to a row or two).
                    .min_scrolled_height(40.0)
                    .striped(true)
                    .resizable(true)
                    .auto_shrink([false, false])
                    .sense(egui::Sense::click())
                    .cell_layout(egui::Layout::left_to_right(egui::Align::Center));
                for column in &columns {
                    table = table.column(match column {
                        SortColumn::Report => {
                            Column::initial(report_width).at_least(50.0).clip(true)
                        }
                        SortColumn::Id => Column::initial(36.0).at_least(24.0),
                        SortColumn::Kernel => Column::initial(170.0).at_least(60.0).clip(true),
                        SortColumn::Nvtx => Column::initial(150.0).at_least(50.0).clip(true),
                        SortColumn::Shape => Column::initial(150.0).at_least(60.0).clip(true),
                        SortColumn::Duration => Column::initial(76.0).at_least(50.0),
                        SortColumn::SolCompute | SortColumn::SolMemory => {
                            Column::initial(104.0).at_least(60.0)
                        }
                        SortColumn::Occupancy => Column::initial(78.0).at_least(50.0),
                        SortColumn::TopRule => Column::remainder().at_least(100.0).clip(true),
                    });
                }
                if let Some(pos) = scroll_to {
                    table = table.scroll_to_row(pos, None);
                }
                table
                    .header(row_height + 2.0, |mut header| {
                        for &column in &columns {
                            header.col(|ui| {
                                let sorted = sort.column == column;
                                let label = ui.selectable_label(sorted, column.title());
                                let label = match column.hover() {
                                    Some(hover) => label.on_hover_text(hover),
                                    None => label,
                                };
                                if label.clicked() {
                                    clicked_header = Some(column);
                                }
                                if sorted {
                                    ui.label(
                                        egui::RichText::new(if sort.ascending {
                                            "▲"
                                        } else {
                                            "▼"
                                        })
                                        .monospace(),
                                    );
                                }
                            });
                        }
                    })
                    .body(|body| {
                        body.rows(row_height, order.len(), |mut row| {
                            let Some(summary) = order.get(row.index()).and_then(|&i| rows.get(i))
                            else {
                                return;
                            };
                            row.set_selected(*selection == Some(summary.result));
                            let baseline = baselines::index_of(baseline_list, summary.result);
                            let color = baseline
                                .and_then(|i| baseline_list.get(i))
                                .map(|b| (theme::rgb(b.color), b.visible));
                            row_cells(&mut row, &columns, summary, color);
                            let response = row.response();
                            // A right-click selects the row its menu acts on.
                            if response.clicked() || response.secondary_clicked() {
                                clicked_row = Some(summary.result);
                            }
                            response.context_menu(|ui| {
                                match baseline {
                                    Some(i) => {
                                        if ui.button("Remove baseline").clicked() {
                                            commands.push(Command::RemoveBaseline(i));
                                            ui.close();
                                        }
                                    }
                                    None => {
                                        if ui.button("Set as baseline").clicked() {
                                            commands.push(Command::SetBaseline(summary.result));
                                            ui.close();
                                        }
                                    }
                                }
                                ui.separator();
                                copy_button(ui, "Copy kernel name", || summary.kernel_full.clone());
                                copy_button(ui, "Copy row (TSV)", || {
                                    sightline_app::core::rows::clipboard_rows([summary], false)
                                });
                                copy_button(ui, "Copy row (Markdown)", || {
                                    sightline_app::core::rows::clipboard_rows([summary], true)
                                });
                                let visible = || order.iter().filter_map(|&i| rows.get(i));
                                copy_button(ui, "Copy all shown rows (TSV)", || {
                                    sightline_app::core::rows::clipboard_rows(visible(), false)
                                });
                                copy_button(ui, "Copy all shown rows (Markdown)", || {
                                    sightline_app::core::rows::clipboard_rows(visible(), true)
                                });
                            });
                        });
                    });
            });
        if let Some(column) = clicked_header {
            sort.clicked(column);
        }
        if let Some(result) = clicked_row {
            commands.push(Command::Select(result));
        }
    }

    /// Ctrl+F focuses the filter; Esc clears it. Up/Down, Home/End and Page Up/Page Down move
    /// the selection unless a text field has the keyboard (the paging keys only while the
    /// table is the pane the pointer was last over).
    /// The table folded to one line: the selected result, the count, the filter and the
    /// button that unfolds it. Up/Down and the paging keys still move the selection.
    pub fn strip(&mut self, ui: &mut egui::Ui, state: &mut AppState, commands: &mut Vec<Command>) {
        let sort = state.settings.sort;
        let selection = state.selection;
        self.keyboard(
            ui,
            &mut state.table,
            &state.workspace,
            sort,
            selection,
            commands,
        );
        let shown = state.table.order(&state.workspace, sort).len();
        let total = state.workspace.result_count();
        let position = state.table.position_of(&state.workspace, sort, selection);
        ui.horizontal(|ui| {
            if ui
                .button("\u{25be} Results table")
                .on_hover_text("Unfold the results table (Ctrl+Shift+Down)")
                .clicked()
            {
                state.settings.panels.results_collapsed = false;
            }
            match (
                position,
                state
                    .workspace
                    .rows()
                    .iter()
                    .find(|r| Some(r.result) == selection),
            ) {
                (Some(pos), Some(row)) => {
                    ui.label(format!("Row {} of {shown}", pos + 1));
                    ui.separator();
                    ui.add(
                        egui::Label::new(format!(
                            "{} \u{b7} ID {} \u{b7} {}",
                            row.report_label, row.id, row.kernel
                        ))
                        .truncate(),
                    )
                    .on_hover_text(&row.kernel_full);
                }
                _ => {
                    ui.weak(format!(
                        "{shown} of {}",
                        crate::model::format::count_text(total, "result", "results")
                    ));
                }
            }
            if !state.table.filter.is_empty() {
                ui.separator();
                ui.weak(format!(
                    "filter \u{201c}{}\u{201d}",
                    state.table.filter.trim()
                ));
            }
        });
        self.page_rows = 10;
    }

    fn keyboard(
        &mut self,
        ui: &mut egui::Ui,
        view: &mut TableView,
        workspace: &Workspace,
        sort: SortState,
        selection: Option<ResultRef>,
        commands: &mut Vec<Command>,
    ) {
        if ui.input_mut(|i| i.consume_shortcut(&FIND_SHORTCUT)) {
            ui.memory_mut(|m| m.request_focus(filter_id()));
        }
        let filter_focused = ui.memory(|m| m.has_focus(filter_id()));
        if (filter_focused || !ui.ctx().text_edit_focused())
            && !view.filter.is_empty()
            && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape))
        {
            view.filter.clear();
            ui.memory_mut(|m| m.surrender_focus(filter_id()));
        }
        if ui.ctx().text_edit_focused() {
            return;
        }
        let page = self.page_rows.max(1) as isize;
        let paging_keys_elsewhere = self.page_has_paging_keys;
        let page_takes_arrows = self.page_takes_arrows;
        let to = ui.input_mut(|i| {
            let mut count =
                |key: egui::Key| i.count_and_consume_key(egui::Modifiers::NONE, key) as isize;
            let steps = if page_takes_arrows {
                0
            } else {
                count(egui::Key::ArrowDown) - count(egui::Key::ArrowUp)
            };
            if paging_keys_elsewhere {
                return (steps != 0).then_some(Move::By(steps));
            }
            let pages = count(egui::Key::PageDown) - count(egui::Key::PageUp);
            let (home, end) = (count(egui::Key::Home), count(egui::Key::End));
            if end > 0 {
                Some(Move::Last)
            } else if home > 0 {
                Some(Move::First)
            } else {
                let delta = steps + pages * page;
                (steps != 0 || pages != 0).then_some(Move::By(delta))
            }
        });
        if let Some(to) = to {
            self.move_selection(view, workspace, sort, selection, to, commands);
        }
    }
}

/// The Report column's first width: at least this, and at most that, whatever its labels.
const REPORT_MIN_WIDTH: f32 = 124.0;
const REPORT_MAX_WIDTH: f32 = 240.0;

/// The cells of one row, one per column; a baseline has a dot of its colour before the kernel
/// name (a ring while it is hidden).
fn row_cells(
    row: &mut egui_extras::TableRow<'_, '_>,
    columns: &[SortColumn],
    r: &RowSummary,
    baseline: Option<(egui::Color32, bool)>,
) {
    for column in columns {
        row.col(|ui| cell(ui, *column, r, baseline));
    }
}

/// The cell of `column` in row `r`.
fn cell(
    ui: &mut egui::Ui,
    column: SortColumn,
    r: &RowSummary,
    baseline: Option<(egui::Color32, bool)>,
) {
    match column {
        SortColumn::Report => {
            // What tells the report apart from the others (`naive`, `variant1`), shortened in
            // the middle where it is still too long; the whole name on hover.
            let shown = elide_to_fit(ui, &r.report_label, ui.available_width());
            let response = ui.add(egui::Label::new(&shown).truncate().selectable(false));
            if shown != r.report_name {
                response.on_hover_text(&r.report_name);
            }
        }
        SortColumn::Id => {
            ui.add(egui::Label::new(r.id.to_string()).selectable(false));
        }
        SortColumn::Kernel => {
            if let Some((color, visible)) = baseline {
                let (rect, _) =
                    ui.allocate_exact_size(egui::vec2(10.0, 10.0), egui::Sense::hover());
                if visible {
                    ui.painter().circle_filled(rect.center(), 4.5, color);
                } else {
                    ui.painter()
                        .circle_stroke(rect.center(), 4.0, egui::Stroke::new(1.5, color));
                }
            }
            ui.add(egui::Label::new(&r.kernel).truncate().selectable(false))
                .on_hover_text(&r.kernel_full);
        }
        SortColumn::Nvtx => {
            // The outermost and the innermost ranges stay in view; the path whole on hover.
            let shown = elide_to_fit(ui, &r.nvtx, ui.available_width());
            let response = ui.add(egui::Label::new(&shown).truncate().selectable(false));
            if shown != r.nvtx {
                response.on_hover_text(&r.nvtx);
            }
        }
        SortColumn::Shape => {
            ui.add(egui::Label::new(&r.shape).truncate().selectable(false));
        }
        SortColumn::Duration => {
            ui.add(egui::Label::new(&r.duration_text).selectable(false));
        }
        SortColumn::SolCompute => cell_bar(ui, r.sol_compute_pct, false),
        SortColumn::SolMemory => cell_bar(ui, r.sol_memory_pct, true),
        SortColumn::Occupancy => {
            ui.add(
                egui::Label::new(crate::model::format::percent_text(r.occupancy_pct))
                    .selectable(false),
            );
        }
        SortColumn::TopRule => {
            let text = egui::RichText::new(&r.top_rule_text);
            let text = match r.top_rule_kind {
                Some(kind) => text.color(theme::rule_color(ui, kind)),
                None => text,
            };
            let response = ui.add(egui::Label::new(text).truncate().selectable(false));
            if !r.top_rule_message.is_empty() {
                response.on_hover_text(crate::output::text::clean_markup(&r.top_rule_message));
            }
        }
    }
}

/// The width of `text` in the body font.
fn text_width(ui: &egui::Ui, text: &str) -> f32 {
    egui::WidgetText::from(text)
        .into_galley(
            ui,
            Some(egui::TextWrapMode::Extend),
            f32::INFINITY,
            egui::TextStyle::Body,
        )
        .size()
        .x
}

/// `text` shortened in the middle until it fits `width` in the body font.
fn elide_to_fit(ui: &egui::Ui, text: &str, width: f32) -> String {
    if text_width(ui, text) <= width {
        return text.to_string();
    }
    let mut chars = text.chars().count();
    while chars > 1 {
        chars -= 1;
        let shown = crate::output::kernel_names::elide_middle(text, chars);
        if text_width(ui, &shown) <= width {
            return shown;
        }
    }
    text.to_string()
}

/// A percentage as a bar filling the cell, with the number on top.
fn cell_bar(ui: &mut egui::Ui, pct: Option<f64>, memory: bool) {
    let size = egui::vec2(ui.available_width(), ui.available_height() - 4.0);
    let (rect, _) = ui.allocate_exact_size(size, egui::Sense::hover());
    if let Some(p) = pct.filter(|p| p.is_finite()) {
        let painter = ui.painter();
        painter.rect_filled(rect, 2.0, theme::bar_track(ui));
        let mut fill = rect;
        fill.set_width(rect.width() * (p / 100.0).clamp(0.0, 1.0) as f32);
        painter.rect_filled(
            fill,
            2.0,
            theme::bar_fill(ui, memory, p).gamma_multiply(0.55),
        );
    }
    let text = egui::RichText::new(crate::model::format::percent_text(pct))
        .color(ui.visuals().strong_text_color());
    ui.put(rect, egui::Label::new(text).selectable(false));
}
