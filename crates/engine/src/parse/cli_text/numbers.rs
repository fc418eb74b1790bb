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
    formats_of(text, None).changes
}

/// What the blocks of a text (or of one window of a larger one) say of its number format.
#[derive(Debug, Clone, Default)]
pub struct Formats {
    pub changes: FormatChanges,
    /// The evidence of every block.
    pub tally: Tally,
    /// The format the blocks that tell nothing were read in, where there is one.
    pub defaulted: Option<NumberFormat>,
}

/// The format of each block of `text`; blocks that tell nothing take `fallback` (the whole
/// file's format, for a window of a larger file), else the majority of the text's evidence.
pub fn formats_of(text: &str, fallback: Option<NumberFormat>) -> Formats {
    let mut blocks: Vec<(usize, Tally)> = vec![(0, Tally::default())];
    let mut pos = 0;
    while pos < text.len() {
        let start = pos;
        let rest = &text[start..];
        let line = memchr::memchr(b'\n', rest.as_bytes()).map_or(rest, |end| &rest[..=end]);
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
        let bytes = rest.as_bytes();
        if bytes.last().is_some_and(u8::is_ascii_digit)
            && let Some(space) = memchr::memrchr(b' ', bytes)
            && space > 0
            && bytes[space - 1] == b' '
            && let Some((_, tally)) = blocks.last_mut()
        {
            tally.add(&rest[space + 1..]);
        }
    }
    let mut whole = Tally::default();
    for (_, t) in &blocks {
        whole.merge(*t);
    }
    let default = fallback.unwrap_or_else(|| whole.decided().unwrap_or_default());
    let mut changes: FormatChanges = Vec::new();
    let mut defaulted = None;
    for (start, tally) in blocks {
        let format = tally.decided().unwrap_or_else(|| {
            defaulted = Some(default);
            default
        });
        if changes.last().map(|c| c.1) != Some(format) {
            changes.push((start, format));
        }
    }
    // A text in decimal points throughout needs no changes.
    if changes.iter().all(|c| c.1 == NumberFormat::Point) {
        changes.clear();
    }
    Formats {
        changes,
        tally: whole,
        defaulted,
    }
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

    #[test]
    fn blocks_that_tell_nothing_take_the_fallback() {
        let text = "  k(int), 2023-Mar-17 14:00:07, Context 1, Stream 7\n    y   cycle   1.234\n";
        let own = formats_of(text, None);
        assert!(own.changes.is_empty());
        assert_eq!(own.tally.told(), 0);
        assert_eq!(own.defaulted, Some(NumberFormat::Point));
        let comma = formats_of(text, Some(NumberFormat::Comma));
        assert_eq!(comma.changes, vec![(0, NumberFormat::Comma)]);
    }
}
