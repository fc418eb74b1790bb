//! A report's warnings: what a reader lost of ncu's content while loading (skipped lines, a
//! truncated tail, a damaged block), each with its kind, so that code asks what a warning is
//! about instead of reading its words. Written out, a warning is its message alone.

use serde::{Serialize, Serializer};
use std::fmt;

/// What a [`Warning`] is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WarningKind {
    /// Lines, rows or cells a reader skipped, counted by reason with their places.
    Skipped,
    /// The source ends inside a result: it looks cut short.
    Truncated,
    /// The file is damaged (a report's messages or a compressed stream): what was read before
    /// the damage is kept.
    Damaged,
    /// A part the report holds that could not be read (section bodies, CUDA graphs).
    Unreadable,
    /// A value that is not what its field holds (a process id that is not a number).
    BadValue,
}

/// A problem that did not stop loading: ncu content lost, said on every surface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    pub kind: WarningKind,
    pub message: String,
}

impl Warning {
    pub fn new(kind: WarningKind, message: impl Into<String>) -> Self {
        Warning {
            kind,
            message: message.into(),
        }
    }

    /// The words of the warning.
    pub fn as_str(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A warning equals its words (for tests and lookups that hold the text).
impl PartialEq<String> for Warning {
    fn eq(&self, other: &String) -> bool {
        &self.message == other
    }
}

impl Serialize for Warning {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.message)
    }
}

/// Joins warnings' words with `sep`.
pub fn join(warnings: &[Warning], sep: &str) -> String {
    warnings
        .iter()
        .map(Warning::as_str)
        .collect::<Vec<_>>()
        .join(sep)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_as_its_message() {
        let w = Warning::new(WarningKind::Truncated, "the text ends early");
        assert_eq!(w.to_string(), "the text ends early");
        assert_eq!(
            serde_json::to_string(std::slice::from_ref(&w))
                .ok()
                .as_deref(),
            Some("[\"the text ends early\"]")
        );
        let other = Warning::new(WarningKind::Skipped, "2 lines skipped");
        assert_eq!(
            join(&[w, other], "; "),
            "the text ends early; 2 lines skipped"
        );
    }
}
