//! The `--csv` details export (long form): one row per header metric and one per rule result,
//! grouped into results by `ID`. Columns are found by header name.

pub mod identity;
pub mod part;
pub mod printed;

use super::ParseError;
use super::csv_rows::without_stray_quotes;
use super::detect::{csv_header_at, is_status_line};
use super::number_format::{NumberFormat, evidence, to_point};
use super::other_text::OtherText;
use super::skipped::Skipped;
use crate::model::catalog::{metric_for, section_today};
use crate::model::names::is_metric_name;
use crate::model::stock_sections::{display_name_for, identifier_for};
use crate::model::{
    Device, Format, KernelResult, MetricKey, MetricRow, Report, RuleKind, RuleResult, Section,
    SpeedupKind,
};
use crate::parse::number::parse_number;
use csv::StringRecord;
use identity::IdentityColumns;
pub use part::CsvPart;
use printed::metric_from_printed;
use std::borrow::Cow;

/// A CSV reader over text: no header handling, rows of any length.
pub(crate) fn csv_reader(text: &str) -> csv::Reader<&[u8]> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
}

/// A CSV error as a parse error at its line.
pub(crate) fn csv_error(e: &csv::Error) -> ParseError {
    let line = e
        .position()
        .map_or(0, |p| usize::try_from(p.line()).unwrap_or(usize::MAX));
    ParseError::Line {
        line,
        message: e.to_string(),
    }
}

/// The first row of an export: its header.
pub(crate) fn header_row<R: std::io::Read>(
    rows: &mut csv::StringRecordsIter<'_, R>,
) -> Result<StringRecord, ParseError> {
    match rows.next() {
        Some(row) => row.map_err(|e| csv_error(&e)),
        None => Err(ParseError::NotAResult("the CSV export is empty".into())),
    }
}

/// The line a record starts on, for messages.
pub(crate) fn line_of(row: &StringRecord) -> usize {
    row.position()
        .map_or(0, |p| usize::try_from(p.line()).unwrap_or(usize::MAX))
}

/// An export cut at its header row: what comes before it (ncu's status lines, the program's
/// output) is passed over and noted, and lines are numbered as in the whole text.
pub(crate) struct Export<'a> {
    /// The text from the header row on.
    pub body: &'a str,
    /// The number of lines before the header row.
    pub lines_before: usize,
    /// Lines that are not ncu's, before, between or after the export's rows.
    pub other: OtherText,
}

impl<'a> Export<'a> {
    /// Finds the header row of a `--csv` export of results; without one the whole text is
    /// the export.
    pub fn find(text: &'a str) -> Self {
        let at = csv_header_at(text).unwrap_or(0);
        let (preamble, body) = text.split_at(at);
        let mut other = OtherText::default();
        other.add_text(preamble, 1);
        Export {
            body,
            lines_before: memchr::memchr_iter(b'\n', preamble.as_bytes()).count(),
            other,
        }
    }

    /// Where a record starts in the body, and the blank lines before it that the CSV reader
    /// counts as its start.
    fn start_of(&self, row: &StringRecord) -> Option<(usize, usize)> {
        let at = row
            .position()
            .and_then(|p| usize::try_from(p.byte()).ok())?;
        let rest = self.body.get(at..)?;
        let blank = rest.len() - rest.trim_start_matches(['\n', '\r']).len();
        let lines = memchr::memchr_iter(b'\n', &rest.as_bytes()[..blank]).count();
        Some((at + blank, lines))
    }

    /// The line of the whole text a record starts on.
    pub fn line_of(&self, row: &StringRecord) -> usize {
        let blank = self.start_of(row).map_or(0, |(_, lines)| lines);
        line_of(row) + blank + self.lines_before
    }

    /// Whether a record is not ncu's: ncu quotes every cell, so its rows start with a quote.
    /// Other lines are noted (ncu's status lines are not).
    pub fn passes_over(&mut self, row: &StringRecord) -> bool {
        let Some((start, _)) = self.start_of(row) else {
            return false;
        };
        let rest = self.body.get(start..).unwrap_or_default();
        if rest.starts_with('"') {
            return false;
        }
        let line = rest.lines().next().unwrap_or_default();
        if !is_status_line(line) {
            self.other.add(self.line_of(row));
        }
        true
    }
}

/// The per-row columns of the long form.
struct RowColumns {
    section: usize,
    metric_name: usize,
    metric_unit: Option<usize>,
    metric_value: Option<usize>,
    rule_name: Option<usize>,
    rule_type: Option<usize>,
    rule_description: Option<usize>,
    speedup_type: Option<usize>,
    speedup: Option<usize>,
}

impl RowColumns {
    fn from_header(header: &StringRecord) -> Result<Self, ParseError> {
        let find = |name: &str| header.iter().position(|h| h.trim() == name);
        let missing = |name: &str| ParseError::Line {
            line: 1,
            message: format!("the CSV header has no \"{name}\" column"),
        };
        Ok(RowColumns {
            section: find("Section Name").ok_or_else(|| missing("Section Name"))?,
            metric_name: find("Metric Name").ok_or_else(|| missing("Metric Name"))?,
            metric_unit: find("Metric Unit"),
            metric_value: find("Metric Value"),
            rule_name: find("Rule Name"),
            rule_type: find("Rule Type"),
            rule_description: find("Rule Description"),
            speedup_type: find("Estimated Speedup Type"),
            speedup: find("Estimated Speedup"),
        })
    }
}

