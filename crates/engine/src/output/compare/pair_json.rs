//! The item of one pair in the "matched" list of `diff --format json`, written straight into
//! bytes in serde_json's pretty layout: its metrics, most of the bytes of a large comparison
//! (a thousand objects of seven fields per pair), field by field without a serializer call for
//! each; the other fields through serde, each indented to its place. The bytes are those of
//! [`super::pair_json_bytes`].

use super::json::{DurationJson, PairDetail, WhyJson};
use crate::analysis::compare::MatchedDiff;
use crate::analysis::compare::metric_diff::MetricDiff;
use crate::output::json_layout::{Indented, NumJson, ValueJson};
use serde::Serialize;
use std::io;

/// The indentation of the pair's fields (the list's items sit two levels deep).
const FIELD_INDENT: &str = "      ";

/// [`super::pair_json_bytes`] appended to `out` after the separator that comes between two
/// items of the "matched" list (`,\n`; the first item is written without the comma).
pub fn append_pair_json_item(k: &MatchedDiff, out: &mut Vec<u8>) -> io::Result<()> {
    out.extend_from_slice(super::json::pair_json_separator(false));
    append_full_pair(k, out)
}

/// Appends the pair's item, indented four spaces, as [`super::pair_json_bytes`] makes it.
pub fn append_full_pair(k: &MatchedDiff, out: &mut Vec<u8>) -> io::Result<()> {
    out.extend_from_slice(b"    {");
    field(out, true, "base_id", &k.base_id)?;
    field(out, false, "changes", &k.changes)?;
    field(out, false, "current_id", &k.current_id)?;
    field(
        out,
        false,
        "duration_ns",
        &DurationJson(k, PairDetail::Full),
    )?;
    field(out, false, "match", k.kind.name())?;
    out.extend_from_slice(b",\n      \"metrics\": ");
    metrics(out, &k.diff.metrics)?;
    field(out, false, "metrics_only_in_base", &k.diff.only_in_base)?;
    field(
        out,
        false,
        "metrics_only_in_current",
        &k.diff.only_in_current,
    )?;
    field(out, false, "name", &k.name)?;
    field(out, false, "shape_differs", &k.shape_differs)?;
    field(out, false, "time_delta_ns", &NumJson(k.time_delta_ns()))?;
    field(out, false, "why", &WhyJson(k, PairDetail::Full))?;
    out.extend_from_slice(b"\n    }");
    Ok(())
}

/// One field of the pair: its name and its value pretty-printed where it sits.
fn field<T: Serialize + ?Sized>(
    out: &mut Vec<u8>,
    first: bool,
    name: &str,
    value: &T,
) -> io::Result<()> {
    out.extend_from_slice(if first { b"\n" } else { b",\n" });
    out.extend_from_slice(FIELD_INDENT.as_bytes());
    string(out, name)?;
    out.extend_from_slice(b": ");
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, Indented::new(FIELD_INDENT));
    value.serialize(&mut ser).map_err(io::Error::other)
}

/// The pair's metrics, each an object of the fields of `MetricJson` in the `Full` detail.
fn metrics(out: &mut Vec<u8>, list: &[MetricDiff]) -> io::Result<()> {
    if list.is_empty() {
        out.extend_from_slice(b"[]");
        return Ok(());
    }
    out.push(b'[');
    for (i, m) in list.iter().enumerate() {
        out.extend_from_slice(if i == 0 {
            b"\n        {"
        } else {
            b",\n        {"
        });
        out.extend_from_slice(b"\n          \"base\": ");
        scalar(out, &ValueJson(m.base))?;
        out.extend_from_slice(b",\n          \"current\": ");
        scalar(out, &ValueJson(m.current))?;
        out.extend_from_slice(b",\n          \"delta_pct\": ");
        scalar(out, &NumJson(m.delta_pct))?;
        out.extend_from_slice(b",\n          \"direction\": ");
        string(out, m.direction.name())?;
        out.extend_from_slice(b",\n          \"key\": ");
        string(out, m.key.as_str())?;
        out.extend_from_slice(b",\n          \"unit\": ");
        string(out, m.unit.as_str())?;
        out.extend_from_slice(b",\n          \"verdict\": ");
        string(out, m.verdict.name())?;
        out.extend_from_slice(b"\n        }");
    }
    out.extend_from_slice(b"\n      ]");
    Ok(())
}

/// A number, string or null: the same bytes in the compact and the pretty layout.
fn scalar<T: Serialize>(out: &mut Vec<u8>, value: &T) -> io::Result<()> {
    serde_json::to_writer(out, value).map_err(io::Error::other)
}

/// A string as serde_json writes it: quoted, and escaped only where it holds a quote, a
/// backslash or a control character.
fn string(out: &mut Vec<u8>, text: &str) -> io::Result<()> {
    if text.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\') {
        out.push(b'"');
        out.extend_from_slice(text.as_bytes());
        out.push(b'"');
        Ok(())
    } else {
        scalar(out, &text)
    }
}

#[cfg(test)]
mod tests {
    use super::string;

    #[test]
    fn strings_are_escaped_as_serde_json_escapes_them() {
        for text in [
            "sm__throughput.avg.pct_of_peak_sustained_elapsed",
            "a \"quoted\" \\ path",
            "tab\tnew\nline\u{1}\u{1f}",
            "µs → ℃ /slash/ \u{7f}",
            "",
        ] {
            let mut out = Vec::new();
            string(&mut out, text).unwrap();
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(text).unwrap()
            );
        }
    }
}
