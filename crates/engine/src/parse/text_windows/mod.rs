//! Large text files read in windows: the file is cut before lines that open a result
//! ([`cuts`]) into windows of a few megabytes, the windows are parsed on all cores by the
//! reader of their form, and each result keeps only its head; a body is parsed again from its
//! window when a view asks for it ([`source`]). Memory is a few windows and the heads: a small
//! multiple of the largest result, not of the file.
//!
//! The CLI text (details pages and summaries) and both CSV exports are read this way; a window
//! of a CSV export is read with the export's header (and units) rows in front. A session page
//! or a GUI copy holds one page and has no result boundaries: it is read whole, up to
//! [`MAX_PAGE_BYTES`].
//!
//! The same bytes give the same report at any size: what a whole text decides once for the
//! file (its number format, the rows a stray quote damages, results that repeat an ID, the
//! warnings' counts) is decided for the file here too ([`numbers`], `csv_details::part`).
//! Windows stay bounded whatever the lines and quotes: a line longer than
//! [`MAX_WINDOW_BYTES`] is never held (read as an empty line, named in a warning), and a window
//! that grows past it without reaching a line that opens a result ends there, the lines up to
//! the next such line skipped and named ([`read`]).

pub mod cuts;
pub mod numbers;
pub mod read;
pub mod source;

use super::cli_text::numbers::Formats;
use super::cli_text::{self, Part, Wanted};
use super::csv_details::CsvPart;
use super::detect::{Detected, csv_header_at, detect_text};
use super::number_format::NumberFormat;
use super::{
    LoadError, MAX_TEXT_BYTES, ParseError, compressed, csv_details, csv_raw, no_result, text_clean,
};
use crate::model::{Body, Format, Report, TextLayout};
use cuts::Cutter;
use read::{WindowError, read_windows};
use source::TextSource;
use std::borrow::Cow;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Arc;

/// Text files of this size and more are read in windows; smaller ones whole.
pub const WINDOWED_MIN_BYTES: u64 = 8 << 20;

/// The size a window grows to before it is cut at the next result.
pub const WINDOW_BYTES: usize = 2 << 20;

/// The most a window holds: a line longer than this is not read into memory, and a window
/// that grows past it without reaching a line that opens a result ends there. ncu's largest
/// results are a few hundred kilobytes.
pub const MAX_WINDOW_BYTES: usize = 8 << 20;

/// Largest session page or GUI copy: one page, which ncu never writes this large.
pub const MAX_PAGE_BYTES: u64 = 64 << 20;

/// At most this many windows are parsed at once (one per core).
pub const MAX_WINDOWS_IN_FLIGHT: usize = 8;

/// How many windows are parsed at once on this machine.
pub fn windows_in_flight() -> usize {
    crate::cores::cores().min(MAX_WINDOWS_IN_FLIGHT)
}

/// Bytes at the start of the file its form is detected from.
const DETECT_BYTES: u64 = 64 << 10;

/// The text forms read in windows, one per layout with result boundaries
/// ([`Format::text_layout`]): each is cut ([`cuts`]) and parsed by a reader of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// Results opened by their lines: the CLI text's details pages and summaries.
    CliText,
    /// A run of rows per result: the `--csv` details export.
    CsvDetails,
    /// A row per result: the raw export.
    CsvRaw,
}

impl Form {
    /// Whether a units row follows the header row (the raw export's): every window of the
    /// export after the first is read behind both.
    fn has_units_row(self) -> bool {
        match self {
            Form::CsvRaw => true,
            Form::CliText | Form::CsvDetails => false,
        }
    }
}

/// Where a window is in the file and what it holds.
#[derive(Debug, Clone)]
pub struct WindowAt {
    pub start: u64,
    /// The bytes of the file the window spans, its holes included.
    pub span: u64,
    /// Lines inside the window too long to hold: read as empty lines.
    pub holes: Vec<Hole>,
    /// Lines of the file before the window.
    pub lines_before: usize,
    /// Whether the window ends the file.
    pub last: bool,
    /// Index in the report of the window's first result.
    pub first_result: usize,
    pub results: usize,
    /// The number format of the whole file, once its windows have told it.
    pub numbers: Option<NumberFormat>,
}

/// A line of a window that is not read: its bytes before its line end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hole {
    pub at: u64,
    pub len: u64,
}

/// How the windows of one file are parsed.
pub struct Reading {
    form: Form,
    /// The rows a CSV export's windows after the first are read behind (header, units).
    prefix: String,
    prefix_lines: usize,
}

/// What parsing a window gives: its part of the report, and what its numbers told.
#[derive(Debug)]
pub enum Parsed {
    Cli(Part, Formats),
    Csv(CsvPart),
}

impl Parsed {
    pub fn into_report(self) -> Report {
        match self {
            Parsed::Cli(part, _) => part.report,
            Parsed::Csv(part) => part.report,
        }
    }

