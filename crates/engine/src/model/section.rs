//! A section of a result as ncu's Details page shows it (its header table and the rule
//! results under it), and the rule results themselves.

use super::metric::MetricRow;
use serde::Serialize;

/// The kind of a rule result, as the CLI tags it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum RuleKind {
    /// `OPT`: an optimization opportunity.
    #[serde(rename = "OPT")]
    Opt,
    /// `WRN`: a warning.
    #[serde(rename = "WRN")]
    Wrn,
    /// `INF`: information.
    #[serde(rename = "INF")]
    Inf,
    /// `ERR`: the rule failed.
    #[serde(rename = "ERR")]
    Err,
}

impl RuleKind {
    /// Parses the CLI tag (`OPT`, `WRN`, `INF`, `ERR`). `OK`, which ncu printed before 2022
    /// for a rule that found nothing to improve, is read as `INF`, the tag that replaced it.
    pub fn from_tag(tag: &str) -> Option<Self> {
        match tag {
            "OPT" => Some(RuleKind::Opt),
            "WRN" => Some(RuleKind::Wrn),
            "INF" | "OK" => Some(RuleKind::Inf),
            "ERR" => Some(RuleKind::Err),
            _ => None,
        }
    }

    /// How much the kind asks for attention: errors, then warnings, then optimizations.
    pub fn severity(self) -> u8 {
        match self {
            RuleKind::Err => 3,
            RuleKind::Wrn => 2,
            RuleKind::Opt => 1,
            RuleKind::Inf => 0,
        }
    }

    /// The CLI tag.
    pub fn tag(self) -> &'static str {
        match self {
            RuleKind::Opt => "OPT",
            RuleKind::Wrn => "WRN",
            RuleKind::Inf => "INF",
            RuleKind::Err => "ERR",
        }
    }
}

/// Whether an estimated speedup is for the whole workload or one hardware unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SpeedupKind {
    /// "Est. Speedup": estimated decrease of the workload's runtime.
    Global,
    /// "Est. Local Speedup": estimated gain of the unit concerned.
    Local,
}

/// One rule result.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RuleResult {
    /// The rule identifier (`SOLBottleneck`) when known.
    pub identifier: Option<String>,
    pub kind: RuleKind,
    /// The title (`High Memory Throughput`); may be empty in text forms.
    pub title: String,
    /// The message text.
    pub message: String,
    /// The estimated speedup in percent and its kind, when the rule gives one.
    pub speedup: Option<(SpeedupKind, f64)>,
    /// Focus metrics (key performance indicators): metric name and value.
    pub focus_metrics: Vec<(String, f64)>,
    /// The guidance shown with each key performance indicator (`--print-rule-details`, the
    /// report's rule details): metric name and text, such as `1.153 < 80.000`.
    pub guidance: Vec<(String, String)>,
    /// Where on the Source page the rule points: CUDA lines and SASS instructions (reports
    /// only; the text forms do not print them).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub markers: Vec<SourceMarker>,
}

/// A place on the Source page a rule points at, with what it says there.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceMarker {
    /// The source file's name as the rule gives it (`reduce.cu`), for a line marker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The 1-based CUDA line, for a line marker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// The instruction's address, for a SASS marker.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<u64>,
    pub tooltip: String,
    pub kind: RuleKind,
}

/// One section of a result, as ncu shows it on the Details page.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Section {
    /// The section identifier (`SpeedOfLight`) when known.
    pub identifier: Option<String>,
    /// The display name (`GPU Speed Of Light Throughput`).
    pub name: String,
    /// The header table rows, in the source's order.
    pub rows: Vec<MetricRow>,
    /// The rule results attached to the section.
    pub rules: Vec<RuleResult>,
}

impl Section {
    /// The first header-table row with this label.
    pub fn row(&self, label: &str) -> Option<&MetricRow> {
        self.rows.iter().find(|row| row.label == label)
    }
}
