//! Base units of metrics. Report files store no units, so they come from a table built from
//! NVIDIA's own report module (`assets/data/metric_units.tsv`, made by
//! `scripts/build_units.py`), and from name rules for metrics the table does not know.

use std::collections::HashMap;
use std::sync::OnceLock;

const UNITS_TSV: &str = include_str!("../../../../../assets/data/metric_units.tsv");

fn table() -> &'static HashMap<&'static str, &'static str> {
    static TABLE: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    TABLE.get_or_init(|| {
        UNITS_TSV
            .lines()
            .filter(|l| !l.starts_with('#'))
            .filter_map(|l| l.split_once('\t'))
            .collect()
    })
}

/// The base unit of a metric (`ns`, `hz`, `byte`, `byte/s`, `%`, `cycle`, ...; empty when it
/// has none).
pub fn unit_of(name: &str) -> &'static str {
    let t = table();
    if let Some(u) = t.get(name) {
        return u;
    }
    // PM-sampling series carry a `UNIT.Group.` prefix before an ordinary metric name.
    let base = strip_group_prefix(name);
    if base.len() != name.len()
        && let Some(u) = t.get(base)
    {
        return u;
    }
    unit_by_rule(base)
}

/// `TPC.TriageCompute.sm__cycles_active.avg` → `sm__cycles_active.avg`.
fn strip_group_prefix(name: &str) -> &str {
    match name.find("__") {
        Some(i) => match name[..i].rfind('.') {
            Some(dot) => &name[dot + 1..],
            None => name,
        },
        None => name,
    }
}

/// Unit rules from the naming conventions of ncu metrics.
pub fn unit_by_rule(name: &str) -> &'static str {
    if name.starts_with("device__attribute_")
        || name.starts_with("group:")
        || name.starts_with("breakdown:")
    {
        return "";
    }
    if name.contains(".pct_of_peak")
        || name.ends_with(".pct")
        || name.ends_with("_pct")
        || name.contains("_pct_")
        || name.ends_with(".pct_of_peak_sustained_active")
    {
        return "%";
    }
    if name.starts_with("gpu__time_duration") || name.ends_with("_time_ns") {
        return "ns";
    }
    let (base, rate) = match name.strip_suffix(".per_second") {
        Some(b) => (b, true),
        None => (name, false),
    };
    let quantity = if base.contains("__cycles_") || base.contains("_cycles_") {
        "cycle"
    } else if base.contains("bytes") {
        "byte"
    } else if base.contains("sectors") {
        "sector"
    } else if base.contains("inst_executed") || base.contains("inst_issued") {
        "inst"
    } else if base.contains("warps_") {
        "warp"
    } else if base.contains("requests") {
        "request"
    } else {
        ""
    };
    if rate {
        return match quantity {
            "cycle" => "hz",
            "byte" => "byte/s",
            "sector" => "sector/s",
            "inst" => "inst/s",
            "request" => "request/s",
            _ => "1/s",
        };
    }
    if name.contains(".per_cycle_") {
        return match quantity {
            "inst" => "inst/cycle",
            "warp" => "warp",
            "sector" => "sector/cycle",
            "byte" => "byte/cycle",
            _ => "",
        };
    }
    if name.ends_with(".ratio") || name.contains(".peak_sustained") {
        return "";
    }
    quantity
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_and_rules() {
        assert_eq!(unit_of("gpu__time_duration.sum"), "ns");
        assert_eq!(unit_of("dram__bytes.sum.per_second"), "byte/s");
        assert_eq!(unit_of("gpc__cycles_elapsed.avg.per_second"), "hz");
        assert_eq!(unit_of("device__attribute_display_name"), "");
        // Not in the table: decided by rules.
        assert_eq!(
            unit_of("xyz__throughput.avg.pct_of_peak_sustained_elapsed"),
            "%"
        );
        assert_eq!(unit_of("xyz__cycles_active.max"), "cycle");
        assert_eq!(unit_of("xyz__cycles_elapsed.avg.per_second"), "hz");
        assert_eq!(unit_of("xyz__bytes_read.sum"), "byte");
        assert_eq!(unit_of("xyz__bytes_read.sum.per_second"), "byte/s");
        assert_eq!(unit_of("gpu__time_duration.median"), "ns");
        assert_eq!(unit_of("XYZ.TriageCompute.gpu__time_duration.sum"), "ns");
        assert_eq!(unit_of("some_unknown_counter"), "");
    }

    /// The rules agree with the table on most of the metrics the table knows.
    #[test]
    fn rules_mostly_agree_with_the_table() {
        let t = table();
        let agree = t.iter().filter(|(n, u)| unit_by_rule(n) == **u).count();
        assert!(agree * 10 >= t.len() * 7, "{agree} of {}", t.len());
    }
}
