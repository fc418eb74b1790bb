//! Large text files read in windows: the file is cut before lines that open a result
//! ([`cuts`]) into windows of a few megabytes, the windows are parsed on all cores by the
//! reader of their form, and each result keeps only its head; a body is parsed again from its
//! window when a view asks for it ([`source`]). Memory is a few windows and the heads: a small
//! multiple of the largest result, not of the file.
//!
//! The CLI text (details pages and summaries) and both CSV exports are read this way; a window
//! of a CSV export is read with the export's header (and units) rows in front. A window's
//! number format is decided from its own numbers. A session page or a GUI copy holds one page
//! and has no result boundaries: it is read whole, up to [`MAX_PAGE_BYTES`].

pub mod cuts;
pub mod source;

use super::cli_text::{self, Part};
use super::detect::{Detected, csv_header_at, detect_text};
use super::{
    LoadError, MAX_TEXT_BYTES, ParseError, compressed, csv_details, csv_raw, no_result, text_clean,
};
use crate::model::{Body, BodyHead, Device, KernelResult, Report};
use cuts::Cutter;
use source::TextSource;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;
use std::sync::Arc;

/// Text files of this size and more are read in windows; smaller ones whole.
pub const WINDOWED_MIN_BYTES: u64 = 8 << 20;

/// The size a window grows to before it is cut at the next result.
pub const WINDOW_BYTES: usize = 2 << 20;

/// Largest session page or GUI copy: one page, which ncu never writes this large.
pub const MAX_PAGE_BYTES: u64 = 64 << 20;

/// At most this many windows are parsed at once (one per core).
pub const MAX_WINDOWS_IN_FLIGHT: usize = 8;

/// How many windows are parsed at once on this machine.
pub fn windows_in_flight() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(MAX_WINDOWS_IN_FLIGHT)
}

/// Bytes at the start of the file its form is detected from.
const DETECT_BYTES: u64 = 64 << 10;

/// The text forms read in windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    CliText,
    CsvDetails,
    CsvRaw,
}

/// Where a window is in the file and what it holds.
#[derive(Debug, Clone)]
pub struct WindowAt {
    pub start: u64,
    pub len: usize,
    /// Lines of the file before the window.
    pub lines_before: usize,
    /// Whether the window ends the file.
    pub last: bool,
    /// Index in the report of the window's first result.
    pub first_result: usize,
    pub results: usize,
}

/// How the windows of one file are parsed.
pub struct Reading {
    form: Form,
    /// The rows a CSV export's windows after the first are read behind (header, units).
    prefix: String,
    prefix_lines: usize,
}

/// What parsing a window gives.
pub enum Parsed {
    Cli(Part),
    Csv(Report),
}

impl Parsed {
    pub fn into_report(self) -> Report {
        match self {
            Parsed::Cli(part) => part.report,
            Parsed::Csv(report) => report,
        }
    }

    fn report_mut(&mut self) -> &mut Report {
        match self {
            Parsed::Cli(part) => &mut part.report,
            Parsed::Csv(report) => report,
        }
    }
}

