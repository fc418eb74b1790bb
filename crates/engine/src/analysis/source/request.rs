//! One way to ask for the Source pages of reports: which results, where SASS text and source
//! files come from, a baseline, the form they are written in and how much of each line's
//! stall reasons is given. `sightline source` and the MCP `source_hotspots` tool both become
//! one, each argument's meaning decided here once.

use crate::analysis::named_choice::{ChoiceError, NamedChoice};
use crate::model::Report;
use std::path::PathBuf;
use std::str::FromStr;

/// The forms `source` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SourceFormat {
    /// Every Source page with its lines, instructions and stall reasons.
    Json,
    /// The SASS listing as Nsight Compute's `--page source --csv` prints it.
    Csv,
}

impl NamedChoice for SourceFormat {
    const WHAT: &'static str = "the form of `source`";
    const NAMES: &'static [(&'static str, Self)] = &[("json", Self::Json), ("csv", Self::Csv)];
}

impl FromStr for SourceFormat {
    type Err = ChoiceError;
    fn from_str(text: &str) -> Result<Self, ChoiceError> {
        Self::from_name(text)
    }
}

/// How much of a line's stall reasons an output gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StallDetail {
    /// The [`BRIEF_REASONS`] reasons with the most samples, each with its samples as a
    /// number (`source_hotspots`).
    Brief,
    /// Every reason with its samples and those on cycles nothing was issued, integral counts
    /// as integers (`source --json`).
    Full,
}

/// The stall reasons [`StallDetail::Brief`] lists per line or instruction.
pub const BRIEF_REASONS: usize = 3;

/// Which results of a report get their Source page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultChoice {
    /// Every result whose kernel name contains the text or is its function name (every
    /// result without one).
    Named(Option<String>),
    /// The result with this ID (the first result without one).
    Id(Option<u64>),
}

impl ResultChoice {
    /// The places of the chosen results in `report`'s results (none where no result is the
    /// one named).
    pub fn places(&self, report: &Report) -> Vec<usize> {
        let results = &report.results;
        match self {
            ResultChoice::Named(kernel) => (0..results.len())
                .filter(|&i| {
                    let r = &results[i];
                    kernel
                        .as_deref()
                        .is_none_or(|k| r.name.demangled.contains(k) || r.name.function == k)
                })
                .collect(),
            ResultChoice::Id(Some(id)) => results
                .iter()
                .position(|r| r.id == *id)
                .into_iter()
                .collect(),
            ResultChoice::Id(None) => (0..results.len().min(1)).collect(),
        }
    }
}

/// Source pages asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceRequest {
    /// The reports to read, in this order.
    pub files: Vec<PathBuf>,
    pub results: ResultChoice,
    /// Folders to look for CUDA source files in, for reports made without their sources.
    pub source_dirs: Vec<PathBuf>,
    /// An export of `ncu --page source --csv --print-source sass` to take SASS text from.
    pub sass_csv: Option<PathBuf>,
    /// A report whose Source pages each page is compared with, line by line.
    pub baseline: Option<PathBuf>,
    pub format: SourceFormat,
    /// The files and pages that could not be read are told on stderr as well; not when JSON
    /// was asked for by name, whose document lists them.
    pub errors_on_stderr: bool,
    pub stalls: StallDetail,
    /// Every warning of a report (a skipped result, section, metric or line) is an error.
    pub strict: bool,
}

impl SourceFormat {
    /// The form asked for by a `--format` (when given) or the older `--json` and `--csv`
    /// flags (JSON when none is given), and whether JSON was asked for by name.
    pub fn pick(format: Option<SourceFormat>, json: bool, csv: bool) -> (SourceFormat, bool) {
        match (format, json, csv) {
            (Some(format), _, _) => (format, format == Self::Json),
            (None, true, _) => (Self::Json, true),
            (None, false, true) => (Self::Csv, false),
            (None, false, false) => (Self::Json, false),
        }
    }
}
