//! Rule result lines of a GUI copy:
//! `<Rule Title> [Est. Speedup: X%] [Est. Local Speedup: X%] <message>` on one line, with links
//! as `[text](#)`.

use crate::model::{RuleKind, RuleResult, SpeedupKind};
use crate::parse::number::parse_number;

/// Rule titles and rule names the stock rules show (titles of ncu 2025.3 rule results).
const KNOWN_TITLES: &[&str] = &[
    "Access Pattern",
    "Achieved Occupancy",
    "Balanced",
    "Balanced Throughput",
    "Bottleneck",
    "FP32 Non-Fused Instructions",
    "FP32/64 Instructions",
    "High Compute Throughput",
    "High Memory Throughput",
    "High Pipe Utilization",
    "High Throughput",
    "High Utilization",
    "Issue Slot Utilization",
    "L1 Slices Workload Imbalance",
    "L1TEX Global Load Access Pattern",
    "L1TEX Global Store Access Pattern",
    "L1TEX Local Load Access Pattern",
    "L1TEX Local Store Access Pattern",
    "L2 Global Load Access Pattern",
    "L2 Slices Workload Imbalance",
    "Latency Issue",
    "Launch Configuration",
    "Lg Throttle Stalls",
    "Long Scoreboard Stalls",
    "Low Compression Rate",
    "Low Utilization",
    "Memory Cache Access Pattern",
    "Memory L2 Compression",
    "Mio Throttle Stalls",
    "No Samples",
    "PM Sampling Data",
    "Roofline Analysis",
    "Shared Load Bank Conflicts",
    "Shared Memory Conflicts",
    "Shared Store Bank Conflicts",
    "Small Grid",
    "SMs Workload Imbalance",
    "SMSPs Workload Imbalance",
    "Tail Effect",
    "Theoretical Occupancy",
    "Thread Divergence",
    "Uncoalesced Global Accesses",
    "Uncoalesced Shared Accesses",
    "Warp Stall",
    "Workload Imbalance",
];

const GLOBAL_MARKER: &str = "Est. Speedup:";
const LOCAL_MARKER: &str = "Est. Local Speedup:";

/// Whether a prose line reads as a rule result: it names a known title or a speedup, or repeats
/// the subtitle printed above it followed by a capitalized message (a description that starts
/// with its title goes on in lower case: `NVLink Topology diagram shows...`).
pub fn is_rule_line(line: &str, subtitles: &[&str]) -> bool {
    line.contains(GLOBAL_MARKER)
        || line.contains(LOCAL_MARKER)
        || known_title_prefix(line).is_some()
        || subtitles.iter().any(|t| {
            starts_with_word(line, t)
                && line[t.len()..]
                    .trim_start()
                    .chars()
                    .next()
                    .is_some_and(char::is_uppercase)
        })
}

/// Reads a rule line. `subtitles` are the bare lines printed just above it (a rule table's
/// title repeats the rule title).
pub fn parse_rule_line(line: &str, subtitles: &[&str]) -> RuleResult {
    let line = line.trim();
    let title = subtitles
        .iter()
        .copied()
        .filter(|t| starts_with_word(line, t))
        .max_by_key(|t| t.len())
        .or_else(|| known_title_prefix(line))
        .map(str::to_string)
        .or_else(|| title_before_marker(line))
        .unwrap_or_else(|| capitalized_lead(line));
    let mut rest = line[title.len().min(line.len())..].trim_start();
    let mut global = None;
    let mut local = None;
    loop {
        rest = rest.trim_start_matches(['|', ' ']);
        if let Some(after) = rest.strip_prefix(GLOBAL_MARKER) {
            let (v, r) = percent(after);
            global = global.or(v);
            rest = r;
        } else if let Some(after) = rest.strip_prefix(LOCAL_MARKER) {
            let (v, r) = percent(after);
            local = local.or(v);
            rest = r;
        } else {
            break;
        }
    }
    let speedup = global
        .map(|v| (SpeedupKind::Global, v))
        .or(local.map(|v| (SpeedupKind::Local, v)));
    RuleResult {
        identifier: None,
        kind: if speedup.is_some() {
            RuleKind::Opt
        } else {
            RuleKind::Inf
        },
        title,
        message: strip_links(rest.trim()),
        speedup,
        focus_metrics: Vec::new(),
        guidance: Vec::new(),
        markers: Vec::new(),
    }
}

