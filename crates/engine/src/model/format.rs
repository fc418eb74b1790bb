//! The one formatter of values for people, used by every page, the command line and every
//! export: numbers scaled and spelled as ncu prints them (`71.62 us`, `1.25 Mbyte`,
//! `2.62 Ghz`, `3.00 Tbyte/s`, `5.12 Kbyte/cycle`), counts without decimals and with
//! thousands separators (`14,680,064`), other values with two decimals. One rule for a value
//! that was not measured (missing, not a number, infinite): `-`.

use super::units::{auto_scale, format_value, group_thousands};
use super::{MetricView, Value};

/// What a value that was not measured prints as.
pub const NOT_MEASURED: &str = "-";

/// A number without a unit: integers without decimals, others with two; thousands
/// separators; `-` when not finite.
pub fn number_text(value: f64) -> String {
    if !value.is_finite() {
        NOT_MEASURED.into()
    } else if value.fract() == 0.0 && value.abs() < 1e15 {
        group_thousands(&format!("{}", value as i64))
    } else {
        group_thousands(&format!("{value:.2}"))
    }
}

/// A value in a base unit, scaled and with its unit (`71.62 us`, `1.25 Mbyte`, `14,680,064`).
pub fn value_text(value: f64, base_unit: &str) -> String {
    if !value.is_finite() {
        return NOT_MEASURED.into();
    }
    format_value(value, base_unit)
}

