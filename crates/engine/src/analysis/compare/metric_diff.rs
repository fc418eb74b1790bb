//! Diffs two results metric by metric: Δ% in base units, a noise threshold, the printed
//! precision of text forms, and a verdict from the direction table.

use super::direction::{Direction, direction_of, direction_of_static, glob_match};
use crate::model::units::to_base;
use crate::model::{KernelResult, MetricKey, MetricView, Unit, Value, catalog, names};
use serde::Serialize;
use std::collections::BTreeMap;

/// Default noise threshold in percent.
pub const DEFAULT_THRESHOLD_PCT: f64 = 2.0;

/// How two results are compared.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffOptions {
    /// Changes smaller than this (in percent of the base value) count as unchanged.
    pub threshold_pct: f64,
    /// When set, only these metrics are compared: ncu names, `Section/Label` keys, labels
    /// (`Duration`, case-insensitive) or globs (`*hit_rate*`). The duration is always compared.
    pub metrics: Option<Vec<String>>,
    /// How renamed kernels are paired.
    pub renames: super::matching::RenamePolicy,
}

impl Default for DiffOptions {
    fn default() -> Self {
        DiffOptions {
            threshold_pct: DEFAULT_THRESHOLD_PCT,
            metrics: None,
            renames: super::matching::RenamePolicy::default(),
        }
    }
}

impl DiffOptions {
    /// Whether a metric key is selected by [`DiffOptions::metrics`].
    pub fn selects(&self, key: &str) -> bool {
        match &self.metrics {
            None => true,
            Some(items) => items.iter().any(|item| item_selects(item.trim(), key)),
        }
    }
}

/// Whether one `--metrics` item (name, `Section/Label`, label or glob) selects a metric key.
pub fn item_selects(item: &str, key: &str) -> bool {
    if item.is_empty() {
        return false;
    }
    if item == key || (item.contains('*') && glob_match(item, key)) {
        return true;
    }
    let label = metric_label(key);
    if label.eq_ignore_ascii_case(item) {
        return true;
    }
    catalog::label_for(key).is_some_and(|(section, label)| {
        let section_label = format!("{section}/{label}");
        section_label.eq_ignore_ascii_case(item)
    })
}

/// The outcome of a metric change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Moved beyond the threshold in the good direction.
    Better,
    /// Moved beyond the threshold in the bad direction.
    Worse,
    /// Within the noise threshold or the printed precision.
    Unchanged,
    /// Changed, but the metric has no good direction (or the duration did not confirm it).
    Neutral,
}

impl Verdict {
    /// The name used in exports.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Better => "better",
            Verdict::Worse => "worse",
            Verdict::Unchanged => "unchanged",
            Verdict::Neutral => "neutral",
        }
    }
}

/// Whether the kernel got faster, by its duration verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speed {
    Faster,
    Slower,
    Same,
    Unknown,
}

/// One metric compared between two results.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MetricDiff {
    /// The metric key (ncu name, or `Section/Label`).
    pub key: MetricKey,
    /// The base unit of both values.
    pub unit: Unit,
    pub base: Value,
    pub current: Value,
    /// (current − base) / |base| × 100; `None` when the base is 0 and the current value is not
    /// (ncu prints `inf%`), or when a value is not a number.
    pub delta_pct: Option<f64>,
    pub direction: Direction,
    pub verdict: Verdict,
    /// The difference is within the precision a text form printed.
    pub within_precision: bool,
    /// How far apart the two values may be from rounding alone (half a printed step of each
    /// side, in base units; 0 for exact values).
    pub tolerance: f64,
}

impl MetricDiff {
    /// The base value as a number.
    pub fn base_f64(&self) -> Option<f64> {
        self.base.as_f64()
    }

    /// The current value as a number.
    pub fn current_f64(&self) -> Option<f64> {
        self.current.as_f64()
    }

    /// current − base, when both are numbers.
    pub fn delta(&self) -> Option<f64> {
        Some(self.current_f64()? - self.base_f64()?)
    }
}

/// Two results compared.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResultDiff {
    /// The duration (`gpu__time_duration.sum`), when both sides have it.
    pub duration: Option<MetricDiff>,
    /// Every selected metric present on both sides, by key.
    pub metrics: Vec<MetricDiff>,
    /// Selected metric keys only the base has.
    pub only_in_base: Vec<String>,
    /// Selected metric keys only the current result has.
    pub only_in_current: Vec<String>,
}

