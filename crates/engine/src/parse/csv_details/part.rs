//! One CSV export read whole, or one window of a larger file, before its warnings and notes are
//! written: what was skipped and passed over is kept as counts and places, and what its
//! numbers told as evidence, so that the windows of a file join into the report reading it
//! whole gives (`parse::text_windows`): the same results, warnings, notes and number format.

use super::TELLING_ENOUGH;
use crate::model::{Format, KernelResult, Report, Warning, WarningKind};
use crate::parse::number_format::{NumberFormat, Tally};
use crate::parse::other_text::OtherText;
use crate::parse::skipped::Skipped;
use std::collections::HashSet;

/// What reading an export (or one window of it) gives.
#[derive(Debug)]
pub struct CsvPart {
    pub report: Report,
    /// What was skipped, one list per kind of thing, in the order their warnings are given.
    pub skipped: Vec<Skipped>,
    /// Lines passed over that are not ncu's.
    pub other: OtherText,
    /// The first telling metric values in order (at most [`TELLING_ENOUGH`]).
    pub told: Vec<NumberFormat>,
    /// The format the values were read in.
    pub numbers: NumberFormat,
}

impl CsvPart {
    /// A part without results (a window of lines that are not ncu's).
    pub fn empty(format: Format) -> Self {
        CsvPart {
            report: Report::new("", format),
            skipped: Vec::new(),
            other: OtherText::default(),
            told: Vec::new(),
            numbers: NumberFormat::Point,
        }
    }

    /// Joins the part of the window after this one's.
    pub fn append(&mut self, later: CsvPart) {
        let CsvPart {
            mut report,
            skipped,
            other,
            ..
        } = later;
        self.report.results.append(&mut report.results);
        self.report.warnings.append(&mut report.warnings);
        for device in report.devices {
            if !self.report.devices.iter().any(|d| d.index == device.index) {
                self.report.devices.push(device);
            }
        }
        if self.skipped.is_empty() {
            self.skipped = skipped;
        } else {
            for (mine, theirs) in self.skipped.iter_mut().zip(skipped) {
                mine.merge(theirs);
            }
        }
        self.other.append_shifted(other, 0);
    }

    /// The report with its warnings and notes, as reading the text whole gives them.
    pub fn finish(self) -> Report {
        let mut report = self.report;
        for skipped in self.skipped {
            report.warnings.extend(skipped.warnings());
        }
        if report.format == Format::CsvDetails {
            report.warnings.extend(repeated_ids(&report.results));
        }
        report.notes.extend(self.other.note());
        report
    }
}

/// The format a file's values are read in, from its parts' evidence in order: the first
/// [`TELLING_ENOUGH`] telling values of the export decide, as they do reading it whole.
pub fn file_format<'a>(told: impl IntoIterator<Item = &'a [NumberFormat]>) -> NumberFormat {
    let mut tally = Tally::default();
    for &format in told.into_iter().flatten().take(TELLING_ENOUGH) {
        tally.add_evidence(format);
    }
    tally.decided().unwrap_or_default()
}

/// Most result IDs a warning names.
const NAMED: usize = 5;

/// The warning for results that repeat the ID of an earlier one: exports appended to one
/// another (two runs written into one file). A result is a run of rows with one ID, so each
/// repetition is read as a result of its own, as its run wrote it.
pub fn repeated_ids(results: &[KernelResult]) -> Option<Warning> {
    let mut seen = HashSet::new();
    let mut repeated = 0usize;
    let mut ids: Vec<u64> = Vec::new();
    for r in results {
        if !seen.insert(r.id) {
            repeated += 1;
            if !ids.contains(&r.id) && ids.len() <= NAMED {
                ids.push(r.id);
            }
        }
    }
    if repeated == 0 {
        return None;
    }
    let (what, id_word) = if repeated == 1 {
        ("result repeats the ID", "ID")
    } else {
        ("results repeat the IDs", "IDs")
    };
    let more = if ids.len() > NAMED { " and more" } else { "" };
    let named = ids
        .iter()
        .take(NAMED)
        .map(u64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    Some(Warning::new(
        WarningKind::BadValue,
        format!(
            "{repeated} {what} of earlier results ({id_word} {named}{more}): exports appended \
             to one another; each is read as a result of its own"
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_ids_are_counted_and_named() {
        let with_ids = |ids: &[u64]| -> Vec<KernelResult> {
            ids.iter()
                .map(|&id| KernelResult {
                    id,
                    ..KernelResult::default()
                })
                .collect()
        };
        assert_eq!(repeated_ids(&with_ids(&[0, 1, 2])), None);
        let one = repeated_ids(&with_ids(&[0, 1, 0])).unwrap();
        assert_eq!(one.kind, WarningKind::BadValue);
        assert_eq!(
            one.message,
            "1 result repeats the ID of earlier results (ID 0): exports appended to one \
             another; each is read as a result of its own"
        );
        let many = repeated_ids(&with_ids(&[0, 1, 0, 1, 0, 1])).unwrap();
        assert!(
            many.message
                .starts_with("4 results repeat the IDs of earlier results (IDs 0, 1): "),
            "{}",
            many.message
        );
    }

    #[test]
    fn the_first_telling_values_of_the_file_decide() {
        use NumberFormat::{Comma, Point};
        let first = [Comma; 40];
        let second = [Point; 40];
        // 40 of one, then 24 of the other: the first 64 decide.
        assert_eq!(file_format([&first[..], &second[..]]), Comma);
        assert_eq!(file_format([&second[..], &first[..]]), Point);
        assert_eq!(file_format([&[][..]]), Point);
    }
}
