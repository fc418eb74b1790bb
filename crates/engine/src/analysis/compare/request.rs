//! One way to ask for a comparison of two reports: the options (noise threshold, metrics,
//! rename policy), the results paired by hand, which metric differences each pair keeps and
//! the forms `diff` writes.
//! The checks of what users type (a threshold, a pair's spelling, an ID a report lacks, as
//! `diff --pair 7=7` and the MCP tool's `pairs` give them) are made here once for every
//! caller, with one wording.

use super::{
    DiffOptions, Keep, KernelMatch, MatchedDiff, ReportDiff, compare_matched, compare_pair,
    match_results_with,
};
use crate::analysis::named_choice::{ChoiceError, NamedChoice};
use crate::analysis::parallel;
use crate::model::Report;
use std::str::FromStr;

/// The forms `diff` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffFormat {
    Text,
    Md,
    Json,
    Csv,
    /// One self-contained HTML page (inline style and SVG chart, no links), for CI artifacts.
    Html,
}

impl NamedChoice for DiffFormat {
    const WHAT: &'static str = "the form of `diff`";
    const NAMES: &'static [(&'static str, Self)] = &[
        ("text", Self::Text),
        ("md", Self::Md),
        ("json", Self::Json),
        ("csv", Self::Csv),
        ("html", Self::Html),
    ];
    const HELP: &'static [(&'static str, &'static str)] = &[(
        "html",
        "One self-contained HTML page (inline style and SVG chart, no links), for CI artifacts",
    )];
}

impl FromStr for DiffFormat {
    type Err = ChoiceError;
    fn from_str(text: &str) -> Result<Self, ChoiceError> {
        Self::from_name(text)
    }
}

/// A comparison asked for.
#[derive(Clone, Copy)]
pub struct CompareRequest<'a> {
    pub options: &'a DiffOptions,
    /// Results paired by hand, by their places in each report's results (a pair naming a
    /// place that does not exist is left out by the matcher, with a note); IDs a user types
    /// become places through [`pairs_by_id`].
    pub manual: &'a [(usize, usize)],
    /// Which metric differences each matched pair keeps.
    pub keep: Keep<'a>,
}

/// What is wrong with a request.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RequestError {
    #[error("`{0}` is not a percentage (e.g. 2 or 2.5%)")]
    Threshold(String),
    #[error("`{0}` is not a pair of result IDs (e.g. 7=7)")]
    Pair(String),
    #[error("the {side} report {report} has no result with ID {id}")]
    NoResult {
        side: &'static str,
        report: String,
        id: u64,
    },
}

/// A noise threshold in percent: a number of 0 or more, with or without `%`.
pub fn parse_threshold(text: &str) -> Result<f64, RequestError> {
    let t = text.trim().trim_end_matches('%').trim();
    t.parse::<f64>()
        .ok()
        .and_then(|v| checked_threshold(v).ok())
        .ok_or_else(|| RequestError::Threshold(text.to_string()))
}

/// A threshold given as a number: finite and 0 or more.
pub fn checked_threshold(value: f64) -> Result<f64, RequestError> {
    if value.is_finite() && value >= 0.0 {
        Ok(value)
    } else {
        Err(RequestError::Threshold(value.to_string()))
    }
}

/// A pair of result IDs, `BASE=CURRENT`.
pub fn parse_pair(text: &str) -> Result<(u64, u64), RequestError> {
    let bad = || RequestError::Pair(text.to_string());
    let (b, c) = text.split_once('=').ok_or_else(bad)?;
    Ok((
        b.trim().parse().map_err(|_| bad())?,
        c.trim().parse().map_err(|_| bad())?,
    ))
}

/// Pairs of result IDs (base, current) as places in each report's results; an ID a report
/// lacks is an error naming the report.
pub fn pairs_by_id(
    pairs: &[(u64, u64)],
    base: &Report,
    current: &Report,
) -> Result<Vec<(usize, usize)>, RequestError> {
    let index = |r: &Report, id: u64, side: &'static str| {
        r.results
            .iter()
            .position(|x| x.id == id)
            .ok_or_else(|| RequestError::NoResult {
                side,
                report: r.source.display().to_string(),
                id,
            })
    };
    pairs
        .iter()
        .map(|&(b, c)| Ok((index(base, b, "base")?, index(current, c, "current")?)))
        .collect()
}

