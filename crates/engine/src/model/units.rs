//! Units ncu prints, and their conversion to the base units `--print-units base` prints.
//!
//! Byte and frequency prefixes are decimal (×1000). Older layouts spell time in full
//! (`usecond`) and frequencies as `cycle/nsecond`.

/// A unit converted to its base: `value_in_base = value_in_unit * factor`.
#[derive(Debug, Clone, PartialEq)]
pub struct BaseUnit {
    /// The base unit name (`ns`, `hz`, `byte`, `byte/s`, `%`, ...).
    pub unit: String,
    /// The factor from the printed unit to the base unit.
    pub factor: f64,
}

fn prefix_factor(p: &str) -> Option<f64> {
    Some(match p {
        "" => 1.0,
        "K" | "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        _ => return None,
    })
}

/// A time unit in nanoseconds.
fn time_ns(u: &str) -> Option<f64> {
    Some(match u {
        "ns" | "nsecond" | "nseconds" => 1.0,
        "us" | "usecond" | "useconds" => 1e3,
        "ms" | "msecond" | "mseconds" => 1e6,
        "s" | "second" | "seconds" => 1e9,
        _ => return None,
    })
}

/// Splits a prefixed byte or hertz unit (`Kbyte`, `Ghz`) into its base and factor.
fn prefixed(u: &str) -> Option<(&'static str, f64)> {
    for base in ["byte", "hz", "Hz"] {
        if let Some(p) = u.strip_suffix(base)
            && let Some(f) = prefix_factor(p)
        {
            return Some((if base == "byte" { "byte" } else { "hz" }, f));
        }
    }
    None
}

/// Converts a printed unit to its base unit. Unknown units are kept with factor 1.
pub fn to_base(unit: &str) -> BaseUnit {
    let unit = unit.trim();
    let keep = |u: &str| BaseUnit {
        unit: u.to_string(),
        factor: 1.0,
    };
    if unit.is_empty() {
        return keep("");
    }
    if let Some(ns) = time_ns(unit) {
        return BaseUnit {
            unit: "ns".into(),
            factor: ns,
        };
    }
    if let Some((base, f)) = prefixed(unit) {
        return BaseUnit {
            unit: base.into(),
            factor: f,
        };
    }
    if let Some((num, den)) = unit.split_once('/') {
        // cycle/nsecond is a frequency.
        if num == "cycle"
            && let Some(ns) = time_ns(den)
        {
            return BaseUnit {
                unit: "hz".into(),
                factor: 1e9 / ns,
            };
        }
        let (num_base, num_f) = match prefixed(num) {
            Some((b, f)) => (b.to_string(), f),
            None => (num.to_string(), 1.0),
        };
        // A rate: X per time unit becomes X per second.
        if let Some(ns) = time_ns(den) {
            return BaseUnit {
                unit: format!("{num_base}/s"),
                factor: num_f * 1e9 / ns,
            };
        }
        // A per-size quantity: ncu scales such a value as a whole, so 2614 `%/byte` prints as
        // 2.614 `%/Kbyte` and the denominator's prefix multiplies.
        if let Some((den_base, den_f)) = prefixed(den) {
            return BaseUnit {
                unit: format!("{num_base}/{den_base}"),
                factor: num_f * den_f,
            };
        }
        return BaseUnit {
            unit: format!("{num_base}/{den}"),
            factor: num_f,
        };
    }
    keep(unit)
}

/// The SI prefix of a magnitude `a` (from K up to the prefix of `most`: 1e12 for T, 1e15
/// for P) and its divisor.
fn si_prefix(a: f64, most: f64) -> (&'static str, f64) {
    [("P", 1e15), ("T", 1e12), ("G", 1e9), ("M", 1e6), ("K", 1e3)]
        .into_iter()
        .find(|&(_, d)| d <= most && a >= d)
        .unwrap_or(("", 1.0))
}