/// A cell's text, empty when the row is shorter.
fn cell(row: &StringRecord, col: Option<usize>) -> &str {
    col.and_then(|i| row.get(i)).unwrap_or("")
}

/// Parses a `--csv` details export, wherever its header row is.
pub fn parse(text: &str) -> Result<Report, ParseError> {
    Ok(parse_window(text, 0, None)?.finish())
}

/// An export's text from its header row on, with every row whose quote is left open emptied
/// (see [`crate::parse::csv_rows`]), and the lines of the whole text those rows start at.
pub(crate) fn rows_of<'a>(export: &Export<'a>) -> (Cow<'a, str>, Vec<usize>) {
    let body = export.body;
    let after_header = body.find('\n').map_or(body.len(), |i| i + 1);
    let (rows, damaged) = without_stray_quotes(&body[after_header..]);
    // The header is the export's line `lines_before + 1`; its rows follow.
    let lines = damaged
        .into_iter()
        .map(|n| export.lines_before + 2 + n)
        .collect();
    match rows {
        Cow::Borrowed(_) => (Cow::Borrowed(body), lines),
        Cow::Owned(rows) => (
            Cow::Owned(format!("{}{rows}", &body[..after_header])),
            lines,
        ),
    }
}

/// The first cell of an export's header row.
pub const HEADER_ID: &str = "ID";

/// What a row with a quote left open is skipped for.
pub(crate) const STRAY_QUOTE: &str = "with a quote that is never closed";

/// Parses a window of a larger export whose first line is line `lines_before + 1` of the
/// whole text (see `parse::text_windows`); lines in warnings are numbered as in the whole.
/// `numbers` is the number format of the whole file where it is known; else the export's
/// values decide it. A result is a run of rows with one ID (ncu writes each result's rows
/// together; a row without an ID is skipped and a header row ends the run): an ID seen before
/// starts a result of its own (exports appended to one another).
pub fn parse_window(
    text: &str,
    lines_before: usize,
    numbers: Option<NumberFormat>,
) -> Result<CsvPart, ParseError> {
    let found = Export::find(text);
    let (body, stray) = rows_of(&found);
    let mut export = Export {
        body: &body,
        lines_before: found.lines_before + lines_before,
        other: found.other,
    };
    let stray = stray.into_iter().map(|n| n + lines_before);
    let mut reader = csv_reader(export.body);
    let mut rows = reader.records();
    let header = header_row(&mut rows)?;
    let identity = IdentityColumns::from_header(header.iter());
    let cols = RowColumns::from_header(&header)?;
    let told = telling_values(export.body, cols.metric_value);
    let numbers = numbers.unwrap_or_else(|| part::file_format([&told[..]]));
    let mut results: Vec<KernelResult> = Vec::new();
    // The first cell and the ID of the run of rows the last result was read from.
    let mut run: Option<(String, u64)> = None;
    let mut skipped = Skipped::new("row", "line");
    for line in stray {
        skipped.add(STRAY_QUOTE, line);
    }
    for row in rows {
        let row = row.map_err(|e| csv_error(&e))?;
        if row.iter().all(|c| c.trim().is_empty()) || export.passes_over(&row) {
            continue;
        }
        let Some(id) = identity.id_of(&row) else {
            skipped.add("without a result ID", export.line_of(&row));
            // A header row (an export appended to another) ends the result before it; a row
            // that only lost its ID does not.
            if row.get(0) == Some(HEADER_ID) {
                run = None;
            }
            continue;
        };
        let key = (row.get(0).unwrap_or_default().to_string(), id);
        if run.as_ref() != Some(&key) {
            let mut result = KernelResult::default();
            identity.fill(&mut result, &row);
            results.push(result);
            run = Some(key);
        }
        let Some(result) = results.last_mut() else {
            continue;
        };
        if let Err(message) = add_row(result, &row, &cols, numbers) {
            skipped.add(&message, export.line_of(&row));
        }
    }
    for result in &mut results {
        result.index_section_metrics();
    }
    let mut report = Report::new("", Format::CsvDetails);
    report.devices = devices_of(&results);
    report.results = results;
    Ok(CsvPart {
        report,
        skipped: vec![skipped],
        other: export.other,
        told,
        numbers,
    })
}

/// Telling numbers enough to decide an export's number format.
pub const TELLING_ENOUGH: usize = 64;

/// What the first [`TELLING_ENOUGH`] metric values that tell the number format say, in order.
fn telling_values(body: &str, value_column: Option<usize>) -> Vec<NumberFormat> {
    let Some(col) = value_column else {
        return Vec::new();
    };
    let mut told = Vec::new();
    for row in csv_reader(body).records().skip(1).map_while(Result::ok) {
        if let Some(format) = row.get(col).and_then(|v| evidence(v.trim())) {
            told.push(format);
            if told.len() >= TELLING_ENOUGH {
                break;
            }
        }
    }
    told
}