    fn report_mut(&mut self) -> &mut Report {
        match self {
            Parsed::Cli(part, _) => &mut part.report,
            Parsed::Csv(part) => &mut part.report,
        }
    }
}

impl Reading {
    /// Parses window number `index` of the file from its raw bytes (its holes left out),
    /// keeping what `wanted` asks for of its results (the CSV exports are read whole).
    pub fn parse(
        &self,
        raw: &[u8],
        at: &WindowAt,
        index: usize,
        wanted: Wanted,
    ) -> Result<Parsed, ParseError> {
        let text = text_clean::clean(raw);
        // A window of a CSV export after the first is read behind the export's header rows.
        let behind_header = || -> (Cow<'_, str>, usize) {
            if index == 0 {
                (Cow::Borrowed(&*text), 0)
            } else {
                let whole = format!("{}{text}", self.prefix);
                (
                    Cow::Owned(whole),
                    at.lines_before.saturating_sub(self.prefix_lines),
                )
            }
        };
        let parsed = match self.form {
            Form::CliText => {
                let (mut part, formats) = cli_text::read_window(&text, at.last, at.numbers, wanted);
                // The printed section bodies go with their results' bodies, read when shown.
                let report = &mut part.report;
                report.bodies.move_into_results(&mut report.results);
                return Ok(Parsed::Cli(part, formats));
            }
            Form::CsvDetails => {
                let (window, lines_before) = behind_header();
                csv_details::parse_window(&window, lines_before, at.numbers)
            }
            Form::CsvRaw => {
                let (window, lines_before) = behind_header();
                csv_raw::parse_window(&window, lines_before)
            }
        };
        match parsed {
            Ok(part) => Ok(Parsed::Csv(part)),
            // A later window of only lines that are not ncu's holds no result.
            Err(ParseError::NotAResult(_)) if index > 0 => {
                Ok(Parsed::Csv(CsvPart::empty(self.form_format())))
            }
            Err(e) => Err(e),
        }
    }

    fn form_format(&self) -> crate::model::Format {
        match self.form {
            Form::CliText => crate::model::Format::CliText,
            Form::CsvDetails => crate::model::Format::CsvDetails,
            Form::CsvRaw => crate::model::Format::CsvRaw,
        }
    }
}

/// How a file is cut: the window size and bound (tests use small ones).
#[derive(Debug, Clone, Copy)]
pub struct Windows {
    pub min_file_bytes: u64,
    pub window_bytes: usize,
    pub max_window_bytes: usize,
}

impl Default for Windows {
    fn default() -> Self {
        Windows {
            min_file_bytes: WINDOWED_MIN_BYTES,
            window_bytes: WINDOW_BYTES,
            max_window_bytes: MAX_WINDOW_BYTES,
        }
    }
}

