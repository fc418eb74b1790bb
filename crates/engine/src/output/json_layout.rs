//! serde_json's pretty layout for a value that sits inside a larger document: every line of
//! it, the first included, indented to its place. Long documents are written element by
//! element this way, each element serialized straight into its text with no value tree and no
//! second pass over the text to indent it, in exactly the bytes of pretty-printing the whole.

use crate::model::Value;
use serde::{Serialize, Serializer};
use serde_json::ser::Formatter;
use std::io::{self, Write};

/// serde_json's pretty layout (two spaces per level) with every line, the first included,
/// indented by `base` more: an element pretty-printed where it sits in a document.
pub struct Indented {
    /// `,`, a newline, the base and as many spaces as the deepest level so far needs: every
    /// line break is one slice of it.
    line: Vec<u8>,
    base_len: usize,
    level: usize,
    has_value: bool,
}

impl Indented {
    /// The layout of a value whose lines start with `base`.
    pub fn new(base: &str) -> Self {
        let mut line = Vec::with_capacity(2 + base.len() + 32);
        line.extend_from_slice(b",\n");
        line.extend_from_slice(base.as_bytes());
        Indented {
            base_len: base.len(),
            line,
            level: 0,
            has_value: false,
        }
    }

    /// A line break (after a comma when `comma`) and the indentation of the current level.
    fn new_line<W: Write + ?Sized>(&mut self, out: &mut W, comma: bool) -> io::Result<()> {
        let end = 2 + self.base_len + 2 * self.level;
        if self.line.len() < end {
            self.line.resize(end, b' ');
        }
        out.write_all(&self.line[usize::from(!comma)..end])
    }
}

/// The same calls and bytes as `serde_json::ser::PrettyFormatter`, the indentation of each
/// new line starting with the base.
impl Formatter for Indented {
    fn begin_array<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        out.write_all(b"[")
    }

    fn end_array<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.new_line(out, false)?;
        }
        out.write_all(b"]")
    }

    fn begin_array_value<W: Write + ?Sized>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.new_line(out, !first)
    }

    fn end_array_value<W: Write + ?Sized>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<()> {
        self.level += 1;
        self.has_value = false;
        out.write_all(b"{")
    }

    fn end_object<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<()> {
        self.level -= 1;
        if self.has_value {
            self.new_line(out, false)?;
        }
        out.write_all(b"}")
    }

    fn begin_object_key<W: Write + ?Sized>(&mut self, out: &mut W, first: bool) -> io::Result<()> {
        self.new_line(out, !first)
    }

    fn begin_object_value<W: Write + ?Sized>(&mut self, out: &mut W) -> io::Result<()> {
        out.write_all(b": ")
    }

    fn end_object_value<W: Write + ?Sized>(&mut self, _out: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `value` pretty-printed as serde_json prints it, every line (the first included) starting
/// with `indent`.
pub fn pretty_indented<T: Serialize + ?Sized>(value: &T, indent: &str) -> io::Result<Vec<u8>> {
    let mut out = Vec::with_capacity(4096);
    out.extend_from_slice(indent.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut out, Indented::new(indent));
    value.serialize(&mut ser).map_err(io::Error::other)?;
    Ok(out)
}

/// A stored value as the JSON outputs give it (a number, a string or null), serialized without
/// making a `serde_json::Value` of it: the same bytes.
pub struct ValueJson(pub Value);

impl Serialize for ValueJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::U64(x) => s.serialize_u64(x),
            Value::I64(x) => s.serialize_i64(x),
            Value::U32(x) => s.serialize_u64(u64::from(x)),
            Value::Double(x) => NumJson(Some(x)).serialize(s),
            Value::Float(x) => NumJson(Some(f64::from(x))).serialize(s),
            Value::Str(t) => s.serialize_str(t.as_str()),
            Value::Missing => s.serialize_unit(),
        }
    }
}

/// A number that may be missing, as the JSON outputs give it: null when missing or not finite
/// (as `serde_json::Number::from_f64` refuses it), else the number.
pub struct NumJson(pub Option<f64>);

impl Serialize for NumJson {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Some(x) if x.is_finite() => s.serialize_f64(x),
            _ => s.serialize_unit(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn indented_values_are_pretty_printed_values_moved_right() {
        let values = [
            json!([]),
            json!({}),
            json!({"a": [], "b": {}, "c": [1, {"d": [[]]}], "e": "x\ny", "f": 1.5e300}),
            json!([[[]], {"a": null}, -3, f64::MAX]),
            json!("text"),
        ];
        for v in values {
            let plain = serde_json::to_string_pretty(&v).unwrap();
            let moved: String = plain
                .split('\n')
                .map(|line| format!("    {line}"))
                .collect::<Vec<_>>()
                .join("\n");
            let text = pretty_indented(&v, "    ").unwrap();
            assert_eq!(String::from_utf8(text).unwrap(), moved);
        }
    }

    #[test]
    fn values_serialize_as_their_json_values() {
        let as_value = |v: Value| match v {
            Value::U64(x) => json!(x),
            Value::I64(x) => json!(x),
            Value::U32(x) => json!(x),
            Value::Double(x) => serde_json::Number::from_f64(x).map_or(json!(null), Into::into),
            Value::Float(x) => {
                serde_json::Number::from_f64(f64::from(x)).map_or(json!(null), Into::into)
            }
            Value::Str(s) => json!(s.as_str()),
            Value::Missing => json!(null),
        };
        let values = [
            Value::U64(u64::MAX),
            Value::I64(-5),
            Value::I64(7),
            Value::U32(3),
            Value::Double(0.1),
            Value::Double(-0.0),
            Value::Double(1e-300),
            Value::Double(f64::NAN),
            Value::Double(f64::INFINITY),
            Value::Float(0.1),
            Value::Float(f32::NEG_INFINITY),
            Value::Str("a \"quoted\"\n line".into()),
            Value::Missing,
        ];
        for v in values {
            let direct = serde_json::to_string(&ValueJson(v)).unwrap();
            assert_eq!(
                direct,
                serde_json::to_string(&as_value(v)).unwrap(),
                "{v:?}"
            );
        }
    }
}
