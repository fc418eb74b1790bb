//! The app: state, the one place where commands are handled, the frame layout, and the
//! eframe glue. Drivable without eframe (`SightlineApp::new(None, ..)` and `ui`) for tests.

use super::commands::{Command, OpenRequest};
use super::loader::{LoadOutcome, Loader};
use super::pages::{self, PageContext, PageStates};
use super::results_table::ResultsTable;
use super::settings::Settings;
use super::workspace::{FailedLoad, PendingLoad, ResultRef, Workspace};
use super::{baselines, drop_overlay, header, menu, plot_util, reports_panel, theme};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Shown when no native file dialog can be opened.
pub const NO_DIALOG_NOTICE: &str = "No file dialog could be shown (no desktop portal and no zenity). \
Drag files into the window, paste ncu text with Ctrl+V, pass files on the command line, \
or type a path below.";

/// Longest time spent taking finished loads per frame (the rest waits for the next frame).
const DRAIN_BUDGET: Duration = Duration::from_millis(10);

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
}

impl Default for AppOptions {
    fn default() -> Self {
        AppOptions {
            files: Vec::new(),
            demo_when_empty: false,
            persist_state: false,
            file_dialog: true,
        }
    }
}

/// The sightline desktop app.
pub struct SightlineApp {
    settings: Settings,
    workspace: Workspace,
    loader: Loader,
    selection: Option<ResultRef>,
    table: ResultsTable,
    pages: PageStates,
    /// A message across the top of the window (e.g. no file dialog), with a path field.
    notice: Option<String>,
    path_entry: String,
    persist_state: bool,
    file_dialog: bool,
    applied_zoom: Option<f32>,
    pasted_count: u32,
    window_title: String,
    /// Commands raised while drawing, handled at the end of the frame.
    queued: Vec<Command>,
}

impl SightlineApp {
    /// Creates the app, restoring settings from `storage` when given, and starts loading
    /// `options.files` (or the demo).
    pub fn new(storage: Option<&dyn eframe::Storage>, options: AppOptions) -> Self {
        let settings: Settings = storage
            .and_then(|s| eframe::get_value(s, eframe::APP_KEY))
            .unwrap_or_default();
        let mut app = SightlineApp {
            settings,
            workspace: Workspace::default(),
            loader: Loader::default(),
            selection: None,
            table: ResultsTable::default(),
            pages: PageStates::default(),
            notice: None,
            path_entry: String::new(),
            persist_state: options.persist_state,
            file_dialog: options.file_dialog,
            applied_zoom: None,
            pasted_count: 0,
            window_title: String::new(),
            queued: Vec::new(),
        };
        if options.files.is_empty() {
            if options.demo_when_empty {
                app.handle(Command::Open(OpenRequest::Demo));
            }
        } else {
            for path in options.files {
                app.handle(Command::Open(OpenRequest::Path(path)));
            }
        }
        app
    }

    /// Lets loading threads wake the UI of `ctx` (set automatically on the first frame).
    pub fn set_context(&self, ctx: &egui::Context) {
        self.loader.set_context(ctx);
    }

    /// The open reports, loading and failed files.
    pub fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    /// The persisted settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The persisted settings, to change.
    pub fn settings_mut(&mut self) -> &mut Settings {
        &mut self.settings
    }

    /// The baselines, open or not, in the order they were set.
    pub fn baselines(&self) -> &[baselines::Baseline] {
        &self.settings.baselines
    }

    /// The selected result.
    pub fn selection(&self) -> Option<ResultRef> {
        self.selection
    }

    /// Selects a result.
    pub fn select(&mut self, at: Option<ResultRef>) {
        self.selection = at;
    }

    /// Selects the `n`-th row of the results table as sorted and filtered now.
    pub fn select_row(&mut self, n: usize) -> Option<ResultRef> {
        let sort = self.settings.sort;
        let order = self.table.order(&self.workspace, sort);
        let at = order
            .get(n)
            .and_then(|&i| self.workspace.rows().get(i))
            .map(|r| r.result);
        if at.is_some() {
            self.selection = at;
        }
        at
    }

    /// The notice shown across the top, if any.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// The results table's filter text.
    pub fn filter_mut(&mut self) -> &mut String {
        &mut self.table.filter
    }

    /// Opens a file, text or the demo (on a background thread).
    pub fn open(&mut self, request: OpenRequest) {
        self.handle(Command::Open(request));
    }

