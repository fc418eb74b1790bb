//! The app: state, the one place where commands are handled, the frame layout, and the
//! eframe glue. Drivable without eframe (`SightlineApp::new(None, ..)` and `ui`) for tests.

use super::commands::{Command, OpenRequest};
use super::file_bar::{FileNoticeKind, FileNotices};
use super::file_watch::{FileSignature, FileWatcher};
use super::loader::{LoadOutcome, Loader};
use super::pages::{self, PageContext, PageStates};
use super::results_table::ResultsTable;
use super::settings::Settings;
use super::workspace::{FailedLoad, PendingLoad, ReportId, ResultRef, Workspace};
use super::{baselines, drop_overlay, file_bar, header, menu, plot_util, reports_panel, theme};
use crate::model::Report;
use std::path::{Path, PathBuf};
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
    /// Looks at the files of the open reports for changes.
    watcher: FileWatcher,
    /// Reports whose file changed, vanished or failed to load again.
    file_notices: FileNotices,
    /// Set for `--time-to-table`: when the process started, and whether the table is complete.
    time_to_table: Option<TimeToTable>,
}

/// A report read again, with what the loading thread made of it.
struct Loaded {
    report: Report,
    rows: Vec<super::rows::RowSummary>,
    load_time: Duration,
    signature: Option<FileSignature>,
}

