//! Instance lists as `--print-metric-instances` prints them after a metric's value:
//! `agg (v1; v2; ...)` (`values`) or `agg (id1: v1; id2: v2; ...)` (`details`). A metric with
//! instances but no aggregate prints the list alone.

use super::number::parse_value;
use crate::model::{Instance, Value};

/// A printed value split into its aggregate and its instance items `(id, value)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PrintedList<'a> {
    /// The aggregate as printed; empty when the metric has none.
    pub aggregate: &'a str,
    /// Each instance: its correlation id when printed (`details`), and its value.
    pub items: Vec<(Option<&'a str>, &'a str)>,
}

/// Splits `agg (list)` or `(list)`; `None` when the text does not end in one parenthesised
/// list without nested parentheses.
pub fn split(text: &str) -> Option<PrintedList<'_>> {
    let (aggregate, list) = split_list(text)?;
    Some(PrintedList {
        aggregate,
        items: items(list).collect(),
    })
}

/// The aggregate of `text` when it reads as a value with instances, as [`split`] and
/// [`instances_of`] read it for the CLI text (strings read as instances where
/// [`PrintedList::plausible_strings`]), without building them: a list of several items always
/// does.
pub fn listed_aggregate(text: &str) -> Option<&str> {
    let (aggregate, list) = split_list(text)?;
    let mut listed = items(list);
    let (_, first) = listed.next()?;
    let read = listed.next().is_some()
        || first == aggregate
        || aggregate_reads(aggregate) && is_number(&parse_value(first).0);
    read.then_some(aggregate)
}

/// The aggregate of `agg (list)` or `(list)` and the text of its list.
fn split_list(text: &str) -> Option<(&str, &str)> {
    let body = text.trim().strip_suffix(')')?;
    let (agg_end, list_start) = match memchr::memmem::find(body.as_bytes(), b" (") {
        Some(i) => (i, i + 2),
        None if body.starts_with('(') => (0, 1),
        None => return None,
    };
    let list = body.get(list_start..)?;
    if memchr::memchr2(b'(', b')', list.as_bytes()).is_some() || list.trim().is_empty() {
        return None;
    }
    Some((body.get(..agg_end)?.trim(), list))
}

/// The items of a list's text, `id: value` or `value`, between `; `.
fn items(list: &str) -> impl Iterator<Item = (Option<&str>, &str)> {
    let mut rest = Some(list);
    std::iter::from_fn(move || {
        let now = rest?;
        let item = match find_spaced(now, b';', b' ') {
            Some(i) => {
                rest = Some(&now[i + 2..]);
                &now[..i]
            }
            None => {
                rest = None;
                now
            }
        };
        Some(match find_spaced(item, b':', b' ') {
            Some(i) => (Some(item[..i].trim()), item[i + 2..].trim()),
            None => (None, item.trim()),
        })
    })
}

