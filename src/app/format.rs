//! Text for values, metrics and rules as the views show them (no egui): one formatter for
//! every page and export. Counts have no decimals and thousands separators (`14,680,064`),
//! other values two decimals; times and sizes are scaled (`ns`/`us`/`ms`, `B`/`KB`/`MB`/`GB`);
//! a value that is not finite is never printed as `inf`.

use crate::model::units::{auto_scale, format_value, group_thousands};
use crate::model::{MetricView, RuleResult, SpeedupKind, Value};

/// A unit as people read it: `B`, `KB/s`, `GHz` for ncu's `byte`, `Kbyte/second`, `Ghz`;
/// other units as they are.
pub fn display_unit(unit: &str) -> String {
    let part = |p: &str| -> String {
        match p {
            "byte" => "B".into(),
            "Kbyte" => "KB".into(),
            "Mbyte" => "MB".into(),
            "Gbyte" => "GB".into(),
            "Tbyte" => "TB".into(),
            "hz" => "Hz".into(),
            "Khz" => "kHz".into(),
            "Mhz" => "MHz".into(),
            "Ghz" => "GHz".into(),
            "second" => "s".into(),
            other => other.to_string(),
        }
    };
    unit.split('/').map(part).collect::<Vec<_>>().join("/")
}

/// A number without a unit: integers without decimals, others with two; thousands
/// separators; `-` when not finite.
pub fn number_text(value: f64) -> String {
    if !value.is_finite() {
        "-".into()
    } else if value.fract() == 0.0 && value.abs() < 1e15 {
        group_thousands(&format!("{}", value as i64))
    } else {
        group_thousands(&format!("{value:.2}"))
    }
}

/// A value in a base unit, scaled and with its unit (`71.62 us`, `1.25 MB`, `14,680,064`).
pub fn value_text(value: f64, base_unit: &str) -> String {
    if !value.is_finite() {
        return "-".into();
    }
    let (number, unit) = value_and_unit(&Value::Double(value), base_unit);
    if unit.is_empty() {
        number
    } else {
        format!("{number} {unit}")
    }
}

/// A metric value split into the number text and the unit text, auto-scaled like ncu
/// (`71.62` and `us` for 71,620 ns). Strings and missing values have an empty unit.
pub fn value_and_unit(value: &Value, base_unit: &str) -> (String, String) {
    match value.as_f64() {
        Some(v) if v.is_finite() => {
            let full = format_value(v, base_unit);
            let (unit, _) = auto_scale(base_unit, v);
            match full.strip_suffix(unit.as_str()) {
                Some(number) if !unit.is_empty() => {
                    (number.trim_end().to_string(), display_unit(&unit))
                }
                _ => (full, String::new()),
            }
        }
        Some(_) => ("-".into(), display_unit(base_unit)),
        None => (value.to_string(), String::new()),
    }
}

/// A metric's value with its unit in one string (`71.62 us`).
pub fn metric_text(metric: MetricView<'_>) -> String {
    let (number, unit) = value_and_unit(&metric.value, &metric.unit);
    if unit.is_empty() {
        number
    } else {
        format!("{number} {unit}")
    }
}

/// A percentage with two decimals (`33.65 %`), or `-` when absent.
pub fn percent_text(value: Option<f64>) -> String {
    match value {
        Some(v) if v.is_finite() => format!("{v:.2} %"),
        _ => "-".to_string(),
    }
}

/// The name a rule is shown under: its heading (title, rule name, identifier), else the start of
/// its message.
pub fn rule_title(rule: &RuleResult) -> String {
    // The catalogue's heading, the same whatever form the result was read from.
    let heading = rule.heading();
    let heading = heading.trim();
    if heading.is_empty() {
        first_words(&rule.message, 60)
    } else {
        heading.to_string()
    }
}

/// The speedup label of a rule (`Est. Speedup: 43.64%`), when it has one.
pub fn speedup_text(rule: &RuleResult) -> Option<String> {
    rule.speedup.map(|(kind, pct)| match kind {
        SpeedupKind::Global => format!("Est. Speedup: {pct:.2}%"),
        SpeedupKind::Local => format!("Est. Local Speedup: {pct:.2}%"),
    })
}