/// Adds one metric row or rule row to its result.
fn add_row(
    result: &mut KernelResult,
    row: &StringRecord,
    cols: &RowColumns,
    numbers: NumberFormat,
) -> Result<(), String> {
    // Older versions printed some sections under other names.
    let section = section_today(cell(row, Some(cols.section)).trim());
    let label = cell(row, Some(cols.metric_name)).trim();
    if !label.is_empty() {
        // `--metrics` runs and `--print-metric-name name` print metric names as labels.
        let name = metric_for(section, label)
            .or_else(|| is_metric_name(label).then_some(label))
            .map(MetricKey::new);
        let metric = metric_from_printed(
            name,
            &to_point(cell(row, cols.metric_value), numbers),
            cell(row, cols.metric_unit),
        );
        section_by_name(result.sections_mut(), section)
            .rows
            .push(MetricRow {
                label: label.to_string(),
                metric,
            });
        return Ok(());
    }
    let rule_name = cell(row, cols.rule_name).trim();
    if rule_name.is_empty() {
        return Err("with neither a metric nor a rule".into());
    }
    let tag = cell(row, cols.rule_type).trim();
    let kind =
        RuleKind::from_tag(tag).ok_or_else(|| format!("with an unknown rule type \"{tag}\""))?;
    let mut rule = RuleResult {
        identifier: Some(rule_name.to_string()),
        kind,
        title: String::new(),
        message: cell(row, cols.rule_description).trim().to_string(),
        speedup: speedup_of(
            cell(row, cols.speedup_type),
            &to_point(cell(row, cols.speedup), numbers),
        ),
        focus_metrics: Vec::new(),
        guidance: Vec::new(),
        markers: Vec::new(),
    };
    crate::model::rule_catalog::complete(&mut rule);
    if section.is_empty() {
        result.rules_mut().push(rule);
    } else {
        section_by_identifier(result.sections_mut(), section)
            .rules
            .push(rule);
    }
    Ok(())
}

/// The estimated speedup of a rule row: `global`/`local` and a percentage.
fn speedup_of(kind: &str, value: &str) -> Option<(SpeedupKind, f64)> {
    let value = parse_number(value.trim())?.0.as_f64()?;
    let kind = match kind.trim() {
        "local" => SpeedupKind::Local,
        _ => SpeedupKind::Global,
    };
    Some((kind, value))
}

/// The section with a display name, appended when new.
fn section_by_name<'a>(sections: &'a mut Vec<Section>, name: &str) -> &'a mut Section {
    let at = match sections.iter().position(|s| s.name == name) {
        Some(at) => at,
        None => {
            sections.push(Section {
                identifier: identifier_for(name).map(str::to_string),
                name: name.to_string(),
                ..Section::default()
            });
            sections.len() - 1
        }
    };
    &mut sections[at]
}

/// The section a rule row names by identifier (`SpeedOfLight`), appended when new. An unknown
/// identifier becomes a section of its own; a display name is accepted too.
fn section_by_identifier<'a>(sections: &'a mut Vec<Section>, identifier: &str) -> &'a mut Section {
    if identifier_for(identifier).is_some() {
        return section_by_name(sections, identifier);
    }
    let name = display_name_for(identifier).unwrap_or(identifier);
    let section = section_by_name(sections, name);
    if section.identifier.is_none() {
        section.identifier = Some(identifier.to_string());
    }
    section
}

/// One device per device index the results name, with the compute capability they print.
pub(crate) fn devices_of(results: &[KernelResult]) -> Vec<Device> {
    let mut devices: Vec<Device> = Vec::new();
    for r in results {
        let Some(index) = r.device else { continue };
        if devices.iter().any(|d| d.index == index) {
            continue;
        }
        devices.push(Device {
            index,
            cc: r.cc,
            ..Device::default()
        });
    }
    devices
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn skipped_rows_are_counted_and_named_by_line() {
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("fixtures/range/range_profiler.details.csv");
        let text = std::fs::read_to_string(path).unwrap();
        let sound = parse(&text).unwrap();
        assert!(sound.warnings.is_empty(), "{:?}", sound.warnings);
        // Lines 3 to 9 lose their result ID; line 10 names a rule type ncu does not write.
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        for line in &mut lines[2..9] {
            *line = line.replacen("\"0\"", "\"\"", 1);
        }
        let rule = lines.iter().position(|l| l.contains(",\"OPT\",")).unwrap();
        lines[rule] = lines[rule].replace(",\"OPT\",", ",\"XYZ\",");
        let damaged = parse(&(lines.join("\n") + "\n")).unwrap();
        assert_eq!(
            damaged.warnings,
            [
                "7 rows without a result ID skipped (lines 3, 4, 5, 6, 7 and 2 more)".to_string(),
                format!(
                    "1 row with an unknown rule type \"XYZ\" skipped (line {})",
                    rule + 1
                ),
            ]
        );
        assert_eq!(damaged.results.len(), sound.results.len());
    }
}
