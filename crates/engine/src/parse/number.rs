//! Numbers as ncu prints them: `142,196`, `135,884.39`, `(!) n/a`, `nan`, strings.

use crate::model::Value;

/// A printed value, parsed: the value and the number of decimals printed.
pub fn parse_value(text: &str) -> (Value, u8) {
    let t = text.trim();
    // Most values are plain numbers, read without allocating.
    if let Some(v) = plain_number(t) {
        return v;
    }
    read_value(t)
}

/// [`parse_value`] of a trimmed text, without the plain numbers' shortcut.
fn read_value(t: &str) -> (Value, u8) {
    let t = t.strip_prefix("(!)").map(str::trim).unwrap_or(t);
    if t.is_empty() || t == "n/a" || t == "N/A" || t == "-" || t == "no data" {
        return (Value::Missing, 0);
    }
    match parse_number(t) {
        Some(v) => v,
        None => (Value::Str(t.into()), 0),
    }
}

/// Digits with optional `,` groups of three and an optional fraction, as [`parse_number`] reads
/// them. `None` for anything else (signs, exponents, odd grouping, very long numbers).
fn plain_number(t: &str) -> Option<(Value, u8)> {
    let bytes = t.as_bytes();
    let mut buf = [0u8; 40];
    if bytes.is_empty() || bytes.len() > buf.len() || !bytes[0].is_ascii_digit() {
        return None;
    }
    let mut len = 0;
    let mut group = 0usize;
    let mut saw_comma = false;
    let mut decimals: Option<u8> = None;
    for &b in bytes {
        match b {
            b'0'..=b'9' => {
                buf[len] = b;
                len += 1;
                match decimals.as_mut() {
                    Some(d) => *d += 1,
                    None => group += 1,
                }
            }
            b',' if decimals.is_none() => {
                if group == 0 || (saw_comma && group != 3) || (!saw_comma && group > 3) {
                    return None;
                }
                saw_comma = true;
                group = 0;
            }
            b'.' if decimals.is_none() => {
                buf[len] = b'.';
                len += 1;
                decimals = Some(0);
            }
            _ => return None,
        }
    }
    let digits = std::str::from_utf8(&buf[..len]).ok()?;
    match decimals {
        None => {
            if saw_comma && group != 3 {
                return None;
            }
            digits.parse::<u64>().ok().map(|v| (Value::U64(v), 0))
        }
        Some(0) => None,
        Some(d) => digits.parse::<f64>().ok().map(|v| (Value::Double(v), d)),
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
    fn plain_numbers_read_as_the_full_reading_reads_them() {
        let mut plain_read = 0;
        for t in [
            "0",
            "7",
            "142,196",
            "135,884.39",
            "2.62",
            "1,2",
            "12,34",
            "1,234,5678",
            "1,23.5",
            "1.",
            ".5",
            "1.2.3",
            "-3",
            "4.979e-05",
            "nan",
            "(!) n/a",
            "n/a",
            "PolicySpread",
            "18446744073709551615",
            "18446744073709551616",
            "2,618,678,414.10",
            "0.00",
            "123456789012345678901234567890.5",
            "1,000",
            "1000,000",
            "1 000",
        ] {
            if let Some(plain) = plain_number(t) {
                plain_read += 1;
                assert_eq!(plain, read_value(t), "{t}");
            }
            // Debug text, so that NaN compares equal to NaN.
            assert_eq!(
                format!("{:?}", parse_value(t)),
                format!("{:?}", read_value(t.trim())),
                "{t}"
            );
        }
        assert_eq!(plain_read, 11);
    }

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