/// At most `max_chars` characters of `text`, cut at a word boundary, with `…` when cut.
pub fn first_words(text: &str, max_chars: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max_chars {
        return one_line;
    }
    let cut: String = one_line.chars().take(max_chars).collect();
    let cut = match cut.rfind(' ') {
        Some(i) if i > max_chars / 2 => &cut[..i],
        _ => cut.as_str(),
    };
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.']))
}

/// Rule message markup as plain text: `@url:text:url@`, `@section:id:text@`,
/// `@sass:addr:text@` and `@source:file:line:text@` become their text.
pub fn clean_markup(message: &str) -> String {
    const KINDS: [(&str, usize); 4] = [("url:", 1), ("section:", 1), ("sass:", 1), ("source:", 2)];
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(start) = rest.find('@') {
        let after = &rest[start + 1..];
        let kind = KINDS.iter().find(|(k, _)| after.starts_with(k));
        let end = after.find('@');
        match (kind, end) {
            (Some((k, skip)), Some(end)) => {
                out.push_str(&rest[..start]);
                let body = &after[k.len()..end];
                let text = if *k == "url:" {
                    body.split(':').next().unwrap_or(body)
                } else {
                    body.splitn(skip + 1, ':').nth(*skip).unwrap_or(body)
                };
                out.push_str(text);
                rest = &after[end + 1..];
            }
            _ => {
                out.push_str(&rest[..=start]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A byte count for people (`1.25 MB`).
pub fn size_text(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.0} KB", b / 1e3)
    } else {
        format!("{bytes} B")
    }
}

/// The file name of a path, or the whole path when it has none.
pub fn file_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// A file name made of letters, digits, `-`, `_` and `.` only.
pub fn safe_file_stem(text: &str) -> String {
    let stem: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let stem = stem.trim_matches('_');
    if stem.is_empty() {
        "comparison".into()
    } else {
        stem.chars().take(100).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_formatter_for_counts_units_and_non_numbers() {
        assert_eq!(number_text(14_680_064.0), "14,680,064");
        assert_eq!(number_text(1234.5), "1,234.50");
        assert_eq!(number_text(f64::INFINITY), "-");
        assert_eq!(value_text(71_620.0, "ns"), "71.62 us");
        assert_eq!(value_text(1_250_000.0, "byte"), "1.25 MB");
        assert_eq!(value_text(2.62e9, "hz"), "2.62 GHz");
        assert_eq!(value_text(3.0e12, "byte/s"), "3.00 TB/s");
        assert_eq!(value_text(142_196.0, "cycle"), "142,196 cycle");
        assert_eq!(value_text(f64::NAN, "ns"), "-");
        assert_eq!(display_unit("Kbyte/block"), "KB/block");
        assert_eq!(percent_text(Some(f64::INFINITY)), "-");
        assert_eq!(percent_text(Some(33.654)), "33.65 %");
    }

    #[test]
    fn splits_scaled_units() {
        assert_eq!(
            value_and_unit(&Value::U64(71620), "ns"),
            ("71.62".into(), "us".into())
        );
        assert_eq!(
            value_and_unit(&Value::Double(79.68), "%"),
            ("79.68".into(), "%".into())
        );
        assert_eq!(
            value_and_unit(&Value::U64(141_717), "cycle"),
            ("141,717".into(), "cycle".into())
        );
        assert_eq!(value_and_unit(&Value::U64(0), ""), ("0".into(), "".into()));
        assert_eq!(
            value_and_unit(&Value::Str("CachePreferNone".into()), ""),
            ("CachePreferNone".into(), "".into())
        );
        assert_eq!(
            value_and_unit(&Value::Missing, "%"),
            ("n/a".into(), "".into())
        );
    }

    #[test]
    fn strips_link_markup() {
        assert_eq!(
            clean_markup(
                "See @section:WarpStateStats:Warp State@ and @url:the guide:https://x.y/z@."
            ),
            "See Warp State and the guide."
        );
        assert_eq!(clean_markup("mail a@b and 50@"), "mail a@b and 50@");
    }

    #[test]
    fn cuts_long_messages() {
        assert_eq!(first_words("short   text", 20), "short text");
        assert_eq!(
            first_words("All compute pipelines are under-utilized. Either", 30),
            "All compute pipelines are…"
        );
    }
}
