//! The ids the app's parts name things by: an open report, one of its results, a load. They
//! depend on nothing, so every other module can use them without importing the modules that
//! hand them out.

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

/// Identifies one load for as long as the app runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct LoadId(pub u64);
