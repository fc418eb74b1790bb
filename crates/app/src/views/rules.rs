//! The Rules page's view-model: every rule result of the selected result, from every section,
//! ranked as a reader triages them: estimated speedups of the whole workload first (largest
//! first), then local speedups, then the rules without an estimate (warnings before
//! information), each with the section it belongs to. Built once per result.

use crate::core::ids::ResultRef;
use crate::model::{KernelResult, RuleKind, RuleResult, SpeedupKind};
use crate::output::text::{clean_markup, rule_title, speedup_text};

/// One rule result as the page lists it.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleLine {
    pub kind: RuleKind,
    pub title: String,
    /// The section it is shown under on the Details page (empty for rules of no section).
    pub section: String,
    /// `Est. Speedup: 43.64%`, where the rule estimates one.
    pub speedup: Option<String>,
    /// The message without ncu's link markup.
    pub message: String,
    /// Key performance indicators: metric and value.
    pub focus_metrics: Vec<(String, f64)>,
    /// The guidance of each key performance indicator (`metric: 1.153 < 80.000`), as
    /// `--print-rule-details` prints it.
    pub guidance: Vec<String>,
    /// Where on the Source page the rule points: a label (`reduce.cu:16`, `SASS 0x7f…a0`) and
    /// the place, lines first.
    pub places: Vec<(String, crate::views::source::SourceTarget)>,
}

impl RuleLine {
    /// The line of `rule`, shown under `section` (empty: none named). A rule read from a text
    /// export has no title (its message says it all): the title stays empty.
    pub fn of(rule: &RuleResult, section: &str) -> Self {
        RuleLine {
            kind: rule.kind,
            title: if !rule.title.trim().is_empty() || rule.identifier.is_some() {
                rule_title(rule)
            } else {
                String::new()
            },
            section: section.to_string(),
            speedup: speedup_text(rule),
            message: clean_markup(&rule.message),
            focus_metrics: rule.focus_metrics.clone(),
            guidance: rule
                .guidance
                .iter()
                .map(|(metric, text)| format!("{metric}: {text}"))
                .collect(),
            places: places_of(rule),
        }
    }
}

/// The ranked rule results of a result and how many estimate a speedup.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RulesList {
    pub lines: Vec<RuleLine>,
    pub with_speedup: usize,
}

/// Where a rule goes in the list: global estimates, then local ones (each largest first), then
/// the rest by kind (errors, warnings, optimizations without an estimate, information).
fn rank(rule: &RuleResult) -> (u8, f64) {
    match rule.speedup {
        Some((SpeedupKind::Global, pct)) => (0, -pct),
        Some((SpeedupKind::Local, pct)) => (1, -pct),
        None => (
            match rule.kind {
                RuleKind::Err => 2,
                RuleKind::Wrn => 3,
                RuleKind::Opt => 4,
                RuleKind::Inf => 5,
            },
            0.0,
        ),
    }
}

/// The rule results of `result`, ranked (ties keep the Details page's order).
pub fn rules_list(result: &KernelResult) -> RulesList {
    let body = result.body();
    let mut ranked: Vec<(&str, &RuleResult)> = body
        .sections
        .iter()
        .flat_map(|s| s.rules.iter().map(move |r| (s.name.as_str(), r)))
        .chain(body.rules.iter().map(|r| ("", r)))
        .collect();
    ranked.sort_by(|a, b| {
        let (ra, rb) = (rank(a.1), rank(b.1));
        ra.0.cmp(&rb.0).then(ra.1.total_cmp(&rb.1))
    });
    RulesList {
        with_speedup: ranked.iter().filter(|(_, r)| r.speedup.is_some()).count(),
        lines: ranked
            .into_iter()
            .map(|(section, r)| RuleLine::of(r, section))
            .collect(),
    }
}

/// The Rules page's view-model: the list of the result shown last.
#[derive(Debug, Default)]
pub struct RulesView {
    list: Option<(ResultRef, u64, RulesList)>,
}

impl RulesView {
    /// The ranked rules of `result` at `at` (`generation`: the open reports' generation),
    /// built when the result changed.
    pub fn list(&mut self, at: ResultRef, generation: u64, result: &KernelResult) -> &RulesList {
        if self
            .list
            .as_ref()
            .is_some_and(|(a, g, _)| (*a, *g) != (at, generation))
        {
            self.list = None;
        }
        &self
            .list
            .get_or_insert_with(|| (at, generation, rules_list(result)))
            .2
    }

    /// Drops the list (reports closed).
    pub fn release(&mut self) {
        self.list = None;
    }
}

/// The places a rule's markers name, CUDA lines first, each once.
fn places_of(rule: &RuleResult) -> Vec<(String, crate::views::source::SourceTarget)> {
    use crate::views::source::SourceTarget;
    let mut places: Vec<(String, SourceTarget)> = Vec::new();
    let lines = rule.markers.iter().filter_map(|m| {
        let (file, line) = (m.file.as_ref()?, m.line?);
        let name = crate::analysis::source::file_name(file);
        Some((
            format!("{name}:{line}"),
            SourceTarget::Line {
                file: file.clone(),
                line,
            },
        ))
    });
    let sass = rule.markers.iter().filter_map(|m| {
        m.address
            .map(|a| (format!("SASS {a:#x}"), SourceTarget::Address(a)))
    });
    for place in lines.chain(sass) {
        if !places.contains(&place) {
            places.push(place);
        }
    }
    places
}
