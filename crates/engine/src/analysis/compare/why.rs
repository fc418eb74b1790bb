//! Why a kernel changed: a ranked list of explanations for one compared pair, from what both
//! results measured: rules that appeared, disappeared or changed their estimated speedup; the
//! warp-stall reasons that moved, appeared or went (with their sampled counts); shared-memory
//! bank conflicts; memory traffic per level (L1, L2, DRAM); instructions executed; registers
//! per thread and shared memory per block; the occupancy limiter and occupancy. What points
//! against the duration's change is kept, ranked after what points with it.

use super::metric_diff::{Speed, delta_pct, metric_number};
use crate::model::format::value_text;
use crate::model::{KernelResult, RuleKind, RuleResult};
use serde::Serialize;
use std::collections::BTreeMap;

/// Smallest relative change of a traffic or instruction count worth explaining, in percent.
const MIN_COUNT_CHANGE_PCT: f64 = 10.0;
/// Smallest change of a rule's estimated speedup worth explaining, in percentage points.
const MIN_SPEEDUP_CHANGE_PP: f64 = 5.0;
/// Smallest move of one stall reason worth explaining, as a share of all stalls, in points.
const MIN_STALL_SHARE_PP: f64 = 5.0;
/// How many stall reasons are listed at most.
const MAX_STALLS: usize = 5;
/// Smallest share of all stalls a reason that was absent (zero) on one side must have to be
/// listed as appeared or gone, in points.
const MIN_NEW_STALL_SHARE_PP: f64 = 2.0;
/// Smallest occupancy change worth explaining, in percentage points.
const MIN_OCCUPANCY_PP: f64 = 5.0;

/// What an explanation is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WhyKind {
    RuleAppeared,
    RuleDisappeared,
    RuleSpeedupChanged,
    StallMoved,
    BankConflicts,
    MemoryTraffic,
    Instructions,
    Registers,
    SharedMemory,
    OccupancyLimiter,
    Occupancy,
}

/// One reason a kernel may have changed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    pub kind: WhyKind,
    /// What moved: a rule identifier, a stall reason, a memory level, a metric.
    pub subject: String,
    /// One line for people.
    pub text: String,
    pub base: Option<f64>,
    pub current: Option<f64>,
    /// Whether the change points the way the duration went (more work or a new problem and
    /// slower, less and faster); `None` when the duration did not move or has no side.
    pub agrees: Option<bool>,
    /// Weight for ranking (a percentage-like magnitude).
    pub score: f64,
    /// The CUDA lines that carry most of the change, where both sides' source was read
    /// ([`crate::analysis::source::why_lines`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lines: Vec<LineLink>,
}

/// A CUDA line that carries part of an explained change.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LineLink {
    /// The file as recorded, and its line (the current side's; the baseline's for a line
    /// that went away).
    pub file: String,
    pub line: u32,
    /// The line's change of the measure (current minus baseline).
    pub change: f64,
    /// Its share of the whole function's change, in percent.
    pub share_pct: f64,
    /// One line for people: `stall barrier +1,209 samples: 81 % at transpose.cu:22`.
    pub text: String,
    /// The same without what changed, for a list under its explanation: `+1,209 samples:
    /// 81 % at transpose.cu:22`.
    pub place: String,
    /// The line is the baseline's and the current code has none in its place (code that went
    /// away, as most of an improvement's lines are): it is found in the baseline's source.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub baseline_only: bool,
}

/// The explanations for one pair, ranked: those that agree with the duration first, then by
/// weight. Nothing when the duration did not change: then there is nothing to explain.
pub fn explain(base: &KernelResult, current: &KernelResult, speed: Speed) -> Vec<Explanation> {
    let mut out = Vec::new();
    if speed == Speed::Same {
        return out;
    }
    rules(base, current, speed, &mut out);
    stalls(base, current, speed, &mut out);
    bank_conflicts(base, current, speed, &mut out);
    traffic(base, current, speed, &mut out);
    instructions(base, current, speed, &mut out);
    resources(base, current, speed, &mut out);
    occupancy(base, current, speed, &mut out);
    out.sort_by(|a, b| {
        let rank = |e: &Explanation| match e.agrees {
            Some(true) => 0,
            None => 1,
            Some(false) => 2,
        };
        rank(a)
            .cmp(&rank(b))
            .then(b.score.total_cmp(&a.score))
            .then(a.kind.cmp(&b.kind))
            .then(a.subject.cmp(&b.subject))
    });
    out
}

