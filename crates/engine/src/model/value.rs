//! Exact metric values: integers stay integers, strings stay strings, instances are kept.

use super::intern::Text;
use serde::Serialize;
use std::fmt;

/// One stored or printed value, in the kind the source gave it: 16 bytes, strings interned.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Value {
    /// An unsigned integer (counts, sizes, cycles printed without decimals).
    U64(u64),
    /// A negative integer (only from text forms).
    I64(i64),
    /// A 32-bit unsigned integer as stored in a report.
    U32(u32),
    /// A 64-bit float.
    Double(f64),
    /// A 32-bit float as stored in a report.
    Float(f32),
    /// A string (cache configuration, device names, metric lists).
    Str(Text),
    /// The tool printed or stored no value (`n/a`, an empty cell, `no data`).
    Missing,
}

impl Value {
    /// The value as a number when it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::U64(v) => Some(v as f64),
            Value::I64(v) => Some(v as f64),
            Value::U32(v) => Some(f64::from(v)),
            Value::Double(v) => Some(v),
            Value::Float(v) => Some(f64::from(v)),
            Value::Str(_) | Value::Missing => None,
        }
    }

    /// The value as a string when it is one.
    pub fn as_str(&self) -> Option<&'static str> {
        match self {
            Value::Str(s) => Some(s.as_str()),
            _ => None,
        }
    }

    /// The kind name the truth files and `ncu_report` use (`double`, `uint64`, `string`, ...).
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::U64(_) => "uint64",
            Value::I64(_) => "int64",
            Value::U32(_) => "uint32",
            Value::Double(_) => "double",
            Value::Float(_) => "float",
            Value::Str(_) => "string",
            Value::Missing => "none",
        }
    }

    /// Multiplies a numeric value by `factor` (unit conversion). Integers stay integers when
    /// the factor is a whole number and the result fits; otherwise the value becomes a double.
    pub fn scaled(&self, factor: f64) -> Value {
        if factor == 1.0 {
            return *self;
        }
        match *self {
            Value::U64(v) if factor.fract() == 0.0 && factor > 0.0 => {
                let r = v as f64 * factor;
                if r < 9.007_199_254_740_992e15 {
                    Value::U64(r as u64)
                } else {
                    Value::Double(r)
                }
            }
            _ => match self.as_f64() {
                Some(v) => Value::Double(v * factor),
                None => *self,
            },
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::U64(v) => write!(f, "{v}"),
            Value::I64(v) => write!(f, "{v}"),
            Value::U32(v) => write!(f, "{v}"),
            Value::Double(v) => write!(f, "{v}"),
            Value::Float(v) => write!(f, "{v}"),
            Value::Str(s) => f.write_str(s),
            Value::Missing => f.write_str("n/a"),
        }
    }
}

/// One instance of an instanced metric: its correlation id (an x value, an address, an opcode
/// name, a timestamp) and its value.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Instance {
    /// The correlation id; `None` when the source lists values without ids (`(a; b; c)`).
    pub id: Option<Value>,
    /// The instance value.
    pub value: Value,
}
