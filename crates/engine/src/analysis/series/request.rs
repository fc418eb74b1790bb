//! One way to ask for a trend (`sightline trend`, the MCP `trend` tool): a series of runs in
//! an order with the rules its latest run is held to, or a sweep over problem sizes with the
//! pattern its sizes are read by; the metric read beside the durations and the output form.
//! What users type (an order, `--fail-on` rules, a size pattern, a form) is read here once for
//! every caller, with one wording.

use super::SeriesOrder;
use super::TrendOptions;
use super::regression::{DEFAULT_RULE, RuleError, TrendRule};
use super::sizes::{SizeError, SizePattern};
use super::sweep::SweepOptions;
use crate::analysis::named_choice::{ChoiceError, NamedChoice};
use std::str::FromStr;

/// The forms of `trend`'s output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TrendFormat {
    /// Aligned text for the terminal.
    #[default]
    Text,
    Json,
    Csv,
    /// Markdown, for pull-request comments.
    Md,
    /// One self-contained HTML page.
    Html,
}

impl NamedChoice for TrendFormat {
    const WHAT: &'static str = "the form of `trend`";
    const NAMES: &'static [(&'static str, Self)] = &[
        ("text", Self::Text),
        ("json", Self::Json),
        ("csv", Self::Csv),
        ("md", Self::Md),
        ("html", Self::Html),
    ];
}

impl FromStr for TrendFormat {
    type Err = ChoiceError;
    fn from_str(text: &str) -> Result<Self, ChoiceError> {
        Self::from_name(text)
    }
}

impl NamedChoice for SeriesOrder {
    const WHAT: &'static str = "order";
    const NAMES: &'static [(&'static str, Self)] =
        &[("given", Self::Given), ("captured", Self::Captured)];
}

impl FromStr for SeriesOrder {
    type Err = ChoiceError;
    fn from_str(text: &str) -> Result<Self, ChoiceError> {
        Self::from_name(text)
    }
}

/// What is wrong with a trend asked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TrendRequestError {
    #[error(transparent)]
    Rule(#[from] RuleError),
    #[error(transparent)]
    SizePattern(#[from] SizeError),
}

/// What the reports of a trend are read as.
#[derive(Debug, Clone)]
pub enum TrendOf {
    /// A series of runs in `order`, its latest run held to `rules` (each with its text as
    /// written).
    Runs {
        order: SeriesOrder,
        rules: Vec<(String, TrendRule)>,
    },
    /// A sweep over problem sizes, each report's size read from its path by `pattern`.
    Sizes { pattern: SizePattern },
}

/// A trend asked for.
#[derive(Debug, Clone)]
pub struct TrendRequest {
    pub of: TrendOf,
    /// A metric (ncu name) to aggregate beside the duration.
    pub metric: Option<String>,
    pub format: TrendFormat,
}

impl TrendRequest {
    /// A series of runs in `order`, held to the rules of `fail_on` (a comma list; the default
    /// rule where none is given).
    pub fn runs(
        order: SeriesOrder,
        fail_on: Option<&str>,
        metric: Option<String>,
        format: TrendFormat,
    ) -> Result<Self, TrendRequestError> {
        let rules = TrendRule::parse_list(fail_on.unwrap_or(DEFAULT_RULE))?;
        Ok(TrendRequest {
            of: TrendOf::Runs { order, rules },
            metric,
            format,
        })
    }

    /// A sweep over problem sizes, read by `size_pattern` (a regular expression with a group
    /// for the size; sizes in named folders and file names where none is given).
    pub fn sizes(
        size_pattern: Option<&str>,
        metric: Option<String>,
        format: TrendFormat,
    ) -> Result<Self, TrendRequestError> {
        let pattern = size_pattern
            .map(SizePattern::parse)
            .transpose()?
            .unwrap_or_default();
        Ok(TrendRequest {
            of: TrendOf::Sizes { pattern },
            metric,
            format,
        })
    }

    /// The options of the series' table: its order (as given for a sweep) and metric.
    pub fn trend_options(&self) -> TrendOptions {
        TrendOptions {
            order: match &self.of {
                TrendOf::Runs { order, .. } => *order,
                TrendOf::Sizes { .. } => SeriesOrder::Given,
            },
            metric: self.metric.clone(),
            steps: 0,
        }
    }

    /// The options of the sweep: its size pattern (the default for a series of runs) and
    /// metric.
    pub fn sweep_options(&self) -> SweepOptions {
        SweepOptions {
            pattern: match &self.of {
                TrendOf::Sizes { pattern } => pattern.clone(),
                TrendOf::Runs { .. } => SizePattern::Named,
            },
            metric: self.metric.clone(),
        }
    }

    /// The rules the latest run is held to (none for a sweep).
    pub fn rules(&self) -> &[(String, TrendRule)] {
        match &self.of {
            TrendOf::Runs { rules, .. } => rules,
            TrendOf::Sizes { .. } => &[],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_forms_rules_and_patterns_are_read_with_one_wording() {
        assert_eq!("captured".parse(), Ok(SeriesOrder::Captured));
        assert_eq!(
            "sideways".parse::<SeriesOrder>().unwrap_err().to_string(),
            "order is `given` or `captured`, not `sideways`"
        );
        for &(name, form) in TrendFormat::NAMES {
            assert_eq!(name.parse(), Ok(form));
        }
        assert_eq!(
            "pdf".parse::<TrendFormat>().unwrap_err().to_string(),
            "the form of `trend` is `text`, `json`, `csv`, `md` or `html`, not `pdf`"
        );
        let runs = TrendRequest::runs(SeriesOrder::Captured, None, None, TrendFormat::Md).unwrap();
        assert_eq!(runs.rules().len(), 1);
        assert_eq!(runs.rules()[0].0, DEFAULT_RULE);
        assert_eq!(runs.trend_options().order, SeriesOrder::Captured);
        let two = TrendRequest::runs(
            SeriesOrder::Given,
            Some("duration>5%, duration>median3+2spread"),
            None,
            TrendFormat::Text,
        )
        .unwrap();
        assert_eq!(two.rules().len(), 2);
        assert!(
            TrendRequest::runs(
                SeriesOrder::Given,
                Some("duration>x"),
                None,
                TrendFormat::Text
            )
            .is_err()
        );
        let sizes = TrendRequest::sizes(Some(r"N=(\d+)"), None, TrendFormat::Json).unwrap();
        assert_eq!(sizes.sweep_options().pattern.text(), Some(r"N=(\d+)"));
        assert!(sizes.rules().is_empty());
        assert!(matches!(
            TrendRequest::sizes(Some("N=("), None, TrendFormat::Json),
            Err(TrendRequestError::SizePattern(_))
        ));
        assert!(matches!(
            TrendRequest::sizes(Some("N=1"), None, TrendFormat::Json),
            Err(TrendRequestError::SizePattern(SizeError::NoGroup { .. }))
        ));
    }
}
