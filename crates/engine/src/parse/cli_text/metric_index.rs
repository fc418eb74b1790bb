//! A result's metric store, built in one go: the same store `KernelResult::index_section_metrics`
//! gives (each header row under its metric name or `Section/Label`, the first row winning),
//! followed by the body metrics that are not there yet. Sorting the entries first lets each
//! metric be appended to the store in key order; `crates/engine/tests/parse/cli_text/` checks
//! that the stores are equal.

use crate::model::{KernelResult, Metric, MetricKey, MetricStore, MetricView};

/// Where an entry's metric comes from: the store already filled, a section row, or a body
/// metric.
enum Source<'r> {
    Existing(MetricView<'r>),
    Row(&'r Metric),
    Owned(usize),
}

/// Fills `result.metrics` from its sections' rows and then `body` (keys not yet present).
pub fn index_metrics(result: &mut KernelResult, body: Vec<(MetricKey, Metric)>) {
    let result = result.body_mut();
    // Entries already in the store keep their place, as with `insert_if_absent`.
    let existing = std::mem::take(&mut result.metrics);
    let rows: usize = result.sections.iter().map(|s| s.rows.len()).sum();
    let mut owned: Vec<Option<Metric>> = Vec::with_capacity(body.len());
    let mut keyed: Vec<(MetricKey, Source<'_>)> =
        Vec::with_capacity(existing.len() + rows + body.len());
    for (key, metric) in &existing {
        keyed.push((key, Source::Existing(metric)));
    }
    for section in &result.sections {
        for row in &section.rows {
            let key = match row.metric.name {
                Some(name) => name,
                None => MetricKey::from(format!("{}/{}", section.name, row.label)),
            };
            keyed.push((key, Source::Row(&row.metric)));
        }
    }
    for (key, metric) in body {
        keyed.push((key, Source::Owned(owned.len())));
        owned.push(Some(metric));
    }
    // A stable sort keeps equal keys in insertion order; the first of each is kept. Only
    // keys and references move; the store is then filled from the sorted list in one pass.
    keyed.sort_by_key(|a| a.0);
    keyed.dedup_by(|later, earlier| later.0 == earlier.0);
    let instances = keyed
        .iter()
        .map(|(_, source)| match source {
            Source::Existing(m) => m.instances.len(),
            Source::Row(m) => m.instances.len(),
            Source::Owned(i) => owned
                .get(*i)
                .and_then(Option::as_ref)
                .map_or(0, |m| m.instances.len()),
        })
        .sum();
    let mut store = MetricStore::with_capacity(keyed.len(), instances);
    for (key, source) in keyed {
        match source {
            Source::Existing(m) => store.insert_view(key, m),
            Source::Row(m) => store.insert_view(key, m.view()),
            Source::Owned(i) => {
                if let Some(m) = owned.get_mut(i).and_then(Option::take) {
                    store.insert(key, m);
                }
            }
        }
    }
    drop(existing);
    result.metrics = store;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Value;
    use crate::model::{MetricRow, Section};

    fn row(label: &str, name: Option<&str>, v: u64) -> MetricRow {
        MetricRow {
            label: label.into(),
            metric: Metric::new(name.map(MetricKey::from), Value::U64(v), ""),
        }
    }

    #[test]
    fn equals_row_by_row_indexing() {
        let mut r = KernelResult::default();
        r.sections_mut().push(Section {
            name: "B".into(),
            rows: vec![
                row("x", Some("m__b"), 1),
                row("y", None, 2),
                row("z", Some("m__a"), 3),
            ],
            ..Section::default()
        });
        r.sections_mut().push(Section {
            name: "A".into(),
            rows: vec![row("x", Some("m__b"), 4), row("y", None, 5)],
            ..Section::default()
        });
        let mut expected = r.clone();
        expected.index_section_metrics();
        let body = vec![
            ("m__a".into(), Metric::new(None, Value::U64(9), "")),
            ("A/T/q".into(), Metric::new(None, Value::U64(6), "")),
        ];
        for (k, m) in body.clone() {
            expected.metrics_mut().insert_if_absent(k, m);
        }
        index_metrics(&mut r, body);
        assert_eq!(r.metrics(), expected.metrics());
        assert_eq!(r.metrics().len(), 5);
        assert_eq!(
            r.metrics().get("m__b").map(|m| m.value),
            Some(Value::U64(1))
        );
    }
}
