//! Several baselines, as ncu-ui compares them: Δ% against the mean of the baselines and a
//! z-score over the current value and all baselines (population standard deviation).

use super::matching::match_results;
use super::metric_diff::{canonical_metrics, delta_pct};
use super::normalize::KernelIdentity;
use crate::model::KernelResult;
use serde::Serialize;

/// A current value against one or more baseline values.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BaselineStats {
    pub current: f64,
    /// Mean of the baselines that have a value.
    pub baseline_mean: f64,
    /// (current − mean of baselines) / mean × 100; `None` when the mean is zero and the current
    /// value is not (ncu prints `inf%`; shown as `new`).
    pub delta_pct: Option<f64>,
    /// (current − mean of all values) / population standard deviation of all values
    /// (current and baselines); `None` with fewer than two baselines.
    pub z_score: Option<f64>,
    /// How many values took part (the current one and the baselines that have one).
    pub present: usize,
    /// How many values there could have been (the current one and every baseline).
    pub total: usize,
}

impl BaselineStats {
    /// The cell text ncu-ui shows: `current (Δ%)` for one baseline,
    /// `current (Δ%, z=<score>)` for several, with `@n` when some baselines lack the value.
    pub fn cell_text(&self, current_text: &str) -> String {
        let delta = match self.delta_pct {
            Some(d) => format!("{d:+.2}%"),
            None => "new".to_string(),
        };
        match self.z_score {
            None => format!("{current_text} ({delta})"),
            Some(z) => {
                let at = if self.present < self.total {
                    format!("@{}", self.present)
                } else {
                    String::new()
                };
                format!("{current_text} ({delta}, z={z:.2}{at})")
            }
        }
    }
}

/// Compares a current value with baseline values; `None` entries are baselines without the
/// value. `None` when there is no current value or no baseline value.
pub fn against_baselines(current: f64, baselines: &[Option<f64>]) -> Option<BaselineStats> {
    let present: Vec<f64> = baselines.iter().flatten().copied().collect();
    if present.is_empty() {
        return None;
    }
    let baseline_mean = present.iter().sum::<f64>() / present.len() as f64;
    let z_score = (present.len() >= 2).then(|| {
        let n = (present.len() + 1) as f64;
        let mean = (present.iter().sum::<f64>() + current) / n;
        let variance = present
            .iter()
            .chain(std::iter::once(&current))
            .map(|v| (v - mean).powi(2))
            .sum::<f64>()
            / n;
        let sd = variance.sqrt();
        if sd > 0.0 { (current - mean) / sd } else { 0.0 }
    });
    Some(BaselineStats {
        current,
        baseline_mean,
        delta_pct: delta_pct(baseline_mean, current),
        z_score,
        present: present.len() + 1,
        total: baselines.len() + 1,
    })
}

/// One metric of a result against the same metric of baseline results.
pub fn metric_against_baselines(
    current: &KernelResult,
    baselines: &[&KernelResult],
    key: &str,
) -> Option<BaselineStats> {
    let value = |r: &KernelResult| canonical_metrics(r).get(key).and_then(|m| m.as_f64());
    let values: Vec<Option<f64>> = baselines.iter().map(|b| value(b)).collect();
    against_baselines(value(current)?, &values)
}

/// Baselines split by whether they are the same kernel as the current result (the same
/// function base name): only those take part in the mean and z-score; the others are listed
/// apart.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct BaselineSplit {
    /// Indices of the baselines of the same kernel.
    pub matching: Vec<usize>,
    /// Indices of the baselines of other kernels.
    pub other: Vec<usize>,
}

/// Splits baselines by kernel key against the current result.
pub fn split_baselines(current: &KernelResult, baselines: &[&KernelResult]) -> BaselineSplit {
    let key = KernelIdentity::of(current).function;
    let mut split = BaselineSplit::default();
    for (i, b) in baselines.iter().enumerate() {
        if KernelIdentity::of(b).function == key {
            split.matching.push(i);
        } else {
            split.other.push(i);
        }
    }
    split
}

/// One metric of a result against the baselines of the same kernel only (see
/// [`split_baselines`]); also returns the split, so the others can be shown apart.
pub fn metric_against_matching_baselines(
    current: &KernelResult,
    baselines: &[&KernelResult],
    key: &str,
) -> (Option<BaselineStats>, BaselineSplit) {
    let split = split_baselines(current, baselines);
    let same: Vec<&KernelResult> = split.matching.iter().map(|&i| baselines[i]).collect();
    (metric_against_baselines(current, &same, key), split)
}

/// For each current result, the index of its partner in each baseline report (`None` where a
/// baseline has no match): `partners[current][baseline]`.
pub fn match_baselines(
    current: &[KernelResult],
    baselines: &[&[KernelResult]],
) -> Vec<Vec<Option<usize>>> {
    let mut partners = vec![vec![None; baselines.len()]; current.len()];
    for (bi, base) in baselines.iter().enumerate() {
        let m = match_results(base, current);
        for p in &m.pairs {
            if let Some(row) = partners.get_mut(p.current)
                && let Some(cell) = row.get_mut(bi)
            {
                *cell = Some(p.base);
            }
        }
    }
    partners
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_baselines_like_the_reference_screenshot() {
        // ncu-reference §1.13: 5.73 with baselines 82.73 and 1.57 gives z = −0.65.
        let s = against_baselines(5.73, &[Some(82.73), Some(1.57)]).unwrap();
        assert!((s.baseline_mean - 42.15).abs() < 1e-9);
        assert_eq!(format!("{:.2}", s.delta_pct.unwrap()), "-86.41");
        assert_eq!(format!("{:.2}", s.z_score.unwrap()), "-0.65");
        assert_eq!(s.cell_text("5.73"), "5.73 (-86.41%, z=-0.65)");
    }

    #[test]
    fn one_baseline_and_missing_values() {
        let s = against_baselines(1.57, &[Some(82.73)]).unwrap();
        assert_eq!(s.z_score, None);
        assert_eq!(s.cell_text("1.57"), "1.57 (-98.10%)");
        let s = against_baselines(5.73, &[Some(82.73), None, Some(1.57)]).unwrap();
        assert_eq!((s.present, s.total), (3, 4));
        assert_eq!(s.cell_text("5.73"), "5.73 (-86.41%, z=-0.65@3)");
        assert!(against_baselines(1.0, &[None]).is_none());
        assert_eq!(
            against_baselines(1.0, &[Some(1.0), Some(1.0)])
                .unwrap()
                .z_score,
            Some(0.0)
        );
        assert_eq!(
            against_baselines(1.0, &[Some(0.0)]).unwrap().cell_text("1"),
            "1 (new)"
        );
    }
}