/// The `--time-to-table` measurement: the first frame after the one that showed every loaded
/// result in the table (so that frame was painted) prints the time and closes the window.
#[derive(Debug, Clone, Copy)]
struct TimeToTable {
    started: Instant,
    /// Results and reports of the frame that showed them all.
    shown: Option<(usize, usize)>,
    done: bool,
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
            watcher: FileWatcher::default(),
            file_notices: FileNotices::default(),
            time_to_table: None,
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
        self.watcher.set_context(ctx);
    }

    /// Looks at the open reports' files every `interval` instead of every second (tests).
    pub fn set_file_poll_interval(&mut self, interval: Duration) {
        self.watcher = FileWatcher::with_interval(interval);
        for open in self.workspace.reports() {
            if let Some(path) = &open.path
                && let Ok(signature) = FileSignature::read(path)
            {
                self.watcher.watch(open.id, path, signature);
            }
        }
    }

    /// Measures the time to a complete results table for benchmarks: on the frame after the
    /// table first shows every loaded result, prints `results table shown: N results from M
    /// reports in T ms` (T since `started`) and closes the window.
    pub fn report_time_to_table(&mut self, started: Instant) {
        self.time_to_table = Some(TimeToTable {
            started,
            shown: None,
            done: false,
        });
    }

    /// How many loading threads are still alive, cancelled ones included (a cancelled load's
    /// thread ends early: before reading when it had not started, else before sending).
    pub fn loading_threads(&self) -> usize {
        self.loader.threads_running()
    }

    /// The notices about changed, vanished or unreadable files of open reports.
    pub fn file_notices(&self) -> &FileNotices {
        &self.file_notices
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
            Command::Open(request) => self.start_load(request, None),
            Command::ShowOpenDialog => self.show_open_dialog(),
            Command::CloseReport(id) => {
                self.forget_report(id);
                self.workspace.close_report(id);
                self.pages.release_caches();
                baselines::sync(&mut self.settings.baselines, &self.workspace);
                if self.selection.is_some_and(|s| s.report == id) {
                    self.selection = None;
                    self.select_first_if_none();
                }
            }
            Command::CloseAll => {
                let ids: Vec<ReportId> = self.workspace.reports().iter().map(|r| r.id).collect();
                for id in ids {
                    self.forget_report(id);
                }
                self.watcher.unwatch_all();
                self.file_notices.clear();
                self.workspace.close_all();
                self.pages.release_caches();
                baselines::sync(&mut self.settings.baselines, &self.workspace);
                self.selection = None;
            }
            Command::CancelLoad(id) => {
                if let Some(pending) = self.workspace.take_pending(id) {
                    self.loader.cancel(&pending.control);
                }
            }
            Command::CancelAllLoads => {
                for pending in self.workspace.take_all_pending() {
                    self.loader.cancel(&pending.control);
                }
            }
            Command::ReloadReport(id) => self.reload(id),
            Command::DismissFileNotice(id) => {
                self.file_notices.remove(id);
                self.watcher.acknowledge(id);
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

    /// Starts a load on a background thread and lists it as pending; `replaces` is the open
    /// report a reload reads again.
    fn start_load(&mut self, request: OpenRequest, replaces: Option<ReportId>) {
        let name = request.display_name();
        let path = request.path().map(Path::to_path_buf);
        let size = request.size_hint();
        let (id, control) = self.loader.start(request);
        self.workspace.add_pending(PendingLoad {
            id,
            name,
            path,
            size,
            started: Instant::now(),
            control,
            replaces,
        });
    }

    /// Reads an open report's file again (once at a time); the outcome replaces it in place.
    fn reload(&mut self, id: ReportId) {
        if self.workspace.is_reloading(id) {
            return;
        }
        let Some(path) = self.workspace.report(id).and_then(|r| r.path.clone()) else {
            return;
        };
        self.start_load(OpenRequest::Path(path), Some(id));
    }

    /// Stops watching a report's file, its notice and a reload of it that is under way.
    fn forget_report(&mut self, id: ReportId) {
        self.watcher.unwatch(id);
        self.file_notices.remove(id);
        let reloads: Vec<_> = self
            .workspace
            .pending()
            .iter()
            .filter(|p| p.replaces == Some(id))
            .map(|p| p.id)
            .collect();
        for load in reloads {
            if let Some(pending) = self.workspace.take_pending(load) {
                self.loader.cancel(&pending.control);
            }
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

    /// Takes a finished load: a new report, a report read again, or an error. The outcome of a
    /// load that was cancelled meanwhile (no longer pending) is dropped.
    fn finish_load(&mut self, outcome: LoadOutcome) {
        let Some(pending) = self.workspace.take_pending(outcome.id) else {
            return;
        };
        match (outcome.result, pending.replaces) {
            (Ok(report), Some(id)) => {
                let loaded = Loaded {
                    report,
                    rows: outcome.rows,
                    load_time: outcome.elapsed,
                    signature: outcome.signature,
                };
                self.finish_reload(id, loaded);
            }
            (Err(message), Some(id)) => {
                if self.workspace.report(id).is_some() {
                    self.file_notices
                        .set(id, FileNoticeKind::ReloadFailed(message));
                }
            }
            (Ok(report), None) => {
                if let Some(path) = &pending.path {
                    self.settings.remember_file(path);
                }
                let id = self.workspace.add_summarized(
                    pending.name,
                    pending.path.clone(),
                    report,
                    outcome.rows,
                    outcome.elapsed,
                );
                if let (Some(path), Some(signature)) = (&pending.path, outcome.signature) {
                    self.watcher.watch(id, path, signature);
                }
                baselines::sync(&mut self.settings.baselines, &self.workspace);
                self.select_first_if_none();
            }
            (Err(message), None) => self.workspace.add_failed(FailedLoad {
                id: pending.id,
                name: pending.name,
                path: pending.path,
                message,
            }),
        }
    }

    /// Puts a report read again in the place of the open one: the selection stays on the same
    /// result (same ID and kernel) where the new report still has it, and baselines attach
    /// again by file and result ID.
    fn finish_reload(&mut self, id: ReportId, loaded: Loaded) {
        let Loaded {
            report,
            rows,
            load_time,
            signature,
        } = loaded;
        let selected = self
            .selection
            .filter(|s| s.report == id)
            .and_then(|s| self.workspace.result(s))
            .map(|(_, r)| (r.id, r.name.function.clone()));
        let old_index = self.selection.map(|s| s.index);
        if self
            .workspace
            .replace_report(id, report, rows, load_time)
            .is_none()
        {
            return;
        }
        self.pages.release_caches();
        if let Some((result_id, function)) = selected {
            let same =
                |r: &crate::model::KernelResult| r.id == result_id && r.name.function == function;
            let index = self.workspace.report(id).and_then(|open| {
                let results = &open.report.results;
                old_index
                    .filter(|&i| results.get(i).is_some_and(same))
                    .or_else(|| results.iter().position(same))
            });
            self.selection = index.map(|index| ResultRef { report: id, index });
        }
        baselines::sync(&mut self.settings.baselines, &self.workspace);
        self.select_first_if_none();
        self.file_notices.remove(id);
        if let (Some(path), Some(signature)) = (
            self.workspace.report(id).and_then(|r| r.path.clone()),
            signature,
        ) {
            self.watcher.watch(id, &path, signature);
        }
    }

    /// Takes what the file watcher saw into the notices.
    fn poll_file_changes(&mut self) {
        while let Some(event) = self.watcher.try_recv() {
            if self.workspace.report(event.report).is_some() {
                self.file_notices.apply(event.report, event.state);
            }
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
        self.set_context(&ctx);
        if self.finish_time_to_table(&ctx) {
            return;
        }
        self.poll_loads();
        self.poll_file_changes();
        self.collect_input(&ctx);
        self.apply_view_settings(&ctx);

        egui::Panel::top("menu_bar").show(ui, |ui| {
            menu::show(ui, &mut self.settings, &mut self.queued);
        });
        if self.notice.is_some() {
            egui::Panel::top("notice_bar").show(ui, |ui| self.notice_ui(ui));
        }
        if !self.file_notices.list().is_empty() {
            egui::Panel::top("file_notice_bar")
                .frame(file_bar::frame(ui.style()))
                .show(ui, |ui| {
                    file_bar::show(ui, &self.file_notices, &self.workspace, &mut self.queued);
                });
        }
        egui::Panel::left("reports_panel")
            .resizable(true)
            .default_size(250.0)
            .size_range(160.0..=500.0)
            .show(ui, |ui| {
                reports_panel::show(
                    ui,
                    &self.workspace,
                    &self.file_notices,
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
        self.note_table_complete(&ctx);
    }

    /// For `--time-to-table`: remembers the first frame whose table lists every loaded result
    /// once nothing is loading, and asks for the next frame (which prints the time).
    fn note_table_complete(&mut self, ctx: &egui::Context) {
        let Some(t) = self.time_to_table.as_mut() else {
            return;
        };
        if t.shown.is_some() || self.workspace.is_loading() {
            return;
        }
        let results = self.workspace.result_count();
        let listed = if self.workspace.reports().is_empty() {
            0
        } else {
            self.table.order(&self.workspace, self.settings.sort).len()
        };
        if listed == results {
            t.shown = Some((results, self.workspace.reports().len()));
            ctx.request_repaint();
        }
    }

    /// For `--time-to-table`: on the frame after the complete table was painted, prints the
    /// time since start and closes the window. Returns whether the window is closing.
    fn finish_time_to_table(&mut self, ctx: &egui::Context) -> bool {
        let Some(t) = self.time_to_table.as_mut() else {
            return false;
        };
        if t.done {
            return true;
        }
        let Some((results, reports)) = t.shown else {
            return false;
        };
        t.done = true;
        let ms = t.started.elapsed().as_secs_f64() * 1e3;
        if reports == 0 {
            eprintln!(
                "no results table: {} file(s) could not be read ({ms:.1} ms)",
                self.workspace.failed().len()
            );
        } else {
            println!("results table shown: {results} results from {reports} reports in {ms:.1} ms");
        }
        ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        true
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
