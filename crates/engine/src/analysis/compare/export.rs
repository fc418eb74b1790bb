//! What the outputs of a report comparison list and the words they share: the headline
//! metrics, the biggest changes, the explanations listed per pair, and the sentences of the
//! totals, renames and suggested pairs. The forms themselves (JSON, CSV, Markdown, HTML, the
//! window's pages) are written in `output::compare` and the window; all take these.

use super::metric_diff::{MetricDiff, Verdict};
use super::{MatchedDiff, ReportDiff};
use crate::model::format::NOT_MEASURED;
use crate::model::format::value_text;
use crate::model::names;

/// The metrics a comparison table shows for every kernel, after the duration.
pub const HEADLINE_METRICS: [(&str, &str); 3] = [
    (names::SOL_COMPUTE, "SOL compute"),
    (names::SOL_MEMORY, "SOL memory"),
    (names::ACHIEVED_OCCUPANCY, "Occupancy"),
];

/// Default number of metric changes the text forms list.
pub const DEFAULT_MAX_CHANGES: usize = 10;

/// Longest kernel name the text forms print before shortening it.
pub const MAX_NAME_CHARS: usize = 80;

/// A metric change of one kernel, for the "biggest changes" lists.
#[derive(Debug, Clone, Copy)]
pub struct KernelChange<'a> {
    pub kernel: &'a MatchedDiff,
    pub metric: &'a MetricDiff,
}

/// The metric changes to list: every selected metric when the comparison was restricted to
/// chosen metrics, else the `max` largest better/worse changes outside the headline metrics
/// (worse first, then by |Δ%|).
pub fn listed_changes(diff: &ReportDiff, max: usize) -> Vec<KernelChange<'_>> {
    let skip =
        |key: &str| key == names::DURATION || HEADLINE_METRICS.iter().any(|(k, _)| *k == key);
    let mut out: Vec<KernelChange<'_>> = diff
        .matched
        .iter()
        .flat_map(|k| {
            k.diff
                .metrics
                .iter()
                .map(move |metric| KernelChange { kernel: k, metric })
        })
        .filter(|c| !skip(&c.metric.key))
        .filter(|c| diff.restricted || matches!(c.metric.verdict, Verdict::Better | Verdict::Worse))
        .collect();
    if diff.restricted {
        return out;
    }
    out.sort_by(|a, b| {
        let wa = a.metric.verdict != Verdict::Worse;
        let wb = b.metric.verdict != Verdict::Worse;
        wa.cmp(&wb)
            .then(change_weight(b.metric).total_cmp(&change_weight(a.metric)))
            .then(a.kernel.current_index.cmp(&b.kernel.current_index))
    });
    out.truncate(max);
    out
}

/// How much a change matters to the kernel, for ranking: a percentage's change in points as a
/// share of the whole (12 pp → 0.12: of peak, of stalls, of time); a relative change of
/// another number, whose share of the kernel is unknown, a tenth of its percentage and at
/// most 0.2 (a count that doubled weighs like 10 pp), one that appeared from (nearly) nothing
/// 0.1; a raw sample count a tenth of that (samples say where time went, not how much).
pub fn change_weight(m: &MetricDiff) -> f64 {
    let weight = if is_percentage(m) {
        match (m.base_f64(), m.current_f64()) {
            (Some(b), Some(c)) if b.is_finite() && c.is_finite() => (c - b).abs() / 100.0,
            _ => 0.0,
        }
    } else if near_zero_side(m).is_some() {
        0.1
    } else {
        m.delta_pct.map_or(0.1, |p| (p.abs() / 1000.0).min(0.2))
    };
    if m.unit.contains("sample") || m.key.contains("pcsamp") {
        weight / 10.0
    } else {
        weight
    }
}

/// `Some("new")` when the base is zero or negligible beside the current value (a ratio whose
/// base was nearly zero reads as new, not as a percentage), `Some("gone")` the other way.
fn near_zero_side(m: &MetricDiff) -> Option<&'static str> {
    const NEGLIGIBLE: f64 = 1e-4;
    let (b, c) = (m.base_f64()?.abs(), m.current_f64()?.abs());
    if !(b.is_finite() && c.is_finite()) || b == c {
        return None;
    }
    if b <= c * NEGLIGIBLE {
        Some("new")
    } else if c <= b * NEGLIGIBLE {
        Some("gone")
    } else {
        None
    }
}

/// A percentage change as text: `+20.00%`; `new` when the base is zero and the current value
/// is not (ncu prints `inf%`); `-` when unknown.
pub fn pct_text(delta: Option<f64>, known: bool) -> String {
    match (delta, known) {
        (Some(d), _) => format!("{d:+.2}%"),
        (None, true) => "new".into(),
        (None, false) => NOT_MEASURED.into(),
    }
}

