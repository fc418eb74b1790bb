//! Where a text can be cut into windows: before a line that opens a result, so that every
//! result lies whole inside one window. The CLI text opens results with its process and kernel
//! lines; a CSV export with a row outside any quoted cell, as its readers find rows
//! ([`crate::parse::csv_rows`]: a quote left open ends at the next line that opens a row as
//! ncu does), and the details export only where the row's first cell (its result ID) changes,
//! since one result is a run of rows.

use super::Form;
use crate::parse::cli_text::starts_result;
use crate::parse::csv_details::HEADER_ID;
use crate::parse::csv_details::identity::parse_u64;
use crate::parse::csv_rows::Rows;
use crate::parse::text_clean;

/// Decides, line by line in file order, which lines may start a window.
pub struct Cutter {
    form: Form,
    /// Lines before this one never start a window and are not looked at (what comes before a
    /// CSV export's first row: the program's output, the header and units rows).
    first_cut_line: usize,
    line: usize,
    /// Where the CSV rows start.
    rows: Rows,
    /// The first cell of the last CSV row (its result ID in the details export).
    last_id: Vec<u8>,
}

impl Cutter {
    /// A cutter for `form` that cuts nowhere before line `first_cut_line` (0-based).
    pub fn new(form: Form, first_cut_line: usize) -> Self {
        Cutter {
            form,
            first_cut_line,
            line: 0,
            rows: Rows::default(),
            last_id: Vec::new(),
        }
    }

    /// Whether `raw` (the next line of the file, with its line end) may start a window.
    pub fn may_start(&mut self, raw: &[u8]) -> bool {
        let line = self.line;
        self.line += 1;
        if line < self.first_cut_line {
            return false;
        }
        match self.form {
            // Most lines are indented past where a result opens; with nothing to clean, they
            // are told by their first bytes.
            Form::CliText if raw.starts_with(b"    ") && !text_clean::has_noise(raw) => false,
            Form::CliText => starts_result(first_line(&text_clean::clean(raw))),
            Form::CsvRaw => self.rows.line(raw).starts_row,
            Form::CsvDetails => {
                if !self.rows.line(raw).starts_row {
                    return false;
                }
                let id = first_cell(raw);
                // A row without a result ID (damaged) neither ends a result nor starts one; a
                // header row (an export appended to another) ends one, as the reader has it.
                let is_id = std::str::from_utf8(id).ok().and_then(parse_u64).is_some();
                if !is_id && id != HEADER_ID.as_bytes() {
                    return false;
                }
                let changed = id != self.last_id.as_slice();
                if changed {
                    self.last_id = id.to_vec();
                }
                changed
            }
        }
    }
}

/// The first line of cleaned text (a lone CR in the raw line ends a line too).
fn first_line(text: &str) -> &str {
    memchr::memchr(b'\n', text.as_bytes()).map_or(text, |end| &text[..end])
}

/// The content of a row's first quoted cell.
fn first_cell(raw: &[u8]) -> &[u8] {
    let rest = raw.get(1..).unwrap_or_default();
    let end = memchr::memchr(b'"', rest).unwrap_or(rest.len());
    &rest[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_text_cuts_at_process_and_kernel_lines_only() {
        let mut cut = Cutter::new(Form::CliText, 0);
        let lines: &[&[u8]] = &[
            b"==PROF== Connected to process 1\n",
            b"[1842] kernels@127.0.0.1\n",
            b"  vector_add(const float *, float *, int) (256, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0\n",
            b"    Section: GPU Speed Of Light Throughput\n",
            b"    DRAM Frequency   Ghz   2.62\r\n",
        ];
        let cuts: Vec<bool> = lines.iter().map(|l| cut.may_start(l)).collect();
        assert_eq!(cuts, [false, true, true, false, false]);
    }

    #[test]
    fn csv_details_cuts_where_the_id_changes_outside_quotes() {
        let mut cut = Cutter::new(Form::CsvDetails, 1);
        let lines: &[&[u8]] = &[
            b"\"ID\",\"Kernel Name\",\"Rule Description\"\n",
            b"\"0\",\"k\",\"a\"\n",
            b"\"0\",\"k\",\"two\n",
            b"\"1\" lines\"\n",
            b"\"1\",\"k\",\"b\"\n",
            b"\"1\",\"k\",\"c\"\n",
        ];
        let cuts: Vec<bool> = lines.iter().map(|l| cut.may_start(l)).collect();
        assert_eq!(cuts, [false, true, false, false, true, false]);
    }

    #[test]
    fn a_stray_quote_ends_at_the_next_row_that_opens_as_ncu_opens_rows() {
        let mut cut = Cutter::new(Form::CsvDetails, 1);
        let lines: &[&[u8]] = &[
            b"\"ID\",\"Kernel Name\",\"Metric Value\"\n",
            b"\"0\",\"k\",\"1\"\n",
            b"\"0\",\"k\"x\",\"2\n",
            b"\"0\",\"k\",\"3\"\n",
            b"\"1\",\"k\",\"4\"\n",
        ];
        let cuts: Vec<bool> = lines.iter().map(|l| cut.may_start(l)).collect();
        assert_eq!(cuts, [false, true, false, false, true]);
    }

    #[test]
    fn csv_raw_cuts_at_every_row_after_the_header_rows() {
        let mut cut = Cutter::new(Form::CsvRaw, 2);
        let lines: &[&[u8]] = &[
            b"\"ID\",\"m\"\n",
            b"\"\",\"%\"\n",
            b"\"0\",\"1\"\n",
            b"\"1\",\"2\"\n",
        ];
        let cuts: Vec<bool> = lines.iter().map(|l| cut.may_start(l)).collect();
        assert_eq!(cuts, [false, false, true, true]);
    }
}