/// Whether "more" (`grew`) fits the way the duration went.
fn agrees_with(grew: bool, speed: Speed) -> Option<bool> {
    match speed {
        Speed::Slower => Some(grew),
        Speed::Faster => Some(!grew),
        Speed::Same | Speed::Unknown => None,
    }
}

/// How a rule is told apart: reports store identifiers, GUI copies titles, text exports only
/// the message. Rules are compared only by a kind of key both sides have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum RuleKeyKind {
    Identifier,
    Title,
    Message,
}

/// A rule's key: its identifier, else its title, else the first words of its message without
/// the numbers in it (which change between runs).
fn rule_key(r: &RuleResult) -> Option<(RuleKeyKind, String)> {
    if let Some(id) = r.identifier.as_deref().filter(|s| !s.is_empty()) {
        return Some((RuleKeyKind::Identifier, id.to_string()));
    }
    if !r.title.trim().is_empty() {
        return Some((RuleKeyKind::Title, r.title.trim().to_string()));
    }
    let words: Vec<&str> = r
        .message
        .split_whitespace()
        .filter(|w| !w.chars().any(|c| c.is_ascii_digit()))
        .take(8)
        .collect();
    (!words.is_empty()).then(|| (RuleKeyKind::Message, words.join(" ")))
}

type RuleMap = BTreeMap<(RuleKeyKind, String), Option<f64>>;

/// Rules that point at a problem (not information), by key, with their largest speedup; rules
/// of sections the other result did not collect are left out (they cannot have appeared).
fn problem_rules(r: &KernelResult, other: &KernelResult) -> RuleMap {
    let collected: std::collections::BTreeSet<&str> =
        other.sections().iter().map(|s| s.name.as_str()).collect();
    let rules = r
        .sections()
        .iter()
        // A section of rules only (no header rows) is listed only when a rule fired in it.
        .filter(|s| s.rows.is_empty() || collected.contains(s.name.as_str()))
        .flat_map(|s| s.rules.iter())
        .chain(r.rules().iter());
    let mut out: RuleMap = BTreeMap::new();
    for rule in rules {
        if !matches!(rule.kind, RuleKind::Opt | RuleKind::Wrn) {
            continue;
        }
        let Some(key) = rule_key(rule) else { continue };
        let speedup = rule.speedup.map(|(_, pct)| pct).filter(|v| v.is_finite());
        let e = out.entry(key).or_insert(None);
        *e = match (*e, speedup) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
    }
    out
}

/// The rules of both sides whose kind of key the other side also has.
fn comparable_rules(base: &KernelResult, current: &KernelResult) -> (RuleMap, RuleMap) {
    let (mut b, mut c) = (problem_rules(base, current), problem_rules(current, base));
    let kinds = |m: &RuleMap| {
        m.keys()
            .map(|k| k.0)
            .collect::<std::collections::BTreeSet<_>>()
    };
    let shared: Vec<RuleKeyKind> = kinds(&b).intersection(&kinds(&c)).copied().collect();
    b.retain(|k, _| shared.contains(&k.0));
    c.retain(|k, _| shared.contains(&k.0));
    (b, c)
}

fn speedup_text(s: Option<f64>) -> String {
    s.map_or_else(String::new, |v| format!(" (est. speedup {v:.1}%)"))
}

fn rules(base: &KernelResult, current: &KernelResult, speed: Speed, out: &mut Vec<Explanation>) {
    let (b, c) = comparable_rules(base, current);
    for (full_key, s) in &c {
        let key = &full_key.1;
        if !b.contains_key(full_key) {
            out.push(Explanation {
                lines: Vec::new(),
                kind: WhyKind::RuleAppeared,
                subject: key.clone(),
                text: format!("rule {key} appeared{}", speedup_text(*s)),
                base: None,
                current: *s,
                agrees: agrees_with(true, speed),
                score: s.unwrap_or(0.0).max(1.0),
            });
        }
    }
    for (full_key, s) in &b {
        let key = &full_key.1;
        match c.get(full_key) {
            None => out.push(Explanation {
                lines: Vec::new(),
                kind: WhyKind::RuleDisappeared,
                subject: key.clone(),
                text: format!("rule {key} no longer fires{}", speedup_text(*s)),
                base: *s,
                current: None,
                agrees: agrees_with(false, speed),
                score: s.unwrap_or(0.0).max(1.0),
            }),
            Some(cs) => {
                if let (Some(x), Some(y)) = (*s, *cs)
                    && (y - x).abs() >= MIN_SPEEDUP_CHANGE_PP
                {
                    out.push(Explanation {
                        lines: Vec::new(),
                        kind: WhyKind::RuleSpeedupChanged,
                        subject: key.clone(),
                        text: format!(
                            "rule {key}: est. speedup {x:.1}% → {y:.1}% ({:+.1} pp)",
                            y - x
                        ),
                        base: Some(x),
                        current: Some(y),
                        agrees: agrees_with(y > x, speed),
                        score: (y - x).abs(),
                    });
                }
            }
        }
    }
}

