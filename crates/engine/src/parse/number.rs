//! Numbers as ncu prints them: `142,196`, `135,884.39`, `(!) n/a`, `nan`, strings.

use crate::model::Value;

/// A printed value, parsed: the value and the number of decimals printed.
pub fn parse_value(text: &str) -> (Value, u8) {
    let t = text.trim();
    let t = t.strip_prefix("(!)").map(str::trim).unwrap_or(t);
    if t.is_empty() || t == "n/a" || t == "N/A" || t == "-" || t == "no data" {
        return (Value::Missing, 0);
    }
    match parse_number(t) {
        Some(v) => v,
        None => (Value::Str(t.into()), 0),
    }
}

/// Parses a C-locale number with optional `,` thousands separators. Returns `None` when the
/// text is not a number.
pub fn parse_number(t: &str) -> Option<(Value, u8)> {
    match t {
        "nan" | "NaN" | "-nan" => return Some((Value::Double(f64::NAN), 0)),
        "inf" | "+inf" => return Some((Value::Double(f64::INFINITY), 0)),
        "-inf" => return Some((Value::Double(f64::NEG_INFINITY), 0)),
        _ => {}
    }
    let bytes = t.as_bytes();
    let (neg, digits) = match bytes.first()? {
        b'-' => (true, &t[1..]),
        b'+' => (false, &t[1..]),
        _ => (false, t),
    };
    if digits.is_empty() || !digits.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    let mut clean = String::with_capacity(digits.len() + 1);
    if neg {
        clean.push('-');
    }
    let mut decimals: Option<u8> = None;
    let mut exponent = false;
    let mut group_len = 0usize;
    let mut saw_comma = false;
    for (i, c) in digits.char_indices() {
        match c {
            '0'..='9' => {
                clean.push(c);
                match decimals.as_mut() {
                    Some(d) if !exponent => *d = d.saturating_add(1),
                    None => group_len += 1,
                    _ => {}
                }
            }
            ',' if decimals.is_none() && !exponent => {
                if (saw_comma && group_len != 3) || (!saw_comma && group_len > 3) || group_len == 0
                {
                    return None;
                }
                saw_comma = true;
                group_len = 0;
            }
            '.' if decimals.is_none() && !exponent => {
                decimals = Some(0);
                clean.push('.');
            }
            'e' | 'E' if !exponent && i + 1 < digits.len() => {
                exponent = true;
                clean.push('e');
            }
            '+' | '-' if exponent && clean.ends_with('e') => clean.push(c),
            _ => return None,
        }
    }
    if saw_comma && decimals.is_none() && group_len != 3 {
        return None;
    }
    if decimals.is_none() && !exponent {
        if neg {
            return clean.parse::<i64>().ok().map(|v| (Value::I64(v), 0));
        }
        if let Ok(v) = clean.parse::<u64>() {
            return Some((Value::U64(v), 0));
        }
    }
    clean
        .parse::<f64>()
        .ok()
        .map(|v| (Value::Double(v), decimals.unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_ncu_numbers() {
        assert_eq!(parse_value("142,196"), (Value::U64(142_196), 0));
        assert_eq!(parse_value("135,884.39"), (Value::Double(135_884.39), 2));
        assert_eq!(parse_value("(!) n/a"), (Value::Missing, 0));
        assert_eq!(
            parse_value("CachePreferNone"),
            (Value::Str("CachePreferNone".into()), 0)
        );
        assert_eq!(parse_value("4.979e-05"), (Value::Double(4.979e-05), 3));
        assert_eq!(parse_value("-3"), (Value::I64(-3), 0));
        assert!(matches!(parse_value("nan").0, Value::Double(v) if v.is_nan()));
        assert_eq!(parse_value("1,2"), (Value::Str("1,2".into()), 0));
        assert_eq!(
            parse_value("192.0.2.2, fd00::2").0,
            Value::Str("192.0.2.2, fd00::2".into())
        );
    }
}
