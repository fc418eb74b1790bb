//! Regressions against a kernel's history, so that noise does not alarm: the latest run's mean
//! duration against the median of the runs before it (the last `window` that launch the
//! kernel) and their spread (the median absolute deviation, at least `floor_pct` of the
//! median). A rule reads `duration>median5+3spread`: the latest beyond the median of the last
//! 5 by more than 3 spreads; `duration>5%` compares the latest with the run before it.

use super::Trend;
use crate::model::format::{measured_text, value_text};
use serde::Serialize;

/// A trend `--fail-on` rule.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TrendRule {
    /// The latest mean duration beyond the median of the last `window` runs by more than
    /// `spreads` spreads.
    History { window: usize, spreads: f64 },
    /// The latest mean duration beyond the run before it by more than `pct` percent.
    Step { pct: f64 },
}

/// The rule when none is given.
pub const DEFAULT_RULE: &str = "duration>median5+3spread";

/// The least spread, as a share of the median: steadier histories than this are not believed.
pub const FLOOR_PCT: f64 = 1.0;

/// A rule that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}`: a trend rule reads `duration>medianN+Kspread` (such as `duration>median5+3spread`) or `duration>P%`"
)]
pub struct RuleError(pub String);

impl TrendRule {
    /// Parses one rule.
    pub fn parse(text: &str) -> Result<Self, RuleError> {
        let bad = || RuleError(text.to_string());
        let rest = text
            .trim()
            .strip_prefix("duration>")
            .ok_or_else(bad)?
            .trim();
        if let Some(pct) = rest.strip_suffix('%') {
            let pct: f64 = pct.trim().parse().map_err(|_| bad())?;
            return (pct.is_finite() && pct >= 0.0)
                .then_some(TrendRule::Step { pct })
                .ok_or_else(bad);
        }
        let rest = rest.strip_prefix("median").ok_or_else(bad)?;
        let (window, spreads) = rest.split_once('+').ok_or_else(bad)?;
        let window: usize = window.trim().parse().map_err(|_| bad())?;
        let spreads: f64 = spreads
            .trim()
            .strip_suffix("spread")
            .ok_or_else(bad)?
            .trim()
            .parse()
            .map_err(|_| bad())?;
        (window >= 1 && spreads.is_finite() && spreads >= 0.0)
            .then_some(TrendRule::History { window, spreads })
            .ok_or_else(bad)
    }

    /// Parses a comma list of rules, each with its text as written (what a regression names).
    pub fn parse_list(text: &str) -> Result<Vec<(String, Self)>, RuleError> {
        text.split(',')
            .map(str::trim)
            .filter(|r| !r.is_empty())
            .map(|r| Self::parse(r).map(|rule| (r.to_string(), rule)))
            .collect()
    }
}

/// A kernel whose latest run broke a rule.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Regression {
    pub kernel: String,
    /// The rule as written.
    pub rule: String,
    /// The latest mean duration and what it was held against (the history's median or the
    /// run before), ns.
    pub latest_ns: f64,
    pub reference_ns: f64,
    /// The history's spread, ns (history rules).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spread_ns: Option<f64>,
    /// The change from the reference, %.
    pub change_pct: f64,
    /// Whether a duration the rule reads is no number: damage fails the rule whatever the
    /// figures (which are then no numbers either).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub damaged: bool,
}

impl Regression {
    /// The regression in one line (the kernel's name as it is: callers escape the line).
    pub fn line(&self) -> String {
        if self.damaged {
            return format!(
                "{}: damaged: the rule reads a mean duration that is no number ({} against {}), \
                 rule {}",
                self.kernel,
                measured_text(self.latest_ns, "ns"),
                measured_text(self.reference_ns, "ns"),
                self.rule
            );
        }
        let against = match self.spread_ns {
            Some(spread) => format!(
                "the median {} (spread {})",
                value_text(self.reference_ns, "ns"),
                value_text(spread, "ns")
            ),
            None => format!("the run before, {}", value_text(self.reference_ns, "ns")),
        };
        format!(
            "{}: {} against {} ({:+.1}%), rule {}",
            self.kernel,
            value_text(self.latest_ns, "ns"),
            against,
            self.change_pct,
            self.rule
        )
    }
}

/// The median of some values (none: `None`).
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    Some(if v.len().is_multiple_of(2) {
        (v[mid - 1] + v[mid]) / 2.0
    } else {
        v[mid]
    })
}

/// The median and spread of a history: the median absolute deviation, at least
/// [`FLOOR_PCT`] of the median.
pub fn median_and_spread(history: &[f64]) -> Option<(f64, f64)> {
    let m = median(history)?;
    let deviations: Vec<f64> = history.iter().map(|v| (v - m).abs()).collect();
    let mad = median(&deviations).unwrap_or(0.0);
    Some((m, mad.max(m.abs() * FLOOR_PCT / 100.0)))
}

