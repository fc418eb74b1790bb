//! Label → metric lookups through the catalog, cached by row position: results of one report
//! repeat the same sections with the same rows, so the label at a position is usually the one
//! seen there before and a string compare replaces a hash lookup.

use crate::model::catalog::metric_for;
use std::collections::HashMap;

/// Cached catalog answers per section and row position.
#[derive(Debug, Default)]
pub struct LabelCache<'a> {
    slots: HashMap<&'a str, usize>,
    rows: Vec<Vec<(&'a str, Option<&'static str>)>>,
}

impl<'a> LabelCache<'a> {
    /// The cache slot of a section name.
    pub fn slot(&mut self, section: &'a str) -> usize {
        if let Some(&slot) = self.slots.get(section) {
            return slot;
        }
        let slot = self.rows.len();
        self.rows.push(Vec::new());
        self.slots.insert(section, slot);
        slot
    }

    /// How many header rows a section had when last seen (to size its row list).
    pub fn known_rows(&self, slot: usize) -> usize {
        self.rows.get(slot).map_or(0, Vec::len)
    }

    /// The metric a label shows at row `pos` of a section's header table.
    pub fn metric(
        &mut self,
        slot: usize,
        pos: usize,
        section: &str,
        label: &'a str,
    ) -> Option<&'static str> {
        let Some(rows) = self.rows.get_mut(slot) else {
            return metric_for(section, label);
        };
        if let Some(&(seen, metric)) = rows.get(pos)
            && seen == label
        {
            return metric;
        }
        let metric = metric_for(section, label);
        if pos < rows.len() {
            rows[pos] = (label, metric);
        } else if pos == rows.len() {
            rows.push((label, metric));
        }
        metric
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caches_by_position() {
        let mut c = LabelCache::default();
        let s = c.slot("GPU Speed Of Light Throughput");
        assert_eq!(c.slot("GPU Speed Of Light Throughput"), s);
        let d = Some("gpu__time_duration.sum");
        assert_eq!(
            c.metric(s, 0, "GPU Speed Of Light Throughput", "Duration"),
            d
        );
        assert_eq!(
            c.metric(s, 0, "GPU Speed Of Light Throughput", "Duration"),
            d
        );
        assert_eq!(
            c.metric(s, 0, "GPU Speed Of Light Throughput", "Nope"),
            None
        );
    }
}
