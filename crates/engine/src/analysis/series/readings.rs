//! How one kernel's values over the runs of a series are read: the value scale that shows them
//! all (logarithmic where they span more than ten times), each value as a percentage of another
//! (the first run's, the fastest run's, a reference kernel's in the same run), and the changes
//! between runs judged by the figure's direction (the latest run against the run before it,
//! the first run and the fastest), so that a regression stands out.

use super::finite_range;
use crate::analysis::compare::direction::Direction;
use crate::analysis::compare::metric_diff::{Speed, Verdict};
use serde::Serialize;

/// Values spanning more than this many times (the most over the least) are charted on a
/// logarithmic axis: on a linear one the smallest would lie on the zero line.
pub const LOG_SPAN: f64 = 10.0;

/// A chart's value axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Scale {
    #[default]
    Linear,
    Log,
}

/// How many times the least value the most is, over the values that are numbers (a damaged
/// value, NaN or an infinity, is left out); `None` where there is none, or where one is zero or
/// below (a log axis cannot show it).
pub fn span(values: &[Option<f64>]) -> Option<f64> {
    let (lo, hi) = finite_range(values);
    (lo.is_finite() && lo > 0.0).then(|| hi / lo)
}

/// The scale that shows every value of `values`: logarithmic where they span more than
/// [`LOG_SPAN`] and all are above zero, linear otherwise.
pub fn auto_scale(values: &[Option<f64>]) -> Scale {
    match span(values) {
        Some(s) if s > LOG_SPAN => Scale::Log,
        _ => Scale::Linear,
    }
}

/// Whether a value is a number a scale can place: finite, and above zero on a log axis.
pub fn drawable(value: f64, scale: Scale) -> bool {
    value.is_finite() && (scale == Scale::Linear || value > 0.0)
}

/// `value` as a percentage of `base` (`value / base × 100`), where both are finite and the
/// base is above zero.
pub fn percent_of(value: f64, base: f64) -> Option<f64> {
    (value.is_finite() && base.is_finite() && base > 0.0).then(|| value / base * 100.0)
}

/// Each value as a percentage of `base` ([`percent_of`]).
pub fn percents_of(values: &[Option<f64>], base: Option<f64>) -> Vec<Option<f64>> {
    values.iter().map(|v| percent_of((*v)?, base?)).collect()
}

/// Each value as a percentage of the reference's value in the same run ([`percent_of`]): a
/// kernel against a reference kernel launched in the same runs.
pub fn percents_of_each(values: &[Option<f64>], reference: &[Option<f64>]) -> Vec<Option<f64>> {
    values
        .iter()
        .enumerate()
        .map(|(run, v)| percent_of((*v)?, reference.get(run).copied().flatten()?))
        .collect()
}

/// The value of run `run` where it is a number.
fn number_at(values: &[Option<f64>], run: usize) -> Option<f64> {
    values.get(run).copied().flatten().filter(|v| v.is_finite())
}

/// The first run whose value is a number.
pub fn first_run(values: &[Option<f64>]) -> Option<usize> {
    (0..values.len()).find(|&r| number_at(values, r).is_some())
}

/// The last run whose value is a number.
pub fn last_run(values: &[Option<f64>]) -> Option<usize> {
    (0..values.len())
        .rev()
        .find(|&r| number_at(values, r).is_some())
}

/// The run with the least value that is a number (the fastest, for mean durations); the
/// earliest of equal ones.
pub fn least_run(values: &[Option<f64>]) -> Option<usize> {
    (0..values.len())
        .filter_map(|r| number_at(values, r).map(|v| (r, v)))
        .fold(None, |best: Option<(usize, f64)>, (r, v)| match best {
            Some((_, b)) if b <= v => best,
            _ => Some((r, v)),
        })
        .map(|(r, _)| r)
}

/// A value of one run against that of another.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Change {
    /// The runs (indices into the series' runs) compared: from the first to the second.
    pub from_run: usize,
    pub to_run: usize,
    pub from: f64,
    pub to: f64,
    /// `(to − from) / from × 100`.
    pub pct: f64,
}

impl Change {
    /// The change of `values` from run `from_run` to run `to_run`, where both are numbers and
    /// the first is not zero.
    pub fn between(values: &[Option<f64>], from_run: usize, to_run: usize) -> Option<Change> {
        let from = number_at(values, from_run)?;
        let to = number_at(values, to_run)?;
        (from != 0.0).then(|| Change {
            from_run,
            to_run,
            from,
            to,
            pct: (to - from) / from * 100.0,
        })
    }
}

/// A change with what it means for the kernel.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Judged {
    pub change: Change,
    pub verdict: Verdict,
}

