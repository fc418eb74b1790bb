//! The label catalog: which ncu metric a (section, label) pair of a text form shows.
//!
//! Text forms print labels, not metric names. The catalog is built from
//! `--print-metric-name label-name` exports (`scripts/build_catalog.py`) and shipped as data,
//! with one hand-written table of the section names and labels older ncu versions used
//! (`name_aliases.tsv`), so every version's names reach the same metrics.

use std::collections::HashMap;
use std::sync::OnceLock;

const CATALOG_TSV: &str = include_str!("../../../../assets/data/label_catalog.tsv");
const ALIASES_TSV: &str = include_str!("../../../../assets/data/name_aliases.tsv");

struct Catalog {
    by_label: HashMap<(&'static str, &'static str), &'static str>,
    /// Old section display name -> today's.
    section_today: HashMap<&'static str, &'static str>,
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

/// One row of the alias table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alias {
    /// `section` or `label`.
    pub kind: &'static str,
    /// For a label: the section's name today.
    pub section: &'static str,
    pub old: &'static str,
    pub today: &'static str,
    /// The ncu versions known to print the old name.
    pub versions: &'static str,
}

/// The rows of the alias table.
pub fn aliases() -> impl Iterator<Item = Alias> {
    ALIASES_TSV
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let mut it = l.split('\t');
            Some(Alias {
                kind: it.next()?,
                section: it.next()?,
                old: it.next()?,
                today: it.next()?,
                versions: it.next().unwrap_or(""),
            })
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
        let mut section_today = HashMap::new();
        for alias in aliases() {
            match alias.kind {
                "section" => {
                    section_today.insert(alias.old, alias.today);
                }
                _ => {
                    if let Some(metric) = by_label.get(&(alias.section, alias.today)).copied() {
                        by_label.insert((alias.section, alias.old), metric);
                    }
                }
            }
        }
        Catalog {
            by_label,
            section_today,
            by_label_any_section,
            label_of,
        }
    })
}

/// The metric a section's row shows, by section display name and label.
/// A section printed under an older name (`GPU Speed Of Light`) is found under today's.
pub fn metric_for(section: &str, label: &str) -> Option<&'static str> {
    catalog()
        .by_label
        .get(&(section_today(section), label))
        .copied()
}

/// Today's display name of a section that older ncu versions printed under another name;
/// any other name as it is.
pub fn section_today(name: &str) -> &str {
    catalog().section_today.get(name).copied().unwrap_or(name)
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
    use crate::model::names;

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

    /// A section's header rows as one version prints them: (label, metric it shows today).
    type Rows = &'static [(&'static str, &'static str)];

    /// Each version's speed-of-light section as it prints it: the section name and the labels
    /// of its header rows, in print order, with the metric each one shows today.
    const SOL_BY_VERSION: &[(&str, &str, Rows)] = &[
        (
            "2019.5-2020.1",
            "GPU Speed Of Light",
            &[
                ("Memory Frequency", names::DRAM_FREQUENCY),
                ("SOL FB", names::SOL_DRAM),
                ("Elapsed Cycles", names::ELAPSED_CYCLES),
                ("SM Frequency", names::SM_FREQUENCY),
                ("Memory [%]", names::SOL_MEMORY),
                ("Duration", names::DURATION),
                ("SOL L2", names::SOL_L2),
                ("SM Active Cycles", "sm__cycles_active.avg"),
                ("SM [%]", names::SOL_COMPUTE),
                ("SOL TEX", names::SOL_L1),
            ],
        ),
        (
            "2020.2-2021.1",
            "GPU Speed Of Light",
            &[
                ("DRAM Frequency", names::DRAM_FREQUENCY),
                ("SM Frequency", names::SM_FREQUENCY),
                ("Elapsed Cycles", names::ELAPSED_CYCLES),
                ("Memory [%]", names::SOL_MEMORY),
                ("SOL DRAM", names::SOL_DRAM),
                ("Duration", names::DURATION),
                ("SOL L1/TEX Cache", names::SOL_L1),
                ("SOL L2 Cache", names::SOL_L2),
                ("SM Active Cycles", "sm__cycles_active.avg"),
                ("SM [%]", names::SOL_COMPUTE),
            ],
        ),
        (
            "2021.2-2022.1",
            "GPU Speed Of Light Throughput",
            &[
                ("DRAM Frequency", names::DRAM_FREQUENCY),
                ("SM Frequency", names::SM_FREQUENCY),
                ("Elapsed Cycles", names::ELAPSED_CYCLES),
                ("Memory [%]", names::SOL_MEMORY),
                ("DRAM Throughput", names::SOL_DRAM),
                ("Duration", names::DURATION),
                ("L1/TEX Cache Throughput", names::SOL_L1),
                ("L2 Cache Throughput", names::SOL_L2),
                ("SM Active Cycles", "sm__cycles_active.avg"),
                ("Compute (SM) [%]", names::SOL_COMPUTE),
            ],
        ),
        (
            "2022.2-2025.3",
            "GPU Speed Of Light Throughput",
            &[
                ("DRAM Frequency", names::DRAM_FREQUENCY),
                ("SM Frequency", names::SM_FREQUENCY),
                ("Elapsed Cycles", names::ELAPSED_CYCLES),
                ("Memory Throughput", names::SOL_MEMORY),
                ("DRAM Throughput", names::SOL_DRAM),
                ("Duration", names::DURATION),
                ("L1/TEX Cache Throughput", names::SOL_L1),
                ("L2 Cache Throughput", names::SOL_L2),
                ("SM Active Cycles", "sm__cycles_active.avg"),
                ("Compute (SM) Throughput", names::SOL_COMPUTE),
            ],
        ),
    ];

    #[test]
    fn every_versions_speed_of_light_reaches_todays_metrics() {
        for (versions, section, rows) in SOL_BY_VERSION {
            assert_eq!(
                section_today(section),
                "GPU Speed Of Light Throughput",
                "{versions}"
            );
            for (label, metric) in *rows {
                assert_eq!(
                    metric_for(section, label),
                    Some(*metric),
                    "{versions}: {label}"
                );
            }
        }
        // 2019.1-2019.4 printed `SOL SM` and `SOL Memory` for the two bars.
        assert_eq!(
            metric_for("GPU Speed Of Light", "SOL SM"),
            Some(names::SOL_COMPUTE)
        );
        assert_eq!(
            metric_for("GPU Speed Of Light", "SOL Memory"),
            Some(names::SOL_MEMORY)
        );
        assert_eq!(
            metric_for("Memory Workload Analysis", "L1 Hit Rate"),
            metric_for("Memory Workload Analysis", "L1/TEX Hit Rate")
        );
        assert_eq!(section_today("Occupancy"), "Occupancy");
    }

    #[test]
    fn every_alias_reaches_a_name_of_today() {
        for a in aliases() {
            assert!(!a.versions.is_empty(), "{a:?}");
            match a.kind {
                "section" => assert!(
                    entries().any(|(s, _, _)| s == a.today),
                    "{a:?}: no section of today"
                ),
                "label" => assert!(
                    metric_for(a.section, a.today).is_some(),
                    "{a:?}: no label of today"
                ),
                other => panic!("unknown kind {other}"),
            }
        }
    }
}
