//! Notices about the files of open reports: changed on disk, gone or unreadable, or a reload
//! that failed (the report loaded before stays). At most one per report.

use crate::core::error::OpenError;
use crate::core::file_watch::FileState;
use crate::core::ids::ReportId;

/// What the bar says about one open report.
#[derive(Debug, Clone)]
pub enum FileNoticeKind {
    /// The file has another size or modification time than the version shown.
    Changed,
    /// The file is gone or cannot be opened; the text says which.
    Unreadable(String),
    /// Reading the file again failed.
    ReloadFailed(OpenError),
}

/// A notice about the file of one open report.
#[derive(Debug, Clone)]
pub struct FileNotice {
    pub report: ReportId,
    pub kind: FileNoticeKind,
}

/// The notices, at most one per report, in the order they came.
#[derive(Debug, Default)]
pub struct FileNotices {
    list: Vec<FileNotice>,
}

impl FileNotices {
    /// Every notice.
    pub fn list(&self) -> &[FileNotice] {
        &self.list
    }

    /// The notice about `report`, if any.
    pub fn get(&self, report: ReportId) -> Option<&FileNoticeKind> {
        self.list
            .iter()
            .find(|n| n.report == report)
            .map(|n| &n.kind)
    }

    /// Sets (or replaces) the notice about `report`.
    pub fn set(&mut self, report: ReportId, kind: FileNoticeKind) {
        match self.list.iter_mut().find(|n| n.report == report) {
            Some(n) => n.kind = kind,
            None => self.list.push(FileNotice { report, kind }),
        }
    }

    /// Removes the notice about `report`.
    pub fn remove(&mut self, report: ReportId) {
        self.list.retain(|n| n.report != report);
    }

    /// Removes every notice.
    pub fn clear(&mut self) {
        self.list = Vec::new();
    }

    /// Follows what the watching thread saw: `None` means the file is the version shown again.
    pub fn apply(&mut self, report: ReportId, state: Option<FileState>) {
        match state {
            None => self.remove(report),
            Some(FileState::Changed(_)) => self.set(report, FileNoticeKind::Changed),
            Some(FileState::Unreadable(why)) => self.set(report, FileNoticeKind::Unreadable(why)),
        }
    }
}
