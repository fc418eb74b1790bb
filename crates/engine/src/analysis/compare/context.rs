//! The collection context of a report (GPU, compute capability, ncu version, sections, clock
//! control, replay and cache control), and warnings where two compared reports differ in it.

use crate::analysis::headline::device_summary;
use crate::model::{KernelResult, Report, catalog};
use serde::Serialize;
use std::collections::BTreeSet;

/// The phrase ncu prints (and stores as a clock status) for results collected without locked
/// clocks.
const UNLOCKED_CLOCKS_TEXT: &str = "without fixed GPU frequencies";

/// What a context warning is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ContextKind {
    Gpu,
    ComputeCapability,
    ToolVersion,
    SectionSet,
    ClockControl,
    ReplayMode,
    CacheControl,
}

/// A difference between the two sides that can explain metric changes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ContextWarning {
    pub kind: ContextKind,
    pub message: String,
}

/// Whether GPU clocks were locked during collection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockState {
    Locked,
    NotLocked,
    /// Some results locked, some not.
    Mixed,
}

impl ClockState {
    fn describe(&self) -> &'static str {
        match self {
            ClockState::Locked => "locked clocks",
            ClockState::NotLocked => "unlocked clocks",
            ClockState::Mixed => "partly locked clocks",
        }
    }
}

/// What is known about how a report was collected.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RunContext {
    /// GPU display names of the results.
    pub gpus: BTreeSet<String>,
    /// Compute capabilities of the results.
    pub ccs: BTreeSet<(u32, u32)>,
    /// The Nsight Compute version (`2025.3.1.0`).
    pub tool_version: Option<String>,
    /// Section names the results show, or (for forms without sections) the sections whose
    /// metrics are present.
    pub sections: BTreeSet<String>,
    /// Whether `sections` are the ones the tool showed (not derived from metrics).
    pub sections_listed: bool,
    /// Average number of metrics per result.
    pub metrics_per_result: usize,
    pub clocks: Option<ClockState>,
    /// `--replay-mode` (`kernel` when the command line is known and does not set it).
    pub replay_mode: Option<String>,
    /// `--cache-control` (`all` when the command line is known and does not set it).
    pub cache_control: Option<String>,
}

impl RunContext {
    /// Reads the context of a report.
    pub fn of(report: &Report) -> Self {
        Self::from_scan(report, &ResultScan::of(report))
    }

    /// The context of a report whose results were scanned already.
    fn from_scan(report: &Report, scan: &ResultScan) -> Self {
        let mut ctx = RunContext {
            tool_version: tool_version(report),
            clocks: clock_state(report, scan.unlocked_rule),
            ..RunContext::default()
        };
        let cmdline = report.session.get("Profiler Command Line");
        if let Some(cmd) = cmdline {
            ctx.replay_mode = Some(
                option_value(cmd, "--replay-mode")
                    .unwrap_or("kernel")
                    .into(),
            );
            ctx.cache_control = Some(option_value(cmd, "--cache-control").unwrap_or("all").into());
        }
        ctx.gpus = scan.gpus.clone();
        ctx.ccs = scan.ccs.clone();
        if report.results.is_empty() {
            for d in &report.devices {
                ctx.gpus.extend(d.name.clone());
                ctx.ccs.extend(d.cc);
            }
        }
        ctx.sections_listed = report.format.lists_the_tools_sections() && scan.any_sections;
        ctx.sections = if ctx.sections_listed {
            scan.listed.clone()
        } else {
            scan.from_metrics.clone()
        };
        ctx.metrics_per_result = scan.metrics_total / report.results.len().max(1);
        ctx
    }
}

/// What the results of a report say about its context, gathered one result at a time so that
/// each result's body can be released after it is read.
#[derive(Debug, Default)]
pub(crate) struct ResultScan {
    gpus: BTreeSet<String>,
    ccs: BTreeSet<(u32, u32)>,
    /// Whether any result has sections.
    any_sections: bool,
    /// The section names the results show.
    listed: BTreeSet<String>,
    /// The sections whose header metrics the results hold.
    from_metrics: BTreeSet<String>,
    metrics_total: usize,
    /// Whether a rule says the clocks were not locked.
    unlocked_rule: bool,
}

