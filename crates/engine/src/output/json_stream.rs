//! A pretty-printed JSON document whose long arrays are written element by element: the
//! document is laid out with a placeholder for each such array, and each placeholder is
//! replaced by the elements as they come, each pretty-printed on its own and indented to its
//! place. The bytes are those of pretty-printing the whole document at once (serde_json's
//! layout: two spaces per level, `[]` for an empty array). Elements are serialized straight
//! into their place ([`crate::output::json_layout::Indented`]), with no value tree or second pass over their text needed.

pub use crate::output::json_layout::pretty_indented;
use serde::Serialize;
use serde_json::Value as Json;
use std::io::{self, Write};

/// The text a placeholder string starts with; `\u{1}` keeps it apart from any real text.
const MARK: &str = "\u{1}array ";
/// How a placeholder looks inside the pretty-printed document.
const MARK_ESCAPED: &str = "\"\\u0001array ";

/// The value standing for array `n` in a document given to [`write_document`].
pub fn placeholder(n: usize) -> Json {
    Json::String(format!("{MARK}{n}"))
}

/// Writes the elements of one array of the document.
pub struct ArrayWriter {
    /// The indentation of each element's lines and of the closing bracket.
    item_indent: String,
    close_indent: String,
    count: usize,
}

impl ArrayWriter {
    /// An array whose elements are indented by `item_indent` and whose closing bracket by
    /// `close_indent`.
    pub fn new(item_indent: String, close_indent: String) -> Self {
        ArrayWriter {
            item_indent,
            close_indent,
            count: 0,
        }
    }

    /// How many elements were written.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The indentation of each element's lines, for [`pretty_indented`].
    pub fn item_indent(&self) -> &str {
        &self.item_indent
    }

    /// Writes one element given as the text [`pretty_indented`] makes of it with
    /// [`ArrayWriter::item_indent`].
    pub fn item_indented<W: Write + ?Sized>(&mut self, out: &mut W, text: &[u8]) -> io::Result<()> {
        out.write_all(if self.count == 0 { b"[\n" } else { b",\n" })?;
        self.count += 1;
        out.write_all(text)
    }

