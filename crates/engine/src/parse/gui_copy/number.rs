//! Numbers as the GUI copies them: raw (`1387877.61`) in tables, but locale-grouped elsewhere
//! (`1.391.144`). Dots are read as thousands separators only where they cannot be a decimal
//! point: two or more dots, every group after the first of three digits.

use crate::model::Value;
use crate::parse::number::parse_value;

/// A GUI value: (value, decimals printed).
pub fn gui_number(text: &str) -> (Value, u8) {
    let t = text.trim();
    if is_dot_grouped(t) {
        let digits: String = t.chars().filter(|c| *c != '.').collect();
        if let Ok(v) = digits.parse::<u64>() {
            return (Value::U64(v), 0);
        }
    }
    parse_value(t)
}

/// `1.391.144`: one to three digits, then two or more `.ddd` groups.
fn is_dot_grouped(t: &str) -> bool {
    let groups: Vec<&str> = t.split('.').collect();
    let all_digits = |g: &str| !g.is_empty() && g.bytes().all(|b| b.is_ascii_digit());
    groups.len() >= 3
        && groups
            .first()
            .is_some_and(|g| all_digits(g) && g.len() <= 3)
        && groups[1..].iter().all(|g| all_digits(g) && g.len() == 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_grouped_and_raw_numbers() {
        assert_eq!(gui_number("1.391.144"), (Value::U64(1_391_144), 0));
        assert_eq!(gui_number("1387877.61"), (Value::Double(1_387_877.61), 2));
        assert_eq!(gui_number("1.391"), (Value::Double(1.391), 3));
        assert_eq!(gui_number("526385152"), (Value::U64(526_385_152), 0));
        assert_eq!(gui_number("1.2.3"), (Value::Str("1.2.3".into()), 0));
        assert_eq!(
            gui_number("CachePreferNone"),
            (Value::Str("CachePreferNone".into()), 0)
        );
    }
}
