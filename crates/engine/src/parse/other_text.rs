//! Text around ncu's blocks that is not ncu's: the program's own output, shell prompts, the
//! prose around a pasted block. Passing over it loses nothing of a result, so it is told apart
//! from skipped ncu lines: it becomes a note of the report, never a warning (`--strict` fails on
//! warnings only).

use super::detect::is_status_line;

/// Lines of other text passed over, as ranges of line numbers in the order seen.
#[derive(Debug, Default)]
pub struct OtherText {
    lines: usize,
    ranges: Vec<(usize, usize)>,
}

impl OtherText {
    /// Most ranges a note names.
    pub const NAMED: usize = 5;

    /// Notes line `line` as other text.
    pub fn add(&mut self, line: usize) {
        match self.ranges.last_mut() {
            Some((_, end)) if *end >= line => return,
            Some((_, end)) if *end + 1 == line => *end = line,
            _ => self.ranges.push((line, line)),
        }
        self.lines += 1;
    }

    /// Notes every non-blank line of `text` that is not one of ncu's status lines; the first
    /// line of `text` is line `first_line`.
    pub fn add_text(&mut self, text: &str, first_line: usize) {
        for (n, line) in (first_line..).zip(text.lines()) {
            if !line.trim().is_empty() && !is_status_line(line) {
                self.add(n);
            }
        }
    }

    /// Adds what `other` noted, with line numbers shifted by `offset` (a text read in parts).
    pub fn append_shifted(&mut self, other: OtherText, offset: usize) {
        for (start, end) in other.ranges {
            for line in start..=end {
                self.add(line + offset);
            }
        }
    }

    /// Nothing was passed over.
    pub fn is_empty(&self) -> bool {
        self.lines == 0
    }

    /// `21 lines that are not ncu output passed over (lines 1-19, 22-23)`.
    pub fn note(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let n = self.lines;
        let plural = if n == 1 { "" } else { "s" };
        let verb = if n == 1 { "is" } else { "are" };
        let named: Vec<String> = self
            .ranges
            .iter()
            .take(Self::NAMED)
            .map(|&(s, e)| {
                if s == e {
                    s.to_string()
                } else {
                    format!("{s}-{e}")
                }
            })
            .collect();
        let more = self.ranges.len().saturating_sub(Self::NAMED);
        let tail = if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        };
        let places = if n == 1 { "line" } else { "lines" };
        Some(format!(
            "{n} line{plural} passed over that {verb} not ncu output (the program's own output or \
             other text; no result data): {places} {}{tail}",
            named.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::OtherText;

    #[test]
    fn lines_are_told_as_ranges() {
        let mut t = OtherText::default();
        assert_eq!(t.note(), None);
        t.add_text("a\nb\n==PROF== Connected\n\nc\n", 1);
        let mut later = OtherText::default();
        later.add(1);
        later.add(2);
        t.append_shifted(later, 9);
        assert_eq!(
            t.note().unwrap(),
            "5 lines passed over that are not ncu output (the program's own output or other \
             text; no result data): lines 1-2, 5, 10-11"
        );
        let mut one = OtherText::default();
        one.add(7);
        assert!(
            one.note()
                .unwrap()
                .starts_with("1 line passed over that is not")
        );
    }
}
