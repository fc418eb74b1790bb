//! Printed values (`143,826` in `cycle`, `72.64` in `us`) as metrics in base units, with the
//! printing kept so comparisons can respect the printed precision.

use crate::model::units::to_base;
use crate::model::{Metric, MetricKey, Printed, Value};
use crate::parse::number::parse_value;

/// A metric from a printed value text and unit text.
pub fn metric_from_printed(name: Option<MetricKey>, value_text: &str, unit_text: &str) -> Metric {
    metric_from_parsed(name, parse_value(value_text), unit_text)
}

/// A metric from an already parsed printed value (value, decimals) and its unit text.
pub fn metric_from_parsed(name: Option<MetricKey>, parsed: (Value, u8), unit_text: &str) -> Metric {
    let (value, decimals) = parsed;
    let unit_text = unit_text.trim();
    let base = to_base(unit_text);
    let mut metric = Metric::new(name, value.scaled(base.factor), base.unit);
    metric.printed = Some(Printed {
        value,
        unit: unit_text.into(),
        decimals,
    });
    metric
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_printed_values() {
        let m = metric_from_printed(None, "72.64", "us");
        assert_eq!(m.unit, "ns");
        assert!((m.as_f64().unwrap() - 72_640.0).abs() < 1e-6);
        assert_eq!(m.printed.as_ref().map(|p| p.decimals), Some(2));
        let m = metric_from_printed(None, "143,826", "cycle");
        assert_eq!(m.value, Value::U64(143_826));
        let m = metric_from_printed(None, "2.614000", "%/Kbyte");
        assert_eq!(m.unit, "%/byte");
        assert!((m.as_f64().unwrap() - 2614.0).abs() < 1e-6);
        let m = metric_from_printed(None, "8.192000", "Kbyte/block");
        assert!((m.as_f64().unwrap() - 8192.0).abs() < 1e-6);
        assert_eq!(metric_from_printed(None, "", "").value, Value::Missing);
    }
}