const STALL_PREFIX: &str = "smsp__average_warps_issue_stalled_";
const STALL_SUFFIX: &str = "_per_issue_active.ratio";

/// Stall reasons (cycles per issued instruction) by reason name.
fn stall_reasons(r: &KernelResult) -> BTreeMap<String, f64> {
    r.metrics()
        .keys()
        .filter_map(|k| {
            let reason = k.strip_prefix(STALL_PREFIX)?.strip_suffix(STALL_SUFFIX)?;
            // `selected` is the cycle a warp issues: not a stall.
            if reason == "selected" {
                return None;
            }
            let v = r.number(&k).filter(|v| v.is_finite() && *v >= 0.0)?;
            Some((reason.to_string(), v))
        })
        .collect()
}

const STALL_SAMPLES_PREFIX: &str = "smsp__pcsamp_warps_issue_stalled_";

/// How many warp-state samples a stall reason got (the Warp State Sampling section).
fn stall_samples(r: &KernelResult, reason: &str) -> Option<f64> {
    r.number(&format!("{STALL_SAMPLES_PREFIX}{reason}"))
        .filter(|v| v.is_finite() && *v >= 0.0)
}

fn stalls(base: &KernelResult, current: &KernelResult, speed: Speed, out: &mut Vec<Explanation>) {
    let b = stall_reasons(base);
    let c = stall_reasons(current);
    let (tb, tc): (f64, f64) = (b.values().sum(), c.values().sum());
    if b.is_empty() || c.is_empty() || tb <= 0.0 || tc <= 0.0 {
        return;
    }
    // Every reason either side measured; one the other side did not list stalled it nothing.
    let reasons: std::collections::BTreeSet<&String> = b.keys().chain(c.keys()).collect();
    let mut moved: Vec<(String, f64, f64, f64)> = reasons
        .into_iter()
        .map(|reason| {
            let x = b.get(reason).copied().unwrap_or(0.0);
            let y = c.get(reason).copied().unwrap_or(0.0);
            (reason.clone(), x, y, (y / tc - x / tb) * 100.0)
        })
        .filter(|(_, x, y, share)| {
            let appeared_or_gone = (*x == 0.0) != (*y == 0.0);
            x != y
                && (share.abs() >= MIN_STALL_SHARE_PP
                    || (appeared_or_gone && share.abs() >= MIN_NEW_STALL_SHARE_PP))
        })
        .collect();
    moved.sort_by(|a, b| b.3.abs().total_cmp(&a.3.abs()).then(a.0.cmp(&b.0)));
    for (reason, x, y, share) in moved.into_iter().take(MAX_STALLS) {
        let what = match (x == 0.0, y == 0.0) {
            (true, false) => "new stall",
            (false, true) => "stall gone",
            _ => "stall",
        };
        let samples = match (
            stall_samples(base, &reason),
            stall_samples(current, &reason),
        ) {
            (Some(sx), Some(sy)) if sx != sy => {
                format!("; {} → {} samples", value_text(sx, ""), value_text(sy, ""))
            }
            _ => String::new(),
        };
        out.push(Explanation {
            lines: Vec::new(),
            kind: WhyKind::StallMoved,
            subject: reason.clone(),
            text: format!(
                "{what} {reason}: {x:.2} → {y:.2} cycles per issued instruction ({share:+.1} pp \
                 of all stalls{samples})"
            ),
            base: Some(x),
            current: Some(y),
            agrees: agrees_with(y > x, speed),
            // A stall that appeared or went weighs as much as a large move.
            score: if what == "stall" {
                share.abs()
            } else {
                share.abs().max(MIN_STALL_SHARE_PP * 2.0)
            },
        });
    }
}

const BANK_CONFLICTS: &str = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum";
const BANK_CONFLICT_PARTS: [&str; 2] = [
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
];

