//! Detects the form of a result by its content, never by file name.

use crate::model::Format;

/// The `.ncu-rep` magic.
pub const NCU_REP_MAGIC: &[u8; 4] = b"NVR\0";

/// What the content looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detected {
    NcuRep,
    CsvDetails,
    CsvRaw,
    SessionCsv,
    SessionText,
    GuiCopy,
    Summary,
    CliText,
}

impl Detected {
    /// The model format this detection loads as.
    pub fn format(self) -> Format {
        match self {
            Detected::NcuRep => Format::NcuRep,
            Detected::CsvDetails => Format::CsvDetails,
            Detected::CsvRaw => Format::CsvRaw,
            Detected::SessionCsv | Detected::SessionText => Format::Session,
            Detected::GuiCopy => Format::GuiCopy,
            Detected::Summary => Format::Summary,
            Detected::CliText => Format::CliText,
        }
    }
}

/// Detects a binary report from its first bytes.
pub fn is_ncu_rep(bytes: &[u8]) -> bool {
    bytes.starts_with(NCU_REP_MAGIC)
}

/// Bytes from the start of a text that decide its form; the window is widened to the end of the
/// line it cuts. A text whose window shows no known form is searched whole.
pub const DETECT_WINDOW: usize = 64 * 1024;

/// Detects the form of text content. `None` when it is no known form.
///
/// The form is decided by the start of the text (headers, first kernel lines and sections), so a
/// large text is searched only in its first [`DETECT_WINDOW`] bytes; all of it is searched only
/// when they show no known form (a long program output before the first result).
pub fn detect_text(text: &str) -> Option<Detected> {
    let head = head_of(text, DETECT_WINDOW);
    match detect_in(head) {
        None if head.len() < text.len() => detect_in(text),
        found => found,
    }
}

/// The first `window` bytes of `text` and the rest of the line they end in.
fn head_of(text: &str, window: usize) -> &str {
    let bytes = text.as_bytes();
    let end = bytes
        .get(window..)
        .and_then(|rest| memchr::memchr(b'\n', rest))
        .map_or(text.len(), |at| window + at + 1);
    // A line end is a character boundary.
    text.get(..end).unwrap_or(text)
}

/// How every `--csv` export of results starts its header row.
const CSV_HEADER: &[u8] = b"\"ID\",\"Process ID\"";

/// The byte offset of the header row of a `--csv` export of results: the first line that
/// starts with it, wherever it is (`ncu --csv ... > out.csv` writes `==PROF==` lines and the
/// program's output before it).
pub fn csv_header_at(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    memchr::memmem::find_iter(bytes, CSV_HEADER).find(|&at| {
        let line_start = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |nl| nl + 1);
        bytes[line_start..at]
            .iter()
            .all(|&b| b == b' ' || b == b'\t')
    })
}

/// Whether a line is one of ncu's own status messages (`==PROF==`, `==WARNING==`, `==ERROR==`).
pub fn is_status_line(line: &str) -> bool {
    let Some(rest) = line.trim_start().strip_prefix("==") else {
        return false;
    };
    let word = rest.bytes().take_while(u8::is_ascii_uppercase).count();
    word > 0 && rest.get(word..).is_some_and(|r| r.starts_with("=="))
}

/// Detects the form of `text`, all of which is searched.
fn detect_in(text: &str) -> Option<Detected> {
    if let Some(at) = csv_header_at(text) {
        let header = text.get(at..)?.lines().next()?;
        return Some(if header.contains("\"Section Name\"") {
            Detected::CsvDetails
        } else {
            Detected::CsvRaw
        });
    }
    // ncu's status lines may come before any form.
    let first = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !is_status_line(l))?;
    if first == "Launch Settings"
        || first == "Session Info"
        || first == "\"Launch Attribute\",\"Value\""
    {
        return Some(
            if text.contains("\"Launch Attribute\",\"Value\"")
                || text.contains("\"Session Attribute\",\"Value\"")
            {
                Detected::SessionCsv
            } else {
                Detected::SessionText
            },
        );
    }
    if text.contains("Result\tSize\tTime") || has_gui_pairs(text) {
        return Some(Detected::GuiCopy);
    }
    let has_section = text.contains("Section: ");
    if text.contains(", Invocations ") && (text.contains("Minimum") || has_section) {
        return Some(Detected::Summary);
    }
    if has_section || has_raw_table(text) {
        return Some(Detected::CliText);
    }
    None
}

/// A GUI copy has tab-separated `Label [unit]<TAB>value` pairs.
fn has_gui_pairs(text: &str) -> bool {
    text.lines()
        .take(5_000)
        .filter(|l| {
            let mut it = l.split('\t');
            matches!((it.next(), it.next()), (Some(a), Some(b)) if a.ends_with(']') && a.contains(" [") && !b.is_empty())
        })
        .take(3)
        .count()
        >= 3
}

