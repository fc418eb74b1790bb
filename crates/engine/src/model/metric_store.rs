//! One compact store for a result's metrics: entries sorted by key, each value in its stored
//! binary type, units and names as interned ids, and the instances and printed forms of all
//! metrics in flat arrays shared by the store (an offset range per metric).
//!
//! Readers fill it with [`MetricStore::insert`] / [`MetricStore::insert_if_absent`] or collect
//! it from `(key, Metric)` pairs; views, the comparison and the exports read it through
//! [`MetricStore::get`] and [`MetricStore::iter`], which hand out borrowed [`MetricView`]s.

use super::intern::{MetricKey, Unit};
use super::metric::{Metric, Printed};
use super::value::{Instance, Value};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;

/// A metric read from a store (or borrowed from a [`Metric`]): the same fields as a
/// [`Metric`], the instances and printed form borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct MetricView<'a> {
    /// The ncu metric name (`gpu__time_duration.sum`) when known.
    pub name: Option<MetricKey>,
    /// The value converted to `unit`.
    pub value: Value,
    /// The base unit, as `--print-units base` prints it (`ns`, `hz`, `byte`, `byte/s`, ...).
    pub unit: Unit,
    /// Instance values, in source order.
    pub instances: &'a [Instance],
    /// How a text form printed the value; `None` for values read from a report file.
    pub printed: Option<&'a Printed>,
}

impl MetricView<'_> {
    /// The value as a number, when it is one.
    pub fn as_f64(self) -> Option<f64> {
        self.value.as_f64()
    }

    /// An owned copy.
    pub fn to_metric(self) -> Metric {
        Metric {
            name: self.name,
            value: self.value,
            unit: self.unit,
            instances: self.instances.to_vec(),
            printed: self.printed.copied(),
        }
    }
}

impl Metric {
    /// The metric as a borrowed view, as a store hands it out.
    pub fn view(&self) -> MetricView<'_> {
        MetricView {
            name: self.name,
            value: self.value,
            unit: self.unit,
            instances: &self.instances,
            printed: self.printed.as_ref(),
        }
    }
}

/// No printed form.
const NO_PRINTED: u32 = u32::MAX;

/// One metric in the store: 48 bytes, no heap data of its own.
#[derive(Debug, Clone, Copy)]
struct Entry {
    key: MetricKey,
    name: Option<MetricKey>,
    unit: Unit,
    /// Index in `printed`, or [`NO_PRINTED`].
    printed: u32,
    value: Value,
    /// Range in `instances`.
    first_instance: u32,
    instance_count: u32,
}

/// Every metric of a result, sorted by key (an ncu metric name, or `Section/Label` for a row
/// without one).
#[derive(Clone, Default)]
pub struct MetricStore {
    entries: Vec<Entry>,
    instances: Vec<Instance>,
    printed: Vec<Printed>,
}

impl MetricStore {
    /// An empty store.
    pub fn new() -> Self {
        Self::default()
    }

    /// An empty store with room for `metrics` metrics and `instances` instances.
    pub fn with_capacity(metrics: usize, instances: usize) -> Self {
        MetricStore {
            entries: Vec::with_capacity(metrics),
            instances: Vec::with_capacity(instances),
            printed: Vec::new(),
        }
    }

    /// The number of metrics.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the store holds no metric.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn position<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        MetricKey: Borrow<Q>,
    {
        self.entries
            .binary_search_by(|e| Borrow::<Q>::borrow(&e.key).cmp(key))
    }