impl CompareRequest<'_> {
    /// Compares the reports as asked.
    pub fn run(&self, base: &Report, current: &Report) -> ReportDiff {
        self.run_each(base, current, |_| (), |()| {})
    }

    /// [`CompareRequest::run`], handing each matched pair with every metric difference to
    /// `render` (on the core that compared it) and the outcomes to `each` in the pairs' order:
    /// one pass feeds the comparison and an output listing every pair. Each result is read
    /// once: the pairs, then the results in no pair, for the context.
    pub fn run_each<T: Send>(
        &self,
        base: &Report,
        current: &Report,
        render: impl Fn(&MatchedDiff) -> T + Sync,
        each: impl FnMut(T),
    ) -> ReportDiff {
        let opts = self.options;
        let matching =
            match_results_with(&base.results, &current.results, self.manual, &opts.renames);
        compare_matched(
            base,
            current,
            matching,
            opts,
            self.keep,
            render,
            each,
            &mut || true,
        )
        .0
    }

    /// [`CompareRequest::run`] that asks `stop` after each pair (and each result read for the
    /// context alone) and gives up at its first yes, with `None`: for a caller whose request
    /// was withdrawn (a window of pairs already handed to the cores is finished first).
    pub fn run_until(
        &self,
        base: &Report,
        current: &Report,
        stop: &dyn Fn() -> bool,
    ) -> Option<ReportDiff> {
        if stop() {
            return None;
        }
        let opts = self.options;
        let matching =
            match_results_with(&base.results, &current.results, self.manual, &opts.renames);
        let (diff, whole) = compare_matched(
            base,
            current,
            matching,
            opts,
            self.keep,
            |_| (),
            |()| {},
            &mut || !stop(),
        );
        whole.then_some(diff)
    }

    /// Compares again each matched pair of `diff` (made from `base` and `current` by this
    /// request, which may have kept only some metric differences), with every metric
    /// difference, and hands the pairs to `each` one at a time, in order (a window of pairs
    /// compared at a time on every core): for writing every metric of a large comparison
    /// without holding them all.
    pub fn pairs_in_full(
        &self,
        base: &Report,
        current: &Report,
        diff: &ReportDiff,
        each: &mut dyn FnMut(&MatchedDiff),
    ) {
        let _ = parallel::map_ordered(
            diff.matched.len(),
            |i| {
                let m = &diff.matched[i];
                let p = KernelMatch {
                    base: m.base_index,
                    current: m.current_index,
                    kind: m.kind,
                    shape_differs: m.shape_differs,
                    changes: m.changes.clone(),
                };
                let b = base.results.get(p.base)?.transient();
                let c = current.results.get(p.current)?.transient();
                Some(compare_pair(b.as_ref(), c.as_ref(), &p, self.options))
            },
            |_, full| -> Result<(), std::convert::Infallible> {
                if let Some(full) = full {
                    each(&full);
                }
                Ok(())
            },
        );
    }

    /// [`CompareRequest::run`] for reports the caller owns: the bodies matching decoded are
    /// released first, then the pairs are compared on copies of their bodies (a window at a
    /// time on every core), so the reports hold no decoded body while it runs; `observe` sees
    /// both reports after each pair and after each result read for the context alone. The
    /// comparison equals that of [`CompareRequest::run`].
    pub fn run_streamed(
        &self,
        base: &mut Report,
        current: &mut Report,
        observe: &mut dyn FnMut(&Report, &Report),
    ) -> ReportDiff {
        let opts = self.options;
        let matching =
            match_results_with(&base.results, &current.results, self.manual, &opts.renames);
        // Matching reads the launch shape, which a result without one takes from its metrics.
        base.release_bodies(0);
        current.release_bodies(0);
        let (base, current): (&Report, &Report) = (base, current);
        compare_matched(
            base,
            current,
            matching,
            opts,
            self.keep,
            |_| (),
            |()| {},
            &mut || {
                observe(base, current);
                true
            },
        )
        .0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_and_pairs_are_checked_with_one_wording() {
        assert_eq!(parse_threshold("5"), Ok(5.0));
        assert_eq!(parse_threshold("2.5%"), Ok(2.5));
        assert!(parse_threshold("-1").is_err());
        assert!(parse_threshold("abc").is_err());
        assert!(checked_threshold(f64::NAN).is_err());
        assert_eq!(parse_pair("7=8"), Ok((7, 8)));
        assert_eq!(
            parse_pair("7-8").unwrap_err().to_string(),
            "`7-8` is not a pair of result IDs (e.g. 7=7)"
        );
    }

    #[test]
    fn forms_are_read_by_name_and_only_html_has_a_line_of_help() {
        for &(name, form) in DiffFormat::NAMES {
            assert_eq!(name.parse(), Ok(form));
            assert_eq!(DiffFormat::help(name).is_some(), form == DiffFormat::Html);
        }
        assert_eq!(
            "pdf".parse::<DiffFormat>().unwrap_err().to_string(),
            "the form of `diff` is `text`, `md`, `json`, `csv` or `html`, not `pdf`"
        );
    }
}
