//! The number format of each result's block of a text, decided before it is read: the value
//! cells of the block's table rows are the evidence (see `parse::number_format`); a block whose
//! numbers tell nothing takes the whole text's format. Blocks start at kernel and process
//! lines, so two runs pasted into one page (a details page in one locale, a summary ncu prints
//! in C) each keep their own.

use super::heading::{kernel_line, process_line};
use super::layout::leading_spaces;
use crate::parse::number_format::{NumberFormat, Tally};

/// Where the number format changes: (byte offset of the line, format from there on), in
/// order. Empty when the whole text prints decimal points.
pub type FormatChanges = Vec<(usize, NumberFormat)>;

/// The format of each block of `text`.
pub fn format_changes(text: &str) -> FormatChanges {
    let mut blocks: Vec<(usize, Tally)> = vec![(0, Tally::default())];
    let mut whole = Tally::default();
    let mut pos = 0;
    for line in text.split_inclusive('\n') {
        let start = pos;
        pos += line.len();
        let line = line.trim_end();
        let indent = leading_spaces(line);
        let rest = &line[indent..];
        if indent <= 3 {
            if process_line(rest).is_some() || kernel_line(rest).is_some() {
                blocks.push((start, Tally::default()));
            }
            continue;
        }
        // A value cell: the last cell of a row, after a run of spaces.
        if let Some((before, value)) = rest.rsplit_once(' ')
            && before.ends_with(' ')
            && value.as_bytes().last().is_some_and(u8::is_ascii_digit)
            && let Some((_, tally)) = blocks.last_mut()
        {
            tally.add(value);
        }
    }
    for (_, t) in &blocks {
        whole.merge(*t);
    }
    if !whole.any_comma() {
        return Vec::new();
    }
    let default = whole.decided().unwrap_or_default();
    let mut changes: FormatChanges = Vec::new();
    for (start, tally) in blocks {
        let format = tally.decided().unwrap_or(default);
        if changes.last().map(|c| c.1) != Some(format) {
            changes.push((start, format));
        }
    }
    changes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_block_keeps_its_own_format() {
        let text = "[1] app@host\n  k(int), 2023-Mar-17 14:00:06, Context 1, Stream 7\n    Section: S\n    ---- --- ----\n    DRAM Frequency   cycle/nsecond   6,72\n    Elapsed Cycles   cycle     13.490.336\n\n[2] app@host\n  k(int), Block Size 256, Grid Size 32, Device 0, 1 invocations\n    x   cycle/nsecond 6.701347  6.701347\n  k(int), 2023-Mar-17 14:00:07, Context 1, Stream 7\n    y   cycle   1.234\n";
        let second = text.find("  k(int), Block").unwrap();
        let third = text.rfind("  k(int), 2023").unwrap();
        assert_eq!(
            format_changes(text),
            vec![
                (0, NumberFormat::Comma),
                (second, NumberFormat::Point),
                // A block that tells nothing takes the text's majority.
                (third, NumberFormat::Comma)
            ]
        );
        assert!(format_changes("    a   b   1,234.5\n").is_empty());
    }
}
