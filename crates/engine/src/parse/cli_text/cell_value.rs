//! Table cells to metrics: the printed value and unit become a value in the base unit, with the
//! printed form kept; instanced values `agg (v1; v2; ...)` keep their instances.

use crate::model::names::is_metric_name;
use crate::model::units::{BaseUnit, to_base};
use crate::model::{Instance, Metric, MetricKey, Printed, Unit, Value};
use crate::parse::number::parse_value;

/// Most units kept by [`UnitCache`]; ncu prints a few dozen distinct units at most.
const UNIT_CACHE_SIZE: usize = 64;

/// Base units of the printed units seen last (a table uses a handful of distinct units).
#[derive(Debug, Default)]
pub struct UnitCache<'a> {
    entries: Vec<(&'a str, BaseUnit)>,
    next_evicted: usize,
}

impl<'a> UnitCache<'a> {
    /// The base unit of a printed unit.
    pub fn base(&mut self, unit: &'a str) -> &BaseUnit {
        let pos = match self.entries.iter().position(|(u, _)| *u == unit) {
            Some(pos) => pos,
            None if self.entries.len() < UNIT_CACHE_SIZE => {
                self.entries.push((unit, to_base(unit)));
                self.entries.len() - 1
            }
            None => {
                // Full (odd input): replace entries in turn, keeping lookups bounded.
                let pos = self.next_evicted % UNIT_CACHE_SIZE;
                self.next_evicted = pos + 1;
                self.entries[pos] = (unit, to_base(unit));
                pos
            }
        };
        &self.entries[pos].1
    }
}

/// Splits a label `Label (metric__name)` printed by `--print-metric-name label-name` into
/// the label and the metric name.
pub fn split_label_name(label: &str) -> Option<(&str, &str)> {
    let open = label.strip_suffix(')')?.rfind(" (")?;
    let name = label.get(open + 2..label.len() - 1)?;
    if !is_metric_name(name) {
        return None;
    }
    Some((label.get(..open)?.trim_end(), name))
}

/// A metric from a printed value and unit.
pub fn printed_metric(name: Option<&str>, value_text: &str, unit: &str, base: &BaseUnit) -> Metric {
    let (value, decimals, instances) = match printed_value(value_text, base) {
        PrintedValue::Listed(list) => {
            // The older form lists instances without an aggregate.
            return Metric {
                name: name.map(MetricKey::from),
                value: Value::Missing,
                unit: Unit::new(&base.unit),
                instances: list,
                printed: Some(Printed {
                    value: Value::Missing,
                    unit: unit.into(),
                    decimals: 0,
                }),
            };
        }
        PrintedValue::Read {
            value,
            decimals,
            instances,
        } => (value, decimals, instances),
    };
    Metric {
        name: name.map(MetricKey::from),
        value: value.scaled(base.factor),
        unit: Unit::new(&base.unit),
        instances,
        printed: Some(Printed {
            value,
            unit: unit.into(),
            decimals,
        }),
    }
}

/// Whether a printed value reads as text and lists no instances: what makes a row whose unit
/// says it is a number damaged. The same reading as [`printed_metric`], without the metric.
pub fn reads_as_text(value_text: &str) -> bool {
    let (value, lists) = value_and_listing(value_text);
    matches!(value, Value::Str(_)) && !lists
}

/// A metric from a printed value and unit with its value only, as [`printed_metric`] reads it
/// but with no instances and no printed form, and whether the value lists instances.
pub fn value_metric(name: Option<&str>, value_text: &str, base: &BaseUnit) -> (Metric, bool) {
    let (value, lists) = value_and_listing(value_text);
    let metric = Metric {
        name: name.map(MetricKey::from),
        value: value.scaled(base.factor),
        unit: Unit::new(&base.unit),
        instances: Vec::new(),
        printed: None,
    };
    (metric, lists)
}

