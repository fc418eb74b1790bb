//! The shared parser module: bytes of any form of an Nsight Compute result become a
//! [`Report`]. Feeds both the app and the command line.

pub mod arrival;
pub mod bad_values;
pub mod cli_text;
pub mod compressed;
pub mod csv_details;
pub mod csv_raw;
pub mod csv_rows;
pub mod cubin;
pub mod detect;
pub mod error;
pub mod gui_copy;
pub mod instances;
pub mod life_ranges;
pub mod ncu_rep;
pub mod no_result;
pub mod number;
pub mod number_format;
pub mod nvdisasm;
pub mod open_files;
pub mod other_text;
pub mod pipe;
pub mod read;
pub mod reopen;
pub mod report_files;
pub mod sass;
pub mod session;
pub mod skipped;
pub mod source_csv;
pub mod source_lookup;
pub mod text_clean;
pub mod text_windows;

pub use detect::Detected;
pub use error::{LoadError, ParseError};

use crate::model::{Report, Warning, WarningKind};
use read::read_file;
use std::path::Path;

/// Largest file read (every form is parsed from memory).
pub const MAX_TEXT_BYTES: u64 = 4 << 30;

/// Bytes at the start of a file that decide whether it can be a result at all.
pub const HEAD_BYTES: usize = 8 * 1024;

/// Loads a file of any supported form. Never writes to the file.
pub fn load_path(path: &Path) -> Result<Report, LoadError> {
    load_path_with_progress(path, &mut |_, _| {})
}