impl ResultScan {
    /// Scans every result of a report.
    fn of(report: &Report) -> Self {
        // A body read on demand is decoded into a copy, dropped after it is read; a window of
        // results at a time on every core.
        let mut scan = ResultScan::default();
        let _ = crate::analysis::parallel::map_ordered(
            report.results.len(),
            |i| ResultScan::of_result(report, &report.results[i].transient()),
            |_, s| -> Result<(), std::convert::Infallible> {
                scan.merge(s);
                Ok(())
            },
        );
        scan
    }

    /// Scans every result of a report, releasing each body read on demand after it is read;
    /// `observe` sees the report before each release.
    fn releasing(report: &mut Report, observe: &mut dyn FnMut(&Report)) -> Self {
        let mut scan = ResultScan::default();
        for i in 0..report.results.len() {
            if let Some(r) = report.results.get(i) {
                scan.add(report, r);
            }
            observe(report);
            if let Some(r) = report.results.get_mut(i) {
                r.release_body();
            }
        }
        scan
    }

    /// Adds what the results of `other` say: the same as having scanned them here, in any
    /// order.
    pub(crate) fn merge(&mut self, other: ResultScan) {
        self.gpus.extend(other.gpus);
        self.ccs.extend(other.ccs);
        self.any_sections |= other.any_sections;
        self.listed.extend(other.listed);
        self.from_metrics.extend(other.from_metrics);
        self.metrics_total += other.metrics_total;
        self.unlocked_rule |= other.unlocked_rule;
    }

    /// What one result of `report` says.
    pub(crate) fn of_result(report: &Report, r: &KernelResult) -> Self {
        let mut scan = ResultScan::default();
        scan.add(report, r);
        scan
    }

    fn add(&mut self, report: &Report, r: &KernelResult) {
        let dev = device_summary(report, Some(r));
        if let Some(name) = dev.name {
            self.gpus.insert(name);
        }
        if let Some(cc) = dev.cc {
            self.ccs.insert(cc);
        }
        let sections = r.sections();
        self.any_sections |= !sections.is_empty();
        self.listed.extend(
            sections
                .iter()
                .map(|s| &s.name)
                .filter(|n| !n.is_empty())
                .cloned(),
        );
        add_sections_from_metrics(r, &mut self.from_metrics);
        self.metrics_total += r.metrics().len();
        self.unlocked_rule = self.unlocked_rule
            || r.all_rules()
                .any(|rule| rule.message.contains(UNLOCKED_CLOCKS_TEXT));
    }
}

fn tool_version(report: &Report) -> Option<String> {
    let raw = report
        .tool_version
        .as_deref()
        .or_else(|| report.session.get("Nsight Compute Target"))?;
    let first = raw.split_whitespace().next()?;
    // `2025.3.1` and `2025.3.1.0` are the same release.
    let mut parts: Vec<&str> = first.split('.').collect();
    while parts.len() > 3 && parts.last() == Some(&"0") {
        parts.pop();
    }
    Some(parts.join("."))
}

/// The value of a command-line option given as `--opt value` or `--opt=value`.
fn option_value<'a>(cmdline: &'a str, option: &str) -> Option<&'a str> {
    let mut words = cmdline.split_whitespace();
    while let Some(w) = words.next() {
        if w == option {
            return words.next();
        }
        if let Some(v) = w.strip_prefix(option).and_then(|r| r.strip_prefix('=')) {
            return Some(v);
        }
    }
    None
}

/// The clock state a report's session tells, or (`unlocked_rule`) one of its results' rules
/// (ncu's rule that says the data was collected without fixed GPU frequencies).
fn clock_state(report: &Report, unlocked_rule: bool) -> Option<ClockState> {
    if let Some(v) = report.session.get("Clocks Locked") {
        let v = v.trim().to_ascii_lowercase();
        if v == "yes" {
            return Some(ClockState::Locked);
        }
        if v == "no" {
            return Some(ClockState::NotLocked);
        }
        if v.starts_with("mixed") {
            return Some(ClockState::Mixed);
        }
    }
    if unlocked_rule {
        return Some(ClockState::NotLocked);
    }
    let cmd = report.session.get("Profiler Command Line")?;
    Some(match option_value(cmd, "--clock-control") {
        Some("none") => ClockState::NotLocked,
        _ => ClockState::Locked,
    })
}

