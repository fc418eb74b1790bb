//! Which metric differences of each matched pair a comparison keeps. The JSON and CSV exports
//! list every metric of every pair and read them again pair by pair when they write
//! ([`super::rediff_pairs`]); the text forms show only the duration, the headline metrics, the
//! biggest changes over all pairs and what the `--fail-on` rules read, so a comparison made for
//! them keeps only those, and its memory does not grow with the metrics of every pair.

use super::MatchedDiff;
use super::export::HEADLINE_METRICS;
use super::metric_diff::{MetricDiff, Verdict};
use crate::model::{MetricKey, names};

/// Which metric differences of each matched pair a comparison keeps.
#[derive(Clone, Copy)]
pub enum Keep<'a> {
    /// Every metric.
    All,
    /// What the text forms show: the duration, the [`HEADLINE_METRICS`], the `max_changes`
    /// changes [`super::export::listed_changes`] lists over all pairs, and the metrics `also`
    /// selects (those the `--fail-on` rules read). A comparison restricted to chosen metrics
    /// keeps every one of them.
    Shown {
        max_changes: usize,
        also: &'a dyn Fn(&str) -> bool,
    },
}

/// A metric change that may be among the biggest of the comparison.
struct Candidate {
    /// Position of the pair in the comparison and of the metric in the pair's list.
    pair: usize,
    position: usize,
    metric: MetricDiff,
    current_index: usize,
}

/// Applies a [`Keep`] pair by pair while a comparison is made.
pub struct Kept<'a> {
    keep: Keep<'a>,
    /// The biggest changes so far, in the order [`super::export::listed_changes`] lists them.
    top: Vec<Candidate>,
    /// For each pair, the positions in its full metric list of the metrics it keeps.
    positions: Vec<Vec<usize>>,
    /// Whether each metric key (by [`MetricKey::id`]) is kept for every pair: unknown yet,
    /// no or yes. The same few thousand keys come in every pair.
    kept_keys: Vec<KeyKept>,
}

/// Whether a metric key is kept for every pair, once known.
#[derive(Clone, Copy, PartialEq)]
enum KeyKept {
    Unknown,
    No,
    Yes,
}

/// Whether a metric is among those the comparison tables show for every pair.
fn is_headline(key: &str) -> bool {
    key == names::DURATION || HEADLINE_METRICS.iter().any(|(k, _)| *k == key)
}

impl<'a> Kept<'a> {
    /// What a comparison keeps: `keep`, or everything when it is `restricted` to chosen
    /// metrics.
    pub fn new(keep: Keep<'a>, restricted: bool) -> Self {
        Kept {
            keep: if restricted { Keep::All } else { keep },
            top: Vec::new(),
            positions: Vec::new(),
            kept_keys: Vec::new(),
        }
    }

    /// Whether `key` is kept for every pair: a headline metric, or one `also` selects.
    fn keeps_key(&mut self, key: MetricKey, also: &dyn Fn(&str) -> bool) -> bool {
        let id = key.id();
        if id >= self.kept_keys.len() {
            self.kept_keys.resize(id + 1, KeyKept::Unknown);
        }
        match self.kept_keys[id] {
            KeyKept::Yes => true,
            KeyKept::No => false,
            KeyKept::Unknown => {
                let keep = is_headline(&key) || also(&key);
                self.kept_keys[id] = if keep { KeyKept::Yes } else { KeyKept::No };
                keep
            }
        }
    }

    /// Keeps of the pair at position `pair` (pairs come in order) what is to be kept.
    pub fn add(&mut self, mut m: MatchedDiff, pair: usize) -> MatchedDiff {
        let Keep::Shown { max_changes, also } = self.keep else {
            return m;
        };
        let mut positions = Vec::new();
        let metrics = std::mem::take(&mut m.diff.metrics);
        for (position, metric) in metrics.into_iter().enumerate() {
            let keep = self.keeps_key(metric.key, also);
            let candidate = !is_headline(&metric.key)
                && matches!(metric.verdict, Verdict::Better | Verdict::Worse);
            if candidate && max_changes > 0 {
                self.top.push(Candidate {
                    pair,
                    position,
                    metric: metric.clone(),
                    current_index: m.current_index,
                });
            }
            if keep {
                positions.push(position);
                m.diff.metrics.push(metric);
            }
        }
        self.positions.push(positions);
        if self.top.len() > max_changes {
            // The order of `listed_changes`: worse first, then the largest change weight, then the
            // current kernel's index, then the order of the pairs and their metrics.
            self.top.sort_by(|a, b| {
                let wa = a.metric.verdict != Verdict::Worse;
                let wb = b.metric.verdict != Verdict::Worse;
                wa.cmp(&wb)
                    .then(
                        super::export::change_weight(&b.metric)
                            .total_cmp(&super::export::change_weight(&a.metric)),
                    )
                    .then(a.current_index.cmp(&b.current_index))
                    .then((a.pair, a.position).cmp(&(b.pair, b.position)))
            });
            self.top.truncate(max_changes);
        }
        m
    }

    /// Puts the biggest changes back into their pairs, in the place they had there.
    pub fn finish(self, matched: &mut [MatchedDiff]) {
        let mut extra: Vec<Vec<(usize, MetricDiff)>> = vec![Vec::new(); self.positions.len()];
        for c in self.top {
            if let Some(list) = extra.get_mut(c.pair) {
                list.push((c.position, c.metric));
            }
        }
        for ((m, positions), extra) in matched.iter_mut().zip(self.positions).zip(extra) {
            if extra.is_empty() {
                continue;
            }
            let kept = std::mem::take(&mut m.diff.metrics);
            let mut all: Vec<(usize, MetricDiff)> = positions.into_iter().zip(kept).collect();
            for (position, metric) in extra {
                if !all.iter().any(|(p, _)| *p == position) {
                    all.push((position, metric));
                }
            }
            all.sort_by_key(|(p, _)| *p);
            m.diff.metrics = all.into_iter().map(|(_, metric)| metric).collect();
        }
    }
}
