//! When a comparison fails a build: a list of rules (`duration>5%`, `*hit_rate*>3pp`,
//! `only-in-base`) checked against a report comparison, each failure named.

use super::ReportDiff;
use super::direction::Direction;
use super::export::is_percentage;
use super::metric_diff::{MetricDiff, Verdict, item_selects};
use crate::model::names;
use serde::Serialize;
use std::collections::BTreeSet;

/// The rules when none are given: any matched kernel's duration worse by more than 5 %, or a
/// kernel only the base has.
pub const DEFAULT_FAIL_ON: &str = "duration>5%,only-in-base";

/// A `--fail-on` list that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FailOnError {
    #[error("empty rule in `{0}`")]
    Empty(String),
    #[error("`{0}`: the threshold must be a number with `%` or `pp` (e.g. `duration>5%`)")]
    BadThreshold(String),
}

/// How far a metric must move the bad way.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Threshold {
    /// Beyond the noise threshold at all.
    Any,
    /// By more than this many percent of the base value.
    Pct(f64),
    /// By more than this many percentage points (percentages only).
    Points(f64),
}

/// One rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailRule {
    /// A kernel only the base report has (removed, or no longer matched).
    OnlyInBase,
    /// A kernel only the current report has.
    OnlyInCurrent,
    /// A metric (name, `Section/Label`, label or glob) of any matched kernel moved the bad way
    /// (either way for metrics without a direction).
    Metric {
        selector: String,
        threshold: Threshold,
    },
}

/// A rule that fired.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Failure {
    /// The rule as written.
    pub rule: String,
    /// The kernel concerned.
    pub kernel: String,
    pub base_id: Option<u64>,
    pub current_id: Option<u64>,
    /// What moved (`gpu__time_duration.sum +49.85%`).
    pub detail: String,
}

/// A parsed `--fail-on` list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FailOn {
    pub rules: Vec<(String, FailRule)>,
}

impl Default for FailOn {
    fn default() -> Self {
        FailOn::parse(DEFAULT_FAIL_ON).unwrap_or(FailOn { rules: Vec::new() })
    }
}

impl FailOn {
    /// Reads a comma list of rules: `only-in-base`, `only-in-current`, `none` (no rule), or
    /// `METRIC`, `METRIC>N%`, `METRIC>Npp`.
    pub fn parse(list: &str) -> Result<FailOn, FailOnError> {
        let mut rules = Vec::new();
        for raw in list.split(',') {
            let item = raw.trim();
            if item.is_empty() {
                return Err(FailOnError::Empty(list.to_string()));
            }
            let rule = match item.to_ascii_lowercase().as_str() {
                "none" => continue,
                "only-in-base" => FailRule::OnlyInBase,
                "only-in-current" => FailRule::OnlyInCurrent,
                _ => parse_metric_rule(item)?,
            };
            rules.push((item.to_string(), rule));
        }
        Ok(FailOn { rules })
    }

    /// One rule per chosen metric: any move the bad way beyond the noise threshold.
    pub fn from_metrics(metrics: &[String]) -> FailOn {
        FailOn {
            rules: metrics
                .iter()
                .map(|m| {
                    (
                        m.clone(),
                        FailRule::Metric {
                            selector: m.clone(),
                            threshold: Threshold::Any,
                        },
                    )
                })
                .collect(),
        }
    }

    /// Whether a rule reads the metric `key` of the matched pairs.
    pub fn reads_metric(&self, key: &str) -> bool {
        self.rules.iter().any(
            |(_, rule)| matches!(rule, FailRule::Metric { selector, .. } if selects(selector, key)),
        )
    }

    /// Every rule that fired, kernel by kernel.
    pub fn check(&self, diff: &ReportDiff) -> Vec<Failure> {
        let mut out = Vec::new();
        for (text, rule) in &self.rules {
            match rule {
                FailRule::OnlyInBase => out.extend(diff.only_in_base.iter().map(|u| Failure {
                    rule: text.clone(),
                    kernel: u.name.clone(),
                    base_id: Some(u.id),
                    current_id: None,
                    detail: "only in base".into(),
                })),
                FailRule::OnlyInCurrent => {
                    out.extend(diff.only_in_current.iter().map(|u| Failure {
                        rule: text.clone(),
                        kernel: u.name.clone(),
                        base_id: None,
                        current_id: Some(u.id),
                        detail: "only in current".into(),
                    }))
                }
                FailRule::Metric {
                    selector,
                    threshold,
                } => {
                    for k in &diff.matched {
                        let mut seen = BTreeSet::new();
                        let candidates = k.diff.duration.iter().chain(k.diff.metrics.iter());
                        for m in candidates {
                            if !seen.insert(m.key.as_str()) || !selects(selector, &m.key) {
                                continue;
                            }
                            if let Some(detail) = fires(m, *threshold) {
                                out.push(Failure {
                                    rule: text.clone(),
                                    kernel: k.name.clone(),
                                    base_id: Some(k.base_id),
                                    current_id: Some(k.current_id),
                                    detail,
                                });
                            }
                        }
                    }
                }
            }
        }
        out
    }
}

