//! Report totals of a comparison: the time of matched pairs, of launches only in the base and
//! only in the current report, and the net, with a noise band from the printed precision of
//! each side so that the same run read from two forms shows no change.

use super::ReportDiff;
use serde::Serialize;

/// Durations summed over a comparison, in ns.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Totals {
    /// Matched pairs with a duration on both sides.
    pub matched_base_ns: f64,
    pub matched_current_ns: f64,
    /// Launches only one side has (removed, added).
    pub only_in_base_ns: f64,
    pub only_in_current_ns: f64,
    /// Matched launches with a duration on one side only, per side.
    pub unpaired_duration_base_ns: f64,
    pub unpaired_duration_current_ns: f64,
    /// How much of a matched difference rounding of printed values can explain: the sum of
    /// half a printed step of each side over matched pairs (0 when both sides are exact).
    pub noise_ns: f64,
}

impl Totals {
    /// Time won (negative) or lost (positive) over matched pairs.
    pub fn matched_delta_ns(&self) -> f64 {
        self.matched_current_ns - self.matched_base_ns
    }

    /// Every launch of the base report.
    pub fn all_base_ns(&self) -> f64 {
        self.matched_base_ns + self.only_in_base_ns + self.unpaired_duration_base_ns
    }

    /// Every launch of the current report.
    pub fn all_current_ns(&self) -> f64 {
        self.matched_current_ns + self.only_in_current_ns + self.unpaired_duration_current_ns
    }

    /// The whole report's change: matched change, minus removed, plus added launches.
    pub fn net_ns(&self) -> f64 {
        self.all_current_ns() - self.all_base_ns()
    }

    /// Whether the matched change is more than rounding can explain.
    pub fn matched_changed(&self) -> bool {
        beyond(self.matched_delta_ns(), self.noise_ns)
    }

    /// Whether the net change is more than rounding can explain.
    pub fn net_changed(&self) -> bool {
        beyond(self.net_ns(), self.noise_ns)
    }

    /// The matched change as the reader should see it: 0 within the noise band.
    pub fn matched_delta_shown_ns(&self) -> f64 {
        if self.matched_changed() {
            self.matched_delta_ns()
        } else {
            0.0
        }
    }

    /// The net change as the reader should see it: 0 within the noise band.
    pub fn net_shown_ns(&self) -> f64 {
        if self.net_changed() {
            self.net_ns()
        } else {
            0.0
        }
    }
}

fn beyond(delta: f64, noise: f64) -> bool {
    // Sums of rounded values carry float error of their own.
    delta.abs() > noise * (1.0 + 1e-9) + 1e-6
}

/// The totals of a comparison.
pub fn totals(diff: &ReportDiff) -> Totals {
    let mut t = Totals {
        matched_base_ns: 0.0,
        matched_current_ns: 0.0,
        // A duration that is no number (damage, named by the failures) adds nothing.
        only_in_base_ns: diff
            .only_in_base
            .iter()
            .filter_map(|u| u.duration_ns.filter(|d| d.is_finite()))
            .sum(),
        only_in_current_ns: diff
            .only_in_current
            .iter()
            .filter_map(|u| u.duration_ns.filter(|d| d.is_finite()))
            .sum(),
        unpaired_duration_base_ns: 0.0,
        unpaired_duration_current_ns: 0.0,
        noise_ns: 0.0,
    };
    for m in &diff.matched {
        match m
            .diff
            .duration
            .as_ref()
            .and_then(|d| Some((d.base_f64()?, d.current_f64()?, d.tolerance)))
            .filter(|(b, c, _)| b.is_finite() && c.is_finite())
        {
            Some((b, c, tolerance)) => {
                t.matched_base_ns += b;
                t.matched_current_ns += c;
                t.noise_ns += tolerance;
            }
            None => {
                let finite = |v: Option<f64>| v.filter(|d| d.is_finite()).unwrap_or(0.0);
                t.unpaired_duration_base_ns += finite(m.base_duration_ns);
                t.unpaired_duration_current_ns += finite(m.current_duration_ns);
            }
        }
    }
    t
}