/// The kernels of the latest run that break a rule. A kernel the latest run does not launch
/// is left out (it is not slower), and so is one without enough history. A rule that reads a
/// mean duration that is no number (a damaged launch) is broken: damage is never within a
/// rule.
pub fn regressions(trend: &Trend, rules: &[(String, TrendRule)]) -> Vec<Regression> {
    let Some(last) = trend.runs.len().checked_sub(1) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for k in &trend.kernels {
        let means = k.means();
        let Some(Some(latest)) = means.get(last).copied() else {
            continue;
        };
        let before: Vec<f64> = means[..last].iter().flatten().copied().collect();
        for (written, rule) in rules {
            // The means the rule reads besides the latest.
            let read = match *rule {
                TrendRule::History { window, .. } => &before[before.len().saturating_sub(window)..],
                TrendRule::Step { .. } => &before[before.len().saturating_sub(1)..],
            };
            if !latest.is_finite() || read.iter().any(|v| !v.is_finite()) {
                out.push(Regression {
                    kernel: k.name.clone(),
                    rule: written.clone(),
                    latest_ns: latest,
                    reference_ns: read
                        .iter()
                        .copied()
                        .find(|v| !v.is_finite())
                        .or(read.last().copied())
                        .unwrap_or(f64::NAN),
                    spread_ns: None,
                    change_pct: f64::NAN,
                    damaged: true,
                });
                continue;
            }
            let found = match *rule {
                TrendRule::History { spreads, .. } => {
                    median_and_spread(read).and_then(|(m, spread)| {
                        (latest > m + spreads * spread).then_some((m, Some(spread)))
                    })
                }
                TrendRule::Step { pct } => read.last().and_then(|&prev| {
                    (prev > 0.0 && (latest - prev) / prev * 100.0 > pct).then_some((prev, None))
                }),
            };
            if let Some((reference, spread)) = found {
                out.push(Regression {
                    kernel: k.name.clone(),
                    rule: written.clone(),
                    latest_ns: latest,
                    reference_ns: reference,
                    spread_ns: spread,
                    change_pct: if reference > 0.0 {
                        (latest - reference) / reference * 100.0
                    } else {
                        0.0
                    },
                    damaged: false,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_read_as_written() {
        assert_eq!(
            TrendRule::parse("duration>median5+3spread"),
            Ok(TrendRule::History {
                window: 5,
                spreads: 3.0
            })
        );
        assert_eq!(
            TrendRule::parse(" duration>7.5% "),
            Ok(TrendRule::Step { pct: 7.5 })
        );
        for bad in [
            "",
            "duration>median0+3spread",
            "sm>5%",
            "duration>median5+3",
            "duration>-1%",
        ] {
            assert!(TrendRule::parse(bad).is_err(), "{bad}");
        }
    }

    /// A trend of one kernel over runs with these mean durations (`None`: not launched).
    fn one_kernel(means: &[Option<f64>]) -> Trend {
        use crate::analysis::series::{KernelTrend, Run, RunPoint, SeriesOrder};
        let point = |mean: f64| RunPoint {
            name: "k".into(),
            launches: 1,
            total_ns: mean,
            mean_ns: mean,
            min_ns: mean,
            max_ns: mean,
            metric: None,
            damaged: usize::from(!mean.is_finite()),
            results: vec![0],
        };
        Trend {
            runs: (0..means.len())
                .map(|i| Run {
                    label: format!("v{i}"),
                    path: String::new(),
                    captured: None,
                    input: i,
                })
                .collect(),
            order: SeriesOrder::Given,
            order_note: String::new(),
            metric: None,
            kernels: vec![KernelTrend {
                id: 0,
                name: "k".into(),
                names: vec!["k".into()],
                points: means.iter().map(|m| m.map(point)).collect(),
            }],
            steps: Vec::new(),
        }
    }

    #[test]
    fn a_duration_that_is_no_number_breaks_every_rule_that_reads_it() {
        let rules = TrendRule::parse_list("duration>median3+3spread,duration>5%").unwrap();
        let steady = [Some(100.0), Some(101.0), Some(99.0), Some(100.0)];
        assert!(regressions(&one_kernel(&steady), &rules).is_empty());
        // Damage in the latest run breaks both rules.
        let mut latest = steady;
        latest[3] = Some(f64::NAN);
        let found = regressions(&one_kernel(&latest), &rules);
        assert_eq!(found.len(), 2);
        assert!(found.iter().all(|r| r.damaged));
        assert!(
            found[0].line().contains("damaged (NaN)"),
            "{}",
            found[0].line()
        );
        // In the history: only the rule that reads that run.
        let mut history = steady;
        history[1] = Some(f64::NAN);
        let found = regressions(&one_kernel(&history), &rules);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].rule, "duration>median3+3spread");
        // A run that does not launch the kernel is no damage.
        let gap = [Some(100.0), None, Some(99.0), Some(100.0)];
        assert!(regressions(&one_kernel(&gap), &rules).is_empty());
    }

    #[test]
    fn the_spread_is_the_median_deviation_with_a_floor() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), Some(2.5));
        // 100, 102, 98, 101, 99: median 100, deviations 0 2 2 1 1 → 1.
        assert_eq!(
            median_and_spread(&[100.0, 102.0, 98.0, 101.0, 99.0]),
            Some((100.0, 1.0))
        );
        // A flat history still has 1 % of spread.
        assert_eq!(median_and_spread(&[200.0; 4]), Some((200.0, 2.0)));
    }
}