/// Where the two bytes `first` `second` (`"; "`, `": "`, `" ("`) first stand together in
/// `text`, as `str::find` of the two-byte string finds them; ASCII bytes, so the offset is a
/// character boundary.
fn find_spaced(text: &str, first: u8, second: u8) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(i) = memchr::memchr(first, bytes.get(from..)?) {
        let at = from + i;
        if bytes.get(at + 1) == Some(&second) {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

impl PrintedList<'_> {
    /// Whether a list after a string reads as instances rather than as part of the string:
    /// several items (`CachePreferNone (CachePreferNone; CachePreferNone)`), or one that repeats
    /// the aggregate (`all (all)`); `NVIDIA H100 (SXM)` is a plain string.
    pub fn plausible_strings(&self) -> bool {
        self.items.len() >= 2 || self.items.iter().all(|(_, v)| *v == self.aggregate)
    }
}

fn is_number(v: &Value) -> bool {
    !matches!(v, Value::Str(_))
}

/// Whether an aggregate lets its list read as instances of numbers: none, or a number.
fn aggregate_reads(aggregate: &str) -> bool {
    aggregate.is_empty() || is_number(&parse_value(aggregate).0)
}

/// A correlation id as printed: an unsigned integer, or a string (`FFMA`).
fn id_of(text: &str) -> Value {
    match parse_value(text).0 {
        Value::U64(v) => Value::U64(v),
        _ => Value::Str(text.into()),
    }
}

/// The instances of a split list, values scaled by `factor`. With `strings` false, `None` when
/// an aggregate or instance value is not a number (the text is then a plain string, such as a
/// device name with a parenthesis); with `strings` true, string lists are read too.
pub fn instances_of(list: &PrintedList<'_>, factor: f64, strings: bool) -> Option<Vec<Instance>> {
    if !strings && !aggregate_reads(list.aggregate) {
        return None;
    }
    let mut out = Vec::with_capacity(list.items.len());
    for (id, text) in &list.items {
        let value = parse_value(text).0;
        if !strings && !is_number(&value) {
            return None;
        }
        out.push(Instance {
            id: id.map(id_of),
            value: value.scaled(factor),
        });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_byte_separators_are_found_as_str_find_finds_them() {
        for text in [
            "a; b",
            ";; b",
            "a;b; c",
            "x",
            "",
            "; ",
            "a ;  b",
            "é; ü: v",
            ";;",
        ] {
            for (first, second) in [(b';', b' '), (b':', b' '), (b' ', b'(')] {
                let pattern = String::from_utf8(vec![first, second]).unwrap();
                assert_eq!(
                    find_spaced(text, first, second),
                    text.find(&pattern),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn splits_both_forms() {
        let l = split("256 (256; 256; 128)").unwrap();
        assert_eq!(l.aggregate, "256");
        assert_eq!(l.items, [(None, "256"), (None, "256"), (None, "128")]);
        let l = split("0 (0: 1; 1: 2)").unwrap();
        assert_eq!(l.items, [(Some("0"), "1"), (Some("1"), "2")]);
        let l = split("(1.5; 2.5)").unwrap();
        assert_eq!(l.aggregate, "");
        assert_eq!(split("(256, 1, 1)").unwrap().items.len(), 1);
        assert!(split("NVIDIA H100 80GB HBM3").is_none());
        assert!(split("f(g(x))").is_none());
        for text in [
            "256 (256; 256; 128)",
            "0 (0: 1; 1: 2)",
            "(1.5; 2.5)",
            "(2.5)",
            "7 (8)",
            "7 (x)",
            "all (all)",
            "NVIDIA H100 (SXM)",
            "CachePreferNone (CachePreferNone; CachePreferNone)",
            "x (y)",
            " ()",
            "f(g(x))",
            "12",
        ] {
            let read = split(text).is_some_and(|l| {
                instances_of(&l, 1.0, l.plausible_strings()).is_some_and(|i| !i.is_empty())
            });
            assert_eq!(listed_aggregate(text).is_some(), read, "{text:?}");
            if let Some(aggregate) = listed_aggregate(text) {
                assert_eq!(
                    Some(aggregate),
                    split(text).map(|l| l.aggregate),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn reads_values_and_ids() {
        let l = split("3 (0: 1; 1: 2; FFMA: 3)").unwrap();
        let i = instances_of(&l, 1.0, false).unwrap();
        assert_eq!(i[1].id, Some(Value::U64(1)));
        assert_eq!(i[2].id, Some(Value::Str("FFMA".into())));
        assert_eq!(i[2].value, Value::U64(3));
        let s = split("NVIDIA H100 (SXM)").unwrap();
        assert!(instances_of(&s, 1.0, false).is_none());
        assert!(!s.plausible_strings());
        assert!(split("all (all)").unwrap().plausible_strings());
        let c = split("all (all; all)").unwrap();
        assert_eq!(instances_of(&c, 1.0, true).unwrap().len(), 2);
    }
}