/// The display scale for a base unit and a magnitude, the way ncu auto-scales:
/// returns (unit to show, divisor).
pub fn auto_scale(base: &str, value: f64) -> (String, f64) {
    let a = value.abs();
    match base {
        "ns" => {
            if a >= 1e9 {
                ("s".into(), 1e9)
            } else if a >= 1e6 {
                ("ms".into(), 1e6)
            } else if a >= 1e3 {
                ("us".into(), 1e3)
            } else {
                ("ns".into(), 1.0)
            }
        }
        _ if base == "byte" || base == "hz" || base.starts_with("byte/") => {
            let (num, rest) = match base.split_once('/') {
                Some((n, r)) => (n, format!("/{r}")),
                None => (base, String::new()),
            };
            let stem = if num == "hz" { "hz" } else { "byte" };
            let (p, d) = si_prefix(a, 1e12);
            (format!("{p}{stem}{rest}"), d)
        }
        // Operations (the tensor roofline's tables): `15.69 POP/s`, as ncu-ui's chart axis;
        // floating-point work alike (a sweep's `2.46 TFLOP/s`).
        _ if matches!(base.split('/').next(), Some("OP" | "FLOP")) => {
            let (word, rest) = base.split_at(base.find('/').unwrap_or(base.len()));
            let (p, d) = si_prefix(a, 1e15);
            (format!("{p}{word}{rest}"), d)
        }
        _ => (base.to_string(), 1.0),
    }
}

/// Formats a number in a base unit the way a person reads it: auto-scaled, two decimals,
/// thousands separators, integers without decimals.
pub fn format_value(value: f64, base_unit: &str) -> String {
    let (unit, div) = auto_scale(base_unit, value);
    let v = value / div;
    let text = if div == 1.0 && v.fract() == 0.0 && v.abs() < 1e15 {
        group_thousands(&format!("{}", v as i64))
    } else {
        group_thousands(&format!("{v:.2}"))
    };
    if unit.is_empty() {
        text
    } else {
        format!("{text} {unit}")
    }
}

/// Inserts `,` thousands separators into a plain decimal number.
pub fn group_thousands(s: &str) -> String {
    let (sign, rest) = match s.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", s),
    };
    let (int, frac) = match rest.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (rest, None),
    };
    if !int.bytes().all(|b| b.is_ascii_digit()) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + int.len() / 3);
    out.push_str(sign);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(u: &str) -> (String, f64) {
        let r = to_base(u);
        (r.unit, r.factor)
    }

    #[test]
    fn operations_scale_like_the_roofline_axis() {
        assert_eq!(
            format_value(15_686_790_205_469_004.0, "OP/s"),
            "15.69 POP/s"
        );
        assert_eq!(format_value(8_650_752.0, "OP/cycle"), "8.65 MOP/cycle");
        assert_eq!(format_value(512.0, "OP"), "512 OP");
    }

    #[test]
    fn converts_every_printed_unit() {
        assert_eq!(b("us"), ("ns".into(), 1e3));
        assert_eq!(b("usecond"), ("ns".into(), 1e3));
        assert_eq!(b("ms"), ("ns".into(), 1e6));
        assert_eq!(b("Ghz"), ("hz".into(), 1e9));
        assert_eq!(b("cycle/nsecond"), ("hz".into(), 1e9));
        assert_eq!(b("cycle/usecond"), ("hz".into(), 1e6));
        assert_eq!(b("Kbyte"), ("byte".into(), 1e3));
        assert_eq!(b("Kbyte/block"), ("byte/block".into(), 1e3));
        assert_eq!(b("Gbyte/second"), ("byte/s".into(), 1e9));
        assert_eq!(b("Tbyte/s"), ("byte/s".into(), 1e12));
        assert_eq!(b("sector/us"), ("sector/s".into(), 1e6));
        assert_eq!(b("%/Kbyte"), ("%/byte".into(), 1e3));
        assert_eq!(b("register/thread"), ("register/thread".into(), 1.0));
        assert_eq!(b("inst/cycle"), ("inst/cycle".into(), 1.0));
        assert_eq!(b("%"), ("%".into(), 1.0));
        assert_eq!(b(""), ("".into(), 1.0));
    }

    #[test]
    fn formats_like_ncu() {
        assert_eq!(format_value(72640.0, "ns"), "72.64 us");
        assert_eq!(format_value(1_978_610_269.82, "hz"), "1.98 Ghz");
        assert_eq!(format_value(142196.0, "cycle"), "142,196 cycle");
        assert_eq!(group_thousands("1234567.5"), "1,234,567.5");
    }
}
