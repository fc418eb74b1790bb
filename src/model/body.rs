//! A result's body: its sections, the rules of no section, and every metric.

use super::metric::Metric;
use super::result::{RuleResult, Section, SpeedupKind};
use serde::Serialize;
use std::collections::BTreeMap;

/// What a result holds beyond its identity and launch shape: sections, the rules of no section,
/// and every metric.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ResultBody {
    /// Sections in display order.
    pub sections: Vec<Section>,
    /// Rules that belong to no section.
    pub rules: Vec<RuleResult>,
    /// Every metric, by ncu metric name where known, else by `Section/Label`.
    pub metrics: BTreeMap<String, Metric>,
}

impl ResultBody {
    /// Inserts each section row's metric into the metric map under its key, keeping the row.
    pub fn index_section_metrics(&mut self) {
        for section in &self.sections {
            for row in &section.rows {
                let key = match &row.metric.name {
                    Some(name) => name.clone(),
                    None => format!("{}/{}", section.name, row.label),
                };
                self.metrics
                    .entry(key)
                    .or_insert_with(|| row.metric.clone());
            }
        }
    }

    /// Every rule result, of all sections and of none.
    pub fn all_rules(&self) -> impl Iterator<Item = &RuleResult> {
        self.sections
            .iter()
            .flat_map(|s| s.rules.iter())
            .chain(self.rules.iter())
    }

    /// The rule result with the highest estimated speedup: a global estimate (a decrease of the
    /// workload's runtime) wins over a local one (the gain of one hardware unit).
    pub fn top_rule(&self) -> Option<&RuleResult> {
        self.all_rules()
            .filter_map(|r| {
                r.speedup
                    .map(|(kind, pct)| (kind == SpeedupKind::Global, pct, r))
            })
            .max_by(|a, b| {
                (a.0, a.1)
                    .partial_cmp(&(b.0, b.1))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .map(|(_, _, r)| r)
    }
}

/// A result's body as the result holds it; read and change it through the result's methods
/// (`sections()`, `metrics()`, `body_mut()`...).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Body(ResultBody);

impl Body {
    /// A body holding `body`.
    pub fn new(body: ResultBody) -> Self {
        Body(body)
    }

    /// The body.
    pub fn get(&self) -> &ResultBody {
        &self.0
    }

    /// The body, to change.
    pub fn get_mut(&mut self) -> &mut ResultBody {
        &mut self.0
    }
}