fn selects(selector: &str, key: &str) -> bool {
    item_selects(selector, key)
        || (selector.eq_ignore_ascii_case("duration") && key == names::DURATION)
}

fn parse_metric_rule(item: &str) -> Result<FailRule, FailOnError> {
    let Some((selector, threshold)) = item.split_once('>') else {
        return Ok(FailRule::Metric {
            selector: item.to_string(),
            threshold: Threshold::Any,
        });
    };
    let t = threshold.trim();
    let bad = || FailOnError::BadThreshold(item.to_string());
    let number = |s: &str| -> Result<f64, FailOnError> {
        match s.trim().parse::<f64>() {
            Ok(v) if v.is_finite() && v >= 0.0 => Ok(v),
            _ => Err(bad()),
        }
    };
    let threshold = if let Some(n) = t.strip_suffix('%') {
        Threshold::Pct(number(n)?)
    } else if let Some(n) = t.strip_suffix("pp") {
        Threshold::Points(number(n)?)
    } else {
        return Err(bad());
    };
    let selector = selector.trim();
    if selector.is_empty() {
        return Err(bad());
    }
    Ok(FailRule::Metric {
        selector: selector.to_string(),
        threshold,
    })
}

/// Whether a metric moved the bad way by more than the threshold; the move as text if so.
fn fires(m: &MetricDiff, threshold: Threshold) -> Option<String> {
    // A value that is no number (NaN, an infinity) is damage, not a change within the rule.
    for (side, v) in [("base", m.base_f64()), ("current", m.current_f64())] {
        if let Some(v) = v.filter(|v| !v.is_finite()) {
            return Some(format!("{} is {v} in {side}: damaged", m.key));
        }
    }
    if m.verdict == Verdict::Unchanged {
        return None;
    }
    let delta = m.delta()?;
    let bad_way = match m.direction {
        Direction::Lower => delta > 0.0,
        Direction::Higher | Direction::HigherIfFaster => delta < 0.0,
        Direction::Neutral => delta != 0.0,
    };
    if !bad_way {
        return None;
    }
    let beyond = match threshold {
        Threshold::Any => true,
        // An infinite change (from 0) is beyond any percentage.
        Threshold::Pct(p) => m.delta_pct.is_none_or(|d| d.abs() > p),
        Threshold::Points(p) => is_percentage(m) && delta.abs() > p,
    };
    beyond.then(|| {
        let change = if is_percentage(m) {
            format!("{delta:+.2} pp")
        } else {
            // `None` only from a zero base: the value is new, not infinitely larger.
            m.delta_pct
                .map_or_else(|| "new".to_string(), |d| format!("{d:+.2}%"))
        };
        format!("{} {change}", m.key)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_lists() {
        let f = FailOn::parse("duration>5%, *hit_rate*>3pp,only-in-base, Duration").unwrap();
        assert_eq!(f.rules.len(), 4);
        assert_eq!(
            f.rules[1].1,
            FailRule::Metric {
                selector: "*hit_rate*".into(),
                threshold: Threshold::Points(3.0)
            }
        );
        assert_eq!(f.rules[2].1, FailRule::OnlyInBase);
        assert_eq!(
            f.rules[3].1,
            FailRule::Metric {
                selector: "Duration".into(),
                threshold: Threshold::Any
            }
        );
        assert!(FailOn::parse("none").unwrap().rules.is_empty());
        assert!(FailOn::parse("duration>5").is_err());
        assert!(FailOn::parse("duration>-5%").is_err());
        assert!(FailOn::parse(">5%").is_err());
        assert!(FailOn::parse("duration>5%,").is_err());
        assert_eq!(FailOn::default().rules.len(), 2);
    }
}
