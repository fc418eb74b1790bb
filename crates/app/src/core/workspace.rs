//! The open reports, the files still loading and the files that failed: what the app shows,
//! never persisted.

use crate::analysis::path_names::{distinct_names, run_labels};
use crate::core::error::OpenError;
use crate::core::ids::LoadId;
use crate::core::ids::{ReportId, ResultRef};
use crate::core::loader::LoadControl;
use crate::core::rows::{RowSummary, summarize_report};
use crate::model::{KernelResult, Report};
use crate::parse::arrival::{SettledBy, Writer};
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant, SystemTime};

/// When a report's results were captured, and how sure that is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptureTime {
    pub at: SystemTime,
    /// Taken from the file's modification time (a text form): a copy or a checkout changes
    /// it, so it tells two captures apart only when they are far apart.
    pub from_file_time: bool,
}

/// When `report`'s results were captured, where it says itself (an `.ncu-rep`'s creation
/// time). Text forms get their file's modification time from the load that read them
/// ([`Workspace::note_file_time`]).
fn captured_at(report: &Report) -> Option<CaptureTime> {
    report.created.map(|secs| CaptureTime {
        at: SystemTime::UNIX_EPOCH + Duration::from_secs(secs),
        from_file_time: false,
    })
}

/// Gives rows made before their report was added its id, position and name.
fn stamp_rows(rows: &mut [RowSummary], id: ReportId, order: usize, name: &str) {
    for r in rows {
        r.result.report = id;
        r.report_order = order;
        if r.report_name != name {
            r.report_name = name.to_string();
        }
    }
}

/// Whether a report of a followed folder is still being written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ReportArrival {
    /// Opened as it was (not from a followed folder, or written before).
    #[default]
    Whole,
    /// Still being written (every state ncu leaves is a valid report with fewer results):
    /// shown with its results so far, left out of comparisons, the Trend and its rules.
    Growing { writer: Option<Writer> },
    /// Its write ended, and how that was seen.
    Settled(SettledBy),
}

/// A loaded report.
#[derive(Debug)]
pub struct OpenReport {
    pub id: ReportId,
    /// The name shown in lists (the file name, `Pasted text 1`, `Demo report`).
    pub name: String,
    /// The file it came from, when it came from one.
    pub path: Option<PathBuf>,
    pub report: std::sync::Arc<Report>,
    /// How long reading and parsing took.
    pub load_time: Duration,
    /// When its results were captured: the report's own creation time, else (text forms) the
    /// file's modification time when it was opened.
    pub captured: Option<CaptureTime>,
    /// When it was asked for: the load that read it, so that reports keep the order in which
    /// they were opened whatever order their loads finish in (`u64::MAX` for reports added
    /// directly, which go last).
    pub opened: u64,
    /// Whether it is still being written (a followed folder's report).
    pub arrival: ReportArrival,
}

impl OpenReport {
    /// Whether it is still being written: it is then neither compared nor a run of the Trend.
    pub fn is_growing(&self) -> bool {
        matches!(self.arrival, ReportArrival::Growing { .. })
    }
}

/// A file being read on a background thread.
#[derive(Debug, Clone)]
pub struct PendingLoad {
    pub id: LoadId,
    pub name: String,
    /// The file, when the load reads one (kept for the recent files list).
    pub path: Option<PathBuf>,
    pub size: Option<u64>,
    pub started: Instant,
    /// Cancels the load; says whether it started reading.
    pub control: LoadControl,
    /// The open report this load reads again (a reload), which it replaces in place.
    pub replaces: Option<ReportId>,
}

/// A file that could not be read as a result.
#[derive(Debug, Clone)]
pub struct FailedLoad {
    pub id: LoadId,
    pub name: String,
    pub path: Option<PathBuf>,
    pub error: OpenError,
}

/// Everything open.
#[derive(Debug, Default)]
pub struct Workspace {
    reports: Vec<OpenReport>,
    pending: Vec<PendingLoad>,
    failed: Vec<FailedLoad>,
    rows: Vec<RowSummary>,
    next_report_id: u64,
    /// Bumped whenever `rows` changes, so views can cache what they derive from them.
    generation: u64,
    /// Bumped whenever a report that is not being written changes (opened, read again,
    /// closed, settled): what the views of settled reports (the Trend) are built for.
    settled_generation: u64,
    /// The longest label of the Report column, for the column's width.
    longest_label: String,
    /// Whether some open result was launched under an NVTX range.
    any_nvtx: bool,
}