impl ResultDiff {
    /// Drops every better/worse verdict (the changes stay, as neutral): two different kernels
    /// differ, but neither is an improvement on the other.
    pub fn without_verdicts(mut self) -> Self {
        for m in self.duration.iter_mut().chain(self.metrics.iter_mut()) {
            if matches!(m.verdict, Verdict::Better | Verdict::Worse) {
                m.verdict = Verdict::Neutral;
            }
        }
        self
    }

    /// The diff of one metric.
    pub fn get(&self, key: &str) -> Option<&MetricDiff> {
        self.metrics.iter().find(|m| m.key == key)
    }

    /// Time won (negative) or lost (positive), in ns.
    pub fn time_delta_ns(&self) -> Option<f64> {
        self.duration.as_ref().and_then(MetricDiff::delta)
    }

    /// Whether the kernel got faster.
    pub fn speed(&self) -> Speed {
        speed_of(self.duration.as_ref())
    }

    /// Metrics with a verdict of `worse`.
    pub fn worse(&self) -> impl Iterator<Item = &MetricDiff> {
        self.metrics.iter().filter(|m| m.verdict == Verdict::Worse)
    }
}

/// Faster, slower or the same, from the verdict on the kernel duration.
pub fn speed_of(duration: Option<&MetricDiff>) -> Speed {
    match duration.map(|d| d.verdict) {
        Some(Verdict::Better) => Speed::Faster,
        Some(Verdict::Worse) => Speed::Slower,
        Some(Verdict::Unchanged | Verdict::Neutral) => Speed::Same,
        None => Speed::Unknown,
    }
}

/// The metrics of a result by canonical key: the ncu metric name where the metric or the
/// label catalog knows it, else the `Section/Label` key.
pub fn canonical_metrics(result: &KernelResult) -> BTreeMap<String, MetricView<'_>> {
    let mut out = BTreeMap::new();
    for (key, metric) in result.metrics() {
        let canonical = canonical_key(&key, &metric);
        out.entry(canonical).or_insert(metric);
    }
    out
}

/// A metric's number by canonical key, also when the result stores it under `Section/Label`.
pub fn metric_number(result: &KernelResult, key: &str) -> Option<f64> {
    if let Some(v) = result.number(key) {
        return Some(v);
    }
    result
        .metrics()
        .iter()
        .find(|(k, m)| canonical_name(k, m).unwrap_or(k) == key)
        .and_then(|(_, m)| m.as_f64())
}

fn canonical_key(key: &str, metric: &MetricView<'_>) -> String {
    canonical_name(key, metric).unwrap_or(key).to_string()
}

