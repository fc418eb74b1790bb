//! The number format a text prints its values in. ncu formats values in the locale of the
//! machine it ran on: `1,234.56` in C and English locales, `1.234,56` in most European ones.
//! The format is decided from the numbers themselves: each number that reads one way only is
//! evidence (`6,72`, `13.490.336`, `2.62`), an ambiguous one (`1,234`) is none, and the
//! evidence of a whole block of values decides for all of them, never one value on its own.

use std::borrow::Cow;

/// Which character a number's decimals follow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum NumberFormat {
    /// `1,234.56`: a decimal point, commas between thousands.
    #[default]
    Point,
    /// `1.234,56`: a decimal comma, dots between thousands.
    Comma,
}

/// What one printed number says about the format, if it says anything.
pub fn evidence(token: &str) -> Option<NumberFormat> {
    let t = token.strip_prefix(['-', '+']).unwrap_or(token);
    let bytes = t.as_bytes();
    if !bytes.first()?.is_ascii_digit() || !bytes.last()?.is_ascii_digit() {
        return None;
    }
    if !bytes
        .iter()
        .all(|b| b.is_ascii_digit() || *b == b'.' || *b == b',')
    {
        return None;
    }
    let dots = bytes.iter().filter(|&&b| b == b'.').count();
    let commas = bytes.iter().filter(|&&b| b == b',').count();
    let decimal_is = |sep: u8| match sep {
        b'.' => NumberFormat::Point,
        _ => NumberFormat::Comma,
    };
    match (dots, commas) {
        (0, 0) => None,
        // Both: the last one is the decimal separator, the other groups thousands before it.
        (_, _) if dots > 0 && commas > 0 => {
            let at = bytes.iter().rposition(|&b| b == b'.' || b == b',')?;
            let sep = bytes[at];
            let group = if sep == b'.' { b',' } else { b'.' };
            grouped(&bytes[..at], group).then(|| decimal_is(sep))
        }
        // A separator that occurs twice groups thousands.
        (d, _) if d >= 2 => grouped(bytes, b'.').then_some(NumberFormat::Comma),
        (_, c) if c >= 2 => grouped(bytes, b',').then_some(NumberFormat::Point),
        _ => {
            let at = bytes.iter().position(|&b| b == b'.' || b == b',')?;
            let sep = bytes[at];
            let (whole, fraction) = (&bytes[..at], &bytes[at + 1..]);
            // A thousands group has three digits and follows one to three digits, not a zero.
            let could_group = fraction.len() == 3 && whole.len() <= 3 && whole[0] != b'0';
            (!could_group).then(|| decimal_is(sep))
        }
    }
}

/// Whether digits are grouped by `sep` in threes: one to three digits, then `sep` and three
/// digits each time.
fn grouped(bytes: &[u8], sep: u8) -> bool {
    let mut groups = bytes.split(|&b| b == sep);
    let first_ok = groups
        .next()
        .is_some_and(|g| (1..=3).contains(&g.len()) && g.iter().all(u8::is_ascii_digit));
    first_ok && groups.all(|g| g.len() == 3 && g.iter().all(u8::is_ascii_digit))
}

/// Evidence counted over a block of numbers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    point: usize,
    comma: usize,
}

impl Tally {
    /// Counts what one printed number says.
    pub fn add(&mut self, token: &str) {
        if let Some(format) = evidence(token) {
            self.add_evidence(format);
        }
    }

    /// Counts one number's evidence.
    pub fn add_evidence(&mut self, format: NumberFormat) {
        match format {
            NumberFormat::Point => self.point += 1,
            NumberFormat::Comma => self.comma += 1,
        }
    }

    /// Adds another block's evidence.
    pub fn merge(&mut self, other: Tally) {
        self.point += other.point;
        self.comma += other.comma;
    }

    /// How many numbers told the format.
    pub fn told(&self) -> usize {
        self.point + self.comma
    }

    /// Whether any number said decimal comma.
    pub fn any_comma(&self) -> bool {
        self.comma > 0
    }

    /// The format most of the telling numbers say; `None` when none told.
    pub fn decided(&self) -> Option<NumberFormat> {
        match (self.point, self.comma) {
            (0, 0) => None,
            (p, c) if c > p => Some(NumberFormat::Comma),
            _ => Some(NumberFormat::Point),
        }
    }
}

/// A value cell of `format` as the readers parse it (`1,234.5`). Only cells made of digits,
/// separators, signs and the marks of instance lists (`1,5 (1,2; 1,8)`) are rewritten; any
/// other text is kept as it is.
pub fn to_point(text: &str, format: NumberFormat) -> Cow<'_, str> {
    if format == NumberFormat::Point || !text.bytes().any(|b| b == b',' || b == b'.') {
        return Cow::Borrowed(text);
    }
    let numeric = text.bytes().all(|b| {
        b.is_ascii_digit() || matches!(b, b'.' | b',' | b'-' | b'+' | b';' | b'(' | b')' | b' ')
    });
    if !numeric {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match c {
                '.' => ',',
                ',' => '.',
                c => c,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_that_read_one_way_are_evidence() {
        use NumberFormat::{Comma, Point};
        assert_eq!(evidence("6,72"), Some(Comma));
        assert_eq!(evidence("13.490.336"), Some(Comma));
        assert_eq!(evidence("9.420.231,80"), Some(Comma));
        assert_eq!(evidence("0,125"), Some(Comma));
        assert_eq!(evidence("2.62"), Some(Point));
        assert_eq!(evidence("135,884.39"), Some(Point));
        assert_eq!(evidence("1,980,000"), Some(Point));
        assert_eq!(evidence("6.701347"), Some(Point));
        assert_eq!(evidence("-1.5"), Some(Point));
        // Ambiguous or not numbers.
        assert_eq!(evidence("1,234"), None);
        assert_eq!(evidence("1.234"), None);
        assert_eq!(evidence("142"), None);
        assert_eq!(evidence("n/a"), None);
        assert_eq!(evidence("192.0.2.2"), None);
        assert_eq!(evidence("1.2,3.4"), None);
        assert_eq!(evidence("1.5e3"), None);
    }

    #[test]
    fn the_majority_decides() {
        let mut t = Tally::default();
        assert_eq!(t.decided(), None);
        for v in ["6,72", "1,35", "13.490.336", "44,19", "1,234", "2.5"] {
            t.add(v);
        }
        assert_eq!(t.decided(), Some(NumberFormat::Comma));
        assert!(t.any_comma());
    }

    #[test]
    fn comma_cells_become_point_cells() {
        let c = NumberFormat::Comma;
        assert_eq!(to_point("9.420.231,80", c), "9,420,231.80");
        assert_eq!(to_point("6,72", c), "6.72");
        assert_eq!(to_point("1,5 (1,2; 1,8)", c), "1.5 (1.2; 1.8)");
        assert_eq!(to_point("CachePreferNone", c), "CachePreferNone");
        assert_eq!(to_point("NVIDIA A100, 80GB", c), "NVIDIA A100, 80GB");
        assert_eq!(to_point("6,72", NumberFormat::Point), "6,72");
    }
}
