//! Roofline geometry for a plot: ceilings (y = min(peak work, peak traffic × intensity)), their
//! ridge points, and achieved points placed under the roof they belong to.

use serde::Serialize;

/// One roofline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ceiling {
    /// `Single Precision Roofline`, `L2 Roofline`, ...
    pub label: String,
    /// Peak work, FLOP/s (or OP/s for tensor cores).
    pub peak_work: f64,
    /// Peak traffic, byte/s.
    pub peak_traffic: f64,
}

impl Ceiling {
    /// The intensity where the slope meets the flat roof, FLOP/byte.
    pub fn ridge(&self) -> f64 {
        self.peak_work / self.peak_traffic
    }

    /// The roof's height at an intensity.
    pub fn roof_at(&self, intensity: f64) -> f64 {
        self.peak_work.min(self.peak_traffic * intensity)
    }
}

/// Which side of the ridge a point lies on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Bound {
    Memory,
    Compute,
}

/// Relative slack before a point counts as above its roof (measurement rounding).
const ABOVE_ROOF_TOLERANCE: f64 = 1e-9;

/// One achieved value.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AchievedPoint {
    /// `Single Precision Achieved Value`, `L2 Achieved Value`, ...
    pub label: String,
    /// Achieved work, FLOP/s (OP/s for tensor cores).
    pub work: f64,
    /// Achieved traffic, byte/s.
    pub traffic: f64,
    /// work / traffic, FLOP/byte.
    pub intensity: f64,
    /// Index of the ceiling this point sits under.
    pub ceiling: usize,
    /// The roof's height at this intensity.
    pub roof: f64,
    /// work as % of the roof above it.
    pub pct_of_roof: f64,
    pub bound: Bound,
    /// The point lies above its roof (an inconsistent or estimated input).
    pub above_roof: bool,
    /// The work or traffic is an estimate.
    pub estimated: bool,
}

impl AchievedPoint {
    /// Places a point under a ceiling; `None` when it cannot be drawn on log axes.
    pub fn place(
        label: String,
        work: f64,
        traffic: f64,
        ceiling_index: usize,
        ceiling: &Ceiling,
        estimated: bool,
    ) -> Option<AchievedPoint> {
        if !(work > 0.0 && traffic > 0.0 && work.is_finite() && traffic.is_finite()) {
            return None;
        }
        let intensity = work / traffic;
        let roof = ceiling.roof_at(intensity);
        Some(AchievedPoint {
            label,
            work,
            traffic,
            intensity,
            ceiling: ceiling_index,
            roof,
            pct_of_roof: if roof > 0.0 { 100.0 * work / roof } else { 0.0 },
            bound: if intensity < ceiling.ridge() {
                Bound::Memory
            } else {
                Bound::Compute
            },
            above_roof: work > roof * (1.0 + ABOVE_ROOF_TOLERANCE),
            estimated,
        })
    }
}

/// One roofline chart: its ceilings and the points drawn against them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Chart {
    pub title: String,
    /// `FLOP` or `OP` (axes: "Arithmetic Intensity [FLOP/byte]", "Performance [FLOP/s]").
    pub work_unit: &'static str,
    pub ceilings: Vec<Ceiling>,
    pub points: Vec<AchievedPoint>,
}

impl Chart {
    /// Whether the chart has anything to draw.
    pub fn is_empty(&self) -> bool {
        self.ceilings.is_empty() && self.points.is_empty()
    }

    /// The smallest and largest intensity and performance to show: every ridge and point, with
    /// a decade of margin on the intensity axis. `None` for an empty chart.
    pub fn extent(&self) -> Option<((f64, f64), (f64, f64))> {
        let xs = self
            .ceilings
            .iter()
            .map(Ceiling::ridge)
            .chain(self.points.iter().map(|p| p.intensity))
            .filter(|v| v.is_finite() && *v > 0.0);
        let ys = self
            .ceilings
            .iter()
            .map(|c| c.peak_work)
            .chain(self.points.iter().map(|p| p.work))
            .filter(|v| v.is_finite() && *v > 0.0);
        let min_max = |it: &mut dyn Iterator<Item = f64>| {
            it.fold(None, |acc: Option<(f64, f64)>, v| {
                Some(acc.map_or((v, v), |(lo, hi)| (lo.min(v), hi.max(v))))
            })
        };
        let (x0, x1) = min_max(&mut { xs })?;
        let (y0, y1) = min_max(&mut { ys })?;
        Some(((x0 / 10.0, x1 * 10.0), (y0 / 10.0, y1 * 2.0)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_under_a_roof() {
        let c = Ceiling {
            label: "x".into(),
            peak_work: 66.9e12,
            peak_traffic: 3.35e12,
        };
        assert!((c.ridge() - 19.97).abs() < 0.01);
        let p = AchievedPoint::place("p".into(), 234e9, 2.67e12, 0, &c, false).unwrap();
        assert_eq!(p.bound, Bound::Memory);
        assert!(!p.above_roof);
        assert!((p.roof - 3.35e12 * p.intensity).abs() < 1.0);
        let over = AchievedPoint::place("o".into(), 70e12, 1e12, 0, &c, true).unwrap();
        assert!(over.above_roof);
        assert_eq!(over.bound, Bound::Compute);
        assert!(AchievedPoint::place("z".into(), 0.0, 1e12, 0, &c, false).is_none());
    }
}