/// The canonical key of a metric when it is not its store key: its ncu name, or the name the
/// label catalog gives its `Section/Label` key.
fn canonical_name(key: &str, metric: &MetricView<'_>) -> Option<&'static str> {
    if let Some(name) = metric.name
        && !name.is_empty()
    {
        return Some(name.as_str());
    }
    if !key.contains("__")
        && let Some((section, label)) = key.split_once('/')
    {
        return catalog::metric_for(section, label);
    }
    None
}

/// [`canonical_metrics`] as a list in key order, without copying a key: each canonical key
/// once, with the first metric in store order that has it.
fn canonical_list(result: &KernelResult) -> Vec<(MetricKey, MetricView<'_>)> {
    let store = result.metrics();
    let mut out: Vec<(MetricKey, MetricView<'_>)> = Vec::with_capacity(store.len());
    let mut in_order = true;
    for (key, metric) in store.iter() {
        let canonical = match canonical_name(&key, &metric) {
            None => key,
            Some(name) => match metric.name {
                Some(n) if n.as_str() == name => n,
                _ => MetricKey::from_static(name),
            },
        };
        if let Some(&(last, _)) = out.last() {
            in_order &= last < canonical;
        }
        out.push((canonical, metric));
    }
    if !in_order {
        // Stable, so the first of equal keys stays first, as `canonical_metrics` keeps it.
        out.sort_by_key(|e| e.0);
        out.dedup_by(|later, first| later.0 == first.0);
    }
    out
}

/// A short label for a metric: the label ncu shows for it, else the key.
pub fn metric_label(key: &str) -> String {
    if let Some((_, label)) = catalog::label_for(key) {
        return label.to_string();
    }
    match key.split_once('/') {
        Some((_, label)) if !key.contains("__") => label.to_string(),
        _ => key.to_string(),
    }
}

/// The difference a text form's rounding can explain, in base units (0 for exact values).
fn precision_tolerance(metric: &MetricView<'_>) -> f64 {
    let Some(printed) = &metric.printed else {
        return 0.0;
    };
    let half_step = 0.5 * 10f64.powi(-i32::from(printed.decimals));
    let factor = match (metric.value.as_f64(), printed.value.as_f64()) {
        (Some(v), Some(p)) if p != 0.0 && (v / p).is_finite() => (v / p).abs(),
        _ => to_base(&printed.unit).factor.abs(),
    };
    half_step * factor
}

/// Δ% as ncu computes it: (current − base) / base × 100; `None` for `inf%`.
pub fn delta_pct(base: f64, current: f64) -> Option<f64> {
    if base != 0.0 {
        Some((current - base) / base.abs() * 100.0)
    } else if current == 0.0 {
        Some(0.0)
    } else {
        None
    }
}

/// Compares one metric. `None` when a side has no value.
pub fn diff_metric(
    key: &str,
    base: &MetricView<'_>,
    current: &MetricView<'_>,
    threshold_pct: f64,
    speed: Speed,
) -> Option<MetricDiff> {
    diff_metric_with(
        MetricKey::new(key),
        direction_of(key),
        base,
        current,
        threshold_pct,
        speed,
    )
}

/// [`diff_metric`] with the metric's direction already known.
fn diff_metric_with(
    key: MetricKey,
    direction: Direction,
    base: &MetricView<'_>,
    current: &MetricView<'_>,
    threshold_pct: f64,
    speed: Speed,
) -> Option<MetricDiff> {
    if matches!(base.value, Value::Missing) || matches!(current.value, Value::Missing) {
        return None;
    }
    let tolerance = precision_tolerance(base) + precision_tolerance(current);
    let make = |delta_pct, verdict, within_precision| MetricDiff {
        key,
        unit: if base.unit.is_empty() {
            current.unit
        } else {
            base.unit
        },
        base: base.value,
        current: current.value,
        delta_pct,
        direction,
        verdict,
        within_precision,
        tolerance,
    };
    let (b, c) = match (base.value.as_f64(), current.value.as_f64()) {
        (Some(b), Some(c)) => (b, c),
        (None, None) => {
            let same = base.value == current.value;
            let verdict = if same {
                Verdict::Unchanged
            } else {
                Verdict::Neutral
            };
            return Some(make(None, verdict, same));
        }
        _ => return Some(make(None, Verdict::Neutral, false)),
    };
    if !b.is_finite() || !c.is_finite() {
        let same = (b.is_nan() && c.is_nan()) || b == c;
        let verdict = if same {
            Verdict::Unchanged
        } else {
            Verdict::Neutral
        };
        return Some(make(None, verdict, same));
    }
    let diff = c - b;
    let scale = b.abs().max(c.abs());
    let within_precision = diff.abs() <= tolerance * (1.0 + 1e-9) + scale * 1e-12;
    let pct = delta_pct(b, c);
    let changed = !within_precision && pct.is_none_or(|d| d.abs() >= threshold_pct);
    let verdict = if !changed {
        Verdict::Unchanged
    } else {
        match direction {
            Direction::Lower if c < b => Verdict::Better,
            Direction::Lower => Verdict::Worse,
            Direction::Higher if c > b => Verdict::Better,
            Direction::Higher => Verdict::Worse,
            Direction::HigherIfFaster => match (c > b, speed) {
                (true, Speed::Faster) => Verdict::Better,
                (false, Speed::Slower) => Verdict::Worse,
                _ => Verdict::Neutral,
            },
            Direction::Neutral => Verdict::Neutral,
        }
    };
    Some(make(pct, verdict, within_precision))
}

/// Compares two results: the duration first (it decides the verdict of throughput-like
/// metrics), then every selected metric both have. Both results' metrics are walked in step,
/// in canonical key order.
pub fn diff_results(base: &KernelResult, current: &KernelResult, opts: &DiffOptions) -> ResultDiff {
    let base_metrics = canonical_list(base);
    let current_metrics = canonical_list(current);
    fn find<'a>(list: &[(MetricKey, MetricView<'a>)], key: &str) -> Option<MetricView<'a>> {
        list.binary_search_by(|(k, _)| k.as_str().cmp(key))
            .ok()
            .map(|i| list[i].1)
    }
    let duration = match (
        find(&base_metrics, names::DURATION),
        find(&current_metrics, names::DURATION),
    ) {
        (Some(b), Some(c)) => {
            diff_metric(names::DURATION, &b, &c, opts.threshold_pct, Speed::Unknown)
        }
        _ => None,
    };
    let speed = speed_of(duration.as_ref());
    let mut metrics = Vec::with_capacity(base_metrics.len().min(current_metrics.len()));
    let mut only_in_base = Vec::new();
    let mut only_in_current = Vec::new();
    let (mut b, mut c) = (
        base_metrics.iter().peekable(),
        current_metrics.iter().peekable(),
    );
    loop {
        let order = match (b.peek(), c.peek()) {
            (None, None) => break,
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (Some((bk, _)), Some((ck, _))) => bk.cmp(ck),
        };
        match order {
            std::cmp::Ordering::Less => {
                if let Some((key, _)) = b.next()
                    && opts.selects(key.as_str())
                {
                    only_in_base.push(key.to_string());
                }
            }
            std::cmp::Ordering::Greater => {
                if let Some((key, _)) = c.next()
                    && opts.selects(key.as_str())
                {
                    only_in_current.push(key.to_string());
                }
            }
            std::cmp::Ordering::Equal => {
                if let (Some((key, bm)), Some((_, cm))) = (b.next(), c.next())
                    && opts.selects(key.as_str())
                    && let Some(d) = diff_metric_with(
                        *key,
                        direction_of_static(key.as_str()),
                        bm,
                        cm,
                        opts.threshold_pct,
                        speed,
                    )
                {
                    metrics.push(d);
                }
            }
        }
    }
    ResultDiff {
        duration,
        metrics,
        only_in_base,
        only_in_current,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Metric, Printed};

    fn m(v: f64) -> Metric {
        Metric::new(None, Value::Double(v), "ns")
    }

    fn printed(v: f64, printed_value: f64, unit: &str, decimals: u8) -> Metric {
        let mut metric = m(v);
        metric.printed = Some(Printed {
            value: Value::Double(printed_value),
            unit: unit.into(),
            decimals,
        });
        metric
    }

    #[test]
    fn delta_like_ncu() {
        // Screenshot check of the reference: 1.57 against 82.73 gives −98.10 %.
        let d = delta_pct(82.73, 1.57).unwrap();
        assert_eq!(format!("{d:.2}"), "-98.10");
        assert_eq!(delta_pct(0.0, 1.0), None);
        assert_eq!(delta_pct(0.0, 0.0), Some(0.0));
    }

    #[test]
    fn verdicts() {
        let key = names::DURATION;
        let d = diff_metric(key, &m(100.0).view(), &m(120.0).view(), 2.0, Speed::Unknown).unwrap();
        assert_eq!(d.verdict, Verdict::Worse);
        let d = diff_metric(key, &m(100.0).view(), &m(101.0).view(), 2.0, Speed::Unknown).unwrap();
        assert_eq!(d.verdict, Verdict::Unchanged);
        let d = diff_metric(key, &m(100.0).view(), &m(101.0).view(), 0.5, Speed::Unknown).unwrap();
        assert_eq!(d.verdict, Verdict::Worse);
        let sol = names::SOL_COMPUTE;
        let d = diff_metric(sol, &m(50.0).view(), &m(60.0).view(), 2.0, Speed::Faster).unwrap();
        assert_eq!(d.verdict, Verdict::Better);
        let d = diff_metric(sol, &m(50.0).view(), &m(60.0).view(), 2.0, Speed::Slower).unwrap();
        assert_eq!(d.verdict, Verdict::Neutral);
    }

    #[test]
    fn printed_precision_counts_as_unchanged() {
        // 71.62 us printed with two decimals may be anything in [71615, 71625) ns.
        let text = printed(71620.0, 71.62, "us", 2);
        let d = diff_metric(
            names::DURATION,
            &m(71624.0).view(),
            &text.view(),
            0.0,
            Speed::Unknown,
        )
        .unwrap();
        assert!(d.within_precision);
        assert_eq!(d.verdict, Verdict::Unchanged);
        // 71630 ns is outside it: the duration fell from the base's 71630 ns.
        let d = diff_metric(
            names::DURATION,
            &m(71630.0).view(),
            &text.view(),
            0.0,
            Speed::Unknown,
        )
        .unwrap();
        assert!(!d.within_precision);
        assert_eq!(d.verdict, Verdict::Better);
        // A printed 0 against a tiny stored value is not an infinite change.
        let zero = printed(0.0, 0.0, "%", 0);
        let d = diff_metric(
            "lts__t_sector_hit_rate.pct",
            &m(0.3).view(),
            &zero.view(),
            2.0,
            Speed::Same,
        )
        .unwrap();
        assert_eq!(d.verdict, Verdict::Unchanged);
    }

    #[test]
    fn metric_selection() {
        let opts = DiffOptions {
            metrics: Some(vec!["Duration".into(), "*hit_rate*".into()]),
            ..DiffOptions::default()
        };
        assert!(opts.selects(names::DURATION));
        assert!(opts.selects("lts__t_sector_hit_rate.pct"));
        assert!(!opts.selects(names::SOL_COMPUTE));
    }
}