impl Workspace {
    /// The open reports, in the order they were opened.
    pub fn reports(&self) -> &[OpenReport] {
        &self.reports
    }

    /// Files still loading.
    pub fn pending(&self) -> &[PendingLoad] {
        &self.pending
    }

    /// Files that failed, until dismissed.
    pub fn failed(&self) -> &[FailedLoad] {
        &self.failed
    }

    /// One row per result of every open report, in report order.
    pub fn rows(&self) -> &[RowSummary] {
        &self.rows
    }

    /// The longest of the rows' report labels (in characters), for the Report column's width.
    pub fn longest_report_label(&self) -> &str {
        &self.longest_label
    }

    /// Whether some open result was launched under an NVTX range (the table then has its NVTX
    /// column).
    pub fn any_nvtx(&self) -> bool {
        self.any_nvtx
    }

    /// Changes whenever the rows change.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Changes whenever a report not being written changes, or one starts or stops being
    /// written; a report growing in place leaves it as it is.
    pub fn settled_generation(&self) -> u64 {
        self.settled_generation
    }

    /// Number of results across all reports.
    pub fn result_count(&self) -> usize {
        self.rows.len()
    }

    /// An open report by id.
    pub fn report(&self, id: ReportId) -> Option<&OpenReport> {
        self.reports.iter().find(|r| r.id == id)
    }

    /// A result and its report.
    pub fn result(&self, at: ResultRef) -> Option<(&OpenReport, &KernelResult)> {
        let open = self.report(at.report)?;
        let result = open.report.results.get(at.index)?;
        Some((open, result))
    }

    /// Records a file that started loading.
    pub fn add_pending(&mut self, pending: PendingLoad) {
        self.pending.push(pending);
    }

    /// Whether anything is still loading.
    pub fn is_loading(&self) -> bool {
        !self.pending.is_empty()
    }

    /// Whether `report` is being read again.
    pub fn is_reloading(&self, report: ReportId) -> bool {
        self.pending.iter().any(|p| p.replaces == Some(report))
    }

    /// Removes a pending entry and returns it.
    pub fn take_pending(&mut self, id: LoadId) -> Option<PendingLoad> {
        let pos = self.pending.iter().position(|p| p.id == id)?;
        Some(self.pending.remove(pos))
    }

    /// Removes every pending entry and returns them.
    pub fn take_all_pending(&mut self) -> Vec<PendingLoad> {
        std::mem::take(&mut self.pending)
    }

    /// Adds a loaded report and returns its id.
    pub fn add_report(
        &mut self,
        name: String,
        path: Option<PathBuf>,
        report: Report,
        load_time: Duration,
    ) -> ReportId {
        let rows = summarize_report(ReportId(0), &name, &report);
        self.add_summarized(name, path, report, rows, load_time)
    }

    /// Adds a loaded report whose table rows were made already (by [`summarize_report`], on
    /// the loading thread; their report id and order are set here) and returns its id. It goes
    /// after every open report.
    pub fn add_summarized(
        &mut self,
        name: String,
        path: Option<PathBuf>,
        report: Report,
        rows: Vec<RowSummary>,
        load_time: Duration,
    ) -> ReportId {
        self.add_opened(u64::MAX, name, path, report, rows, load_time)
    }

    /// Like [`Workspace::add_summarized`], for the report that load `opened` read: it takes its
    /// place in the order the files were opened, before the reports of later loads.
    pub fn add_opened(
        &mut self,
        opened: u64,
        name: String,
        path: Option<PathBuf>,
        report: Report,
        mut rows: Vec<RowSummary>,
        load_time: Duration,
    ) -> ReportId {
        self.next_report_id += 1;
        let id = ReportId(self.next_report_id);
        let at = self
            .reports
            .iter()
            .position(|r| r.opened > opened)
            .unwrap_or(self.reports.len());
        stamp_rows(&mut rows, id, at, &name);
        let row_at = self
            .rows
            .iter()
            .position(|r| r.report_order >= at)
            .unwrap_or(self.rows.len());
        self.rows.splice(row_at..row_at, rows);
        let captured = captured_at(&report);
        self.reports.insert(
            at,
            OpenReport {
                id,
                name,
                path,
                report: std::sync::Arc::new(report),
                load_time,
                captured,
                opened,
                arrival: ReportArrival::Whole,
            },
        );
        self.renumber();
        self.generation += 1;
        self.settled_generation += 1;
        id
    }

