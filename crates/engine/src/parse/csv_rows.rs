//! Where the rows of ncu's CSV exports start, line by line, and what a stray quote costs. The
//! CSV reader lets a quoted cell hold line breaks; ncu never writes one, and opens every row
//! with its quoted result ID (`"12",`). So a quote left open at the end of a line is stray once
//! a later line opens a row that way (or the text ends): the row it opened is damaged and ends
//! before that line, instead of swallowing the rest of the file as one cell. The cutter of a
//! file read in windows (`text_windows::cuts`) and the readers of both exports follow this one
//! rule, so a stray quote costs its row (skipped and named in a warning) at any file size.

use std::borrow::Cow;

/// The CSV reader's quoting between lines, fed one line at a time.
#[derive(Debug, Default, Clone, Copy)]
pub struct Rows {
    /// Whether the next line starts inside a quoted cell.
    in_quotes: bool,
}

/// What one line is, read after the lines before it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    /// A row starts at the line: it starts outside any quoted cell, with a quote.
    pub starts_row: bool,
    /// The line opens a row while a quote was left open before it: the row that quote opened
    /// is damaged and ends before this line.
    pub ends_stray: bool,
}

impl Rows {
    /// Reads the next line (with or without its line end).
    pub fn line(&mut self, line: &[u8]) -> Line {
        let ends_stray = self.in_quotes && opens_row(line);
        if ends_stray {
            self.in_quotes = false;
        }
        let starts_row = !self.in_quotes && line.first() == Some(&b'"');
        self.in_quotes = ends_in_quotes(self.in_quotes, line);
        Line {
            starts_row,
            ends_stray,
        }
    }

    /// Whether a quoted cell is open after the lines read so far.
    pub fn in_quotes(&self) -> bool {
        self.in_quotes
    }
}

/// Whether a line opens a row as ncu writes every row: a quoted result ID (digits), then a
/// comma or the line's end.
pub fn opens_row(line: &[u8]) -> bool {
    let Some(rest) = line.strip_prefix(b"\"") else {
        return false;
    };
    let digits = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    digits > 0
        && rest.get(digits) == Some(&b'"')
        && matches!(rest.get(digits + 1), None | Some(b',' | b'\n' | b'\r'))
}

/// Whether the CSV reader is inside a quoted cell after `line`, having started it inside one
/// or not: a quote opens a cell only at the start of a field, a doubled quote inside one is a
/// quote, and a line end outside quotes ends the row (the states of the `csv` crate's reader).
fn ends_in_quotes(in_quotes: bool, line: &[u8]) -> bool {
    #[derive(Clone, Copy, PartialEq)]
    enum S {
        FieldStart,
        Unquoted,
        Quoted,
        QuoteInQuoted,
    }
    let mut s = if in_quotes { S::Quoted } else { S::FieldStart };
    for &b in line {
        s = match (s, b) {
            (S::Quoted, b'"') => S::QuoteInQuoted,
            (S::Quoted, _) => S::Quoted,
            (S::QuoteInQuoted, b'"') => S::Quoted,
            (_, b'\n' | b'\r' | b',') => S::FieldStart,
            (S::FieldStart, b'"') => S::Quoted,
            _ => S::Unquoted,
        };
    }
    s == S::Quoted
}

/// The rows of an export (the lines after its header row) with every row whose quote is left
/// open removed, its lines left empty so that every line keeps its number; and the 0-based
/// line each removed row started at.
pub fn without_stray_quotes(text: &str) -> (Cow<'_, str>, Vec<usize>) {
    let mut rows = Rows::default();
    // Byte ranges to empty, each with the line it starts at.
    let mut damaged: Vec<(usize, usize, usize)> = Vec::new();
    // Where the row left open at the end of the last line started: (line, byte).
    let mut open: Option<(usize, usize)> = None;
    let mut at = 0;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let was_open = rows.in_quotes();
        let read = rows.line(line.as_bytes());
        if read.ends_stray
            && let Some((first, start)) = open.take()
        {
            damaged.push((first, start, at));
        }
        open = match open {
            _ if !rows.in_quotes() => None,
            Some(started) if was_open && !read.ends_stray => Some(started),
            _ => Some((n, at)),
        };
        at += line.len();
    }
    if let Some((first, start)) = open {
        damaged.push((first, start, text.len()));
    }
    if damaged.is_empty() {
        return (Cow::Borrowed(text), Vec::new());
    }
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for &(_, start, end) in &damaged {
        out.push_str(&text[from..start]);
        out.extend(text[start..end].matches('\n'));
        from = end;
    }
    out.push_str(&text[from..]);
    (Cow::Owned(out), damaged.iter().map(|d| d.0).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_start_outside_quotes_and_at_an_id_after_a_stray_quote() {
        let lines: &[&[u8]] = &[
            b"\"0\",\"k\",\"two\n",
            b"lines\"\n",
            b"\"0\",\"k\",\"a \"\"quoted\"\" word\"\n",
            b"\"1\",\"k\"\"x\",\"stray\n",
            b"text inside the stray cell\n",
            b"\"1\",\"k\",\"b\"\r\n",
            b"a,\"b\n",
        ];
        let mut rows = Rows::default();
        let read: Vec<(bool, bool)> = lines
            .iter()
            .map(|l| {
                let line = rows.line(l);
                (line.starts_row, line.ends_stray)
            })
            .collect();
        assert_eq!(
            read,
            [
                (true, false),
                (false, false),
                (true, false),
                (true, false),
                (false, false),
                (true, true),
                (false, false)
            ]
        );
        assert!(rows.in_quotes());
        assert!(opens_row(b"\"12\",\"x\""));
        assert!(opens_row(b"\"12\""));
        assert!(!opens_row(b"\"ID\",\"x\""));
        assert!(!opens_row(b"\"\",\"%\""));
        assert!(!opens_row(b"\"12 \",\"x\""));
    }

    #[test]
    fn a_row_with_a_stray_quote_is_emptied_and_the_others_stay() {
        let sound = "\"0\",\"a\"\n\"0\",\"two\nlines\"\n\"1\",\"b\"\n";
        assert!(matches!(without_stray_quotes(sound), (Cow::Borrowed(_), ref d) if d.is_empty()));
        let text = "\"0\",\"a\"\n\"0\",\"b\"x\",\"c\n\"1\",\"d\"\n\"1\",\"e\nx";
        let (out, damaged) = without_stray_quotes(text);
        assert_eq!(out, "\"0\",\"a\"\n\n\"1\",\"d\"\n\n");
        assert_eq!(damaged, [1, 3]);
        // A quote that never closes empties its row and the lines after it.
        let (out, damaged) = without_stray_quotes("\"0\",\"a\nb\nc\n");
        assert_eq!(out, "\n\n\n");
        assert_eq!(damaged, [0]);
    }
}