    /// Writes one element given as its pretty-printed text (as `serde_json::to_string_pretty`
    /// gives it, at the top level).
    pub fn item_text<W: Write + ?Sized>(&mut self, out: &mut W, text: &str) -> io::Result<()> {
        out.write_all(if self.count == 0 { b"[\n" } else { b",\n" })?;
        self.count += 1;
        for (k, line) in text.split('\n').enumerate() {
            if k > 0 {
                out.write_all(b"\n")?;
            }
            out.write_all(self.item_indent.as_bytes())?;
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// Writes one element.
    pub fn item<W: Write + ?Sized>(&mut self, out: &mut W, value: &Json) -> io::Result<()> {
        self.item_text(out, &pretty(value)?)
    }

    /// Closes the array.
    pub fn finish<W: Write + ?Sized>(self, out: &mut W) -> io::Result<()> {
        if self.count == 0 {
            return out.write_all(b"[]");
        }
        out.write_all(b"\n")?;
        out.write_all(self.close_indent.as_bytes())?;
        out.write_all(b"]")
    }
}

/// A value pretty-printed.
pub fn pretty(value: &Json) -> io::Result<String> {
    serde_json::to_string_pretty(value).map_err(io::Error::other)
}

/// Writes `doc` pretty-printed, followed by a newline, with the elements of placeholder `n`
/// written by `fill(out, n, array)` where the placeholder is. `item_extra` is the indentation of
/// the elements beyond the placeholder line's (two spaces in serde_json's layout).
pub fn write_document<W: Write + ?Sized>(
    out: &mut W,
    doc: &Json,
    item_extra: &str,
    mut fill: impl FnMut(&mut W, usize, &mut ArrayWriter) -> io::Result<()>,
) -> io::Result<()> {
    let mut text = pretty(doc)?;
    text.push('\n');
    for line in text.split_inclusive('\n') {
        let Some((head, n, tail)) = placeholder_in(line) else {
            out.write_all(line.as_bytes())?;
            continue;
        };
        let indent = &line[..line.len() - line.trim_start().len()];
        out.write_all(head.as_bytes())?;
        let mut array = ArrayWriter::new(format!("{indent}{item_extra}"), indent.to_string());
        fill(out, n, &mut array)?;
        array.finish(out)?;
        out.write_all(tail.as_bytes())?;
    }
    Ok(())
}

/// A document line holding a placeholder: the text before it, its number and the text after.
fn placeholder_in(line: &str) -> Option<(&str, usize, &str)> {
    let at = line.find(MARK_ESCAPED)?;
    let rest = &line[at + MARK_ESCAPED.len()..];
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let n = rest[..digits].parse().ok()?;
    let tail = rest[digits..].strip_prefix('"')?;
    Some((&line[..at], n, tail))
}

/// Writes `doc` (whose placeholder `i` stands for report `i`'s results) with the results of
/// each report made by `result(i, report, k)` on every core, a window at a time (bodies released
/// after each window), and written in order; `item_extra` as in [`write_document`].
pub fn write_report_results<W: Write + ?Sized, T: Serialize>(
    out: &mut W,
    doc: &Json,
    item_extra: &str,
    reports: &mut [crate::model::Report],
    result: impl Fn(usize, &crate::model::Report, usize) -> T + Sync,
) -> io::Result<()> {
    write_report_texts(out, doc, item_extra, reports, |i, rep, k, indent| {
        pretty_indented(&result(i, rep, k), indent)
    })
}

/// [`write_report_results`] with each result's text made by `text(i, report, k, indent)` (as
/// [`pretty_indented`] makes it), for results serialized from what they borrow of the report.
pub fn write_report_texts<W: Write + ?Sized>(
    out: &mut W,
    doc: &Json,
    item_extra: &str,
    reports: &mut [crate::model::Report],
    text: impl Fn(usize, &crate::model::Report, usize, &str) -> io::Result<Vec<u8>> + Sync,
) -> io::Result<()> {
    write_document(out, doc, item_extra, |out, i, array| {
        let Some(rep) = reports.get_mut(i) else {
            return Ok(());
        };
        let indent = array.item_indent().to_string();
        crate::analysis::parallel::map_results(
            rep,
            |rep, k| text(i, rep, k, &indent),
            |_, text| array.item_indented(out, &text?),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn arrays_written_element_by_element_match_the_whole_document() {
        let items = |n: usize| -> Vec<Json> {
            (0..n)
                .map(|i| json!({"id": i, "name": format!("k\n{i}"), "v": [1.5, null, {"a": []}]}))
                .collect()
        };
        for (a, b) in [(0, 3), (2, 0), (1, 1), (3, 2)] {
            let whole = json!({"errors": [], "reports": [
                {"path": "x", "results": items(a)},
                {"path": "y", "results": items(b), "z": 1}
            ]});
            let mut expected = serde_json::to_string_pretty(&whole).unwrap();
            expected.push('\n');
            let doc = json!({"errors": [], "reports": [
                {"path": "x", "results": placeholder(0)},
                {"path": "y", "results": placeholder(1), "z": 1}
            ]});
            let mut out = Vec::new();
            write_document(&mut out, &doc, "  ", |out, n, array| {
                for item in items([a, b][n]) {
                    array.item(out, &item)?;
                }
                Ok(())
            })
            .unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), expected);
            let mut out = Vec::new();
            write_document(&mut out, &doc, "  ", |out, n, array| {
                for item in items([a, b][n]) {
                    let text = pretty_indented(&item, array.item_indent())?;
                    array.item_indented(out, &text)?;
                }
                Ok(())
            })
            .unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), expected);
        }
    }
}