    fn view(&self, e: &Entry) -> MetricView<'_> {
        let start = e.first_instance as usize;
        let end = start + e.instance_count as usize;
        MetricView {
            name: e.name,
            value: e.value,
            unit: e.unit,
            instances: self.instances.get(start..end).unwrap_or(&[]),
            printed: self.printed.get(e.printed as usize),
        }
    }

    /// The metric under `key` (a `&str` or a [`MetricKey`]), found by binary search without
    /// allocating.
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<MetricView<'_>>
    where
        MetricKey: Borrow<Q>,
    {
        let i = self.position(key).ok()?;
        self.entries.get(i).map(|e| self.view(e))
    }

    /// Whether a metric is stored under `key`.
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        MetricKey: Borrow<Q>,
    {
        self.position(key).is_ok()
    }

    /// Every metric with its key, in key order.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            store: self,
            entries: self.entries.iter(),
        }
    }

    /// Every key, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = MetricKey> + '_ {
        self.entries.iter().map(|e| e.key)
    }

    /// Every metric, in key order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = MetricView<'_>> + '_ {
        self.entries.iter().map(|e| self.view(e))
    }

    /// The metrics whose key starts with `prefix`, in key order.
    pub fn with_prefix<'s>(
        &'s self,
        prefix: &'s str,
    ) -> impl Iterator<Item = (MetricKey, MetricView<'s>)> + 's {
        let start = self.entries.partition_point(|e| e.key.as_str() < prefix);
        self.entries[start..]
            .iter()
            .take_while(move |e| e.key.starts_with(prefix))
            .map(|e| (e.key, self.view(e)))
    }

    /// The entry of `metric`, its instances and printed form appended to the shared arrays.
    fn entry_of(&mut self, key: MetricKey, metric: MetricView<'_>) -> Entry {
        let first_instance = u32::try_from(self.instances.len()).unwrap_or(u32::MAX);
        let instance_count = u32::try_from(metric.instances.len()).unwrap_or(0);
        self.instances.extend_from_slice(metric.instances);
        let printed = match metric.printed {
            Some(p) => {
                self.printed.push(*p);
                u32::try_from(self.printed.len() - 1).unwrap_or(NO_PRINTED)
            }
            None => NO_PRINTED,
        };
        Entry {
            key,
            name: metric.name,
            unit: metric.unit,
            printed,
            value: metric.value,
            first_instance,
            instance_count,
        }
    }

    /// Stores `metric` under `key`, replacing a metric stored there. Appending in key order
    /// is the fast path; a replaced metric's instances stay in the arrays until
    /// [`MetricStore::compact`].
    pub fn insert(&mut self, key: MetricKey, metric: Metric) {
        self.insert_view(key, metric.view());
    }

    /// Stores a copy of `metric` under `key`, as [`MetricStore::insert`] does.
    pub fn insert_view(&mut self, key: MetricKey, metric: MetricView<'_>) {
        let at = match self.entries.last() {
            Some(last) if last.key < key => Err(self.entries.len()),
            None => Err(0),
            Some(_) => self.position(&key),
        };
        let entry = self.entry_of(key, metric);
        match at {
            Ok(i) => self.entries[i] = entry,
            Err(i) => self.entries.insert(i, entry),
        }
    }

    /// Stores `metric` under `key` unless a metric is stored there; whether it was stored.
    pub fn insert_if_absent(&mut self, key: MetricKey, metric: Metric) -> bool {
        if self.contains_key(&key) {
            return false;
        }
        self.insert(key, metric);
        true
    }

    /// Replaces the value of the metric under `key`; whether there was one.
    pub fn set_value(&mut self, key: &str, value: Value) -> bool {
        match self.position(key) {
            Ok(i) => {
                self.entries[i].value = value;
                true
            }
            Err(_) => false,
        }
    }

    /// Removes every metric.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.instances.clear();
        self.printed.clear();
    }

    /// Drops instances and printed forms no entry refers to, and spare capacity.
    pub fn compact(&mut self) {
        let used = self.number_of_instances();
        let printed = self
            .entries
            .iter()
            .filter(|e| e.printed != NO_PRINTED)
            .count();
        if used != self.instances.len() || printed != self.printed.len() {
            let mut instances = Vec::with_capacity(used);
            let mut kept = Vec::with_capacity(printed);
            for e in &mut self.entries {
                let start = e.first_instance as usize;
                let end = start + e.instance_count as usize;
                e.first_instance = u32::try_from(instances.len()).unwrap_or(u32::MAX);
                instances.extend_from_slice(self.instances.get(start..end).unwrap_or(&[]));
                if let Some(p) = self.printed.get(e.printed as usize) {
                    e.printed = u32::try_from(kept.len()).unwrap_or(NO_PRINTED);
                    kept.push(*p);
                }
            }
            self.instances = instances;
            self.printed = kept;
        }
        self.entries.shrink_to_fit();
        self.instances.shrink_to_fit();
        self.printed.shrink_to_fit();
    }

    /// The number of instances of all metrics.
    pub fn number_of_instances(&self) -> usize {
        self.entries.iter().map(|e| e.instance_count as usize).sum()
    }

    /// The heap bytes the store holds (its arrays' capacity).
    pub fn heap_bytes(&self) -> usize {
        self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.instances.capacity() * std::mem::size_of::<Instance>()
            + self.printed.capacity() * std::mem::size_of::<Printed>()
    }
}