/// Adds the sections whose header metrics a result holds, by the label catalog. Launch and
/// device metrics are collected with every section set and say nothing about it.
fn add_sections_from_metrics(r: &KernelResult, out: &mut BTreeSet<String>) {
    for (key, m) in r.metrics() {
        let name = m.name.as_deref().unwrap_or(&key);
        if name.starts_with("launch__") || name.starts_with("device__") {
            continue;
        }
        let section = match catalog::label_for(name) {
            Some((section, _)) => Some(section),
            None if !key.contains("__") => key.split_once('/').map(|(section, _)| section),
            None => None,
        };
        if let Some(section) = section
            && !out.contains(section)
        {
            out.insert(section.to_string());
        }
    }
}

fn join<T: std::fmt::Display>(items: impl IntoIterator<Item = T>) -> String {
    let v: Vec<String> = items.into_iter().map(|i| i.to_string()).collect();
    if v.is_empty() {
        "unknown".into()
    } else {
        v.join(", ")
    }
}

/// Warnings for every context difference between a base and a current report.
pub fn context_warnings(base: &Report, current: &Report) -> Vec<ContextWarning> {
    let (bs, cs) = (ResultScan::of(base), ResultScan::of(current));
    warnings_of(base, current, &bs, &cs)
}

/// [`context_warnings`] reading one result at a time and releasing each body read on demand
/// after it is read; `observe` sees both reports before each release.
pub fn context_warnings_releasing(
    base: &mut Report,
    current: &mut Report,
    observe: &mut dyn FnMut(&Report, &Report),
) -> Vec<ContextWarning> {
    let bs = ResultScan::releasing(base, &mut |b| observe(b, current));
    let cs = ResultScan::releasing(current, &mut |c| observe(base, c));
    warnings_of(base, current, &bs, &cs)
}

pub(crate) fn warnings_of(
    base: &Report,
    current: &Report,
    bscan: &ResultScan,
    cscan: &ResultScan,
) -> Vec<ContextWarning> {
    let b = RunContext::from_scan(base, bscan);
    let c = RunContext::from_scan(current, cscan);
    let mut out = Vec::new();
    let mut warn = |kind, message: String| out.push(ContextWarning { kind, message });
    if !b.gpus.is_empty() && !c.gpus.is_empty() && b.gpus != c.gpus {
        warn(
            ContextKind::Gpu,
            format!(
                "different GPUs: {} in base, {} in current",
                join(&b.gpus),
                join(&c.gpus)
            ),
        );
    }
    if !b.ccs.is_empty() && !c.ccs.is_empty() && b.ccs != c.ccs {
        let cc =
            |s: &BTreeSet<(u32, u32)>| join(s.iter().copied().map(crate::model::format::cc_text));
        warn(
            ContextKind::ComputeCapability,
            format!(
                "different compute capabilities: {} in base, {} in current",
                cc(&b.ccs),
                cc(&c.ccs)
            ),
        );
    }
    if let (Some(bv), Some(cv)) = (&b.tool_version, &c.tool_version)
        && bv != cv
    {
        warn(
            ContextKind::ToolVersion,
            format!("different Nsight Compute versions: {bv} in base, {cv} in current"),
        );
    }
    section_warning(base, current, (&b, bscan), (&c, cscan), &mut warn);
    if let (Some(bc), Some(cc)) = (&b.clocks, &c.clocks)
        && bc != cc
    {
        warn(
            ContextKind::ClockControl,
            format!(
                "clock control differs: base collected with {}, current with {}",
                bc.describe(),
                cc.describe()
            ),
        );
    }
    if let (Some(bm), Some(cm)) = (&b.replay_mode, &c.replay_mode)
        && bm != cm
    {
        warn(
            ContextKind::ReplayMode,
            format!("replay mode differs: {bm} in base, {cm} in current"),
        );
    }
    if let (Some(bm), Some(cm)) = (&b.cache_control, &c.cache_control)
        && bm != cm
    {
        warn(
            ContextKind::CacheControl,
            format!("cache control differs: {bm} in base, {cm} in current"),
        );
    }
    out
}

