//! What the follower said last of each report of the followed folder, and which version of
//! each file the app read last: a report settles in the window only once the version it
//! shows is the one that settled. A report that settled without ever being seen growing was
//! written before it was followed and is shown as any report is.

use crate::core::file_watch::FileSignature;
use crate::core::workspace::ReportArrival;
use crate::parse::arrival::{Arrival, SettleTimes};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One report file of the followed folder.
#[derive(Debug, Clone)]
struct Entry {
    state: ReportArrival,
    seen_growing: bool,
    /// The file as the app read it last.
    read: Option<FileSignature>,
    /// The follower handed on a newer state while the file was being read.
    read_again: bool,
}

/// The followed folder's reports, by path.
#[derive(Debug, Default)]
pub struct Followed {
    times: SettleTimes,
    reports: HashMap<PathBuf, Entry>,
}

impl Followed {
    /// The times reports settle by.
    pub fn times(&self) -> SettleTimes {
        self.times
    }

    /// Settles reports by `times` from the next folder followed on.
    pub fn set_times(&mut self, times: SettleTimes) {
        self.times = times;
    }

    /// Records what the follower said; the path and how the report is to be shown.
    pub fn note(&mut self, arrival: Arrival) -> (PathBuf, ReportArrival) {
        let (path, growing, state) = match arrival {
            Arrival::Growing { path, writer } => (path, true, ReportArrival::Growing { writer }),
            Arrival::Settled { path, by } => (path, false, ReportArrival::Settled(by)),
        };
        let entry = self.reports.entry(path.clone()).or_insert(Entry {
            state: ReportArrival::Whole,
            seen_growing: false,
            read: None,
            read_again: false,
        });
        entry.seen_growing |= growing;
        entry.state = match state {
            ReportArrival::Settled(_) if !entry.seen_growing => ReportArrival::Whole,
            state => state,
        };
        (path, entry.state.clone())
    }

    /// Whether `path` is a report of the followed folder.
    pub fn knows(&self, path: &Path) -> bool {
        self.reports.contains_key(path)
    }

    /// Whether the follower said that `path`'s write ended.
    pub fn is_settled(&self, path: Option<&Path>) -> bool {
        path.and_then(|p| self.reports.get(p))
            .is_some_and(|e| !matches!(e.state, ReportArrival::Growing { .. }))
    }

    /// Whether the version of `path` read last is the file as it is now.
    pub fn is_current(&self, path: &Path) -> bool {
        let read = self.reports.get(path).and_then(|e| e.read);
        read.is_some() && FileSignature::read(path).ok() == read
    }

    /// A read of `path` (the file as it was when read: `signature`) finished; how the report
    /// is to be shown, `None` for a report of no followed folder.
    pub fn loaded(
        &mut self,
        path: &Path,
        signature: Option<FileSignature>,
    ) -> Option<ReportArrival> {
        let entry = self.reports.get_mut(path)?;
        entry.read = signature;
        Some(entry.state.clone())
    }

    /// Asks for `path` to be read again once the read under way ends.
    pub fn read_again(&mut self, path: &Path) {
        if let Some(entry) = self.reports.get_mut(path) {
            entry.read_again = true;
        }
    }

    /// Whether `path` was asked to be read again (and no longer is).
    pub fn take_read_again(&mut self, path: &Path) -> bool {
        self.reports
            .get_mut(path)
            .is_some_and(|e| std::mem::take(&mut e.read_again))
    }

    /// Forgets which version of `path` was read (a read that failed while it was written).
    pub fn forget_version(&mut self, path: Option<&Path>) {
        if let Some(entry) = path.and_then(|p| self.reports.get_mut(p)) {
            entry.read = None;
        }
    }

    /// Forgets every report (following stopped).
    pub fn clear(&mut self) {
        self.reports.clear();
    }
}
