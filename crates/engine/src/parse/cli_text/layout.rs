//! Column layout of a dash-rule table: the dash groups of a rule line (`---- ----- ----`) give
//! each column's byte range, which cuts header and data rows into cells.

/// The most columns a layout keeps; wider tables keep their first columns only.
pub const MAX_COLUMNS: usize = 8;

/// Byte ranges `[start, end)` of a table's columns, measured from the start of the line.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Layout {
    cols: [(u32, u32); MAX_COLUMNS],
    len: u8,
}

impl Layout {
    /// Reads a dash rule. `None` unless the line is indented dash groups separated by single
    /// spaces (trailing spaces allowed).
    pub fn from_rule(line: &str) -> Option<Layout> {
        let bytes = line.as_bytes();
        let mut cols = [(0u32, 0u32); MAX_COLUMNS];
        let mut len = 0usize;
        let mut i = leading_spaces(line);
        if bytes.get(i) != Some(&b'-') {
            return None;
        }
        let end = line.trim_end().len();
        while i < end {
            let start = i;
            while i < end && bytes[i] == b'-' {
                i += 1;
            }
            if i == start {
                return None;
            }
            if len < MAX_COLUMNS {
                cols[len] = (to_u32(start)?, to_u32(i)?);
                len += 1;
            }
            if i < end {
                // Exactly one space between groups.
                if bytes[i] != b' ' || bytes.get(i + 1) == Some(&b' ') {
                    return None;
                }
                i += 1;
            }
        }
        Some(Layout {
            cols,
            len: len as u8,
        })
    }

    /// Number of columns.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// The byte range of column `i`.
    pub fn col(&self, i: usize) -> Option<(usize, usize)> {
        if i < self.len() {
            let (s, e) = self.cols[i];
            Some((s as usize, e as usize))
        } else {
            None
        }
    }

    /// The indentation of the table (start of the first column).
    pub fn indent(&self) -> usize {
        self.cols[0].0 as usize
    }

    /// The end of the last column: right-aligned rows end there.
    pub fn end(&self) -> usize {
        self.cols[self.len().saturating_sub(1)].1 as usize
    }

    /// The trimmed text of cell `i`; the last column runs to the end of the line. `None` when the
    /// cut falls inside a character or a neighbouring cell overflows into this one.
    pub fn cell<'a>(&self, line: &'a str, i: usize) -> Option<&'a str> {
        let (start, end) = self.col(i)?;
        let bytes = line.as_bytes();
        if start >= bytes.len() {
            return Some("");
        }
        // The separator before a column must be blank, or the previous cell overflowed.
        if i > 0 && start > 0 && bytes.get(start - 1).is_some_and(|&b| b != b' ') {
            return None;
        }
        let text = if i + 1 == self.len() {
            line.get(start..)?
        } else {
            if bytes.get(end).is_some_and(|&b| b != b' ') {
                return None;
            }
            line.get(start..end.min(bytes.len()))?
        };
        Some(trim_spaces(text))
    }

    /// Cuts a metric row into label, unit and the cells of `value_cols` (unused slots hold
    /// an out-of-range column); falls back to splitting at runs of two spaces when a cell
    /// overflows its column.
    pub fn cut_row<'a>(
        &self,
        line: &'a str,
        value_cols: [usize; 3],
    ) -> (&'a str, &'a str, [&'a str; 3]) {
        let mut values = [""; 3];
        let label = self.cell(line, 0);
        let unit = self.cell(line, 1);
        let mut ok = label.is_some() && unit.is_some();
        for (slot, &col) in value_cols.iter().enumerate() {
            if col >= self.len() {
                continue;
            }
            match self.cell(line, col) {
                Some(v) => values[slot] = v,
                None => ok = false,
            }
        }
        if ok {
            return (label.unwrap_or(""), unit.unwrap_or(""), values);
        }
        let text = line.trim();
        let (label, rest) = match text.find("  ") {
            Some(i) => (&text[..i], text[i..].trim_start()),
            None => (text, ""),
        };
        let (unit, value) = match rest.find("  ") {
            Some(i) => (&rest[..i], rest[i..].trim_start()),
            None => ("", rest),
        };
        (label, unit, [value, value, value])
    }

    /// Whether a line's text starts at or after column `i`'s end, leaving the cell blank.
    pub fn blank_before(&self, line: &str, i: usize) -> bool {
        match self.col(i) {
            Some((_, end)) => leading_spaces(line) >= end.min(line.len()),
            None => false,
        }
    }
}

fn to_u32(v: usize) -> Option<u32> {
    u32::try_from(v).ok()
}

/// The text without leading and trailing ASCII spaces (cells are padded with spaces only).
pub fn trim_spaces(text: &str) -> &str {
    let bytes = text.as_bytes();
    let start = bytes.iter().take_while(|&&b| b == b' ').count();
    let end = bytes.len()
        - bytes[start..]
            .iter()
            .rev()
            .take_while(|&&b| b == b' ')
            .count();
    // Both ends are at ASCII spaces or the string's ends: character boundaries.
    text.get(start..end).unwrap_or("")
}

/// Number of leading ASCII spaces.
pub fn leading_spaces(line: &str) -> usize {
    line.bytes().take_while(|&b| b == b' ').count()
}

/// Whether a line (without its indentation) is a dash rule.
pub fn is_dash_rule(rest: &str) -> bool {
    let t = rest.trim_end();
    t.starts_with('-') && t.bytes().all(|b| b == b'-' || b == b' ') && !t.contains("  ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuts_rows_by_dash_groups() {
        let rule = "    ----------------------- ----------- ------------";
        let l = Layout::from_rule(rule).unwrap();
        assert_eq!(l.len(), 3);
        assert_eq!(l.indent(), 4);
        assert_eq!(l.end(), rule.len());
        let row = "    DRAM Frequency                  Ghz         2.62";
        assert_eq!(l.cell(row, 0), Some("DRAM Frequency"));
        assert_eq!(l.cell(row, 1), Some("Ghz"));
        assert_eq!(l.cell(row, 2), Some("2.62"));
        let cont = "                                               HBM3";
        assert!(l.blank_before(cont, 0));
        assert!(l.blank_before(cont, 1));
        assert_eq!(l.cell(cont, 2), Some("HBM3"));
        assert!(Layout::from_rule("    text").is_none());
        assert!(Layout::from_rule("    --  --").is_none());
    }

    #[test]
    fn rejects_overflowing_cells() {
        let l = Layout::from_rule("  ---- --- ---").unwrap();
        assert_eq!(l.cell("  abcdefgh x  1", 1), None);
        // The row is then split at runs of spaces.
        assert_eq!(
            l.cut_row("  abcdefgh  x  1", [2, 9, 9]),
            ("abcdefgh", "x", ["1", "1", "1"])
        );
    }
}
