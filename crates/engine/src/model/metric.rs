//! Metrics: a value in its base unit, the instances, and how a text form printed it.

use super::intern::{MetricKey, Unit};
use super::value::{Instance, Value};
use serde::Serialize;

/// How a text form printed a value, kept so comparisons can respect the printed precision.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Printed {
    /// The value as printed, in the printed unit (thousands separators removed).
    pub value: Value,
    /// The unit as printed (`us`, `Gbyte/second`, `%`, empty when none).
    pub unit: Unit,
    /// Digits after the decimal point in the printed text.
    pub decimals: u8,
}

/// One metric of a result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Metric {
    /// The ncu metric name (`gpu__time_duration.sum`) when known.
    pub name: Option<MetricKey>,
    /// The value converted to `unit`.
    pub value: Value,
    /// The base unit, as `--print-units base` prints it (`ns`, `hz`, `byte`, `byte/s`, `%`, ...).
    pub unit: Unit,
    /// Instance values, in source order.
    pub instances: Vec<Instance>,
    /// How a text form printed the value; `None` for values read from a report file.
    pub printed: Option<Printed>,
}

impl Metric {
    /// A metric with a value in a base unit and no instances.
    pub fn new(name: Option<MetricKey>, value: Value, unit: impl Into<Unit>) -> Self {
        Metric {
            name,
            value,
            unit: unit.into(),
            instances: Vec::new(),
            printed: None,
        }
    }

    /// The value as a number, when it is one.
    pub fn as_f64(&self) -> Option<f64> {
        self.value.as_f64()
    }
}

/// One row of a section's table, as the tool shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricRow {
    /// The label ncu shows (`Duration`).
    pub label: String,
    /// The metric behind the row.
    pub metric: Metric,
}
