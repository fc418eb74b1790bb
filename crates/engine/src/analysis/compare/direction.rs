//! Which way each metric should move: the direction table shipped as data
//! (`assets/data/metric_directions.tsv`), with a reason per metric family.

use serde::Serialize;
use std::sync::OnceLock;

const DIRECTIONS_TSV: &str = include_str!("../../../../../assets/data/metric_directions.tsv");

/// The direction in which a metric improves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Less is better (duration, cycles, stalls, bank conflicts, spills).
    Lower,
    /// More is better (coalescing, branch uniformity, eligible warps).
    Higher,
    /// More is better only when the duration also fell, worse only when it also rose: context
    /// (throughput percentages, IPC, rates, hit rates, occupancy).
    HigherIfFaster,
    /// No verdict: sizes, counts, launch configuration, device attributes, frequencies.
    Neutral,
}

impl Direction {
    /// The name used in the table and in exports.
    pub fn name(self) -> &'static str {
        match self {
            Direction::Lower => "lower",
            Direction::Higher => "higher",
            Direction::HigherIfFaster => "higher_if_faster",
            Direction::Neutral => "neutral",
        }
    }

    fn parse(s: &str) -> Option<Self> {
        Some(match s {
            "lower" => Direction::Lower,
            "higher" => Direction::Higher,
            "higher_if_faster" => Direction::HigherIfFaster,
            "neutral" => Direction::Neutral,
            _ => return None,
        })
    }
}

/// One row of the direction table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DirectionRule {
    /// The glob the metric key is matched against.
    pub pattern: &'static str,
    pub direction: Direction,
    /// The metric family (`stalls`, `hit rate`).
    pub family: &'static str,
    /// Why the family improves in that direction.
    pub reason: &'static str,
}

const FALLBACK: DirectionRule = DirectionRule {
    pattern: "*",
    direction: Direction::Neutral,
    family: "unknown",
    reason: "No rule covers this metric.",
};

/// Every rule of the table, in the order they are tried.
pub fn rules() -> &'static [DirectionRule] {
    static RULES: OnceLock<Vec<DirectionRule>> = OnceLock::new();
    RULES.get_or_init(|| {
        DIRECTIONS_TSV
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .filter_map(|l| {
                let mut it = l.split('\t');
                let pattern = it.next()?;
                let direction = Direction::parse(it.next()?)?;
                Some(DirectionRule {
                    pattern,
                    direction,
                    family: it.next().unwrap_or(""),
                    reason: it.next().unwrap_or(""),
                })
            })
            .collect()
    })
}

/// The rule that decides a metric's direction. A key of the form `Section/Label` is matched by
/// its label.
pub fn rule_for(key: &str) -> &'static DirectionRule {
    let subject = match key.split_once('/') {
        Some((_, label)) if !key.contains("__") => label,
        _ => key,
    };
    rules()
        .iter()
        .find(|r| glob_match(r.pattern, subject))
        .unwrap_or(&FALLBACK)
}

/// The direction of a metric.
pub fn direction_of(key: &str) -> Direction {
    rule_for(key).direction
}

/// [`direction_of`] a key that lives for the whole process (an interned metric name or a
/// catalog name), remembered per thread by the text's address: a comparison asks for the same
/// few thousand keys once per pair, and matching them against the table's globs each time
/// took most of its time.
pub fn direction_of_static(key: &'static str) -> Direction {
    use std::cell::RefCell;
    use std::collections::HashMap;
    thread_local! {
        static KNOWN: RefCell<HashMap<(usize, usize), Direction, AddressHash>> =
            RefCell::new(HashMap::default());
    }
    let at = (key.as_ptr() as usize, key.len());
    KNOWN.with(|known| {
        if let Some(&d) = known.borrow().get(&at) {
            return d;
        }
        let d = direction_of(key);
        known.borrow_mut().insert(at, d);
        d
    })
}

/// Hashes the address and length of a text (two words) by one multiplication each: the keys
/// of [`direction_of_static`] are already spread, and SipHash would cost more than the lookup.
#[derive(Default, Clone, Copy)]
struct AddressHash;

