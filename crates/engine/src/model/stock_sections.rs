//! The stock Details sections: identifier ↔ display name, the order ncu prints them, and the
//! sections a result's metric map fills when its source has none (raw exports).
//!
//! The identifier table is built by `scripts/build_section_ids.py` from exports of one report.

use super::catalog;
use super::metric::MetricRow;
use super::metric_store::MetricStore;
use super::result::Section;
use std::collections::BTreeMap;

const SECTION_IDS_TSV: &str = include_str!("../../../../assets/data/section_ids.tsv");

/// Every known stock section as (identifier, display name), in the order ncu prints them.
pub fn known_sections() -> impl Iterator<Item = (&'static str, &'static str)> {
    SECTION_IDS_TSV
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| l.split_once('\t'))
}

/// The display name of a section identifier (`SpeedOfLight` → `GPU Speed Of Light Throughput`).
pub fn display_name_for(identifier: &str) -> Option<&'static str> {
    known_sections()
        .find(|(id, _)| *id == identifier)
        .map(|(_, name)| name)
}

/// The identifier of a section display name.
pub fn identifier_for(display_name: &str) -> Option<&'static str> {
    known_sections()
        .find(|(_, name)| *name == display_name)
        .map(|(id, _)| id)
}

/// The section display names that have header rows, in print order: known sections first in
/// the order ncu prints them, then the catalog's other sections.
fn section_order() -> Vec<&'static str> {
    let mut order: Vec<&'static str> = known_sections().map(|(_, name)| name).collect();
    for (section, _, _) in catalog::entries() {
        if !order.contains(&section) {
            order.push(section);
        }
    }
    order
}

/// Builds the stock Details sections from a result's metrics: each section of the label
/// catalog that has at least one of its metrics, rows ordered by metric name as ncu prints them.
pub fn build_sections(metrics: &MetricStore) -> Vec<Section> {
    let mut by_section: BTreeMap<&str, Vec<(&str, &str)>> = BTreeMap::new();
    for (section, label, metric) in catalog::entries() {
        by_section.entry(section).or_default().push((metric, label));
    }
    let mut sections = Vec::new();
    for name in section_order() {
        let Some(entries) = by_section.get_mut(name) else {
            continue;
        };
        entries.sort();
        let rows: Vec<MetricRow> = entries
            .iter()
            .filter_map(|(metric, label)| {
                metrics.get(*metric).map(|m| MetricRow {
                    label: (*label).to_string(),
                    metric: m.to_metric(),
                })
            })
            .collect();
        if rows.is_empty() {
            continue;
        }
        sections.push(Section {
            identifier: identifier_for(name).map(str::to_string),
            name: name.to_string(),
            rows,
            rules: Vec::new(),
        });
    }
    sections
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Metric;
    use crate::model::Value;

    #[test]
    fn maps_identifiers_both_ways() {
        assert_eq!(
            display_name_for("SpeedOfLight"),
            Some("GPU Speed Of Light Throughput")
        );
        assert_eq!(identifier_for("Occupancy"), Some("Occupancy"));
        assert_eq!(
            identifier_for("GPU and Memory Workload Distribution"),
            Some("WorkloadDistribution")
        );
        assert_eq!(display_name_for("NoSuchSection"), None);
    }

    #[test]
    fn builds_rows_in_metric_name_order() {
        let mut metrics = MetricStore::new();
        for name in [
            "sm__throughput.avg.pct_of_peak_sustained_elapsed",
            "gpu__time_duration.sum",
            "dram__cycles_elapsed.avg.per_second",
            "launch__block_size",
        ] {
            metrics.insert(
                name.into(),
                Metric::new(Some(name.into()), Value::U64(1), ""),
            );
        }
        let sections = build_sections(&metrics);
        let names: Vec<&str> = sections.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            ["GPU Speed Of Light Throughput", "Launch Statistics"]
        );
        let labels: Vec<&str> = sections[0].rows.iter().map(|r| r.label.as_str()).collect();
        assert_eq!(
            labels,
            ["DRAM Frequency", "Duration", "Compute (SM) Throughput"]
        );
        assert_eq!(sections[0].identifier.as_deref(), Some("SpeedOfLight"));
    }
}