/// The value [`printed_value`] reads (as printed, unscaled) and whether it lists instances,
/// found without building them.
fn value_and_listing(value_text: &str) -> (Value, bool) {
    if value_text.ends_with(')')
        && let Some(aggregate) = crate::parse::instances::listed_aggregate(value_text)
    {
        return (parse_value(aggregate).0, true);
    }
    if listed_alone(value_text, 1.0).is_some() {
        return (Value::Missing, true);
    }
    (parse_value(value_text).0, false)
}

/// The instances of a value printed in the older form, a list without an aggregate
/// (`1.5; 2.5`), values scaled by `factor`.
fn listed_alone(value_text: &str, factor: f64) -> Option<Vec<Instance>> {
    if !value_text.as_bytes().contains(&b';') || !value_text.contains("; ") {
        return None;
    }
    let wrapped = format!("({value_text})");
    let list = crate::parse::instances::split(&wrapped)?;
    crate::parse::instances::instances_of(&list, factor, false)
}

/// A printed value as read: instances listed without an aggregate (the older form), or a
/// value (the aggregate of instances listed after it, when there are) as printed.
enum PrintedValue {
    Listed(Vec<Instance>),
    Read {
        value: Value,
        decimals: u8,
        instances: Vec<Instance>,
    },
}

fn printed_value(value_text: &str, base: &BaseUnit) -> PrintedValue {
    let mut instances = Vec::new();
    let mut shown = value_text;
    if value_text.ends_with(')')
        && let Some(list) = crate::parse::instances::split(value_text)
        && let Some(found) =
            crate::parse::instances::instances_of(&list, base.factor, list.plausible_strings())
    {
        shown = list.aggregate;
        instances = found;
    } else if let Some(list) = listed_alone(value_text, base.factor) {
        return PrintedValue::Listed(list);
    }
    let (value, decimals) = parse_value(shown);
    PrintedValue::Read {
        value,
        decimals,
        instances,
    }
}

/// The statistic columns of `--print-summary`, in the order they are stored as instances.
pub const SUMMARY_STATS: [&str; 3] = ["Minimum", "Maximum", "Average"];

/// A summary metric: the value is the average; the three statistics are the instances.
pub fn summary_metric(name: Option<&str>, stats: [&str; 3], unit: &str, base: &BaseUnit) -> Metric {
    let mut metric = printed_metric(name, stats[2], unit, base);
    metric.instances = SUMMARY_STATS
        .iter()
        .zip(stats)
        .map(|(id, text)| Instance {
            id: Some(Value::Str((*id).into())),
            value: parse_value(text).0.scaled(base.factor),
        })
        .collect();
    metric
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_printed_values() {
        let mut units = UnitCache::default();
        let m = printed_metric(
            Some("gpu__time_duration.sum"),
            "72.64",
            "us",
            units.base("us"),
        );
        assert_eq!(m.unit, "ns");
        assert!((m.as_f64().unwrap() - 72_640.0).abs() < 1e-6);
        let p = m.printed.unwrap();
        assert_eq!(
            (p.value, p.unit.as_str(), p.decimals),
            (Value::Double(72.64), "us", 2)
        );

        let m = printed_metric(
            None,
            "8,524 (100; 100; 75)",
            "%/register",
            units.base("%/register"),
        );
        assert_eq!(m.value, Value::U64(8524));
        assert_eq!(m.instances.len(), 3);
        assert_eq!(m.instances[2].value, Value::U64(75));
        assert_eq!(m.instances[2].id, None);

        let m = printed_metric(None, "NVIDIA H100 (SXM)", "", units.base(""));
        assert_eq!(m.value, Value::Str("NVIDIA H100 (SXM)".into()));
        assert!(m.instances.is_empty());
    }

    #[test]
    fn splits_label_names() {
        assert_eq!(
            split_label_name("Duration (gpu__time_duration.sum)"),
            Some(("Duration", "gpu__time_duration.sum"))
        );
        assert_eq!(split_label_name("Compute (SM) Throughput"), None);
        assert_eq!(split_label_name("L1 Roofline (Global/Local)"), None);
    }
}