impl std::hash::BuildHasher for AddressHash {
    type Hasher = AddressHasher;
    fn build_hasher(&self) -> AddressHasher {
        AddressHasher(0)
    }
}

struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// Matches `text` against a glob where `*` stands for any run of characters.
pub fn glob_match(pattern: &str, text: &str) -> bool {
    let mut parts = pattern.split('*');
    let Some(first) = parts.next() else {
        return text.is_empty();
    };
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    let Some((last, middle)) = parts.split_last() else {
        // No `*` at all: the whole text must equal the pattern.
        return rest.is_empty();
    };
    for part in middle {
        match rest.find(part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("*hit_rate*", "lts__t_sector_hit_rate.pct"));
        assert!(glob_match("launch__*", "launch__grid_size"));
        assert!(glob_match("*.per_second", "dram__bytes.sum.per_second"));
        assert!(!glob_match("*.per_second", "dram__bytes.sum.per_second.x"));
        assert!(glob_match("Duration", "Duration"));
        assert!(!glob_match("Duration", "Durations"));
        assert!(glob_match("a*b*a", "aba"));
        assert!(!glob_match("ab*ba", "aba"));
        assert!(glob_match("*", ""));
    }

    #[test]
    fn table_parses_completely() {
        let lines = DIRECTIONS_TSV
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .count();
        assert_eq!(rules().len(), lines, "every row has a known direction");
        assert!(rules().iter().all(|r| !r.reason.is_empty()));
    }

    #[test]
    fn remembered_directions_are_the_table_s() {
        for key in [
            "gpu__time_duration.sum",
            "lts__t_sector_hit_rate.pct",
            "x",
            "",
        ] {
            let key: &'static str = Box::leak(key.to_string().into_boxed_str());
            assert_eq!(direction_of_static(key), direction_of(key), "{key}");
            assert_eq!(direction_of_static(key), direction_of(key), "{key}");
        }
    }

    #[test]
    fn families() {
        use Direction::*;
        let cases = [
            ("gpu__time_duration.sum", Lower),
            ("gpc__cycles_elapsed.max", Lower),
            ("gpc__cycles_elapsed.avg.per_second", Neutral),
            ("smsp__average_warp_latency_per_inst_issued.ratio", Lower),
            ("smsp__pcsamp_warps_issue_stalled_long_scoreboard", Lower),
            ("smsp__pcsamp_warps_issue_stalled_selected", Neutral),
            ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", Lower),
            (
                "derived__memory_l2_theoretical_sectors_global_excessive",
                Lower,
            ),
            ("sass__inst_executed_register_spilling", Lower),
            ("lts__t_sector_hit_rate.pct", HigherIfFaster),
            (
                "sm__warps_active.avg.pct_of_peak_sustained_active",
                HigherIfFaster,
            ),
            ("sm__inst_executed.avg.per_cycle_active", HigherIfFaster),
            (
                "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                HigherIfFaster,
            ),
            ("dram__bytes.sum.per_second", HigherIfFaster),
            ("smsp__issue_inst0.avg.pct_of_peak_sustained_active", Lower),
            ("launch__registers_per_thread", Neutral),
            ("launch__occupancy_limit_registers", Neutral),
            ("device__attribute_max_gpu_frequency_khz", Neutral),
            ("dram__bytes_read.sum", Neutral),
            ("smsp__inst_executed.sum", Neutral),
            ("GPU Speed Of Light Throughput/Duration", Lower),
            ("GPU Speed Of Light Throughput/SM Active Cycles", Lower),
            ("GPU Speed Of Light Throughput/SM Frequency", Neutral),
            ("Occupancy/Block Limit Registers", Neutral),
            ("Memory Workload Analysis/L1/TEX Hit Rate", HigherIfFaster),
            (
                "smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio",
                Higher,
            ),
        ];
        for (key, want) in cases {
            assert_eq!(direction_of(key), want, "{key}");
        }
    }
}