/// Collects metrics in any order; a key given twice keeps the last metric, as a map would.
impl FromIterator<(MetricKey, Metric)> for MetricStore {
    fn from_iter<I: IntoIterator<Item = (MetricKey, Metric)>>(iter: I) -> Self {
        let mut items: Vec<(MetricKey, Metric)> = iter.into_iter().collect();
        // Stable: among equal keys the last one given ends last.
        items.sort_by_key(|item| item.0);
        let instances = items.iter().map(|(_, m)| m.instances.len()).sum();
        let mut store = MetricStore::with_capacity(items.len(), instances);
        let mut items = items.into_iter().peekable();
        while let Some((key, metric)) = items.next() {
            if items.peek().is_some_and(|next| next.0 == key) {
                continue;
            }
            let entry = store.entry_of(key, metric.view());
            store.entries.push(entry);
        }
        store.printed.shrink_to_fit();
        store
    }
}

/// The metrics of a store with their keys, in key order.
pub struct Iter<'a> {
    store: &'a MetricStore,
    entries: std::slice::Iter<'a, Entry>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = (MetricKey, MetricView<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        let e = self.entries.next()?;
        Some((e.key, self.store.view(e)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.entries.size_hint()
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        let e = self.entries.next_back()?;
        Some((e.key, self.store.view(e)))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a MetricStore {
    type Item = (MetricKey, MetricView<'a>);
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl PartialEq for MetricStore {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl fmt::Debug for MetricStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// Serialized as a map from key to metric, as a sorted map of metrics would be.
impl Serialize for MetricStore {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.len()))?;
        for (key, metric) in self.iter() {
            map.serialize_entry(&key, &metric)?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::KernelResult;
    use std::collections::BTreeMap;
    use std::io::Read;

    fn fixture(rel: &str) -> Vec<u8> {
        let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
            .join("fixtures")
            .join(rel);
        let mut out = Vec::new();
        xz2::read::XzDecoder::new(std::fs::File::open(path).unwrap())
            .read_to_end(&mut out)
            .unwrap();
        out
    }

    /// The first result of the basic report, and NVIDIA's truth for it.
    fn first_result() -> (KernelResult, serde_json::Value) {
        let report = crate::parse::parse_any(&fixture("h100/kernels_basic.ncu-rep.xz")).unwrap();
        let truth: serde_json::Value =
            serde_json::from_slice(&fixture("h100/kernels_basic.truth.json.xz")).unwrap();
        let first = report.results.into_iter().next().unwrap();
        (first, truth[0].clone())
    }

    #[test]
    fn sizes() {
        assert_eq!(std::mem::size_of::<Value>(), 16);
        assert_eq!(std::mem::size_of::<Instance>(), 32);
        assert_eq!(std::mem::size_of::<Entry>(), 48);
    }

    #[test]
    fn holds_every_value_of_a_real_result() {
        let (r, truth) = first_result();
        let store = r.metrics();
        let metrics = truth["metrics"].as_object().unwrap();
        assert_eq!(store.len(), metrics.len());
        for (name, tm) in metrics {
            let m = store.get(name.as_str()).unwrap();
            assert_eq!(m.name.map(|k| k.as_str()), Some(name.as_str()));
            assert_eq!(m.value.kind_name(), tm["kind"].as_str().unwrap(), "{name}");
            let count = tm["n_instances"].as_u64().unwrap_or(0) as usize;
            assert_eq!(m.instances.len(), count, "{name}");
            if let Some(s) = tm["value"].as_str() {
                assert_eq!(m.value.as_str(), Some(s), "{name}");
            }
            if let Some(u) = tm["value"].as_u64() {
                assert_eq!(m.value, Value::U64(u), "{name}");
            }
            assert_eq!(store.get(&MetricKey::new(name)), Some(m));
        }
        let keys: Vec<&str> = store.keys().map(|k| k.as_str()).collect();
        let mut sorted = keys.clone();
        sorted.sort_unstable();
        assert_eq!(keys, sorted);
        assert_eq!(store.get("gpu__time_duration"), None);
        let attributes = metrics
            .keys()
            .filter(|k| k.starts_with("device__attribute_"))
            .count();
        assert_eq!(store.with_prefix("device__attribute_").count(), attributes);
        assert!(attributes > 0);
    }

    #[test]
    fn any_fill_order_gives_the_same_store_and_output() {
        let (r, _) = first_result();
        let store = r.metrics();
        let pairs: Vec<(MetricKey, Metric)> =
            store.iter().map(|(k, m)| (k, m.to_metric())).collect();
        let collected: MetricStore = pairs.iter().rev().cloned().collect();
        assert_eq!(&collected, store);
        let mut inserted = MetricStore::new();
        for (k, m) in pairs.iter().rev() {
            inserted.insert(*k, m.clone());
        }
        assert_eq!(&inserted, store);
        assert!(!inserted.insert_if_absent(pairs[0].0, Metric::new(None, Value::Missing, "")));
        // Serialized as the sorted map of owned metrics was.
        let map: BTreeMap<String, Metric> = pairs
            .iter()
            .map(|(k, m)| (k.to_string(), m.clone()))
            .collect();
        assert_eq!(
            serde_json::to_value(store).unwrap(),
            serde_json::to_value(&map).unwrap()
        );
        // A key given twice keeps the last metric.
        let twice: MetricStore = [
            (pairs[0].0, Metric::new(None, Value::U64(1), "")),
            (pairs[0].0, Metric::new(None, Value::U64(2), "")),
        ]
        .into_iter()
        .collect();
        assert_eq!(twice.len(), 1);
        assert_eq!(twice.get(&pairs[0].0).map(|m| m.value), Some(Value::U64(2)));
    }

    #[test]
    fn replacing_and_compacting_keep_the_other_metrics() {
        let (r, _) = first_result();
        let original = r.metrics();
        let mut store = original.clone();
        let (key, instanced) = original
            .iter()
            .find(|(_, m)| m.instances.len() > 1)
            .unwrap();
        let dropped = instanced.instances.len();
        store.insert(key, Metric::new(Some(key), Value::U64(7), "byte"));
        assert!(store.set_value("gpu__time_duration.sum", Value::Double(1.5)));
        assert!(!store.set_value("no__such_metric", Value::Double(1.5)));
        let before = store.heap_bytes();
        store.compact();
        assert!(store.heap_bytes() < before);
        assert_eq!(store.len(), original.len());
        let replaced = store.get(&key).unwrap();
        assert_eq!(
            (replaced.value, replaced.unit.as_str()),
            (Value::U64(7), "byte")
        );
        assert!(replaced.instances.is_empty());
        assert_eq!(
            store.number_of_instances() + dropped,
            original.number_of_instances()
        );
        for ((k, a), (_, b)) in store.iter().zip(original.iter()) {
            if k != key && k != "gpu__time_duration.sum" {
                assert_eq!(a, b, "{k}");
            }
        }
        store.clear();
        assert!(store.is_empty());
    }
}
