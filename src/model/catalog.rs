//! The label catalog: which ncu metric a (section, label) pair of a text form shows.
//!
//! Text forms print labels, not metric names. The catalog is built from
//! `--print-metric-name label-name` exports (`scripts/build_catalog.py`) and shipped as data,
//! with a small hand-written table of labels older ncu versions used.

use std::collections::HashMap;
use std::sync::OnceLock;

const CATALOG_TSV: &str = include_str!("../../assets/data/label_catalog.tsv");
const ALIASES_TSV: &str = include_str!("../../assets/data/label_aliases.tsv");

struct Catalog {
    by_label: HashMap<(&'static str, &'static str), &'static str>,
    by_label_any_section: HashMap<&'static str, Vec<&'static str>>,
    label_of: HashMap<&'static str, (&'static str, &'static str)>,
}

fn tsv_rows(
    text: &'static str,
) -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut it = l.split('\t');
            Some((it.next()?, it.next()?, it.next()?))
        })
}

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        let mut by_label = HashMap::new();
        let mut by_label_any_section: HashMap<&str, Vec<&str>> = HashMap::new();
        let mut label_of = HashMap::new();
        for (section, label, metric) in tsv_rows(CATALOG_TSV) {
            by_label.insert((section, label), metric);
            let e = by_label_any_section.entry(label).or_default();
            if !e.contains(&metric) {
                e.push(metric);
            }
            label_of.entry(metric).or_insert((section, label));
        }
        for (section, old, new) in tsv_rows(ALIASES_TSV) {
            if let Some(metric) = by_label.get(&(section, new)).copied() {
                by_label.insert((section, old), metric);
            }
        }
        Catalog {
            by_label,
            by_label_any_section,
            label_of,
        }
    })
}

/// The metric a section's row shows, by section display name and label.
pub fn metric_for(section: &str, label: &str) -> Option<&'static str> {
    catalog().by_label.get(&(section, label)).copied()
}

/// The metric a label shows when the section is unknown and the label is unambiguous.
pub fn metric_for_label(label: &str) -> Option<&'static str> {
    match catalog().by_label_any_section.get(label) {
        Some(v) if v.len() == 1 => Some(v[0]),
        _ => None,
    }
}

/// The (section, label) under which ncu shows a metric, when the catalog knows it.
pub fn label_for(metric: &str) -> Option<(&'static str, &'static str)> {
    catalog().label_of.get(metric).copied()
}

/// Every (section, label, metric) entry, for views that lay out the stock sections.
pub fn entries() -> impl Iterator<Item = (&'static str, &'static str, &'static str)> {
    tsv_rows(CATALOG_TSV)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_stock_labels() {
        assert_eq!(
            metric_for("GPU Speed Of Light Throughput", "Duration"),
            Some("gpu__time_duration.sum")
        );
        assert_eq!(
            metric_for("GPU Speed Of Light Throughput", "Memory [%]"),
            Some("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")
        );
        // "Memory Throughput" means different metrics in two sections.
        assert_eq!(
            metric_for("Memory Workload Analysis", "Memory Throughput"),
            Some("dram__bytes.sum.per_second")
        );
        assert_eq!(metric_for_label("Memory Throughput"), None);
        assert_eq!(
            label_for("gpu__time_duration.sum"),
            Some(("GPU Speed Of Light Throughput", "Duration"))
        );
    }
}