/// How a figure's changes are judged: the way it improves, the noise threshold (%) below
/// which a change is none, and the kernel's mean durations over the runs (a throughput-like
/// figure is better only where the kernel also got faster).
#[derive(Debug, Clone, Copy)]
pub struct Judge<'a> {
    pub direction: Direction,
    pub threshold_pct: f64,
    pub means: &'a [Option<f64>],
}

impl Judge<'_> {
    /// The change of `values` from run `from_run` to run `to_run`, judged.
    pub fn between(
        &self,
        values: &[Option<f64>],
        from_run: usize,
        to_run: usize,
    ) -> Option<Judged> {
        let change = Change::between(values, from_run, to_run)?;
        let speed = match Change::between(self.means, from_run, to_run) {
            Some(d) if d.pct.abs() < self.threshold_pct => Speed::Same,
            Some(d) if d.pct < 0.0 => Speed::Faster,
            Some(_) => Speed::Slower,
            None => Speed::Unknown,
        };
        Some(Judged {
            change,
            verdict: verdict(change.pct, self.direction, speed, self.threshold_pct),
        })
    }

    /// For each run, its change from the run before it that has a value (none for the first).
    pub fn steps(&self, values: &[Option<f64>]) -> Vec<Option<Judged>> {
        (0..values.len())
            .map(|to| {
                number_at(values, to)?;
                let from = last_run(&values[..to])?;
                self.between(values, from, to)
            })
            .collect()
    }

    /// The latest run's changes: against the run before it, the first run and the run
    /// `best` (the fastest), each where both have a value.
    pub fn latest_changes(
        &self,
        values: &[Option<f64>],
        best: Option<usize>,
    ) -> Option<LatestChanges> {
        let latest = last_run(values)?;
        Some(LatestChanges {
            latest,
            previous: last_run(&values[..latest]).and_then(|r| self.between(values, r, latest)),
            first: first_run(values)
                .filter(|&r| r != latest)
                .and_then(|r| self.between(values, r, latest)),
            best: best.and_then(|r| self.between(values, r, latest)),
        })
    }
}

/// The latest run of a kernel (the last that has a value) against its history.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct LatestChanges {
    pub latest: usize,
    /// Against the run before it that has a value.
    pub previous: Option<Judged>,
    /// Against the first run that has a value.
    pub first: Option<Judged>,
    /// Against the best run (0 % where the latest is the best).
    pub best: Option<Judged>,
}

/// The verdict of a change of `pct` %, as the comparison judges a metric: none below the
/// threshold, else by the direction; a throughput-like figure (`HigherIfFaster`) is better
/// only where the kernel got faster and worse only where it got slower.
pub fn verdict(pct: f64, direction: Direction, speed: Speed, threshold_pct: f64) -> Verdict {
    if !pct.is_finite() || pct.abs() < threshold_pct {
        return Verdict::Unchanged;
    }
    let up = pct > 0.0;
    match direction {
        Direction::Lower if up => Verdict::Worse,
        Direction::Lower => Verdict::Better,
        Direction::Higher if up => Verdict::Better,
        Direction::Higher => Verdict::Worse,
        Direction::HigherIfFaster => match (up, speed) {
            (true, Speed::Faster) => Verdict::Better,
            (false, Speed::Slower) => Verdict::Worse,
            _ => Verdict::Neutral,
        },
        Direction::Neutral => Verdict::Neutral,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_turns_logarithmic_beyond_ten_times() {
        assert_eq!(auto_scale(&[Some(1.0), Some(10.0)]), Scale::Linear);
        assert_eq!(auto_scale(&[Some(1.0), None, Some(10.5)]), Scale::Log);
        // A value at zero or below cannot be placed on a log axis; a damaged one is left out.
        assert_eq!(auto_scale(&[Some(0.0), Some(100.0)]), Scale::Linear);
        assert_eq!(
            auto_scale(&[Some(f64::NAN), Some(1.0), Some(5.0)]),
            Scale::Linear
        );
        assert_eq!(auto_scale(&[]), Scale::Linear);
        assert!(!drawable(0.0, Scale::Log) && drawable(0.0, Scale::Linear));
    }

    #[test]
    fn a_throughput_is_better_only_where_the_kernel_got_faster() {
        let means = [Some(100.0), Some(80.0), Some(81.0)];
        let sol = [Some(40.0), Some(50.0), Some(60.0)];
        let judge = Judge {
            direction: Direction::HigherIfFaster,
            threshold_pct: 2.0,
            means: &means,
        };
        let steps = judge.steps(&sol);
        assert_eq!(steps[0], None);
        assert_eq!(steps[1].map(|j| j.verdict), Some(Verdict::Better));
        // +20 % of throughput while the duration held: no verdict.
        assert_eq!(steps[2].map(|j| j.verdict), Some(Verdict::Neutral));
        assert_eq!(least_run(&[Some(3.0), Some(1.0), Some(1.0)]), Some(1));
    }
}