/// Shared-memory bank conflicts (all operations, else loads and stores), when measured.
pub fn bank_conflicts_of(r: &KernelResult) -> Option<f64> {
    metric_number(r, BANK_CONFLICTS).or_else(|| {
        let parts: Vec<f64> = BANK_CONFLICT_PARTS
            .iter()
            .filter_map(|k| metric_number(r, k))
            .collect();
        (!parts.is_empty()).then(|| parts.iter().sum())
    })
}

fn bank_conflicts(
    base: &KernelResult,
    current: &KernelResult,
    speed: Speed,
    out: &mut Vec<Explanation>,
) {
    if let (Some(x), Some(y)) = (bank_conflicts_of(base), bank_conflicts_of(current))
        && let Some(e) = count_change(
            WhyKind::BankConflicts,
            BANK_CONFLICTS,
            "shared memory bank conflicts",
            (x, y),
            "",
            speed,
        )
    {
        out.push(e);
    }
}

/// Registers per thread and shared memory per block (static and dynamic), when they changed.
fn resources(
    base: &KernelResult,
    current: &KernelResult,
    speed: Speed,
    out: &mut Vec<Explanation>,
) {
    const REGISTERS: &str = "launch__registers_per_thread";
    const SHARED: [&str; 2] = [
        "launch__shared_mem_per_block_static",
        "launch__shared_mem_per_block_dynamic",
    ];
    if let (Some(x), Some(y)) = (
        metric_number(base, REGISTERS),
        metric_number(current, REGISTERS),
    ) && x != y
    {
        out.push(Explanation {
            lines: Vec::new(),
            kind: WhyKind::Registers,
            subject: REGISTERS.to_string(),
            text: format!("registers per thread: {x} → {y}"),
            base: Some(x),
            current: Some(y),
            // More registers per thread can only lower occupancy.
            agrees: agrees_with(y > x, speed),
            score: delta_pct(x, y).map_or(100.0, |p| p.abs().min(100.0)),
        });
    }
    let shared = |r: &KernelResult| -> Option<f64> {
        let parts: Vec<f64> = SHARED.iter().filter_map(|k| metric_number(r, k)).collect();
        (!parts.is_empty()).then(|| parts.iter().sum())
    };
    if let (Some(x), Some(y)) = (shared(base), shared(current))
        && x != y
    {
        out.push(Explanation {
            lines: Vec::new(),
            kind: WhyKind::SharedMemory,
            subject: SHARED[0].to_string(),
            text: format!(
                "shared memory per block: {} → {}",
                value_text(x, "byte"),
                value_text(y, "byte")
            ),
            base: Some(x),
            current: Some(y),
            agrees: agrees_with(y > x, speed),
            score: delta_pct(x, y).map_or(100.0, |p| p.abs().min(100.0)),
        });
    }
}

/// L1 sectors of global and local loads and stores, atomics and reductions.
const L1_SECTOR_METRICS: [&str; 6] = [
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
];
const SECTOR_BYTES: f64 = 32.0;

/// Bytes moved at one memory level, when the result measured it.
pub fn level_bytes(r: &KernelResult, level: &str) -> Option<f64> {
    let sum = |keys: &[&str]| -> Option<f64> {
        let values: Vec<f64> = keys.iter().filter_map(|k| metric_number(r, k)).collect();
        (!values.is_empty()).then(|| values.iter().sum())
    };
    match level {
        "L1" => sum(&L1_SECTOR_METRICS).map(|s| s * SECTOR_BYTES),
        "L2" => metric_number(r, "lts__t_sectors.sum")
            .map(|s| s * SECTOR_BYTES)
            .or_else(|| metric_number(r, "lts__t_bytes.sum")),
        "DRAM" => sum(&["dram__bytes_read.sum", "dram__bytes_write.sum"])
            .or_else(|| metric_number(r, "dram__bytes.sum")),
        _ => None,
    }
}

/// The memory levels [`level_bytes`] knows.
pub const MEMORY_LEVELS: [&str; 3] = ["L1", "L2", "DRAM"];

fn count_change(
    kind: WhyKind,
    subject: &str,
    what: &str,
    (x, y): (f64, f64),
    unit: &str,
    speed: Speed,
) -> Option<Explanation> {
    let pct = delta_pct(x, y);
    if pct.is_some_and(|p| p.abs() < MIN_COUNT_CHANGE_PCT) || x == y {
        return None;
    }
    let pct_text = pct.map_or_else(|| "new".to_string(), |p| format!("{p:+.1}%"));
    Some(Explanation {
        lines: Vec::new(),
        kind,
        subject: subject.to_string(),
        text: format!(
            "{what}: {} → {} ({pct_text})",
            value_text(x, unit),
            value_text(y, unit)
        ),
        base: Some(x),
        current: Some(y),
        agrees: agrees_with(y > x, speed),
        score: pct.map_or(100.0, |p| p.abs().min(100.0)),
    })
}