    /// The one place where commands are carried out.
    pub fn handle(&mut self, command: Command) {
        match command {
            Command::Open(request) => {
                let pending = PendingLoad {
                    id: super::loader::LoadId(0),
                    name: request.display_name(),
                    path: request.path().map(|p| p.to_path_buf()),
                    size: request.size_hint(),
                    started: Instant::now(),
                };
                let id = self.loader.start(request);
                self.workspace.add_pending(PendingLoad { id, ..pending });
            }
            Command::ShowOpenDialog => self.show_open_dialog(),
            Command::CloseReport(id) => {
                self.workspace.close_report(id);
                baselines::sync(&mut self.settings.baselines, &self.workspace);
                if self.selection.is_some_and(|s| s.report == id) {
                    self.selection = None;
                    self.select_first_if_none();
                }
            }
            Command::CloseAll => {
                self.workspace.close_all();
                baselines::sync(&mut self.settings.baselines, &self.workspace);
                self.selection = None;
            }
            Command::DismissFailed(id) => self.workspace.dismiss_failed(id),
            Command::ClearRecent => self.settings.recent_files.clear(),
            Command::DismissNotice => self.notice = None,
            Command::SetBaseline(at) => {
                baselines::add(&mut self.settings.baselines, &self.workspace, at);
            }
            Command::RemoveBaseline(index) => {
                baselines::remove(&mut self.settings.baselines, index);
            }
            Command::ComparePair { base, current } => {
                if self.workspace.result(base).is_some() && self.workspace.result(current).is_some()
                {
                    self.selection = Some(current);
                    self.pages.compare.pin(base, current);
                    self.settings.page = super::Page::Compare;
                }
            }
            Command::SaveText { file_name, text } => self.save_text(&file_name, &text),
        }
    }

    /// Saves an export to a file picked in the native save dialog; says so when none can be
    /// shown (copying still works).
    fn save_text(&mut self, file_name: &str, text: &str) {
        const NO_DIALOG: &str =
            "No save dialog can be shown here (no desktop portal and no zenity); use Copy instead.";
        if !self.file_dialog || !file_dialog_possible() {
            self.pages.export_status = Some(NO_DIALOG.into());
            return;
        }
        let started = Instant::now();
        let picked = rfd::FileDialog::new()
            .set_title("Save the comparison")
            .set_file_name(file_name)
            .save_file();
        self.pages.export_status = Some(match picked {
            Some(path) => match std::fs::write(&path, text) {
                Ok(()) => format!("Saved {}.", path.display()),
                Err(e) => format!("Could not save {}: {e}", path.display()),
            },
            // No person cancels a dialog this fast: none was shown.
            None if started.elapsed() < Duration::from_millis(150) => NO_DIALOG.into(),
            None => "Not saved.".into(),
        });
    }

    /// Adds a report that was parsed elsewhere (benchmarks, other front ends), as if loaded.
    pub fn add_loaded_report(
        &mut self,
        name: impl Into<String>,
        report: crate::model::Report,
    ) -> super::workspace::ReportId {
        let id = self
            .workspace
            .add_report(name.into(), None, report, Duration::ZERO);
        baselines::sync(&mut self.settings.baselines, &self.workspace);
        self.select_first_if_none();
        id
    }

    /// Takes finished loads into the workspace, for at most [`DRAIN_BUDGET`].
    pub fn poll_loads(&mut self) {
        let start = Instant::now();
        while let Some(outcome) = self.loader.try_recv() {
            self.finish_load(outcome);
            if start.elapsed() > DRAIN_BUDGET {
                break;
            }
        }
    }