/// The `--page raw` text form: a `Metric Name  Metric Unit  Metric Value` table whose rows are
/// ncu metric names, with no `Section:` lines.
fn has_raw_table(text: &str) -> bool {
    text.contains("Metric Name") && text.contains("device__attribute_")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_csv_and_session() {
        assert_eq!(
            detect_text("\"ID\",\"Process ID\",\"Section Name\"\n"),
            Some(Detected::CsvDetails)
        );
        assert_eq!(
            detect_text("\"ID\",\"Process ID\",\"gpu__time_duration.sum\"\n"),
            Some(Detected::CsvRaw)
        );
        assert_eq!(
            detect_text("Launch Settings\n---- ----\n"),
            Some(Detected::SessionText)
        );
        assert_eq!(detect_text("hello world\n"), None);
        // After ncu's status lines and the program's output.
        let csv =
            "==PROF== Connected to process 1\nresult 42\n\"ID\",\"Process ID\",\"Section Name\"\n";
        assert_eq!(detect_text(csv), Some(Detected::CsvDetails));
        assert_eq!(csv_header_at(csv), csv.find("\"ID\""));
        assert_eq!(csv_header_at("x \"ID\",\"Process ID\"\n"), None);
        assert!(is_status_line("==PROF== Report: a.ncu-rep"));
        assert!(!is_status_line("================================"));
        assert_eq!(detect_text(""), None);
    }
    /// A fixture as text; `.xz` files are decompressed.
    fn fixture_text(rel: &str) -> String {
        use std::io::Read;
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("fixtures")
            .join(rel);
        let raw = std::fs::read(&path).unwrap();
        if rel.ends_with(".xz") {
            let mut text = String::new();
            xz2::read::XzDecoder::new(&raw[..])
                .read_to_string(&mut text)
                .unwrap();
            text
        } else {
            String::from_utf8(raw).unwrap()
        }
    }

    #[test]
    fn head_ends_at_a_line_end() {
        assert_eq!(head_of("ab\ncd\nef\n", 4), "ab\ncd\n");
        assert_eq!(head_of("ab\ncd\nef\n", 3), "ab\ncd\n");
        assert_eq!(head_of("ab\ncd\nef", 7), "ab\ncd\nef");
        assert_eq!(head_of("ab\n", 100), "ab\n");
        assert_eq!(head_of("\u{e9}\u{e9}\n\u{e9}", 1), "\u{e9}\u{e9}\n");
    }

    #[test]
    fn forms_are_found_in_the_head_of_large_texts() {
        // 400 results, 3 MB: every marker is in the first kilobytes.
        let details = fixture_text("big/many_basic.details.txt.xz");
        assert!(details.len() > 40 * DETECT_WINDOW);
        assert_eq!(detect_text(&details), Some(Detected::CliText));
        let summary = fixture_text("h100/kernels_full.summary.txt");
        assert_eq!(detect_text(&summary), Some(Detected::Summary));
        let gui = fixture_text("seeds/gui_details_copy_a100.txt");
        assert_eq!(detect_text(&gui), Some(Detected::GuiCopy));
    }

    #[test]
    fn csv_header_longer_than_the_window() {
        // The raw page of `--set full` has a header line of about 135 KB.
        let raw = fixture_text("h100/kernels_full.raw.csv.xz");
        assert!(raw.lines().next().unwrap().len() > 2 * DETECT_WINDOW);
        assert_eq!(detect_text(&raw), Some(Detected::CsvRaw));
        let details = fixture_text("h100/kernels_full.details.csv.xz");
        assert_eq!(detect_text(&details), Some(Detected::CsvDetails));
    }

    #[test]
    fn long_program_output_before_the_first_result() {
        // `ncu ./app` prints a line per profiled kernel (and the program's own output) before
        // the results: repeat those lines past the window.
        let capture = fixture_text("h100/kernels_cli_basic.txt");
        let results_at = capture.find("[574] kernels@127.0.0.1").unwrap();
        let (preamble, results) = capture.split_at(results_at);
        assert!(!preamble.contains("Section: "));
        let copies = 2 * DETECT_WINDOW / preamble.len() + 1;
        let long = format!("{}{results}", preamble.repeat(copies));
        assert!(!head_of(&long, DETECT_WINDOW).contains("Section: "));
        assert_eq!(detect_text(&long), Some(Detected::CliText));
        // The same preamble with no results after it is no known form.
        assert_eq!(detect_text(&preamble.repeat(copies)), None);
    }
}