/// The change of a metric diff as text. Percentages: percentage points (`+12.30 pp`); other
/// numbers: `+20.00%`, `new` when the base is zero, `gone` when the current value is zero;
/// `≈0%` (`≈0 pp` for a percentage) when the difference is within the precision a text form
/// printed. Values that are not numbers are never subtracted: `same` or `changed`.
pub fn delta_text(m: Option<&MetricDiff>) -> String {
    let Some(m) = m else {
        return NOT_MEASURED.into();
    };
    match (m.base_f64(), m.current_f64()) {
        (Some(b), Some(c)) if b.is_finite() && c.is_finite() => {
            if m.within_precision && b != c {
                if is_percentage(m) { "≈0 pp" } else { "≈0%" }.into()
            } else if is_percentage(m) {
                format!("{:+.2} pp", c - b)
            } else if let Some(side) = near_zero_side(m) {
                side.into()
            } else {
                pct_text(m.delta_pct, true)
            }
        }
        _ if m.base == m.current => "same".into(),
        (None, None) => "changed".into(),
        _ => NOT_MEASURED.into(),
    }
}

/// Whether a metric is a percentage, whose change reads as percentage points.
pub fn is_percentage(m: &MetricDiff) -> bool {
    m.unit == "%" || m.key.ends_with(".pct") || m.key.contains(".pct_of_")
}

/// The totals of a comparison as lines for people: matched, only in base, only in current,
/// net; changes within the printed precision of the sources read as no change.
pub fn totals_lines(diff: &ReportDiff) -> Vec<String> {
    totals_lines_with(diff, time_delta_text)
}

/// [`totals_lines`] in words that call nothing won or lost (`12.00 us longer`), for a
/// comparison whose direction is not confirmed yet.
pub fn unjudged_totals_lines(diff: &ReportDiff) -> Vec<String> {
    totals_lines_with(diff, time_change_text)
}

/// [`totals_lines`] with each change of time written by `time_text`.
fn totals_lines_with(diff: &ReportDiff, time_text: fn(f64) -> String) -> Vec<String> {
    let t = diff.totals();
    let change = |base: f64, current: f64, changed: bool, delta: f64| {
        if changed {
            format!(
                "{} → {} ({}, {})",
                value_text(base, "ns"),
                value_text(current, "ns"),
                pct_text(super::metric_diff::delta_pct(base, current), true),
                time_text(delta)
            )
        } else if t.noise_ns > 0.0 {
            format!(
                "{} → {} (no change beyond the printed precision, ±{})",
                value_text(base, "ns"),
                value_text(current, "ns"),
                value_text(t.noise_ns, "ns")
            )
        } else {
            format!(
                "{} → {} (no change)",
                value_text(base, "ns"),
                value_text(current, "ns")
            )
        }
    };
    let mut lines = vec![if diff.matched.is_empty() {
        "Matched: none (no kernel of the current report matched one of the base report)".to_string()
    } else {
        format!(
            "Matched ({}): {}",
            count_text(diff.matched.len(), "pair", "pairs"),
            change(
                t.matched_base_ns,
                t.matched_current_ns,
                t.matched_changed(),
                t.matched_delta_ns()
            )
        )
    }];
    if !diff.only_in_base.is_empty() {
        lines.push(format!(
            "Only in base ({} removed): {}",
            diff.only_in_base.len(),
            value_text(t.only_in_base_ns, "ns")
        ));
    }
    if !diff.only_in_current.is_empty() {
        lines.push(format!(
            "Only in current ({} added): {}",
            diff.only_in_current.len(),
            value_text(t.only_in_current_ns, "ns")
        ));
    }
    lines.push(format!(
        "Net (whole report): {}",
        change(
            t.all_base_ns(),
            t.all_current_ns(),
            t.net_changed(),
            t.net_ns()
        )
    ));
    lines
}

/// The kernels paired as renamed, one line each (`paired as renamed: `naive` → `coalesced`,
/// same parameters, 2 launches`), and how to keep them apart.
pub fn renamed_lines(diff: &ReportDiff) -> Vec<String> {
    renamed_lines_with(diff, &|name| format!("`{name}`"), &|text| text.to_string())
}

/// [`renamed_lines`] with names quoted by `code` and the other words written by `text`.
pub fn renamed_lines_with(
    diff: &ReportDiff,
    code: &dyn Fn(&str) -> String,
    text: &dyn Fn(&str) -> String,
) -> Vec<String> {
    let mut lines: Vec<String> = diff
        .renamed
        .iter()
        .map(|r| r.label_with(code, text))
        .collect();
    if !lines.is_empty() {
        lines.push(text(
            "to compare them as different kernels, run again with --no-auto-pair",
        ));
    }
    lines
}