    /// Blocks until every pending load has finished or `timeout` passed; returns whether all
    /// finished. For tests and for screenshots of a fully loaded window.
    pub fn wait_for_loads(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        while self.workspace.is_loading() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            match self.loader.recv_timeout(left) {
                Some(outcome) => self.finish_load(outcome),
                None => return false,
            }
        }
        true
    }

    fn finish_load(&mut self, outcome: LoadOutcome) {
        let Some(pending) = self.workspace.take_pending(outcome.id) else {
            return;
        };
        match outcome.result {
            Ok(report) => {
                if let Some(path) = &pending.path {
                    self.settings.remember_file(path);
                }
                self.workspace
                    .add_report(pending.name, pending.path, report, outcome.elapsed);
                baselines::sync(&mut self.settings.baselines, &self.workspace);
                self.select_first_if_none();
            }
            Err(message) => self.workspace.add_failed(FailedLoad {
                id: pending.id,
                name: pending.name,
                path: pending.path,
                message,
            }),
        }
    }

    /// Selects the first visible row when nothing (valid) is selected.
    fn select_first_if_none(&mut self) {
        if self
            .selection
            .is_some_and(|s| self.workspace.result(s).is_some())
        {
            return;
        }
        self.selection = None;
        let sort = self.settings.sort;
        let order = self.table.order(&self.workspace, sort);
        self.selection = order
            .first()
            .and_then(|&i| self.workspace.rows().get(i))
            .map(|r| r.result);
    }

    /// Shows the native file dialog (synchronous, on the UI thread).
    fn show_open_dialog(&mut self) {
        if !self.file_dialog || !file_dialog_possible() {
            self.notice = Some(NO_DIALOG_NOTICE.into());
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
                self.notice = Some(NO_DIALOG_NOTICE.into());
            }
            None => {}
        }
    }

    /// Keyboard shortcuts, paste, dropped files and Ctrl+wheel zoom, as commands.
    fn collect_input(&mut self, ctx: &egui::Context) {
        menu::shortcuts(ctx, &mut self.queued);
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
                self.pasted_count += 1;
                let name = format!("Pasted text {}", self.pasted_count);
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
            self.settings.zoom_factor = Settings::clamp_zoom(self.settings.zoom_factor * zoom);
        }
    }

    /// Theme and zoom from the settings; zoom changed with egui's own keys goes back into them.
    fn apply_view_settings(&mut self, ctx: &egui::Context) {
        theme::apply(ctx, self.settings.theme);
        let current = ctx.zoom_factor();
        if let Some(applied) = self.applied_zoom
            && (current - applied).abs() > f32::EPSILON
            && (self.settings.zoom_factor - applied).abs() <= f32::EPSILON
        {
            self.settings.zoom_factor = Settings::clamp_zoom(current);
        }
        let wanted = Settings::clamp_zoom(self.settings.zoom_factor);
        if (current - wanted).abs() > f32::EPSILON {
            ctx.set_zoom_factor(wanted);
        }
        self.applied_zoom = Some(wanted);
    }

    fn update_title(&mut self, ctx: &egui::Context) {
        let title = match self.selection.and_then(|s| self.workspace.result(s)) {
            Some((open, result)) => format!("{} — {} — Sightline", result.name.function, open.name),
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
        self.loader.set_context(&ctx);
        self.poll_loads();
        self.collect_input(&ctx);
        self.apply_view_settings(&ctx);

        egui::Panel::top("menu_bar").show(ui, |ui| {
            menu::show(ui, &mut self.settings, &mut self.queued);
        });
        if self.notice.is_some() {
            egui::Panel::top("notice_bar").show(ui, |ui| self.notice_ui(ui));
        }
        egui::Panel::left("reports_panel")
            .resizable(true)
            .default_size(250.0)
            .size_range(160.0..=500.0)
            .show(ui, |ui| {
                reports_panel::show(
                    ui,
                    &self.workspace,
                    &mut self.selection,
                    &mut self.settings.baselines,
                    &mut self.queued,
                );
            });
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
        if self.workspace.is_loading() {
            ctx.request_repaint_after(Duration::from_millis(250));
        }
    }

    fn notice_ui(&mut self, ui: &mut egui::Ui) {
        let Some(notice) = self.notice.clone() else {
            return;
        };
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(notice).color(ui.visuals().warn_fg_color));
        });
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
        if self.workspace.reports().is_empty() {
            self.welcome_ui(ui);
            return;
        }
        egui::Panel::top("results_panel")
            .resizable(true)
            .default_size(300.0)
            .size_range(120.0..=2000.0)
            .show(ui, |ui| {
                self.table.show(
                    ui,
                    &self.workspace,
                    &mut self.settings.sort,
                    &mut self.selection,
                    &self.settings.baselines,
                    &mut self.queued,
                );
            });
        let selected = self.selection.and_then(|at| {
            self.workspace
                .result(at)
                .map(|(open, result)| (at, open, result))
        });
        let Some((at, open, result)) = selected else {
            ui.weak("Select a result in the table above (click, or Up/Down).");
            return;
        };
        let baseline = baselines::index_of(&self.settings.baselines, at)
            .and_then(|i| self.settings.baselines.get(i).map(|b| (i, b.color32())));
        header::show(ui, open, result, at, baseline, &mut self.queued);
        pages::tabs(ui, &mut self.settings.page);
        ui.separator();
        let visible = baselines::visible(&self.settings.baselines);
        let cx = PageContext {
            workspace: &self.workspace,
            open,
            result,
            at,
            baselines: &visible,
        };
        let page = self.settings.page;
        pages::show(
            ui,
            page,
            &cx,
            &mut self.pages,
            &mut self.settings,
            &mut self.queued,
        );
        if let Some(at) = self.pages.take_selection_request() {
            self.selection = Some(at);
        }
    }

    fn welcome_ui(&mut self, ui: &mut egui::Ui) {
        ui.vertical_centered(|ui| {
            ui.add_space(ui.available_height() * 0.25);
            ui.heading("Open a Nsight Compute result");
            ui.add_space(8.0);
            ui.label(".ncu-rep reports, ncu text output, CSV exports, session pages, GUI copies");
            ui.weak("Drag files here, paste ncu text with Ctrl+V, or use File > Open (Ctrl+O).");
            ui.add_space(8.0);
            if ui.button("Open…").clicked() {
                self.queued.push(Command::ShowOpenDialog);
            }
            if ui.button("Open the demo report").clicked() {
                self.queued.push(Command::Open(OpenRequest::Demo));
            }
        });
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
            eframe::set_value(storage, eframe::APP_KEY, &self.settings.to_save());
        }
    }

    fn persist_egui_memory(&self) -> bool {
        self.persist_state
    }
}
