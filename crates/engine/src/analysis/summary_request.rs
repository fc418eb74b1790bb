//! One way to ask for the summary of reports (`sightline summary`): the files, the form it is
//! written in and whether warnings count as errors. The command line's flags become it in one
//! place.

use crate::analysis::named_choice::{ChoiceError, NamedChoice};
use std::path::PathBuf;
use std::str::FromStr;

/// The forms `summary` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SummaryFormat {
    /// One aligned row per result.
    Text,
    /// Every row with every rule and metric.
    Json,
    /// One row per result, numbers in base units.
    Csv,
    /// One self-contained page with a chart of the longest results.
    Html,
}

impl NamedChoice for SummaryFormat {
    const WHAT: &'static str = "the form of `summary`";
    const NAMES: &'static [(&'static str, Self)] = &[
        ("text", Self::Text),
        ("json", Self::Json),
        ("csv", Self::Csv),
        ("html", Self::Html),
    ];
    /// `table` named the text form before every command's text form was `text`.
    const ALIASES: &'static [(&'static str, Self)] = &[("table", Self::Text)];
}

impl FromStr for SummaryFormat {
    type Err = ChoiceError;
    fn from_str(text: &str) -> Result<Self, ChoiceError> {
        Self::from_name(text)
    }
}

impl SummaryFormat {
    /// The form asked for by a `--format` (when given) or the older `--json` and `--csv`
    /// flags; text when none is given.
    pub fn pick(format: Option<SummaryFormat>, json: bool, csv: bool) -> SummaryFormat {
        match (format, json, csv) {
            (Some(format), _, _) => format,
            (None, true, _) => Self::Json,
            (None, false, true) => Self::Csv,
            (None, false, false) => Self::Text,
        }
    }
}

/// A summary asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryRequest {
    /// The reports to summarize, in this order.
    pub files: Vec<PathBuf>,
    pub format: SummaryFormat,
    /// Every warning of a report (a skipped result, section, metric or line) is an error.
    pub strict: bool,
}