/// The suggested pairs for people: one line per renamed function (`renamed? `naive` →
/// `coalesced` (2 launches: 0=0, 1=1), same parameters`), then the ready `--pair` argument.
pub fn suggested_lines(diff: &ReportDiff) -> Vec<String> {
    suggested_lines_with(diff, &|name| format!("`{name}`"), &|text| text.to_string())
}

/// [`suggested_lines`] with names quoted by `code` and the other words written by `text`.
pub fn suggested_lines_with(
    diff: &ReportDiff,
    code: &dyn Fn(&str) -> String,
    text: &dyn Fn(&str) -> String,
) -> Vec<String> {
    let mut lines: Vec<String> = super::matching::group_suggestions(&diff.suggested_pairs)
        .into_iter()
        .map(|group| {
            let s = group[0];
            let pairs: Vec<String> = group
                .iter()
                .map(|p| format!("{}={}", p.base_id, p.current_id))
                .collect();
            format!(
                "{} {} → {} {}",
                text("renamed?"),
                code(&s.base_function),
                code(&s.current_function),
                text(&format!(
                    "({}: {}), {}",
                    count_text(pairs.len(), "launch", "launches"),
                    pairs.join(", "),
                    s.reason
                ))
            )
        })
        .collect();
    if !diff.suggested_pairs.is_empty() {
        lines.push(text(&format!(
            "to compare them, run again with {}",
            super::pair_argument(&diff.suggested_pairs)
        )));
    }
    lines
}

/// `1 pair`, `3 pairs` ([`crate::model::format::count_text`], kept here for the outputs that
/// take their words from this module).
pub use crate::model::format::count_text;

/// `name` in at most `max` characters (8 at the least): its start and its end with `…`
/// between, the start getting two thirds, so that a long templated kernel keeps both its
/// base name and what tells its instances apart.
pub fn short_name(name: &str, max: usize) -> String {
    let n = name.chars().count();
    let max = max.max(8);
    if n <= max {
        return name.to_string();
    }
    let keep = max - 1;
    let head = keep * 2 / 3;
    let tail = keep - head;
    let start: String = name.chars().take(head).collect();
    let end: String = name.chars().skip(n - tail).collect();
    format!("{}…{}", start.trim_end(), end.trim_start())
}

/// Time won or lost as text: `12.00 us lost`, `3.10 ms won`.
pub fn time_delta_text(delta_ns: f64) -> String {
    if !delta_ns.is_finite() {
        return format!("damaged ({delta_ns})");
    }
    let word = if delta_ns > 0.0 { "lost" } else { "won" };
    format!("{} {word}", value_text(delta_ns.abs(), "ns"))
}

/// A change of time that says which way it went but not whether that is good: `12.00 us
/// longer`, `3.10 ms shorter` (for two different kernels, or a direction not confirmed).
pub fn time_change_text(delta_ns: f64) -> String {
    if !delta_ns.is_finite() {
        return format!("damaged ({delta_ns})");
    }
    let text = value_text(delta_ns.abs(), "ns");
    if delta_ns > 0.0 {
        format!("{text} longer")
    } else if delta_ns < 0.0 {
        format!("{text} shorter")
    } else {
        text
    }
}

/// How many explanations the text forms list per kernel.
pub const MAX_WHY: usize = 16;

/// How many of the listed explanations are kept for those that point against the way the
/// duration went (a faster kernel's new bank conflicts or barrier stalls).
const MAX_WHY_AGAINST: usize = 8;

/// The explanations every output lists for a pair (window, text, Markdown, HTML): the
/// [`MAX_WHY`] first of the ranked list, except that up to half that point against the
/// duration's way are never crowded out by those that agree with it.
pub fn listed_why(why: &[super::Explanation]) -> Vec<&super::Explanation> {
    let against: Vec<&super::Explanation> = why
        .iter()
        .filter(|w| w.agrees == Some(false))
        .take(MAX_WHY_AGAINST)
        .collect();
    let keep_for = |n: usize| MAX_WHY.saturating_sub(n);
    let mut out: Vec<&super::Explanation> = why
        .iter()
        .filter(|w| w.agrees != Some(false))
        .take(keep_for(against.len()))
        .collect();
    // Fewer agreeing ones leave room for more of the others, in their ranked order.
    let room = MAX_WHY.saturating_sub(out.len());
    out.extend(why.iter().filter(|w| w.agrees == Some(false)).take(room));
    out
}