/// Reads the text file `file` (opened for `path`) in windows when it is large enough;
/// `Ok(None)` when it is to be read whole. `temp` is the decompressed copy `file` is, kept by
/// the report's results.
pub fn load(
    path: &Path,
    file: &Path,
    temp: &mut Option<compressed::TempCopy>,
    windows: Windows,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Option<Report>, LoadError> {
    let io = |source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    };
    let opened = File::open(file).map_err(io)?;
    let meta = opened.metadata().map_err(io)?;
    if !meta.is_file() || meta.len() < windows.min_file_bytes {
        return Ok(None);
    }
    let size = meta.len();
    if size > MAX_TEXT_BYTES {
        return Err(LoadError::TooLarge {
            path: path.to_path_buf(),
            size,
        });
    }
    let mut head = Vec::new();
    (&opened)
        .take(DETECT_BYTES)
        .read_to_end(&mut head)
        .map_err(io)?;
    let mut head_text = text_clean::clean(&head).into_owned();
    // A text of no known form is read as CLI text (which says why it holds no result).
    let format = detect_text(&head_text).map_or(Format::CliText, Detected::format);
    let form = match format.text_layout() {
        TextLayout::ResultLines => Form::CliText,
        TextLayout::RowsPerResult => Form::CsvDetails,
        TextLayout::RowPerResult => Form::CsvRaw,
        TextLayout::OnePage => {
            if size > MAX_PAGE_BYTES {
                return Err(LoadError::Parse {
                    path: path.to_path_buf(),
                    source: ParseError::NotAResult(format!(
                        "{size} bytes of a {} (one page, never larger than {} MiB)",
                        format.name(),
                        MAX_PAGE_BYTES >> 20
                    )),
                });
            }
            return Ok(None);
        }
        // Told by its first bytes before any text is read; its own reader reads it.
        TextLayout::Binary => return Ok(None),
    };
    let mut reading = reading_for(form, &head_text);
    if reading.is_none() {
        // A header row longer than the first bytes (a raw export of thousands of metrics):
        // read on to its end, within a window's bound.
        let more = (windows.max_window_bytes as u64).saturating_sub(head.len() as u64);
        (&opened).take(more).read_to_end(&mut head).map_err(io)?;
        head_text = text_clean::clean(&head).into_owned();
        reading = reading_for(form, &head_text);
    }
    let Some((reading, first_cut_line)) = reading else {
        return Err(LoadError::Parse {
            path: path.to_path_buf(),
            source: ParseError::NotAResult(format!(
                "a CSV export whose header rows are longer than {} MiB",
                windows.max_window_bytes >> 20
            )),
        });
    };
    // The windows are read from the file as opened and sized; the bodies through a handle of
    // their own.
    let reader = File::open(file).map_err(io)?;
    let source = Arc::new(TextSource::new(path, reader, reading, temp.take()).map_err(io)?);
    let mut opened = opened;
    opened.seek(SeekFrom::Start(0)).map_err(io)?;
    let cut = Cutter::new(form, first_cut_line);
    let parse_error = |e| match e {
        WindowError::Io(source) => io(source),
        WindowError::Parse(source) => LoadError::Parse {
            path: path.to_path_buf(),
            source,
        },
    };
    let mut read =
        read_windows(&source, opened, size, cut, windows, progress).map_err(parse_error)?;
    // What the file's numbers told decides its format, as for the whole text; windows read
    // otherwise are read again.
    numbers::decide(&source, &mut read).map_err(parse_error)?;
    let mut report = match form {
        Form::CliText => cli_text::merge(cli_parts(read.parts, &read.at)),
        Form::CsvDetails | Form::CsvRaw => {
            merge_csv(read.parts.into_iter().filter_map(|p| match p {
                Parsed::Csv(part) => Some(part),
                Parsed::Cli(..) => None,
            }))
        }
    }
    .map_err(|e| LoadError::Parse {
        path: path.to_path_buf(),
        source: match e {
            ParseError::NotAResult(reason) => {
                ParseError::NotAResult(no_result::explain(&head_text, &reason))
            }
            other => other,
        },
    })?;
    report.warnings.extend(read.warnings);
    source.complete(read.at);
    let shared: Arc<dyn crate::model::BodySource> = source;
    for (index, (result, head)) in report.results.iter_mut().zip(read.heads).enumerate() {
        result.content = Body::on_demand(head, shared.clone(), index);
    }
    report.format = format;
    report.source = path.to_path_buf();
    super::bad_values::check(&mut report);
    Ok(Some(report))
}

/// The reading of `form` and the first line a window may start at, from the file's head.
fn reading_for(form: Form, head: &str) -> Option<(Reading, usize)> {
    match form {
        Form::CliText => {
            let reading = Reading {
                form,
                prefix: String::new(),
                prefix_lines: 0,
            };
            return Some((reading, 0));
        }
        Form::CsvDetails | Form::CsvRaw => {}
    }
    let at = csv_header_at(head)?;
    let header_line = memchr::memchr_iter(b'\n', head.get(..at)?.as_bytes()).count();
    let mut lines = head.get(at..)?.split_inclusive('\n');
    let mut prefix = lines.next()?.to_string();
    let mut prefix_lines = 1;
    // The raw export's units row leaves the identity columns empty.
    if form.has_units_row()
        && let Some(units) = lines.next()
        && units.starts_with("\"\"")
    {
        prefix.push_str(units);
        prefix_lines += 1;
    }
    if !prefix.ends_with('\n') {
        return None;
    }
    let reading = Reading {
        form,
        prefix,
        prefix_lines,
    };
    Some((reading, header_line + prefix_lines))
}

/// The CLI text parts of the windows, each counting the lines skipped after it (a window
/// that grew past the bound), so that lines keep their numbers in the joined warnings.
fn cli_parts(parts: Vec<Parsed>, at: &[WindowAt]) -> Vec<Part> {
    let mut out: Vec<Part> = parts
        .into_iter()
        .filter_map(|p| match p {
            Parsed::Cli(part, _) => Some(part),
            Parsed::Csv(_) => None,
        })
        .collect();
    for (i, part) in out.iter_mut().enumerate() {
        if let (Some(this), Some(next)) = (at.get(i), at.get(i + 1)) {
            let gap = next
                .lines_before
                .saturating_sub(this.lines_before + part.lines);
            part.lines += gap;
        }
    }
    out
}

/// Joins the parts of a CSV export's windows into what reading it whole gives: results in
/// order, warnings and notes counted over the file, devices once each.
fn merge_csv(parts: impl Iterator<Item = CsvPart>) -> Result<Report, ParseError> {
    let mut merged: Option<CsvPart> = None;
    for part in parts {
        match merged.as_mut() {
            Some(all) => all.append(part),
            None => merged = Some(part),
        }
    }
    match merged.map(CsvPart::finish) {
        Some(report) if !report.results.is_empty() => Ok(report),
        _ => Err(ParseError::NotAResult(
            "the CSV export holds no result rows".into(),
        )),
    }
}
