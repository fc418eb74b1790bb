//! The desktop app: the application state ([`AppState`]) with the pages' view state, the one
//! place where commands are handled (the file dialogs here, the rest by
//! [`AppState::handle`]), the frame layout, and the eframe glue. Drivable without eframe
//! (`SightlineApp::new(None, ..)` and `ui`) for tests.

use super::drop_overlay;
use super::file_bar;
use super::header;
use super::menu;
use super::pages::{self, PageContext, Pages};
use super::reports_panel;
use super::results_table::ResultsTable;
use super::time_to_table::TimeToTable;
use super::welcome;
use super::widgets::{plot_util, theme};
use sightline_app::core::actions::{Action, ActionContext};
use sightline_app::core::baselines;
use sightline_app::core::commands::{Command, OpenRequest};
use sightline_app::core::page_id::PageId;
use sightline_app::core::settings::PanelSizes;
use sightline_app::core::settings::Settings;
use sightline_app::core::started_loads::StartedLoads;
use sightline_app::core::state::AppState;
use sightline_app::views::loading::load_progress;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Shown when no native file dialog can be opened.
pub const NO_DIALOG_NOTICE: &str = "No file dialog could be shown (no desktop portal and no zenity). \
Drag files into the window, paste ncu text with Ctrl+V, pass files on the command line, \
or type a path below.";

/// What the window says when File > Follow folder… cannot show a folder dialog.
pub const NO_FOLDER_DIALOG_NOTICE: &str = "No folder dialog could be shown (no desktop portal and no \
zenity). Start sightline with --follow DIR to follow a folder.";

/// How the app starts.
#[derive(Debug, Clone)]
pub struct AppOptions {
    /// Files to open at start.
    pub files: Vec<PathBuf>,
    /// Open the built-in demo report when `files` is empty.
    pub demo_when_empty: bool,
    /// Save settings to eframe storage (off in tests).
    pub persist_state: bool,
    /// Try the native file dialog on File > Open; when off, the app says none is available.
    pub file_dialog: bool,
    /// A folder to follow from the start (`--follow DIR`).
    pub follow: Option<PathBuf>,
    /// The nvdisasm programs that give SASS text (every one found on the machine by default).
    pub disassembler: sightline_engine::parse::sass::Disassembler,
}

impl Default for AppOptions {
    fn default() -> Self {
        AppOptions {
            files: Vec::new(),
            demo_when_empty: false,
            persist_state: false,
            file_dialog: true,
            follow: None,
            disassembler: sightline_engine::parse::sass::Disassembler::found(),
        }
    }
}

/// The sightline desktop app. It dereferences to its [`AppState`] (what is open, selected
/// and set).
pub struct SightlineApp {
    state: AppState,
    table: ResultsTable,
    pages: Pages,
    /// The [`AppState::released`] the pages' caches follow.
    released_seen: u64,
    path_entry: String,
    persist_state: bool,
    file_dialog: bool,
    applied_zoom: Option<f32>,
    window_title: String,
    /// Commands raised while drawing, handled at the end of the frame.
    queued: Vec<Command>,
    /// Set for `--time-to-table`: when the process started, and whether the table is complete.
    time_to_table: Option<TimeToTable>,
    /// Whether the fonts with the symbol fallback went to the context.
    fonts_installed: bool,
    /// Where the pointer was last frame (a move shows which pane has the paging keys).
    last_pointer: Option<egui::Pos2>,
}

impl std::ops::Deref for SightlineApp {
    type Target = AppState;

    fn deref(&self) -> &AppState {
        &self.state
    }
}

impl std::ops::DerefMut for SightlineApp {
    fn deref_mut(&mut self) -> &mut AppState {
        &mut self.state
    }
}

impl SightlineApp {
    /// Creates the app, restoring settings from `storage` when given, and starts loading
    /// `options.files` (or the demo).
    pub fn new(storage: Option<&dyn eframe::Storage>, options: AppOptions) -> Self {
        SightlineApp::with_started_loads(storage, options, StartedLoads::default())
    }