#[cfg(test)]
mod tests {
    use super::{change_weight, delta_text, short_name};
    use crate::analysis::compare::metric_diff::{Speed, diff_metric};
    use crate::model::{Metric, Value};

    #[test]
    fn long_names_keep_their_start_and_end() {
        let name = "void cutlass::Kernel<cutlass::gemm::kernel::GemmUniversal<float, 128>>(Params)";
        let short = short_name(name, 40);
        assert_eq!(short.chars().count(), 40);
        assert_eq!(short, "void cutlass::Kernel<cutla…128>>(Params)");
        assert_eq!(short_name("vector_add", 40), "vector_add");
    }

    fn text(base: Value, current: Value) -> String {
        let m = |v: Value| Metric::new(Some("m".into()), v, "");
        let d = diff_metric(
            "m",
            &m(base).view(),
            &m(current).view(),
            2.0,
            Speed::Unknown,
        );
        delta_text(d.as_ref())
    }

    #[test]
    fn the_listed_why_keeps_room_for_what_points_against_the_duration() {
        use crate::analysis::compare::{Explanation, WhyKind};
        let w = |subject: &str, agrees: Option<bool>| Explanation {
            lines: Vec::new(),
            kind: WhyKind::RuleAppeared,
            subject: subject.into(),
            text: subject.into(),
            base: None,
            current: None,
            agrees,
            score: 1.0,
        };
        // A faster kernel: twenty reasons agree, ten new problems point the other way; half
        // the list is kept for these.
        let mut why: Vec<Explanation> = (0..20).map(|i| w(&format!("ok{i}"), Some(true))).collect();
        why.extend((0..10).map(|i| w(&format!("new problem {i}"), Some(false))));
        let listed: Vec<&str> = super::listed_why(&why)
            .iter()
            .map(|e| e.subject.as_str())
            .collect();
        let want: Vec<String> = (0..8)
            .map(|i| format!("ok{i}"))
            .chain((0..8).map(|i| format!("new problem {i}")))
            .collect();
        assert_eq!(listed, want);
        // With few that agree, the rest fill up in their ranked order.
        let few = vec![
            w("ok", Some(true)),
            w("a", Some(false)),
            w("b", Some(false)),
            w("c", Some(false)),
        ];
        assert_eq!(super::listed_why(&few).len(), 4);
    }

    #[test]
    fn changes_rank_by_their_share_of_the_kernel() {
        let d = |key: &str, unit: &str, base: f64, current: f64| {
            let m = |v: f64| Metric::new(Some(key.into()), Value::Double(v), unit);
            diff_metric(
                key,
                &m(base).view(),
                &m(current).view(),
                2.0,
                Speed::Unknown,
            )
            .expect("a diff")
        };
        // 20 pp of peak first; 0.00 → 3.80 (a ratio from nearly nothing) after it; sample
        // counts last however much they grew.
        let tiny_base = d("derived__ratio", "", 2.3e-8, 3.8);
        let of_peak = d(
            "sm__throughput.avg.pct_of_peak_sustained_elapsed",
            "%",
            40.0,
            60.0,
        );
        let samples = d(
            "smsp__pcsamp_warps_issue_stalled_barrier",
            "sample",
            10.0,
            900.0,
        );
        let mut ranked = [&tiny_base, &of_peak, &samples];
        ranked.sort_by(|a, b| change_weight(b).total_cmp(&change_weight(a)));
        let keys: Vec<&str> = ranked.iter().map(|m| m.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                "derived__ratio",
                "smsp__pcsamp_warps_issue_stalled_barrier"
            ]
        );
    }

    #[test]
    fn zero_on_one_side_is_new_or_gone() {
        assert_eq!(text(Value::U64(0), Value::U64(5)), "new");
        assert_eq!(text(Value::Double(2.5), Value::Double(0.0)), "gone");
        assert_eq!(text(Value::U64(0), Value::U64(0)), "+0.00%");
        // A base that is nearly zero reads as new, not as a percentage of millions.
        assert_eq!(text(Value::Double(2.3e-8), Value::Double(3.8)), "new");
        assert_eq!(text(Value::Double(3.8), Value::Double(1e-9)), "gone");
        assert_eq!(text(Value::U64(4), Value::U64(5)), "+25.00%");
    }

    #[test]
    fn strings_are_never_subtracted() {
        let s = |t: &str| Value::Str(t.into());
        assert_eq!(text(s("CachePreferNone"), s("CachePreferNone")), "same");
        assert_eq!(text(s("CachePreferNone"), s("CachePreferL1")), "changed");
        assert_eq!(text(s("all"), Value::U64(3)), "-");
    }
}