/// Loads a file, telling `progress` the bytes read so far and the file's size. The form is
/// decided from the first [`HEAD_BYTES`]: a native report is opened with its results read on
/// demand; binary content of any other kind is refused before the rest is read. A compressed
/// file (zstd, gzip, xz: [`compressed`]) is decompressed once into a temporary file, which is
/// then read as a plain file would be. A pipe (`-` for standard input, a named pipe) is
/// copied into a temporary file as it streams ([`pipe`]) and read as that file.
pub fn load_path_with_progress(
    path: &Path,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, LoadError> {
    if pipe::is_pipe(path) {
        let copy = pipe::copy(path, progress)?;
        let file = copy.path.clone();
        let head = read::read_head(&file, HEAD_BYTES).map_err(|e| e.naming(path))?;
        if let Some(kind) = compressed::detect(&head) {
            return load_compressed(path, &file, kind, progress);
        }
        return load_plain(path, &file, &head, Some(copy), progress);
    }
    let head = read::read_head(path, HEAD_BYTES)?;
    if let Some(kind) = compressed::detect(&head) {
        return load_compressed(path, path, kind, progress);
    }
    load_plain(path, path, &head, None, progress)
}

/// Loads a decompressed copy of the compressed file `file` (opened for `path`). Progress
/// counts the compressed file's bytes: the first half while decompressing, the second while
/// reading the copy.
fn load_compressed(
    path: &Path,
    file: &Path,
    kind: compressed::Compression,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, LoadError> {
    let decompressed = compressed::decompress_file(
        file,
        kind,
        compressed::MAX_DECOMPRESSED,
        &mut |done, total| progress(done / 2, total),
    )
    .map_err(|e| match e {
        compressed::FileError::Io(source) => LoadError::Io {
            path: path.to_path_buf(),
            source,
        },
        compressed::FileError::Decompress(source) => LoadError::Decompress {
            path: path.to_path_buf(),
            source,
        },
    })?;
    let total = std::fs::metadata(file).map_or(0, |m| m.len());
    let size = decompressed.size.max(1);
    let mut second_half = |done: u64, _: u64| {
        let share = u128::from(done.min(size)) * u128::from(total - total / 2) / u128::from(size);
        progress(total / 2 + share as u64, total);
    };
    // (A second layer of compression was refused by the decompression's first bytes.)
    let head = read::read_head(&decompressed.path, HEAD_BYTES).map_err(|e| e.naming(path))?;
    let copy = decompressed.path.clone();
    let stopped = decompressed.damage.clone();
    let mut report = load_plain(path, &copy, &head, Some(decompressed), &mut second_half)?;
    // Where the copy ended at a damaged block, the report says so (with whatever damage the
    // reading itself found there).
    if let Some(damage) = stopped {
        report.warnings.push(Warning::new(
            WarningKind::Damaged,
            format!(
                "the {} stream was decompressed up to a damaged block and no further: {damage}",
                kind.name()
            ),
        ));
    }
    Ok(report)
}

/// Loads the plain content of `file` (starting with `head`) as the file at `path`; `temp` is
/// the decompressed copy `file` is, kept as long as the report reads from it.
fn load_plain(
    path: &Path,
    file: &Path,
    head: &[u8],
    temp: Option<compressed::Decompressed>,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Report, LoadError> {
    if detect::is_ncu_rep(head) {
        let mut report = ncu_rep::open::open_from(path, file, temp.map(|t| t.keep), progress)?;
        report.source = path.to_path_buf();
        bad_values::check(&mut report);
        return Ok(report);
    }
    let refuse = |message: &str| LoadError::Parse {
        path: path.to_path_buf(),
        source: ParseError::NotAResult(message.into()),
    };
    if head.is_empty() {
        return Err(refuse("the file is empty"));
    }
    if looks_binary(head) {
        return Err(refuse("binary content that is not an .ncu-rep report"));
    }
    // A large text is read in windows, its results' bodies parsed again when asked for.
    let mut keep = temp.map(|t| t.keep);
    let windows = text_windows::Windows::default();
    if let Some(report) = text_windows::load(path, file, &mut keep, windows, progress)? {
        return Ok(report);
    }
    let bytes = read_file(file, MAX_TEXT_BYTES).map_err(|e| e.naming(path))?;
    drop(keep);
    progress(bytes.len() as u64, bytes.len() as u64);
    parse_bytes(path, &bytes)
}

/// Parses bytes of any supported form; `source` names them in the report and in errors.
pub fn parse_bytes(source: &Path, bytes: &[u8]) -> Result<Report, LoadError> {
    let wrap = |e| LoadError::Parse {
        path: source.to_path_buf(),
        source: e,
    };
    let mut report = parse_any(bytes).map_err(wrap)?;
    report.source = source.to_path_buf();
    Ok(report)
}

/// Detects the form and parses; compressed bytes are decompressed in memory first (up to
/// [`MAX_TEXT_BYTES`]).
pub fn parse_any(bytes: &[u8]) -> Result<Report, ParseError> {
    if let Some(kind) = compressed::detect(bytes) {
        let plain = compressed::decompress_bytes(kind, bytes, MAX_TEXT_BYTES)?;
        if compressed::detect(&plain).is_some() {
            return Err(ParseError::NotAResult(
                "compressed twice: decompress the outer layer first".into(),
            ));
        }
        return parse_plain(&plain);
    }
    parse_plain(bytes)
}

/// Detects the form of bytes that are not compressed and parses.
fn parse_plain(bytes: &[u8]) -> Result<Report, ParseError> {
    if detect::is_ncu_rep(bytes) {
        let mut report = ncu_rep::parse(bytes)?;
        bad_values::check(&mut report);
        return Ok(report);
    }
    if bytes.is_empty() {
        return Err(ParseError::NotAResult("the file is empty".into()));
    }
    if looks_binary(bytes) {
        return Err(ParseError::NotAResult(
            "binary content that is not an .ncu-rep report".into(),
        ));
    }
    let text = text_clean::clean(bytes);
    let explained = |e: ParseError| match e {
        ParseError::NotAResult(reason) => {
            ParseError::NotAResult(no_result::explain(&text, &reason))
        }
        other => other,
    };
    let kind = detect::detect_text(&text)
        .ok_or_else(|| {
            ParseError::NotAResult(
                "no ncu output, CSV export, session page or GUI copy found".into(),
            )
        })
        .map_err(explained)?;
    let report = match kind {
        Detected::NcuRep => unreachable_binary(),
        Detected::CsvDetails => csv_details::parse(&text),
        Detected::CsvRaw => csv_raw::parse(&text),
        Detected::SessionCsv | Detected::SessionText => session::parse(&text),
        Detected::GuiCopy => gui_copy::parse(&text),
        Detected::Summary | Detected::CliText => cli_text::parse(&text),
    };
    let mut report = report.map_err(explained)?;
    report.format = kind.format();
    bad_values::check(&mut report);
    Ok(report)
}

fn unreachable_binary() -> Result<Report, ParseError> {
    Err(ParseError::NotAResult(
        "binary report detected as text".into(),
    ))
}

/// Text forms have no NUL bytes in their first kilobytes.
pub(crate) fn looks_binary(bytes: &[u8]) -> bool {
    bytes[..bytes.len().min(8192)].contains(&0)
}