impl Reading {
    /// Parses window number `index` of the file from its raw bytes.
    pub fn parse(&self, raw: &[u8], at: &WindowAt, index: usize) -> Result<Parsed, ParseError> {
        let text = text_clean::clean(raw);
        if self.form == Form::CliText {
            return Ok(Parsed::Cli(cli_text::read_window(&text, at.last)));
        }
        let parse = match self.form {
            Form::CsvRaw => csv_raw::parse_window,
            _ => csv_details::parse_window,
        };
        let parsed = if index == 0 {
            parse(&text, 0)
        } else {
            let whole = format!("{}{text}", self.prefix);
            parse(&whole, at.lines_before.saturating_sub(self.prefix_lines))
        };
        match parsed {
            Ok(report) => Ok(Parsed::Csv(report)),
            // A later window of only lines that are not ncu's holds no result.
            Err(ParseError::NotAResult(_)) if index > 0 => {
                Ok(Parsed::Csv(Report::new("", self.form_format())))
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

/// How a file is cut: the window size (tests use small ones).
#[derive(Debug, Clone, Copy)]
pub struct Windows {
    pub min_file_bytes: u64,
    pub window_bytes: usize,
}

impl Default for Windows {
    fn default() -> Self {
        Windows {
            min_file_bytes: WINDOWED_MIN_BYTES,
            window_bytes: WINDOW_BYTES,
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
    let head_text = text_clean::clean(&head);
    let detected = detect_text(&head_text);
    let form = match detected {
        Some(Detected::CsvDetails) => Form::CsvDetails,
        Some(Detected::CsvRaw) => Form::CsvRaw,
        Some(Detected::Summary | Detected::CliText) | None => Form::CliText,
        Some(page) => {
            if size > MAX_PAGE_BYTES {
                return Err(LoadError::Parse {
                    path: path.to_path_buf(),
                    source: ParseError::NotAResult(format!(
                        "{size} bytes of a {} (one page, never larger than {} MiB)",
                        page.format().name(),
                        MAX_PAGE_BYTES >> 20
                    )),
                });
            }
            return Ok(None);
        }
    };
    let Some((reading, first_cut_line)) = reading_for(form, &head_text) else {
        // A CSV export whose header is not in the first bytes is read whole.
        return Ok(None);
    };
    // The windows are read from the file as opened and sized; the bodies through a handle of
    // their own.
    let reader = File::open(file).map_err(io)?;
    let source = Arc::new(TextSource::new(path, reader, reading, temp.take()).map_err(io)?);
    let mut opened = opened;
    opened.seek(SeekFrom::Start(0)).map_err(io)?;
    let cut = Cutter::new(form, first_cut_line);
    let (parts, heads, at) =
        read_windows(&source, opened, size, cut, windows.window_bytes, progress).map_err(|e| {
            match e {
                WindowError::Io(source) => io(source),
                WindowError::Parse(source) => LoadError::Parse {
                    path: path.to_path_buf(),
                    source,
                },
            }
        })?;
    let mut report = match form {
        Form::CliText => cli_text::merge(
            parts
                .into_iter()
                .filter_map(|p| match p {
                    Parsed::Cli(part) => Some(part),
                    Parsed::Csv(_) => None,
                })
                .collect(),
        ),
        Form::CsvDetails | Form::CsvRaw => merge_csv(parts.into_iter().map(Parsed::into_report)),
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
    source.complete(at);
    let shared: Arc<dyn crate::model::BodySource> = source;
    for (index, (result, head)) in report.results.iter_mut().zip(heads).enumerate() {
        result.content = Body::on_demand(head, shared.clone(), index);
    }
    report.format = detected.unwrap_or(Detected::CliText).format();
    report.source = path.to_path_buf();
    Ok(Some(report))
}

/// The reading of `form` and the first line a window may start at, from the file's head.
fn reading_for(form: Form, head: &str) -> Option<(Reading, usize)> {
    if form == Form::CliText {
        let reading = Reading {
            form,
            prefix: String::new(),
            prefix_lines: 0,
        };
        return Some((reading, 0));
    }
    let at = csv_header_at(head)?;
    let header_line = memchr::memchr_iter(b'\n', head.get(..at)?.as_bytes()).count();
    let mut lines = head.get(at..)?.split_inclusive('\n');
    let mut prefix = lines.next()?.to_string();
    let mut prefix_lines = 1;
    // The raw export's units row leaves the identity columns empty.
    if form == Form::CsvRaw
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

enum WindowError {
    Io(std::io::Error),
    Parse(ParseError),
}

/// What reading the windows gives: each window's parse (bodies taken out), the results'
/// heads in order, and where each window is.
type Windowed = (Vec<Parsed>, Vec<BodyHead>, Vec<WindowAt>);

/// Reads the file window by window, parsing a batch of windows at once on all cores.
fn read_windows(
    source: &TextSource,
    file: File,
    size: u64,
    mut cut: Cutter,
    window_bytes: usize,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Windowed, WindowError> {
    let workers = windows_in_flight();
    let mut input = BufReader::with_capacity(1 << 20, file.take(size));
    let mut parts: Vec<Parsed> = Vec::new();
    let mut heads: Vec<BodyHead> = Vec::new();
    let mut at: Vec<WindowAt> = Vec::new();
    let mut batch: Vec<(WindowAt, Vec<u8>)> = Vec::new();
    let mut window: Vec<u8> = Vec::new();
    let mut line: Vec<u8> = Vec::new();
    let (mut offset, mut lines, mut window_lines) = (0u64, 0usize, 0usize);
    loop {
        line.clear();
        let n = input
            .read_until(b'\n', &mut line)
            .map_err(WindowError::Io)?;
        let end = n == 0;
        // Every line goes through the cutter, in order, whether the window is cut there or not.
        let starts = !end && cut.may_start(&line);
        if end || (starts && window.len() >= window_bytes) {
            if !window.is_empty() {
                let len = window.len();
                batch.push((
                    WindowAt {
                        start: offset - len as u64,
                        len,
                        lines_before: lines - window_lines,
                        last: end,
                        first_result: 0,
                        results: 0,
                    },
                    std::mem::take(&mut window),
                ));
                window_lines = 0;
            }
            if batch.len() >= workers || end {
                parse_batch(
                    source,
                    &mut batch,
                    at.len(),
                    &mut parts,
                    &mut heads,
                    &mut at,
                )?;
                progress(offset, size);
            }
            if end {
                break;
            }
        }
        window.extend_from_slice(&line);
        offset += n as u64;
        let ended = usize::from(line.last() == Some(&b'\n'));
        lines += ended;
        window_lines += ended;
    }
    Ok((parts, heads, at))
}

/// Parses a batch of windows on their own threads and appends what they hold, in order.
fn parse_batch(
    source: &TextSource,
    batch: &mut Vec<(WindowAt, Vec<u8>)>,
    first_window: usize,
    parts: &mut Vec<Parsed>,
    heads: &mut Vec<BodyHead>,
    at: &mut Vec<WindowAt>,
) -> Result<(), WindowError> {
    let parsed: Vec<Result<(Parsed, Vec<BodyHead>), ParseError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = batch
            .iter()
            .enumerate()
            .map(|(i, (w, raw))| {
                scope.spawn(move || {
                    let mut parsed = source.reading().parse(raw, w, first_window + i)?;
                    let heads = take_bodies(&mut parsed.report_mut().results);
                    Ok((parsed, heads))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    for ((mut w, _), result) in batch.drain(..).zip(parsed) {
        let (part, part_heads) = result.map_err(WindowError::Parse)?;
        w.first_result = heads.len();
        w.results = part_heads.len();
        heads.extend(part_heads);
        parts.push(part);
        at.push(w);
    }
    Ok(())
}

/// Takes the bodies out of `results`, keeping their heads.
fn take_bodies(results: &mut [KernelResult]) -> Vec<BodyHead> {
    results
        .iter_mut()
        .map(|r| BodyHead::of(std::mem::take(&mut r.content).get()))
        .collect()
}

/// Joins the reports of a CSV export's windows: results in order, warnings and notes, devices
/// once each.
fn merge_csv(reports: impl Iterator<Item = Report>) -> Result<Report, ParseError> {
    let mut merged: Option<Report> = None;
    for mut r in reports {
        let Some(all) = merged.as_mut() else {
            merged = Some(r);
            continue;
        };
        all.results.append(&mut r.results);
        all.warnings.append(&mut r.warnings);
        for note in r.notes {
            if !all.notes.contains(&note) {
                all.notes.push(note);
            }
        }
        add_devices(&mut all.devices, r.devices);
    }
    match merged {
        Some(report) if !report.results.is_empty() => Ok(report),
        _ => Err(ParseError::NotAResult(
            "the CSV export holds no result rows".into(),
        )),
    }
}

fn add_devices(devices: &mut Vec<Device>, more: Vec<Device>) {
    for device in more {
        if !devices.iter().any(|d| d.index == device.index) {
            devices.push(device);
        }
    }
}