    /// Gives every row its report's position and name again, and every report read from a
    /// file the shortest path suffix that tells it apart from the others
    /// (`a/run/report.ncu-rep` next to `b/run/report.ncu-rep`).
    fn renumber(&mut self) {
        let with_path: Vec<(usize, &PathBuf)> = self
            .reports
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.path.as_ref().map(|p| (i, p)))
            .collect();
        let names = distinct_names(&with_path.iter().map(|(_, p)| *p).collect::<Vec<_>>());
        let renamed: Vec<(usize, String)> = with_path.iter().map(|(i, _)| *i).zip(names).collect();
        for (i, name) in renamed {
            self.reports[i].name = name;
        }
        let labels = run_labels(&self.label_paths());
        let place: HashMap<ReportId, (usize, &str, &str)> = self
            .reports
            .iter()
            .zip(&labels)
            .enumerate()
            .map(|(order, (r, label))| (r.id, (order, r.name.as_str(), label.as_str())))
            .collect();
        self.longest_label = labels
            .iter()
            .max_by_key(|l| l.chars().count())
            .cloned()
            .unwrap_or_default();
        self.any_nvtx = self.rows.iter().any(|r| !r.nvtx.is_empty());
        for row in &mut self.rows {
            if let Some(&(order, name, label)) = place.get(&row.result.report) {
                row.report_order = order;
                if row.report_name != name {
                    row.report_name = name.to_string();
                }
                if row.report_label != label {
                    row.report_label = label.to_string();
                }
            }
        }
    }

    /// Puts `report` (with its table rows, made by [`summarize_report`]) in the place of the
    /// open report `id` (read again from its file): same id, name and position. Returns the
    /// report it replaced; `None` (and `report` is dropped) when `id` is not open.
    pub fn replace_report(
        &mut self,
        id: ReportId,
        report: Report,
        mut rows: Vec<RowSummary>,
        load_time: Duration,
    ) -> Option<std::sync::Arc<Report>> {
        let order = self.reports.iter().position(|r| r.id == id)?;
        let open = self.reports.get_mut(order)?;
        if rows.len() != report.results.len() {
            rows = summarize_report(id, &open.name, &report);
        }
        stamp_rows(&mut rows, id, order, &open.name);
        open.captured = captured_at(&report);
        let old = std::mem::replace(&mut open.report, std::sync::Arc::new(report));
        open.load_time = load_time;
        if !open.is_growing() {
            self.settled_generation += 1;
        }
        // Rows stay in report order: the new rows go where the old ones were.
        let at = self
            .rows
            .iter()
            .position(|r| r.result.report == id)
            .unwrap_or_else(|| {
                self.rows
                    .iter()
                    .position(|r| r.report_order > order)
                    .unwrap_or(self.rows.len())
            });
        self.rows.retain(|r| r.result.report != id);
        let at = at.min(self.rows.len());
        self.rows.splice(at..at, rows);
        self.renumber();
        self.generation += 1;
        Some(old)
    }

    /// Says whether `report` is still being written; the views that leave growing reports
    /// out build again when that changes.
    pub fn set_arrival(&mut self, report: ReportId, arrival: ReportArrival) {
        if let Some(r) = self.reports.iter_mut().find(|r| r.id == report)
            && r.arrival != arrival
        {
            let was_growing = r.is_growing();
            r.arrival = arrival;
            self.generation += 1;
            if !(was_growing && r.is_growing()) {
                self.settled_generation += 1;
            }
        }
    }

    /// The path of each open report for its label (its name where it has none).
    fn label_paths(&self) -> Vec<PathBuf> {
        self.reports
            .iter()
            .map(|r| r.path.clone().unwrap_or_else(|| PathBuf::from(&r.name)))
            .collect()
    }

    /// Takes the modification time of the file `report` was read from (as its load saw it) for
    /// its capture time, where the report does not say when it was captured.
    pub fn note_file_time(&mut self, report: ReportId, modified: Option<SystemTime>) {
        if let Some(r) = self.reports.iter_mut().find(|r| r.id == report)
            && r.captured.is_none()
        {
            r.captured = modified.map(|at| CaptureTime {
                at,
                from_file_time: true,
            });
        }
    }

    /// Sets when `report`'s results were captured (reports added directly, tests).
    pub fn set_captured(&mut self, report: ReportId, captured: Option<CaptureTime>) {
        if let Some(r) = self.reports.iter_mut().find(|r| r.id == report) {
            r.captured = captured;
        }
    }

    /// Records a failed file.
    pub fn add_failed(&mut self, failed: FailedLoad) {
        self.failed.push(failed);
    }

    /// Drops the decoded bodies of results read on demand, keeping the `keep` used most
    /// recently in each report, so walking through many results keeps memory flat. A report a
    /// background job reads at the moment is left as it is until the next call.
    pub fn release_bodies(&mut self, keep: usize) {
        for open in &mut self.reports {
            if let Some(report) = std::sync::Arc::get_mut(&mut open.report) {
                report.release_bodies(keep);
            }
        }
    }

    /// Closes a report; other reports are untouched.
    pub fn close_report(&mut self, id: ReportId) -> bool {
        let before = self.reports.len();
        self.reports.retain(|r| r.id != id);
        if self.reports.len() == before {
            return false;
        }
        self.rows.retain(|r| r.result.report != id);
        // Give the memory back, not only the elements.
        if self.rows.capacity() > 2 * self.rows.len() + 64 {
            self.rows.shrink_to_fit();
        }
        if self.reports.is_empty() {
            self.reports = Vec::new();
        }
        self.renumber();
        self.generation += 1;
        self.settled_generation += 1;
        true
    }

    /// Closes every report.
    pub fn close_all(&mut self) {
        self.reports = Vec::new();
        self.rows = Vec::new();
        self.longest_label.clear();
        self.any_nvtx = false;
        self.generation += 1;
        self.settled_generation += 1;
    }

    /// Removes a failed entry.
    pub fn dismiss_failed(&mut self, id: LoadId) {
        self.failed.retain(|f| f.id != id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Format, KernelResult};

    fn report(results: usize) -> Report {
        let mut r = Report::new("", Format::CliText);
        r.results = (0..results as u64)
            .map(|id| KernelResult {
                id,
                ..KernelResult::default()
            })
            .collect();
        r
    }

    fn add(w: &mut Workspace, opened: u64, path: Option<&str>, results: usize) -> ReportId {
        let rep = report(results);
        let rows = summarize_report(ReportId(0), "", &rep);
        let name = path.map_or("Pasted text 1".into(), |p| {
            crate::output::text::file_name(std::path::Path::new(p))
        });
        w.add_opened(
            opened,
            name,
            path.map(PathBuf::from),
            rep,
            rows,
            Duration::ZERO,
        )
    }

    #[test]
    fn reports_keep_opening_order_and_same_named_files_differ() {
        let mut w = Workspace::default();
        // The second file's load finishes first.
        let b = add(&mut w, 2, Some("/runs/b/run/k.txt"), 2);
        let a = add(&mut w, 1, Some("/runs/a/run/k.txt"), 1);
        add(&mut w, u64::MAX, None, 1);
        let names: Vec<&str> = w.reports().iter().map(|r| r.name.as_str()).collect();
        assert_eq!(names, ["a/run/k.txt", "b/run/k.txt", "Pasted text 1"]);
        let rows: Vec<(ReportId, usize, &str)> = w
            .rows()
            .iter()
            .map(|r| (r.result.report, r.report_order, r.report_name.as_str()))
            .collect();
        assert_eq!(rows[0], (a, 0, "a/run/k.txt"));
        assert_eq!(rows[1], (b, 1, "b/run/k.txt"));
        assert_eq!(rows[2], (b, 1, "b/run/k.txt"));
        assert_eq!(rows[3].1, 2);
        // Alone again, the file goes back to its plain name.
        assert!(w.close_report(a));
        assert_eq!(w.reports()[0].name, "k.txt");
        assert_eq!(w.rows()[0].report_name, "k.txt");
        assert_eq!(w.rows()[0].report_order, 0);
    }
}