    /// [`Self::new`], with `started` (loads begun before the window opened) as its first
    /// pending loads, before `options.files`.
    pub fn with_started_loads(
        storage: Option<&dyn eframe::Storage>,
        options: AppOptions,
        started: StartedLoads,
    ) -> Self {
        let settings: Settings = storage
            .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
            .unwrap_or_default();
        let nothing_started = started.is_empty();
        let mut app = SightlineApp {
            state: AppState::with_started_loads(settings, started),
            table: ResultsTable::default(),
            pages: Pages::default(),
            released_seen: 0,
            path_entry: String::new(),
            persist_state: options.persist_state,
            file_dialog: options.file_dialog,
            applied_zoom: None,
            window_title: String::new(),
            queued: Vec::new(),
            time_to_table: None,
            last_pointer: None,
            fonts_installed: false,
        };
        app.state.disassembler = options.disassembler;
        if let Some(dir) = options.follow {
            app.handle(Command::FollowFolder(dir));
        } else if options.files.is_empty() && nothing_started && options.demo_when_empty {
            app.handle(Command::Open(OpenRequest::Demo));
        }
        if !options.files.is_empty() {
            for path in options.files {
                app.handle(Command::Open(OpenRequest::Path(path)));
            }
        }
        app
    }

    /// The application state.
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Lets loading threads and the file watcher wake the UI of `ctx` (set automatically on
    /// the first frame).
    pub fn set_context(&mut self, ctx: &egui::Context) {
        if !self.fonts_installed {
            theme::install_fonts(ctx);
            theme::install_styles(ctx);
            self.fonts_installed = true;
        }
        if !self.state.has_waker() {
            let ctx = ctx.clone();
            self.state
                .set_waker(Box::new(move || ctx.request_repaint()));
        }
    }

    /// Measures the time to a complete results table for benchmarks: on the frame after the
    /// table first shows every loaded result, prints `results table shown: N results from M
    /// reports in T ms` (T since `started`) and closes the window.
    pub fn report_time_to_table(&mut self, started: Instant) {
        self.click_through_then_report(started, 0);
    }

    /// [`Self::report_time_to_table`], then selects the first `rows` rows of the table one per
    /// frame on the Details page (each result's body decoded and shown), prints `clicked
    /// through N results in T ms` and closes the window. For measuring the memory of walking
    /// through many results.
    pub fn click_through_then_report(&mut self, started: Instant, rows: usize) {
        self.time_to_table = Some(TimeToTable::new(started, rows));
    }

    /// The one place where commands are carried out: the file dialogs here, everything else
    /// by [`AppState::handle`].
    pub fn handle(&mut self, command: Command) {
        match command {
            Command::ShowOpenDialog => self.show_open_dialog(),
            Command::ShowFollowDialog => self.show_follow_dialog(),
            Command::LocateSource(recorded) => self.show_locate_dialog(recorded),
            Command::SaveText { file_name, text } => self.save_text(&file_name, &text),
            other => self.state.handle(other),
        }
        self.follow_state();
    }

    /// Brings the pages in line with the state: caches of closed or replaced reports dropped,
    /// a comparison pair pinned.
    fn follow_state(&mut self) {
        if self.state.released() != self.released_seen {
            self.released_seen = self.state.released();
            self.pages.release_caches();
        }
        if let Some((base, current)) = self.state.take_compare_pin() {
            self.pages.compare.pin(base, current);
        }
    }

    /// Saves an export to a file picked in the native save dialog; says so when none can be
    /// shown (copying still works).
    fn save_text(&mut self, file_name: &str, text: &str) {
        const NO_DIALOG: &str =
            "No save dialog can be shown here (no desktop portal and no zenity); use Copy instead.";
        let status = &mut self.pages.shared.export_status;
        if !self.file_dialog || !file_dialog_possible() {
            *status = Some(NO_DIALOG.into());
            return;
        }
        let started = Instant::now();
        let picked = rfd::FileDialog::new()
            .set_title("Save the comparison")
            .set_file_name(file_name)
            .save_file();
        *status = Some(match picked {
            Some(path) => match std::fs::write(&path, text) {
                Ok(()) => format!("Saved {}.", path.display()),
                Err(e) => format!("Could not save {}: {e}", path.display()),
            },
            // No person cancels a dialog this fast: none was shown.
            None if started.elapsed() < Duration::from_millis(150) => NO_DIALOG.into(),
            None => "Not saved.".into(),
        });
    }

    /// Whether the Report vs report page has its table, and whether it compared every metric
    /// (for measurements).
    pub fn report_compare_progress(&self) -> (bool, bool) {
        self.pages.reports.progress()
    }

    /// Takes finished loads and file changes into the state.
    pub fn poll_loads(&mut self) {
        self.state.poll_loads();
        self.follow_state();
    }

    /// Blocks until every pending load has finished or `timeout` passed; returns whether all
    /// finished. For tests and for screenshots of a fully loaded window.
    pub fn wait_for_loads(&mut self, timeout: Duration) -> bool {
        let done = self.state.wait_for_loads(timeout);
        self.follow_state();
        done
    }

    /// Shows the native file dialog (synchronous, on the UI thread).
    fn show_open_dialog(&mut self) {
        if !self.file_dialog || !file_dialog_possible() {
            self.state.notice = Some(NO_DIALOG_NOTICE.into());
            return;
        }
        let started = Instant::now();
        let picked = rfd::FileDialog::new()
            .set_title("Open Nsight Compute results")
            .add_filter(
                "Nsight Compute results",
                &["ncu-rep", "txt", "csv", "log", "out"],
            )
            .add_filter("All files", &["*"])
            .pick_files();
        match picked {
            Some(paths) => {
                for path in paths {
                    self.handle(Command::Open(OpenRequest::Path(path)));
                }
            }
            // No person cancels a dialog this fast: none was shown.
            None if started.elapsed() < Duration::from_millis(150) => {
                self.state.notice = Some(NO_DIALOG_NOTICE.into());
            }
            None => {}
        }
    }

    /// Shows the native folder dialog and follows the folder picked (File > Follow folder…).
    fn show_follow_dialog(&mut self) {
        if !self.file_dialog || !file_dialog_possible() {
            self.state.notice = Some(NO_FOLDER_DIALOG_NOTICE.into());
            return;
        }
        if let Some(dir) = rfd::FileDialog::new()
            .set_title("Follow a folder of reports")
            .pick_folder()
        {
            self.handle(Command::FollowFolder(dir));
        }
    }

    /// Shows the native folder dialog for the local folder of a recorded source folder.
    fn show_locate_dialog(&mut self, recorded: String) {
        if !self.file_dialog || !file_dialog_possible() {
            self.state.notice = Some(format!(
                "No folder dialog could be shown (no desktop portal and no zenity). The command \
                 line's `sightline source --source-dir DIR` finds sources recorded under {recorded}."
            ));
            return;
        }
        if let Some(folder) = rfd::FileDialog::new()
            .set_title(format!("Locate the sources recorded under {recorded}"))
            .pick_folder()
        {
            self.handle(Command::AddSourceFolder { recorded, folder });
        }
    }

    /// What the actions of the menu and the keys act on: the selected result where its row is
    /// visible (never a result the filter hides), and whether a close can be undone.
    fn action_context(&mut self) -> ActionContext {
        ActionContext {
            selection: self.state.visible_selection(),
            can_undo_close: self.state.closed_reports().can_undo(),
        }
    }

    /// Keyboard shortcuts, paste, dropped files and Ctrl+wheel zoom, as commands; answers what
    /// the actions act on this frame, for the menu.
    fn collect_input(&mut self, ctx: &egui::Context) -> ActionContext {
        // Shortcuts act on the selection only where its row is visible: never on a result the
        // filter hides.
        let cx = self.action_context();
        menu::shortcuts(ctx, &cx, &mut self.queued);
        if !ctx.text_edit_focused() {
            let pasted: Vec<String> = ctx.input(|i| {
                i.events
                    .iter()
                    .filter_map(|e| match e {
                        egui::Event::Paste(text) if !text.trim().is_empty() => Some(text.clone()),
                        _ => None,
                    })
                    .collect()
            });
            for text in pasted {
                let name = self.state.next_paste_name();
                self.queued
                    .push(Command::Open(OpenRequest::Text { name, text }));
            }
        }
        for request in drop_overlay::take_dropped(ctx) {
            self.queued.push(Command::Open(request));
        }
        // Ctrl+wheel (and pinch) arrive as a zoom delta, never as scrolling. Over a plot they
        // zoom the plot only (the plots drawn last frame say where they are).
        let plots = plot_util::take_plot_areas(ctx);
        let over_plot = ctx
            .pointer_hover_pos()
            .is_some_and(|p| plots.iter().any(|r| r.contains(p)));
        let zoom = ctx.input(|i| i.zoom_delta());
        if zoom != 1.0 && !over_plot {
            self.state.settings.zoom_factor =
                Settings::clamp_zoom(self.state.settings.zoom_factor * zoom);
        }
        cx
    }

    /// Theme and zoom from the settings; zoom changed with egui's own keys goes back into them.
    fn apply_view_settings(&mut self, ctx: &egui::Context) {
        theme::apply(ctx, self.state.settings.theme);
        let current = ctx.zoom_factor();
        if let Some(applied) = self.applied_zoom
            && (current - applied).abs() > f32::EPSILON
            && (self.state.settings.zoom_factor - applied).abs() <= f32::EPSILON
        {
            self.state.settings.zoom_factor = Settings::clamp_zoom(current);
        }
        let wanted = Settings::clamp_zoom(self.state.settings.zoom_factor);
        if (current - wanted).abs() > f32::EPSILON {
            ctx.set_zoom_factor(wanted);
        }
        self.applied_zoom = Some(wanted);
    }

    fn update_title(&mut self, ctx: &egui::Context) {
        let title = match self
            .state
            .selection
            .and_then(|s| self.state.workspace.result(s))
        {
            Some((open, result)) => format!(
                "{} — {} — Sightline",
                sightline_app::core::baselines::kernel_name(result),
                open.name
            ),
            None => "Sightline".to_string(),
        };
        if title != self.window_title {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.window_title = title;
        }
    }

    /// Draws one frame.
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.set_context(&ctx);
        if self.finish_time_to_table(&ctx) {
            return;
        }
        self.poll_loads();
        self.poll_file_changes();
        self.state.poll_followed();
        self.state.release_bodies();
        let actions = self.collect_input(&ctx);
        self.apply_view_settings(&ctx);

        egui::Panel::top("menu_bar").show(ui, |ui| {
            menu::show(ui, &mut self.state.settings, &actions, &mut self.queued);
        });
        if self.state.notice.is_some() {
            egui::Panel::top("notice_bar").show(ui, |ui| self.notice_ui(ui));
        }
        if let Some(text) = self.state.closed_reports().bar_text() {
            let can_undo = self.state.closed_reports().can_undo();
            egui::Panel::top("closed_bar").show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.label(text);
                    if can_undo
                        && ui
                            .button("Undo")
                            .on_hover_text(Action::ReopenClosed.with_key("Open it again"))
                            .clicked()
                    {
                        self.queued.push(Command::UndoClose);
                    }
                    if ui.button("Dismiss").clicked() {
                        self.queued.push(Command::DismissClosed);
                    }
                });
            });
        }
        if !self.state.file_notices.list().is_empty() {
            egui::Panel::top("file_notice_bar")
                .frame(file_bar::frame(ui.style()))
                .show(ui, |ui| {
                    file_bar::show(
                        ui,
                        &self.state.file_notices,
                        &self.state.workspace,
                        &mut self.queued,
                    );
                });
        }
        let watch_note = self.state.file_watch_mode().describe();
        let widths = PanelSizes::reports_width_range(ui.available_width());
        if self.state.settings.panels.reports_hidden {
            // A strip with the button that brings the panel back.
            egui::Panel::left("reports_strip")
                .resizable(false)
                .exact_size(28.0)
                .show(ui, |ui| {
                    if ui
                        .button("\u{25b8}")
                        .on_hover_text(
                            Action::ToggleReportsPanel.with_key("Show the Reports panel"),
                        )
                        .clicked()
                    {
                        self.queued.push(Command::ToggleReportsPanel);
                    }
                });
        } else {
            let reports = egui::Panel::left("reports_panel")
                .resizable(true)
                .default_size(
                    self.state
                        .settings
                        .panels
                        .reports_width
                        .clamp(*widths.start(), *widths.end()),
                )
                .size_range(widths)
                .show(ui, |ui| {
                    if let Some(dir) = self.state.followed_folder() {
                        let polling = self.state.follow_polling();
                        reports_panel::following(ui, dir, polling, &mut self.queued);
                    }
                    reports_panel::show(
                        ui,
                        &self.state.workspace,
                        &self.state.file_notices,
                        self.state.selection,
                        &self.state.settings.baselines,
                        &mut self.queued,
                        reports_panel::Watching {
                            note: watch_note.as_deref(),
                            settle: self.state.follow_times().settle,
                        },
                    );
                });
            PanelSizes::remember(
                &mut self.state.settings.panels.reports_width,
                reports.response.rect.width(),
            );
        }
        egui::CentralPanel::default().show(ui, |ui| self.central_ui(ui));
        drop_overlay::paint_hover(&ctx);

        let commands = std::mem::take(&mut self.queued);
        if !commands.is_empty() {
            ctx.request_repaint();
        }
        for command in commands {
            self.handle(command);
        }
        self.update_title(&ctx);
        if self.state.workspace.is_loading() {
            ctx.request_repaint_after(Duration::from_millis(250));
        }
        self.note_table_complete(&ctx);
    }

    /// For `--time-to-table`: see [`TimeToTable::note_complete`].
    fn note_table_complete(&mut self, ctx: &egui::Context) {
        if let Some(t) = self.time_to_table.as_mut() {
            t.note_complete(&mut self.state, ctx);
        }
    }

    /// For `--time-to-table`: see [`TimeToTable::finish`]; whether the window is closing.
    fn finish_time_to_table(&mut self, ctx: &egui::Context) -> bool {
        self.time_to_table
            .as_mut()
            .is_some_and(|t| t.finish(&mut self.state, ctx))
    }

    fn notice_ui(&mut self, ui: &mut egui::Ui) {
        let Some(notice) = self.state.notice.clone() else {
            return;
        };
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(&notice).color(ui.visuals().warn_fg_color));
        });
        if notice != NO_DIALOG_NOTICE {
            // A notice that asks for nothing (a SASS export added): just dismissed.
            if ui.button("Dismiss").clicked() {
                self.queued.push(Command::DismissNotice);
            }
            return;
        }
        ui.horizontal(|ui| {
            let label = ui.label("Path");
            let edit = ui
                .add(
                    egui::TextEdit::singleline(&mut self.path_entry)
                        .hint_text("/path/to/report.ncu-rep")
                        .desired_width(420.0),
                )
                .labelled_by(label.id);
            let enter = edit.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (ui.button("Open path").clicked() || enter) && !self.path_entry.trim().is_empty() {
                let path = PathBuf::from(self.path_entry.trim());
                self.path_entry.clear();
                self.queued.push(Command::Open(OpenRequest::Path(path)));
                self.queued.push(Command::DismissNotice);
            }
            if ui.button("Dismiss").clicked() {
                self.queued.push(Command::DismissNotice);
            }
        });
    }

    fn central_ui(&mut self, ui: &mut egui::Ui) {
        if self.state.workspace.reports().is_empty() {
            let pending: Vec<_> = self
                .state
                .workspace
                .pending()
                .iter()
                .map(load_progress)
                .collect();
            welcome::show(ui, &pending, &mut self.queued);
            return;
        }
        // The page keeps at least PAGE_MIN_HEIGHT below the table (a small window, a zoom):
        // the table gives way, whatever height was remembered. Ctrl+Shift+Up/Down move the
        // split; below its least height the table folds to a one-line strip.
        let available = ui.available_height();
        let short = PanelSizes::is_short(available);
        let typing = ui.ctx().text_edit_focused();
        let steps = ui.input_mut(|i| {
            if typing {
                return 0;
            }
            i.count_and_consume_key(menu::SPLIT_MODIFIERS, egui::Key::ArrowDown) as i32
                - i.count_and_consume_key(menu::SPLIT_MODIFIERS, egui::Key::ArrowUp) as i32
        });
        // On the Source page the page, when it has the keyboard, takes Up and Down.
        self.table.page_takes_arrows =
            self.table.page_has_paging_keys && self.state.settings.page == PageId::Source;
        let panels = &mut self.state.settings.panels;
        panels.step_results(available, steps);
        let table_rect = if panels.results_collapsed {
            egui::Panel::top("results_strip")
                .resizable(false)
                .show(ui, |ui| {
                    self.table.strip(ui, &mut self.state, &mut self.queued);
                })
                .response
                .rect
        } else {
            let range = PanelSizes::results_height_range(available);
            let height = panels
                .results_height_for(available)
                .clamp(*range.start(), *range.end());
            let mut panel = egui::Panel::top(if short {
                "results_panel_short"
            } else {
                "results_panel"
            })
            .resizable(true)
            .default_size(height)
            .size_range(range);
            if steps != 0 {
                panel = panel.exact_size(height);
            }
            let results = panel.show(ui, |ui| {
                self.table.show(ui, &mut self.state, &mut self.queued);
            });
            PanelSizes::remember(
                self.state.settings.panels.results_height_for(available),
                results.response.rect.height(),
            );
            results.response.rect
        };
        // The pane the pointer was last over (moved or clicked in) has the paging keys.
        let (pointer, pressed) = ui.input(|i| (i.pointer.latest_pos(), i.pointer.any_pressed()));
        let moved = pointer != self.last_pointer;
        self.last_pointer = pointer;
        if let Some(p) = pointer.filter(|_| moved || pressed)
            && ui.max_rect().contains(p)
        {
            self.table.page_has_paging_keys = !table_rect.contains(p);
        }
        let selected = self.state.selection.and_then(|at| {
            self.state
                .workspace
                .result(at)
                .map(|(open, result)| (at, open, result))
        });
        let Some((at, open, result)) = selected else {
            ui.weak("Select a result in the table above (click, or Up/Down).");
            return;
        };
        let baseline = baselines::index_of(&self.state.settings.baselines, at).and_then(|i| {
            self.state
                .settings
                .baselines
                .get(i)
                .map(|b| (i, theme::rgb(b.color)))
        });
        header::show(ui, open, result, at, baseline, short, &mut self.queued);
        pages::tabs(ui, &mut self.state.settings.page);
        ui.separator();
        let visible = baselines::visible(&self.state.settings.baselines);
        let cx = PageContext {
            workspace: &self.state.workspace,
            open,
            result,
            at,
            baselines: &visible,
            sass_imports: &self.state.sass_imports,
            disassembler: &self.state.disassembler,
        };
        if self.table.page_has_paging_keys {
            pages::scroll_by_paging_keys(ui);
        }
        let page = self.state.settings.page;
        self.pages.shared.page_has_keys = self.table.page_has_paging_keys;
        self.pages
            .show(ui, page, &cx, &mut self.state.settings, &mut self.queued);
        if let Some(at) = self.pages.take_selection_request() {
            self.queued.push(Command::Select(at));
        }
    }
}

/// Whether rfd has a way to show a dialog: a D-Bus session (desktop portal) or zenity.
fn file_dialog_possible() -> bool {
    if std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|a| !a.is_empty()) {
        return true;
    }
    std::env::var_os("PATH")
        .is_some_and(|path| std::env::split_paths(&path).any(|d| d.join("zenity").is_file()))
}

impl eframe::App for SightlineApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        SightlineApp::ui(self, ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        if self.persist_state {
            eframe::set_value(storage, eframe::APP_KEY, &self.state.settings.to_save());
        }
    }

    fn persist_egui_memory(&self) -> bool {
        self.persist_state
    }
}
