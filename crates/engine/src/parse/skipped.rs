//! What a reader skipped, grouped by why: each reason becomes one warning that counts the
//! skipped things and names the first few places they were at (line numbers, columns).

use crate::model::{Warning, WarningKind};

/// Skipped rows, lines or cells of one report, grouped by reason in the order first seen.
#[derive(Debug)]
pub struct Skipped {
    /// What is skipped: `row`, `line`, `cell`.
    noun: &'static str,
    /// How each one is named: `line`, `column`.
    place: &'static str,
    /// What happened to them: `skipped` unless told otherwise.
    verb: &'static str,
    /// Per reason: how many, and the distinct places in the order first seen.
    by_reason: Vec<(String, usize, Vec<String>)>,
}

impl Skipped {
    /// Most places a warning names.
    pub const NAMED: usize = 5;

    /// Nothing skipped yet; `noun` says what is skipped, `place` how each is named.
    pub fn new(noun: &'static str, place: &'static str) -> Self {
        Skipped {
            noun,
            place,
            verb: "skipped",
            by_reason: Vec::new(),
        }
    }

    /// The same, saying `verb` (`read in part`) instead of `skipped`.
    pub fn with_verb(self, verb: &'static str) -> Self {
        Skipped { verb, ..self }
    }

    /// Notes one skipped thing at `place` (a line number, a column name) for `reason`.
    pub fn add(&mut self, reason: &str, place: impl ToString) {
        let place = place.to_string();
        match self.by_reason.iter_mut().find(|(r, _, _)| r == reason) {
            Some((_, count, places)) => {
                *count += 1;
                if places.last() != Some(&place) && !places.contains(&place) {
                    places.push(place);
                }
            }
            None => self.by_reason.push((reason.to_string(), 1, vec![place])),
        }
    }

    /// Nothing was skipped.
    pub fn is_empty(&self) -> bool {
        self.by_reason.is_empty()
    }

    /// Adds what `other` skipped, with line numbers shifted by `line_offset` (for a text read
    /// in parts); places that are not numbers are kept as they are.
    pub fn append_shifted(&mut self, other: Skipped, line_offset: usize) {
        for (reason, _, places) in other.by_reason {
            // Lines are distinct, so each place stands for one skipped thing.
            for place in places {
                match place.parse::<usize>() {
                    Ok(n) => self.add(&reason, n + line_offset),
                    Err(_) => self.add(&reason, place),
                }
            }
        }
    }

    /// Adds what `other` skipped, its places already numbered as this one's (a later window
    /// of the same file): counts add up, places are named once.
    pub fn merge(&mut self, other: Skipped) {
        for (reason, n, places) in other.by_reason {
            match self.by_reason.iter_mut().find(|(r, _, _)| *r == reason) {
                Some((_, count, mine)) => {
                    *count += n;
                    let known: std::collections::HashSet<String> = mine.iter().cloned().collect();
                    mine.extend(places.into_iter().filter(|p| !known.contains(p)));
                }
                None => self.by_reason.push((reason, n, places)),
            }
        }
    }

    /// `3 rows without a result ID skipped (lines 4, 9, 12)`, one per reason.
    pub fn warnings(self) -> impl Iterator<Item = Warning> {
        let (noun, place, verb) = (self.noun, self.place, self.verb);
        self.by_reason.into_iter().map(move |(reason, n, places)| {
            let plural = if n == 1 { "" } else { "s" };
            let places_plural = if places.len() == 1 { "" } else { "s" };
            let more = places.len().saturating_sub(Self::NAMED);
            let named = places
                .into_iter()
                .take(Self::NAMED)
                .collect::<Vec<_>>()
                .join(", ");
            let tail = if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            };
            Warning::new(
                WarningKind::Skipped,
                format!(
                    "{n} {noun}{plural} {reason} {verb} ({place}{places_plural} {named}{tail})"
                ),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Skipped;

    #[test]
    fn one_warning_per_reason_with_count_and_first_places() {
        let mut s = Skipped::new("line", "line");
        for n in [4, 9, 12, 20, 21, 30, 31] {
            s.add("that fit no shape", n);
        }
        s.add("with a bad value", 2);
        let mut other = Skipped::new("line", "line");
        other.add("with a bad value", 1);
        s.append_shifted(other, 100);
        let w: Vec<String> = s.warnings().map(|w| w.message).collect();
        assert_eq!(
            w,
            [
                "7 lines that fit no shape skipped (lines 4, 9, 12, 20, 21 and 2 more)",
                "2 lines with a bad value skipped (lines 2, 101)",
            ]
        );
        // Merged as a later window of the same file: counts kept, each place once.
        let mut first = Skipped::new("cell", "column");
        first.add("beyond the header", "x");
        first.add("beyond the header", "x");
        let mut later = Skipped::new("cell", "column");
        later.add("beyond the header", "x");
        later.add("beyond the header", "y");
        later.add("under no name", "z");
        first.merge(later);
        let w: Vec<String> = first.warnings().map(|w| w.message).collect();
        assert_eq!(
            w,
            [
                "4 cells beyond the header skipped (columns x, y)",
                "1 cell under no name skipped (column z)"
            ]
        );
        let mut cells = Skipped::new("cell", "column");
        for column in ["x", "x", "y"] {
            cells.add("beyond the header", column);
        }
        let w: Vec<String> = cells.warnings().map(|w| w.message).collect();
        assert_eq!(w, ["3 cells beyond the header skipped (columns x, y)"]);
    }
}