fn traffic(base: &KernelResult, current: &KernelResult, speed: Speed, out: &mut Vec<Explanation>) {
    for level in MEMORY_LEVELS {
        if let (Some(x), Some(y)) = (level_bytes(base, level), level_bytes(current, level))
            && let Some(e) = count_change(
                WhyKind::MemoryTraffic,
                level,
                &format!("{level} traffic"),
                (x, y),
                "byte",
                speed,
            )
        {
            out.push(e);
        }
    }
}

const INSTRUCTIONS: &str = "smsp__inst_executed.sum";

fn instructions(
    base: &KernelResult,
    current: &KernelResult,
    speed: Speed,
    out: &mut Vec<Explanation>,
) {
    if let (Some(x), Some(y)) = (
        metric_number(base, INSTRUCTIONS),
        metric_number(current, INSTRUCTIONS),
    ) && let Some(e) = count_change(
        WhyKind::Instructions,
        INSTRUCTIONS,
        "instructions executed",
        (x, y),
        "inst",
        speed,
    ) {
        out.push(e);
    }
}

const LIMITS: [(&str, &str); 5] = [
    ("launch__occupancy_limit_registers", "registers"),
    ("launch__occupancy_limit_shared_mem", "shared memory"),
    ("launch__occupancy_limit_warps", "warps"),
    ("launch__occupancy_limit_blocks", "blocks"),
    ("launch__occupancy_limit_barriers", "barriers"),
];

/// What limits occupancy: the limits with the fewest blocks per SM.
pub fn occupancy_limiter(r: &KernelResult) -> Option<(Vec<&'static str>, f64)> {
    let limits: Vec<(&str, f64)> = LIMITS
        .iter()
        .filter_map(|(k, name)| Some((*name, r.number(k).filter(|v| v.is_finite())?)))
        .collect();
    let least = limits.iter().map(|l| l.1).min_by(f64::total_cmp)?;
    Some((
        limits
            .iter()
            .filter(|l| l.1 == least)
            .map(|l| l.0)
            .collect(),
        least,
    ))
}

const THEORETICAL: &str = "sm__maximum_warps_per_active_cycle_pct";
const ACHIEVED: &str = "sm__warps_active.avg.pct_of_peak_sustained_active";

fn occupancy(
    base: &KernelResult,
    current: &KernelResult,
    speed: Speed,
    out: &mut Vec<Explanation>,
) {
    let theoretical = (
        metric_number(base, THEORETICAL),
        metric_number(current, THEORETICAL),
    );
    if let (Some((lb, nb)), Some((lc, nc))) = (occupancy_limiter(base), occupancy_limiter(current))
        && lb != lc
    {
        let pp = match theoretical {
            (Some(x), Some(y)) => y - x,
            _ => 0.0,
        };
        out.push(Explanation {
            lines: Vec::new(),
            kind: WhyKind::OccupancyLimiter,
            subject: lc.join(", "),
            text: format!(
                "occupancy limited by {} ({nb} blocks/SM) → {} ({nc} blocks/SM)",
                lb.join(", "),
                lc.join(", ")
            ),
            base: Some(nb),
            current: Some(nc),
            agrees: (pp != 0.0).then(|| agrees_with(pp < 0.0, speed)).flatten(),
            score: 10.0 + pp.abs(),
        });
    }
    for (key, what) in [(THEORETICAL, "theoretical"), (ACHIEVED, "achieved")] {
        if let (Some(x), Some(y)) = (metric_number(base, key), metric_number(current, key))
            && (y - x).abs() >= MIN_OCCUPANCY_PP
        {
            out.push(Explanation {
                lines: Vec::new(),
                kind: WhyKind::Occupancy,
                subject: key.to_string(),
                text: format!("{what} occupancy {x:.1}% → {y:.1}% ({:+.1} pp)", y - x),
                base: Some(x),
                current: Some(y),
                // Less occupancy fits slower.
                agrees: agrees_with(y < x, speed),
                score: (y - x).abs(),
            });
        }
    }
}