fn section_warning(
    base: &Report,
    current: &Report,
    (b, bscan): (&RunContext, &ResultScan),
    (c, cscan): (&RunContext, &ResultScan),
    warn: &mut impl FnMut(ContextKind, String),
) {
    // Listed sections are only comparable with listed sections; otherwise compare what the
    // metrics of both sides cover.
    let (bs, cs) = if b.sections_listed && c.sections_listed {
        (b.sections.clone(), c.sections.clone())
    } else {
        (bscan.from_metrics.clone(), cscan.from_metrics.clone())
    };
    if bs.is_empty() || cs.is_empty() {
        return;
    }
    if bs != cs {
        let only_b: Vec<&String> = bs.difference(&cs).collect();
        let only_c: Vec<&String> = cs.difference(&bs).collect();
        let mut parts = Vec::new();
        if !only_b.is_empty() {
            parts.push(format!("only in base: {}", join(only_b)));
        }
        if !only_c.is_empty() {
            parts.push(format!("only in current: {}", join(only_c)));
        }
        warn(
            ContextKind::SectionSet,
            format!(
                "the section sets differ ({} sections in base, {} in current; {})",
                bs.len(),
                cs.len(),
                parts.join("; ")
            ),
        );
        return;
    }
    if base.format.holds_every_metric() && current.format.holds_every_metric() {
        let (nb, nc) = (b.metrics_per_result, c.metrics_per_result);
        let (lo, hi) = (nb.min(nc), nb.max(nc));
        if lo > 0 && hi * 2 > lo * 3 {
            warn(
                ContextKind::SectionSet,
                format!(
                    "the metric sets differ: about {nb} metrics per result in base, {nc} in current"
                ),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Format;

    #[test]
    fn command_line_options() {
        let cmd = "/opt/ncu --clock-control none --set full --replay-mode=application -o x ./a";
        assert_eq!(option_value(cmd, "--clock-control"), Some("none"));
        assert_eq!(option_value(cmd, "--replay-mode"), Some("application"));
        assert_eq!(option_value(cmd, "--cache-control"), None);
    }

    #[test]
    fn clock_state_from_session_and_rules() {
        let mut r = Report::new("a", Format::CliText);
        assert_eq!(clock_state(&r, false), None);
        assert_eq!(clock_state(&r, true), Some(ClockState::NotLocked));
        let mut unlocked = KernelResult::default();
        unlocked.body_mut().rules.push(crate::model::RuleResult {
            identifier: None,
            kind: crate::model::RuleKind::Wrn,
            title: String::new(),
            message: "Warning: Data collection happened without fixed GPU frequencies. \
                      Profiling results may be inconsistent."
                .into(),
            speedup: None,
            focus_metrics: Vec::new(),
            guidance: Vec::new(),
            markers: Vec::new(),
        });
        r.results.push(unlocked);
        let mut s = Report::new("b", Format::NcuRep);
        s.session
            .attributes
            .push(("Profiler Command Line".into(), "ncu --set full ./a".into()));
        assert_eq!(clock_state(&s, false), Some(ClockState::Locked));
        let w = context_warnings(&r, &s);
        assert_eq!(w.len(), 1);
        assert_eq!(w[0].kind, ContextKind::ClockControl);
    }

    #[test]
    fn versions_compare_by_release() {
        let mut a = Report::new("a", Format::NcuRep);
        a.tool_version = Some("2025.3.1.0 (build 36398880) (public-release)".into());
        let mut b = Report::new("b", Format::Session);
        b.tool_version = Some("2025.3.1".into());
        assert!(context_warnings(&a, &b).is_empty());
        b.tool_version = Some("2023.3.0.0".into());
        assert_eq!(context_warnings(&a, &b)[0].kind, ContextKind::ToolVersion);
    }
}
