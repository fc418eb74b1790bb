//! The open reports, the files still loading and the files that failed: what the app shows,
//! never persisted.

use super::error::OpenError;
use super::loader::{LoadControl, LoadId};
use super::rows::{RowSummary, summarize_report};
use crate::model::{KernelResult, Report};
use std::path::PathBuf;
use std::time::{Duration, Instant};

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

/// Identifies an open report for as long as the app runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ReportId(pub u64);

/// One result of one open report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ResultRef {
    pub report: ReportId,
    /// Index into `Report::results`.
    pub index: usize,
}

/// A loaded report.
#[derive(Debug)]
pub struct OpenReport {
    pub id: ReportId,
    /// The name shown in lists (the file name, `Pasted text 1`, `Demo report`).
    pub name: String,
    /// The file it came from, when it came from one.
    pub path: Option<PathBuf>,
    pub report: Report,
    /// How long reading and parsing took.
    pub load_time: Duration,
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

    /// Changes whenever the rows change.
    pub fn generation(&self) -> u64 {
        self.generation
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
    /// the loading thread; their report id and order are set here) and returns its id.
    pub fn add_summarized(
        &mut self,
        name: String,
        path: Option<PathBuf>,
        report: Report,
        mut rows: Vec<RowSummary>,
        load_time: Duration,
    ) -> ReportId {
        self.next_report_id += 1;
        let id = ReportId(self.next_report_id);
        stamp_rows(&mut rows, id, self.reports.len(), &name);
        self.rows.extend(rows);
        self.reports.push(OpenReport {
            id,
            name,
            path,
            report,
            load_time,
        });
        self.generation += 1;
        id
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
    ) -> Option<Report> {
        let order = self.reports.iter().position(|r| r.id == id)?;
        let open = self.reports.get_mut(order)?;
        if rows.len() != report.results.len() {
            rows = summarize_report(id, &open.name, &report);
        }
        stamp_rows(&mut rows, id, order, &open.name);
        let old = std::mem::replace(&mut open.report, report);
        open.load_time = load_time;
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
        self.generation += 1;
        Some(old)
    }

    /// Records a failed file.
    pub fn add_failed(&mut self, failed: FailedLoad) {
        self.failed.push(failed);
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
        let order: Vec<ReportId> = self.reports.iter().map(|r| r.id).collect();
        for row in &mut self.rows {
            row.report_order = order
                .iter()
                .position(|&o| o == row.result.report)
                .unwrap_or(usize::MAX);
        }
        self.generation += 1;
        true
    }

    /// Closes every report.
    pub fn close_all(&mut self) {
        self.reports = Vec::new();
        self.rows = Vec::new();
        self.generation += 1;
    }

    /// Removes a failed entry.
    pub fn dismiss_failed(&mut self, id: LoadId) {
        self.failed.retain(|f| f.id != id);
    }
}
