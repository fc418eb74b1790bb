//! The application state without a window: what is open, loading and selected, the settings,
//! the file watcher and its notices, and [`AppState::handle`], where commands change it.

use crate::core::baselines;
use crate::core::closed_reports::ClosedReports;
use crate::core::commands::{Command, OpenRequest};
use crate::core::error::OpenError;
use crate::core::file_notices::{FileNoticeKind, FileNotices};
use crate::core::file_watch::{FileSignature, FileState, FileWatcher, POLL_INTERVAL, WatchMode};
use crate::core::ids::{ReportId, ResultRef};
use crate::core::loader::{LoadOutcome, Loader};
use crate::core::page_id::PageId;
use crate::core::rows::RowSummary;
use crate::core::sass_imports::SassImports;
use crate::core::settings::Settings;
use crate::core::started_loads::{StartedLoads, start_pending};
use crate::core::table_view::TableView;
use crate::core::waker::{WakeFn, Waker};
use crate::core::workspace::{FailedLoad, Workspace};
use crate::model::format::count_text;
use crate::model::{KernelResult, Report};
use std::time::{Duration, Instant};

/// Result bodies decoded on demand kept per report: the results viewed last.
pub const KEPT_BODIES: usize = 16;

/// Longest time spent taking finished loads per frame (the rest waits for the next frame).
const DRAIN_BUDGET: Duration = Duration::from_millis(10);

/// A report read again, with what the loading thread made of it.
struct Loaded {
    report: Report,
    rows: Vec<RowSummary>,
    load_time: Duration,
    signature: Option<FileSignature>,
}

/// Everything the app knows, without a window.
pub struct AppState {
    pub settings: Settings,
    pub workspace: Workspace,
    loader: Loader,
    pub selection: Option<ResultRef>,
    /// Whether the app chose the selection (nothing was selected), not the user: while reports
    /// of one open finish loading in any order, it stays on the first result of the first
    /// report opened.
    auto_selection: bool,
    /// The folder followed, if one is: its reports open as they arrive.
    follower: Option<crate::core::follow::FolderFollower>,
    /// What the follower said last of each report of the followed folder, and the times
    /// reports settle by.
    followed: crate::core::followed::Followed,
    /// The results table's filter and visible order.
    pub table: TableView,
    /// A message across the top of the window (e.g. no file dialog).
    pub notice: Option<String>,
    /// Looks at the files of the open reports for changes.
    watcher: FileWatcher,
    /// Reports whose file changed, vanished or failed to load again.
    pub file_notices: FileNotices,
    waker: Waker,
    /// Numbers pasted texts (`Pasted text 3`).
    pasted_count: u32,
    /// Two results the Compare page should show side by side, taken by it once.
    compare_pin: Option<(ResultRef, ResultRef)>,
    /// Bumped when reports closed or were replaced: views drop what they derived from them.
    released: u64,
    /// SASS text from ncu's Source page exports, for the Source page.
    pub sass_imports: SassImports,
    /// The nvdisasm programs the Source page and the hot spots run (every one found on the
    /// machine unless the app was started with others).
    pub disassembler: crate::parse::sass::Disassembler,
    /// What each close closed, last close last, for Undo (Ctrl+Shift+T).
    closed: ClosedReports,
}

impl Default for AppState {
    fn default() -> Self {
        AppState::new(Settings::default())
    }
}

impl AppState {
    /// A state with nothing open.
    pub fn new(settings: Settings) -> Self {
        AppState::with_started_loads(settings, StartedLoads::default())
    }

    /// A state whose pending loads are `started` (begun before the state was made).
    pub fn with_started_loads(settings: Settings, started: StartedLoads) -> Self {
        let StartedLoads {
            loader,
            waker,
            pending,
        } = started;
        let mut workspace = Workspace::default();
        for load in pending {
            workspace.add_pending(load);
        }
        AppState {
            settings,
            workspace,
            loader,
            selection: None,
            auto_selection: false,
            follower: None,
            followed: crate::core::followed::Followed::default(),
            table: TableView::default(),
            notice: None,
            watcher: FileWatcher::with_interval(POLL_INTERVAL, waker.clone()),
            file_notices: FileNotices::default(),
            waker,
            pasted_count: 0,
            compare_pin: None,
            released: 0,
            sass_imports: SassImports::default(),
            disassembler: crate::parse::sass::Disassembler::found(),
            closed: ClosedReports::default(),
        }
    }

    /// SASS text imported from ncu's Source page exports.
    pub fn sass_imports(&self) -> &SassImports {
        &self.sass_imports
    }

    /// Installs what background threads call when they have news (the first one set stays).
    pub fn set_waker(&self, wake: WakeFn) {
        self.waker.set(wake);
    }

