//! One way to ask for the section bodies of reports (`sightline sections`): the files, a
//! baseline to pair each result's bodies with, the form they are written in and whether
//! warnings count as errors. The command line's flags become it in one place.

use crate::analysis::named_choice::{ChoiceError, NamedChoice};
use std::path::PathBuf;
use std::str::FromStr;

/// The forms `sections` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionsFormat {
    /// Per result each section, body and item with its rows.
    Text,
    /// The bodies with every value as the model holds it.
    Json,
}

impl NamedChoice for SectionsFormat {
    const WHAT: &'static str = "the form of `sections`";
    const NAMES: &'static [(&'static str, Self)] = &[("text", Self::Text), ("json", Self::Json)];
}

impl FromStr for SectionsFormat {
    type Err = ChoiceError;
    fn from_str(text: &str) -> Result<Self, ChoiceError> {
        Self::from_name(text)
    }
}

impl SectionsFormat {
    /// The form asked for by a `--format` (when given) or the older `--json` flag; text when
    /// neither is given.
    pub fn pick(format: Option<SectionsFormat>, json: bool) -> SectionsFormat {
        match (format, json) {
            (Some(format), _) => format,
            (None, true) => Self::Json,
            (None, false) => Self::Text,
        }
    }
}

/// Section bodies asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct SectionsRequest {
    /// The reports to read, in this order.
    pub files: Vec<PathBuf>,
    /// A report whose results' bodies each result's bodies are paired with (matched as `diff`
    /// matches them), every value with both sides and the change.
    pub baseline: Option<PathBuf>,
    pub format: SectionsFormat,
    /// Every warning of a report (a skipped result, section, metric or line) is an error.
    pub strict: bool,
}
