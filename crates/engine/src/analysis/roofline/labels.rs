//! The labels of a roofline plot's roofs: each distinct peak once (named by every precision or
//! datapath it bounds) and each distinct bandwidth once (named by every memory level), highest
//! first, which is the order in which a plot places them.

/// A roof as its labels need it: where its ridge is, its two values and their names.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LabelledRoof<'a> {
    /// The roof's position in the plot's list (its colour).
    pub index: usize,
    /// The ridge point's x, in the plot's coordinates.
    pub ridge: f64,
    /// Peak work per second (the flat part) and peak traffic per second (the slope).
    pub peak_work: f64,
    pub peak_traffic: f64,
    /// What the flat part is the peak of (`FP32`), and what the slope is the bandwidth of
    /// (`DRAM`).
    pub peak_name: &'a str,
    pub slope_name: &'a str,
}

/// One label: a value shared by one or more roofs.
#[derive(Debug, Clone, PartialEq)]
pub struct RoofLabel {
    pub value: f64,
    /// The ridge the label is placed by: the farthest right of the roofs' ridges for a peak,
    /// the farthest left for a slope.
    pub ridge: f64,
    /// The distinct names of the roofs it labels, in the roofs' order.
    pub names: Vec<String>,
    /// The first roof it labels (whose colour it takes when it labels only one).
    pub first: usize,
    /// How many roofs share the value.
    pub count: usize,
}

/// The peak labels and the slope labels of a plot, each highest first.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct RoofLabels {
    pub peaks: Vec<RoofLabel>,
    pub slopes: Vec<RoofLabel>,
}

/// Whether two values are the same to display precision.
pub fn same_value(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-6 * a.abs().max(b.abs())
}

/// Adds a roof's value to the label with the same value, or as a new label.
fn add(
    labels: &mut Vec<RoofLabel>,
    value: f64,
    (ridge, first): (f64, usize),
    name: &str,
    far: fn(f64, f64) -> f64,
) {
    match labels.iter_mut().find(|g| same_value(g.value, value)) {
        Some(g) => {
            g.ridge = far(g.ridge, ridge);
            g.count += 1;
            if !g.names.iter().any(|n| n == name) {
                g.names.push(name.to_string());
            }
        }
        None => labels.push(RoofLabel {
            value,
            ridge,
            names: vec![name.to_string()],
            first,
            count: 1,
        }),
    }
}

/// Orders labels highest first; labels of equal value keep the roofs' order.
fn highest_first(labels: &mut [RoofLabel]) {
    labels.sort_by(|a, b| b.value.total_cmp(&a.value));
}

/// The labels of `roofs`: roofs of the same peak (or bandwidth) share one label.
pub fn roof_labels<'a>(roofs: impl IntoIterator<Item = LabelledRoof<'a>>) -> RoofLabels {
    let mut labels = RoofLabels::default();
    for r in roofs {
        add(
            &mut labels.peaks,
            r.peak_work,
            (r.ridge, r.index),
            r.peak_name,
            f64::max,
        );
        add(
            &mut labels.slopes,
            r.peak_traffic,
            (r.ridge, r.index),
            r.slope_name,
            f64::min,
        );
    }
    highest_first(&mut labels.peaks);
    highest_first(&mut labels.slopes);
    labels
}

#[cfg(test)]
mod tests {
    use super::*;

    fn roof<'a>(
        index: usize,
        ridge: f64,
        work: f64,
        traffic: f64,
        names: (&'a str, &'a str),
    ) -> LabelledRoof<'a> {
        LabelledRoof {
            index,
            ridge,
            peak_work: work,
            peak_traffic: traffic,
            peak_name: names.0,
            slope_name: names.1,
        }
    }

    #[test]
    fn roofs_of_one_peak_share_a_label_placed_by_the_farthest_ridge() {
        // H100 SXM: FP32 against DRAM, L2 and L1 (three ridges, one peak); FP64 below it.
        let labels = roof_labels([
            roof(0, 1.3, 6.7e13, 3.35e12, ("FP32", "DRAM")),
            roof(1, 0.9, 6.7e13, 8.0e12, ("FP32", "L2")),
            roof(2, 0.4, 6.7e13, 2.5e13, ("FP32", "L1")),
            roof(3, 1.0, 3.4e13, 3.35e12, ("FP64", "DRAM")),
        ]);
        assert_eq!(labels.peaks.len(), 2);
        let fp32 = &labels.peaks[0];
        assert_eq!(fp32.names, ["FP32"]);
        assert_eq!((fp32.ridge, fp32.first, fp32.count), (1.3, 0, 3));
        let fp64 = &labels.peaks[1];
        assert_eq!((fp64.value, fp64.first, fp64.count), (3.4e13, 3, 1));
        // Slopes highest first; DRAM shared by FP32 and FP64, placed by the nearer ridge.
        let slopes: Vec<(&str, f64, usize)> = labels
            .slopes
            .iter()
            .map(|s| (s.names[0].as_str(), s.ridge, s.count))
            .collect();
        assert_eq!(slopes, [("L1", 0.4, 1), ("L2", 0.9, 1), ("DRAM", 1.0, 2)]);
    }

    #[test]
    fn values_equal_to_display_precision_merge_and_ties_keep_the_roofs_order() {
        let labels = roof_labels([
            roof(0, 1.0, 1.0e12, 2.0e11, ("FP16", "DRAM")),
            roof(1, 1.0, 1.0e12 * (1.0 + 1e-9), 2.0e11, ("Tensor", "DRAM")),
            roof(2, 2.0, 5.0e12, 2.0e11, ("FP32", "DRAM")),
        ]);
        let peaks: Vec<&[String]> = labels.peaks.iter().map(|p| p.names.as_slice()).collect();
        assert_eq!(
            peaks,
            [&["FP32".to_string()][..], &["FP16".into(), "Tensor".into()]]
        );
        assert_eq!(labels.slopes.len(), 1);
        assert_eq!(labels.slopes[0].names, ["DRAM"]);
        assert_eq!(labels.slopes[0].count, 3);
        assert!(!same_value(1.0, 1.0001));
    }
}