    /// Whether a waker is installed.
    pub fn has_waker(&self) -> bool {
        self.waker.is_set()
    }

    /// Looks at the open reports' files every `interval` instead of every second (tests).
    pub fn set_file_poll_interval(&mut self, interval: Duration) {
        self.watcher = FileWatcher::with_interval(interval, self.waker.clone());
        for open in self.workspace.reports() {
            if let Some(path) = &open.path
                && let Ok(signature) = FileSignature::read(path)
            {
                self.watcher.watch(open.id, path, signature);
            }
        }
    }

    /// How many loading threads are still alive, cancelled ones included.
    pub fn loading_threads(&self) -> usize {
        self.loader.threads_running()
    }

    /// Most loading threads at a time (one per core).
    pub fn most_loading_threads(&self) -> usize {
        self.loader.most_threads()
    }

    /// What the closes closed, for Undo.
    pub fn closed_reports(&self) -> &ClosedReports {
        &self.closed
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

    /// The selected result with its report.
    pub fn selected(
        &self,
    ) -> Option<(
        ResultRef,
        &crate::core::workspace::OpenReport,
        &KernelResult,
    )> {
        let at = self.selection?;
        let (open, result) = self.workspace.result(at)?;
        Some((at, open, result))
    }

    /// Selects a result.
    pub fn select(&mut self, at: Option<ResultRef>) {
        self.selection = at;
        self.auto_selection = false;
    }

    /// The selection when the filter shows its row: what keyboard commands act on (never a
    /// result the user cannot see).
    pub fn visible_selection(&mut self) -> Option<ResultRef> {
        let selection = self.selection;
        self.table
            .position_of(&self.workspace, self.settings.sort, selection)
            .and(selection)
    }

    /// After the filter changed: a selection it hides moves to the first visible row.
    pub fn follow_filter(&mut self) {
        if self.visible_selection().is_none()
            && let Some(first) = self.table.result_at(&self.workspace, self.settings.sort, 0)
        {
            self.selection = Some(first);
        }
    }

    /// Selects the `n`-th row of the results table as sorted and filtered now.
    pub fn select_row(&mut self, n: usize) -> Option<ResultRef> {
        let at = self.table.result_at(&self.workspace, self.settings.sort, n);
        if at.is_some() {
            self.selection = at;
            self.auto_selection = false;
        }
        at
    }

    /// The visible rows of the results table (indices into `Workspace::rows`).
    pub fn visible_rows(&mut self) -> &[usize] {
        self.table.order(&self.workspace, self.settings.sort)
    }

    /// The notice shown across the top, if any.
    pub fn notice(&self) -> Option<&str> {
        self.notice.as_deref()
    }

    /// Shows a notice across the top.
    pub fn set_notice(&mut self, text: impl Into<String>) {
        self.notice = Some(text.into());
    }

    /// The results table's filter text.
    pub fn filter_mut(&mut self) -> &mut String {
        &mut self.table.filter
    }

    /// Changes whenever views must drop what they derived from open reports.
    pub fn released(&self) -> u64 {
        self.released
    }

    /// Two results the Compare page was asked to show side by side, taken once.
    pub fn take_compare_pin(&mut self) -> Option<(ResultRef, ResultRef)> {
        self.compare_pin.take()
    }

    /// The name of the next pasted text (`Pasted text 1`, `Pasted text 2`, …).
    pub fn next_paste_name(&mut self) -> String {
        self.pasted_count += 1;
        format!("Pasted text {}", self.pasted_count)
    }

    /// Opens a file, text or the demo (on a background thread).
    pub fn open(&mut self, request: OpenRequest) {
        self.handle(Command::Open(request));
    }

    /// Carries out a command. The ones that need a window (file dialogs) are the front end's:
    /// here they only say that no dialog can be shown.
    pub fn handle(&mut self, command: Command) {
        match command {
            Command::Open(request) => {
                self.closed.dismiss();
                self.start_load(request, None);
            }
            Command::ShowOpenDialog | Command::ShowFollowDialog | Command::SaveText { .. } => {}
            Command::FollowFolder(dir) => {
                self.stop_following();
                match crate::core::follow::FolderFollower::start(
                    &dir,
                    self.followed.times(),
                    self.waker.clone(),
                ) {
                    Ok(follower) => self.follower = Some(follower),
                    Err(e) => {
                        self.notice = Some(format!(
                            "Cannot follow {}: {}",
                            dir.display(),
                            crate::parse::open_files::io_error_text(&e)
                        ));
                    }
                }
            }
            Command::StopFollowing => self.stop_following(),
            Command::ToggleReportsPanel => {
                self.settings.panels.reports_hidden = !self.settings.panels.reports_hidden;
            }
            Command::LocateSource(_) => {}
            Command::AddSourceFolder { recorded, folder } => {
                let folders = &mut self.settings.source_folders;
                folders.retain(|(r, _)| *r != recorded);
                folders.push((recorded, folder));
            }
            Command::CloseReport(id) => {
                self.closed.remember(&self.workspace, &[id]);
                self.forget_report(id);
                self.workspace.close_report(id);
                self.release_views();
                baselines::sync(&mut self.settings.baselines, &self.workspace);
                if self.selection.is_some_and(|s| s.report == id) {
                    self.selection = None;
                    self.select_first_if_none();
                }
            }
            Command::CloseAll => {
                let ids: Vec<ReportId> = self.workspace.reports().iter().map(|r| r.id).collect();
                self.closed.remember(&self.workspace, &ids);
                for id in ids {
                    self.forget_report(id);
                }
                self.watcher.unwatch_all();
                self.file_notices.clear();
                self.workspace.close_all();
                self.release_views();
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
            Command::SetReloadChangedFiles(on) => {
                self.settings.reload_changed_files = on;
                if on {
                    let changed: Vec<ReportId> = self
                        .file_notices
                        .list()
                        .iter()
                        .filter(|n| matches!(n.kind, FileNoticeKind::Changed))
                        .map(|n| n.report)
                        .collect();
                    for id in changed {
                        self.reload(id);
                    }
                }
            }
            Command::DismissFailed(id) => self.workspace.dismiss_failed(id),
            Command::ClearRecent => self.settings.recent_files.clear(),
            Command::DismissNotice => self.notice = None,
            Command::UndoClose => {
                for request in self.closed.take_last() {
                    self.start_load(request, None);
                }
            }
            Command::DismissClosed => self.closed.dismiss(),
            Command::Select(at) => {
                if self.workspace.result(at).is_some() {
                    self.selection = Some(at);
                    self.auto_selection = false;
                }
            }
            Command::FollowFilter => self.follow_filter(),
            Command::ShowBaseline { index, visible } => {
                if let Some(b) = self.settings.baselines.get_mut(index) {
                    b.visible = visible;
                }
            }
            Command::SetBaseline(at) => {
                baselines::add(&mut self.settings.baselines, &self.workspace, at);
            }
            Command::RemoveBaseline(index) => {
                baselines::remove(&mut self.settings.baselines, index);
            }
            Command::ToggleBaseline(at) => {
                match baselines::index_of(&self.settings.baselines, at) {
                    Some(index) => {
                        baselines::remove(&mut self.settings.baselines, index);
                    }
                    None => {
                        baselines::add(&mut self.settings.baselines, &self.workspace, at);
                    }
                }
            }
            Command::ShowPage(page) => self.settings.page = page,
            Command::NextReport { back } => self.select_next_report(back),
            Command::ComparePair { base, current } => {
                if self.workspace.result(base).is_some() && self.workspace.result(current).is_some()
                {
                    self.selection = Some(current);
                    self.compare_pin = Some((base, current));
                    self.settings.page = PageId::Compare;
                }
            }
        }
    }

    fn release_views(&mut self) {
        self.released += 1;
        self.table.release();
    }

    /// Starts a load on a background thread and lists it as pending; `replaces` is the open
    /// report a reload reads again.
    fn start_load(&mut self, request: OpenRequest, replaces: Option<ReportId>) {
        let pending = start_pending(&mut self.loader, request, replaces);
        self.workspace.add_pending(pending);
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

    /// Adds a report that was parsed elsewhere (benchmarks, other front ends), as if loaded.
    pub fn add_loaded_report(&mut self, name: impl Into<String>, report: Report) -> ReportId {
        let id = self
            .workspace
            .add_report(name.into(), None, report, Duration::ZERO);
        baselines::sync(&mut self.settings.baselines, &self.workspace);
        self.select_first_if_none();
        id
    }

    /// Drops result bodies decoded on demand that were not used lately (at most
    /// [`KEPT_BODIES`] stay per report); called once a frame, before anything is drawn.
    pub fn release_bodies(&mut self) {
        self.workspace.release_bodies(KEPT_BODIES);
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
            (Err(error), Some(id)) => {
                let path = self.workspace.report(id).and_then(|r| r.path.clone());
                if self.is_followed(path.as_deref()) && !self.followed.is_settled(path.as_deref()) {
                    // Read while it was written: read again once it grew or settled.
                    self.followed.forget_version(path.as_deref());
                } else if self.workspace.report(id).is_some() {
                    self.file_notices
                        .set(id, FileNoticeKind::ReloadFailed(error));
                }
            }
            (Ok(report), None) => {
                if let Some(path) = &pending.path {
                    self.settings.remember_file(path);
                }
                let id = self.workspace.add_opened(
                    pending.id.0,
                    pending.name,
                    pending.path.clone(),
                    report,
                    outcome.rows,
                    outcome.elapsed,
                );
                self.workspace
                    .note_file_time(id, outcome.signature.and_then(|s| s.modified));
                if let (Some(path), Some(signature)) = (&pending.path, outcome.signature) {
                    self.watcher.watch(id, path, signature);
                }
                self.loaded_followed(id, outcome.signature);
                baselines::sync(&mut self.settings.baselines, &self.workspace);
                if self.auto_selection {
                    // A report opened before this one may have finished later.
                    self.selection = None;
                }
                self.select_first_if_none();
            }
            (Err(OpenError::SassExport(import)), _) => {
                self.notice = Some(format!(
                    "Added SASS text for {} of {} from {} to the Source page.",
                    count_text(import.instructions(), "instruction", "instructions"),
                    count_text(import.by_kernel.len(), "kernel", "kernels"),
                    pending.name
                ));
                self.sass_imports.add((*import).clone());
            }
            // A report still being written that could not be read now is read again
            // once it grew or settled; a settled one's error names it.
            (Err(_), None)
                if self.is_followed(pending.path.as_deref())
                    && !self.followed.is_settled(pending.path.as_deref()) =>
            {
                self.followed.forget_version(pending.path.as_deref());
            }
            (Err(error), None) => self.workspace.add_failed(FailedLoad {
                id: pending.id,
                name: pending.name,
                path: pending.path,
                error,
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
        self.workspace
            .note_file_time(id, signature.and_then(|s| s.modified));
        self.release_views();
        if let Some((result_id, function)) = selected {
            let same = |r: &KernelResult| r.id == result_id && r.name.function == function;
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
        self.loaded_followed(id, signature);
    }

    /// Takes what the file watcher saw: a changed file is read again through
    /// [`Command::ReloadReport`] when the settings say so, otherwise it gets a notice (as do
    /// files that vanished).
    pub fn poll_file_changes(&mut self) {
        while let Some(event) = self.watcher.try_recv() {
            if self.workspace.report(event.report).is_none() {
                continue;
            }
            let changed = matches!(event.state, Some(FileState::Changed(_)));
            let path = self
                .workspace
                .report(event.report)
                .and_then(|r| r.path.clone());
            if changed && self.is_followed(path.as_deref()) {
                // The follower reads it again once its new state is whole.
                continue;
            }
            if changed && self.settings.reload_changed_files {
                self.handle(Command::ReloadReport(event.report));
            } else {
                self.file_notices.apply(event.report, event.state);
            }
        }
    }

    /// How the files of open reports are watched (notifications, or polling and why).
    pub fn file_watch_mode(&self) -> &WatchMode {
        self.watcher.mode()
    }

    /// Selects the first visible result of the report after (or before) the selected one's,
    /// wrapping around; reports with no visible result are skipped.
    fn select_next_report(&mut self, back: bool) {
        let ids: Vec<ReportId> = self.workspace.reports().iter().map(|r| r.id).collect();
        if ids.is_empty() {
            return;
        }
        let current = self
            .selection
            .and_then(|s| ids.iter().position(|&id| id == s.report));
        let order = self
            .table
            .order(&self.workspace, self.settings.sort)
            .to_vec();
        let rows = self.workspace.rows();
        let n = ids.len();
        for step in 1..=n {
            let i = match (current, back) {
                (Some(c), false) => (c + step) % n,
                (Some(c), true) => (c + n - step % n) % n,
                (None, _) => step - 1,
            };
            let Some(&id) = ids.get(i) else { continue };
            let first = order
                .iter()
                .filter_map(|&r| rows.get(r))
                .find(|r| r.result.report == id);
            if let Some(row) = first {
                self.selection = Some(row.result);
                return;
            }
        }
    }

    /// Selects the first result of the first report opened (its first visible row) when
    /// nothing (valid) is selected.
    fn select_first_if_none(&mut self) {
        if self
            .selection
            .is_some_and(|s| self.workspace.result(s).is_some())
        {
            return;
        }
        let first_report = self.workspace.reports().first().map(|r| r.id);
        let order = self.table.order(&self.workspace, self.settings.sort);
        let rows = self.workspace.rows();
        let visible = || order.iter().filter_map(|&i| rows.get(i));
        self.selection = visible()
            .filter(|r| Some(r.result.report) == first_report)
            .min_by_key(|r| r.result.index)
            .or_else(|| visible().next())
            .map(|r| r.result);
        self.auto_selection = self.selection.is_some();
    }
}

#[path = "state_follow.rs"]
mod following;