/// `line` starts with `prefix` followed by a space.
fn starts_with_word(line: &str, prefix: &str) -> bool {
    !prefix.is_empty()
        && line
            .strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with(' '))
}

/// The longest known title the line starts with.
fn known_title_prefix(line: &str) -> Option<&'static str> {
    KNOWN_TITLES
        .iter()
        .copied()
        .filter(|t| starts_with_word(line, t))
        .max_by_key(|t| t.len())
}

/// The text before a speedup marker, when there is some.
fn title_before_marker(line: &str) -> Option<String> {
    let at = [GLOBAL_MARKER, LOCAL_MARKER]
        .iter()
        .filter_map(|m| line.find(m))
        .min()?;
    let title = line[..at].trim();
    (!title.is_empty()).then(|| title.to_string())
}

/// The leading run of capitalized words, less the last one (which starts the message):
/// `High Throughput The kernel...` gives `High Throughput`.
fn capitalized_lead(line: &str) -> String {
    let words: Vec<&str> = line
        .split(' ')
        .take_while(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
        })
        .collect();
    if words.len() < 2 {
        return String::new();
    }
    words[..words.len() - 1].join(" ")
}

/// A percentage after a marker: ` 34.42% rest` gives (34.42, `rest`).
fn percent(text: &str) -> (Option<f64>, &str) {
    let text = text.trim_start();
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    let number = text[..end].trim_end_matches('%');
    let value = parse_number(number).and_then(|(v, _)| v.as_f64());
    if value.is_some() {
        (value, &text[end..])
    } else {
        (None, text)
    }
}

/// `see the [Kernel Profiling Guide](#) for` becomes `see the Kernel Profiling Guide for`.
fn strip_links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(end) = rest.find("](#)") {
        let Some(start) = rest[..end].rfind('[') else {
            out.push_str(&rest[..end + 4]);
            rest = &rest[end + 4..];
            continue;
        };
        out.push_str(&rest[..start]);
        out.push_str(&rest[start + 1..end]);
        rest = &rest[end + 4..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_titles_speedups_and_links() {
        let r = parse_rule_line(
            "Shared Load Bank Conflicts Est. Speedup: 34.42% The memory access pattern",
            &["Shared Load Bank Conflicts"],
        );
        assert_eq!(r.title, "Shared Load Bank Conflicts");
        assert_eq!(r.kind, RuleKind::Opt);
        assert_eq!(r.speedup, Some((SpeedupKind::Global, 34.42)));
        assert_eq!(r.message, "The memory access pattern");

        let r = parse_rule_line("Something New Est. Local Speedup: 5% | Body", &[]);
        assert_eq!(r.title, "Something New");
        assert_eq!(r.speedup, Some((SpeedupKind::Local, 5.0)));
        assert_eq!(r.message, "Body");

        let r = parse_rule_line(
            "Roofline Analysis The ratio. See the [Kernel Profiling Guide](#) for more.",
            &[],
        );
        assert_eq!(r.title, "Roofline Analysis");
        assert_eq!(r.kind, RuleKind::Inf);
        assert_eq!(
            r.message,
            "The ratio. See the Kernel Profiling Guide for more."
        );

        let r = parse_rule_line("Odd Rule Name The text goes on", &[]);
        assert_eq!(r.title, "Odd Rule Name");
        assert_eq!(r.message, "The text goes on");
    }

    #[test]
    fn tells_rules_from_descriptions() {
        assert!(is_rule_line("Tail The wave is short and more.", &["Tail"]));
        assert!(!is_rule_line(
            "NVLink Topology diagram shows logical NVLink connections.",
            &["NVLink Topology"]
        ));
        assert!(is_rule_line("High Throughput The kernel is busy.", &[]));
        assert!(!is_rule_line(
            "Occupancy is the ratio of active warps.",
            &[]
        ));
    }
}