/// `1 pair`, `3 pairs`: a count with its noun in the number it needs (never `pair(s)`).
pub fn count_text(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A measured value that must be a number (a duration): as [`value_text`], and where it is no
/// number (`NaN`, an infinity) `damaged (NaN)`, never a figure nor `-`.
pub fn measured_text(value: f64, base_unit: &str) -> String {
    if value.is_finite() {
        format_value(value, base_unit)
    } else {
        format!("damaged ({value})")
    }
}

/// A compute capability as ncu prints it: `8.6`.
pub fn cc_text((major, minor): (u32, u32)) -> String {
    format!("{major}.{minor}")
}

/// A number for a JSON document: `null` where it is missing or not finite.
pub fn number_json(v: Option<f64>) -> serde_json::Value {
    v.and_then(serde_json::Number::from_f64)
        .map_or(serde_json::Value::Null, serde_json::Value::Number)
}

/// A stored value for a JSON document, in its own type (`null` where missing or not finite).
pub fn value_json(v: &Value) -> serde_json::Value {
    use serde_json::json;
    match v {
        Value::U64(x) => json!(x),
        Value::I64(x) => json!(x),
        Value::U32(x) => json!(x),
        Value::Double(x) => number_json(Some(*x)),
        Value::Float(x) => number_json(Some(f64::from(*x))),
        Value::Str(s) => json!(s),
        Value::Missing => serde_json::Value::Null,
    }
}

/// Any stored value in a base unit: numbers as [`value_text`], strings as they are, a missing
/// value as `-`.
pub fn stored_value_text(value: &Value, base_unit: &str) -> String {
    let (number, unit) = value_and_unit(value, base_unit);
    if unit.is_empty() {
        number
    } else {
        format!("{number} {unit}")
    }
}

/// The unit a table shows beside a value: the scaled unit of a number, and the base unit of
/// a value that was not measured (ncu's raw page keeps `%` on an empty cell); none for text.
pub fn unit_beside(value: &Value, base_unit: &str) -> String {
    match value_and_unit(value, base_unit) {
        (_, unit) if !unit.is_empty() => unit,
        _ if matches!(value, Value::Missing) => auto_scale(base_unit, 0.0).0,
        _ => String::new(),
    }
}

/// A value split into the number text and the unit text, auto-scaled like ncu (`71.62` and
/// `us` for 71,620 ns). Strings have an empty unit; values not measured print as `-`.
pub fn value_and_unit(value: &Value, base_unit: &str) -> (String, String) {
    match value {
        Value::Missing => (NOT_MEASURED.into(), String::new()),
        _ => match value.as_f64() {
            Some(v) if v.is_finite() => {
                let full = format_value(v, base_unit);
                let (unit, _) = auto_scale(base_unit, v);
                match full.strip_suffix(unit.as_str()) {
                    Some(number) if !unit.is_empty() => (number.trim_end().to_string(), unit),
                    _ => (full, String::new()),
                }
            }
            Some(_) => (NOT_MEASURED.into(), base_unit.to_string()),
            None => (value.to_string(), String::new()),
        },
    }
}

/// The unit a metric is shown in. Derived metrics store the unit of what they count even when
/// their name makes them a rate: `….per_second` is per second (`byte` → `byte/s`) and
/// `….peak_sustained` per cycle (`byte` → `byte/cycle`), as ncu's pages show them; a byte
/// count with no stored unit is in bytes.
pub fn shown_unit(name: Option<&str>, unit: &str) -> String {
    let Some(name) = name else {
        return unit.to_string();
    };
    let quantity = match unit {
        "" if name.contains("bytes") => "byte",
        "byte" | "sector" | "inst" | "request" => unit,
        _ => return unit.to_string(),
    };
    if name.ends_with(".per_second") {
        format!("{quantity}/s")
    } else if name.ends_with(".peak_sustained") || name.contains(".per_cycle_") {
        format!("{quantity}/cycle")
    } else {
        quantity.to_string()
    }
}

/// A metric's value with its unit in one string (`71.62 us`), in the unit [`shown_unit`]
/// gives.
pub fn metric_text(metric: MetricView<'_>) -> String {
    let name = metric.name.map(|k| k.as_str());
    stored_value_text(&metric.value, &shown_unit(name, &metric.unit))
}

/// A percentage with two decimals (`33.65 %`), or `-` when absent.
pub fn percent_text(value: Option<f64>) -> String {
    match value {
        Some(v) if v.is_finite() => format!("{v:.2} %"),
        _ => NOT_MEASURED.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_not_measured_keeps_its_unit() {
        assert_eq!(unit_beside(&Value::Missing, "%"), "%");
        assert_eq!(unit_beside(&Value::Missing, "ns"), "ns");
        assert_eq!(unit_beside(&Value::Double(71_620.0), "ns"), "us");
        assert_eq!(unit_beside(&Value::Str("sm_90".into()), ""), "");
    }

    #[test]
    fn values_read_as_ncu_prints_them() {
        assert_eq!(number_text(14_680_064.0), "14,680,064");
        assert_eq!(number_text(1234.5), "1,234.50");
        assert_eq!(number_text(f64::INFINITY), "-");
        assert_eq!(value_text(71_620.0, "ns"), "71.62 us");
        assert_eq!(value_text(1_250_000.0, "byte"), "1.25 Mbyte");
        assert_eq!(value_text(2.62e9, "hz"), "2.62 Ghz");
        assert_eq!(value_text(3.0e12, "byte/s"), "3.00 Tbyte/s");
        assert_eq!(value_text(5_120.0, "byte/cycle"), "5.12 Kbyte/cycle");
        assert_eq!(value_text(142_196.0, "cycle"), "142,196 cycle");
        assert_eq!(value_text(f64::NAN, "ns"), "-");
        assert_eq!(measured_text(f64::NAN, "ns"), "damaged (NaN)");
        assert_eq!(measured_text(f64::INFINITY, "ns"), "damaged (inf)");
        assert_eq!(measured_text(2_300_000.0, "ns"), "2.30 ms");
        assert_eq!(percent_text(Some(f64::INFINITY)), "-");
        assert_eq!(percent_text(Some(33.654)), "33.65 %");
        // One rule for what was not measured, whatever the page.
        assert_eq!(stored_value_text(&Value::Missing, "ns"), "-");
        assert_eq!(stored_value_text(&Value::Double(f64::NAN), "%"), "- %");
        assert_eq!(
            stored_value_text(&Value::Str("CachePreferNone".into()), ""),
            "CachePreferNone"
        );
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
            ("-".into(), "".into())
        );
    }

    #[test]
    fn rates_of_derived_metrics_keep_their_per_second_and_per_cycle() {
        let shown = |name: &str, unit: &str| shown_unit(Some(name), unit);
        assert_eq!(
            shown("derived__lts__lts2xbar_bytes.sum.per_second", "byte"),
            "byte/s"
        );
        assert_eq!(
            shown("derived__lts__lts2xbar_bytes.sum.peak_sustained", "byte"),
            "byte/cycle"
        );
        assert_eq!(
            shown(
                "derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.peak_sustained",
                ""
            ),
            "byte/cycle"
        );
        assert_eq!(
            shown(
                "derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.per_second",
                ""
            ),
            "byte/s"
        );
        // Stored rates and other units stay as they are.
        assert_eq!(shown("dram__bytes.sum.per_second", "byte/s"), "byte/s");
        assert_eq!(shown("gpc__cycles_elapsed.avg.per_second", "hz"), "hz");
        assert_eq!(shown("dram__bytes.sum", "byte"), "byte");
        assert_eq!(
            stored_value_text(
                &Value::Double(2_811_195_710_455.76),
                &shown("derived__l1tex__t_bytes.sum.per_second", "")
            ),
            "2.81 Tbyte/s"
        );
    }
}
