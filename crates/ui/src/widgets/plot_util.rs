//! Log axes for egui_plot, which has none: values are plotted as log10, the grid is drawn in
//! decades (with 2..9 subdivisions when zoomed in) and tick labels are written back in real
//! units. Also the readable units the roofline and occupancy views print (GFLOP/s, TB/s,
//! FLOP/byte), and the record of where plots are on screen (for the window zoom).

use crate::model::format::NOT_MEASURED;
use egui_plot::{GridInput, GridMark};
use std::ops::RangeInclusive;

/// The most grid marks one axis gets, whatever the zoom.
const MAX_MARKS: usize = 600;
/// Most decades labelled on one axis before labels skip decades.
const MAX_LABELLED_DECADES: f64 = 12.0;
/// Above this many decades on screen, the 2..9 subdivisions are left out.
const SUBDIVIDE_BELOW_DECADES: f64 = 6.0;
/// Below this many decades on screen, a second level (1.1, 1.2, ...) is added.
const FINE_BELOW_DECADES: f64 = 0.6;
/// Tolerance when deciding whether a log value is a whole decade.
const DECADE_EPSILON: f64 = 1e-9;

/// log10 of a positive, finite value.
pub fn to_log(v: f64) -> Option<f64> {
    (v.is_finite() && v > 0.0).then(|| v.log10())
}

/// The value of a log10 coordinate.
pub fn from_log(v: f64) -> f64 {
    10f64.powf(v)
}

/// How many decades apart the labelled decades are, for a visible span of `span` decades.
fn decade_step(span: f64) -> i64 {
    (span / MAX_LABELLED_DECADES).ceil().max(1.0) as i64
}

/// Grid marks for a log10 axis: whole decades (thick), 2..9 × 10^d (thin) when few decades are
/// visible, and 1.1..9.9 × 10^d when less than a decade is.
pub fn log_grid_marks(input: GridInput) -> Vec<GridMark> {
    let (lo, hi) = input.bounds;
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo {
        return Vec::new();
    }
    let span = hi - lo;
    let step = decade_step(span);
    let first = lo.floor() as i64;
    let last = hi.ceil() as i64;
    let mut marks = Vec::new();
    for d in first..=last {
        if marks.len() >= MAX_MARKS {
            break;
        }
        if d.rem_euclid(step) == 0 && (lo..=hi).contains(&(d as f64)) {
            marks.push(GridMark {
                value: d as f64,
                step_size: step as f64,
            });
        }
        if span > SUBDIVIDE_BELOW_DECADES {
            continue;
        }
        for m in 2..10 {
            let v = d as f64 + f64::from(m).log10();
            if v >= lo && v <= hi {
                marks.push(GridMark {
                    value: v,
                    step_size: 0.1,
                });
            }
        }
        if span < FINE_BELOW_DECADES {
            for tenth in 11..100 {
                if tenth % 10 == 0 {
                    continue;
                }
                let v = d as f64 + (f64::from(tenth) / 10.0).log10();
                if v >= lo && v <= hi {
                    marks.push(GridMark {
                        value: v,
                        step_size: 0.01,
                    });
                }
            }
        }
    }
    marks
}

/// Whether a tick at `mark` gets a label, given the visible range: decades always, 2 and 5
/// between them below two decades, every subdivision below one.
fn labelled(mark: &GridMark, range: &RangeInclusive<f64>) -> bool {
    let span = range.end() - range.start();
    let v = mark.value;
    if (v - v.round()).abs() < DECADE_EPSILON {
        return true;
    }
    let mantissa = from_log(v - v.floor());
    let near = |m: f64| (mantissa - m).abs() < 1e-6 * m;
    if mark.step_size >= 0.1 {
        span < 1.0 || (span < 2.0 && (near(2.0) || near(5.0)))
    } else {
        span < 0.15
            || (span < FINE_BELOW_DECADES
                && [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5]
                    .iter()
                    .any(|m| near(*m)))
    }
}

/// Where the plots drawn this frame are kept, so the next frame can tell whether the pointer
/// is over one (Ctrl+wheel then zooms the plot, not the whole window).
fn plot_areas_id() -> egui::Id {
    egui::Id::unique("sightline_plot_areas")
}

/// Records the screen area of a plot drawn this frame.
pub fn note_plot_area(ctx: &egui::Context, rect: egui::Rect) {
    ctx.data_mut(|d| {
        d.get_temp_mut_or_default::<Vec<egui::Rect>>(plot_areas_id())
            .push(rect);
    });
}

/// The plot areas recorded since the last call (the previous frame's plots), emptied.
pub fn take_plot_areas(ctx: &egui::Context) -> Vec<egui::Rect> {
    ctx.data_mut(|d| {
        d.remove_temp::<Vec<egui::Rect>>(plot_areas_id())
            .unwrap_or_default()
    })
}

/// The tick label of a log10 axis in `unit` (`FLOP/s` gives `10 TFLOP/s`; an empty unit gives
/// plain numbers such as `0.01`, `1`, `1000`); empty where the tick is unlabelled.
pub fn log_tick_label(mark: GridMark, range: &RangeInclusive<f64>, unit: &str) -> String {
    if !labelled(&mark, range) {
        return String::new();
    }
    let value = from_log(mark.value);
    if unit.is_empty() {
        plain_number(value)
    } else {
        compact_rate(value, unit)
    }
}

/// The tick label of a log10 axis of values in `base_unit`, scaled as ncu scales them
/// (`ns` gives `500 us`, `2 ms`; `%` gives `50 %`); empty where the tick is unlabelled.
pub fn log_value_label(mark: GridMark, range: &RangeInclusive<f64>, base_unit: &str) -> String {
    if !labelled(&mark, range) {
        return String::new();
    }
    compact_value(from_log(mark.value), base_unit)
}

/// A value in `base_unit` scaled as ncu scales it, with at most three significant digits and
/// no trailing zeros (for tick labels): `500 us`, `1.5 ms`, `50 %`.
pub fn compact_value(value: f64, base_unit: &str) -> String {
    if !value.is_finite() {
        return NOT_MEASURED.into();
    }
    let (unit, divisor) = crate::model::units::auto_scale(base_unit, value);
    let number = significant(value / divisor, 3);
    if unit.is_empty() {
        number
    } else {
        format!("{number} {unit}")
    }
}

/// The SI prefix for a value and the divisor that goes with it.
pub fn si_prefix(value: f64) -> (f64, &'static str) {
    let a = value.abs();
    [
        (1e18, "E"),
        (1e15, "P"),
        (1e12, "T"),
        (1e9, "G"),
        (1e6, "M"),
        (1e3, "K"),
    ]
    .into_iter()
    .find(|(d, _)| a >= *d * (1.0 - 1e-12))
    .unwrap_or((1.0, ""))
}

/// A rate with an SI prefix and two decimals: `66.93 TFLOP/s`, `3.35 TB/s`, `0.00 FLOP/s`.
pub fn format_rate(value: f64, unit: &str) -> String {
    if !value.is_finite() {
        return NOT_MEASURED.into();
    }
    let (div, prefix) = si_prefix(value);
    format!("{:.2} {prefix}{unit}", value / div)
}

/// A rate with an SI prefix and at most three significant digits, no trailing zeros:
/// `10 TFLOP/s`, `2 GFLOP/s`, `1.5 TB/s` (for tick labels).
pub fn compact_rate(value: f64, unit: &str) -> String {
    if !value.is_finite() {
        return NOT_MEASURED.into();
    }
    let (div, prefix) = si_prefix(value);
    format!("{} {prefix}{unit}", significant(value / div, 3))
}

/// `v` with at most `digits` significant digits, without trailing zeros.
pub fn significant(v: f64, digits: usize) -> String {
    if v == 0.0 || !v.is_finite() {
        return if v == 0.0 { "0".into() } else { format!("{v}") };
    }
    let magnitude = v.abs().log10().floor() as i32;
    let decimals = (digits as i32 - 1 - magnitude).max(0) as usize;
    let text = format!("{v:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

/// A plain number for an axis: `0.001` to `99999` written out, other magnitudes as `1e-4`,
/// `1e6`.
pub fn plain_number(v: f64) -> String {
    let a = v.abs();
    if a == 0.0 || (1e-3 * (1.0 - 1e-9)..1e5).contains(&a) {
        significant(v, 3)
    } else {
        let exp = a.log10().floor();
        let mantissa = v / 10f64.powf(exp);
        let m = significant(mantissa, 2);
        if m == "1" {
            format!("1e{exp}")
        } else {
            format!("{m}e{exp}")
        }
    }
}

/// An arithmetic intensity with three significant digits: `0.0877 FLOP/byte`.
pub fn format_intensity(value: f64, work_unit: &str) -> String {
    if !value.is_finite() {
        return NOT_MEASURED.into();
    }
    let number = if value != 0.0 && !(1e-3..1e6).contains(&value.abs()) {
        format!("{value:.2e}")
    } else {
        significant(value, 3)
    };
    format!("{number} {work_unit}/byte")
}

/// A percentage with two decimals (`79.55 %`).
pub fn format_pct(value: f64) -> String {
    format!("{value:.2} %")
}

/// The log10 bounds of a linear extent, padded by `pad` decades on each side.
pub fn log_bounds(lo: f64, hi: f64, pad: f64) -> Option<(f64, f64)> {
    let (a, b) = (to_log(lo)?, to_log(hi)?);
    let (a, b) = if b - a < 1.0 {
        let mid = 0.5 * (a + b);
        (mid - 0.5, mid + 0.5)
    } else {
        (a, b)
    };
    Some((a - pad, b + pad))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marks(lo: f64, hi: f64) -> Vec<GridMark> {
        log_grid_marks(GridInput {
            bounds: (lo, hi),
            base_step_size: 0.01,
        })
    }

    #[test]
    fn decades_and_subdivisions() {
        let m = marks(-2.0, 3.0);
        let decades: Vec<f64> = m
            .iter()
            .filter(|g| g.step_size == 1.0)
            .map(|g| g.value)
            .collect();
        assert_eq!(decades, vec![-2.0, -1.0, 0.0, 1.0, 2.0, 3.0]);
        // 2..9 in each of the five whole decades.
        assert_eq!(m.iter().filter(|g| g.step_size == 0.1).count(), 5 * 8);
        // Many decades: every third one, no subdivisions.
        let wide = marks(-10.0, 20.0);
        assert!(wide.iter().all(|g| g.step_size == 3.0));
        assert_eq!(wide.len(), 10);
        // Less than a decade: a second level.
        assert!(marks(0.1, 0.4).iter().any(|g| g.step_size == 0.01));
        assert!(marks(f64::NAN, 1.0).is_empty());
        assert!(marks(1.0, 1.0).is_empty());
    }

    #[test]
    fn tick_labels_in_units() {
        let wide = -2.0..=15.0;
        let decade = |v: f64| GridMark {
            value: v,
            step_size: 1.0,
        };
        assert_eq!(log_tick_label(decade(13.0), &wide, "FLOP/s"), "10 TFLOP/s");
        assert_eq!(log_tick_label(decade(11.0), &wide, "FLOP/s"), "100 GFLOP/s");
        assert_eq!(log_tick_label(decade(12.0), &wide, "B/s"), "1 TB/s");
        assert_eq!(log_tick_label(decade(-2.0), &wide, ""), "0.01");
        assert_eq!(log_tick_label(decade(3.0), &wide, ""), "1000");
        assert_eq!(log_tick_label(decade(6.0), &wide, ""), "1e6");
        let two = GridMark {
            value: 2f64.log10() + 12.0,
            step_size: 0.1,
        };
        assert_eq!(log_tick_label(two, &wide, "FLOP/s"), "");
        assert_eq!(log_tick_label(two, &(11.8..=13.5), "FLOP/s"), "2 TFLOP/s");
        let three = GridMark {
            value: 3f64.log10() + 12.0,
            step_size: 0.1,
        };
        assert_eq!(log_tick_label(three, &(11.8..=13.5), "FLOP/s"), "");
        assert_eq!(log_tick_label(three, &(11.9..=12.8), "FLOP/s"), "3 TFLOP/s");
    }

    #[test]
    fn readable_numbers() {
        assert_eq!(format_rate(66.93e12, "FLOP/s"), "66.93 TFLOP/s");
        assert_eq!(format_rate(234.27e9, "FLOP/s"), "234.27 GFLOP/s");
        assert_eq!(format_rate(3.352e12, "B/s"), "3.35 TB/s");
        assert_eq!(format_rate(0.0, "FLOP/s"), "0.00 FLOP/s");
        assert_eq!(format_rate(999.999e9, "FLOP/s"), "1000.00 GFLOP/s");
        assert_eq!(compact_rate(1.5e12, "B/s"), "1.5 TB/s");
        assert_eq!(format_intensity(0.08771, "FLOP"), "0.0877 FLOP/byte");
        assert_eq!(format_intensity(255.861, "FLOP"), "256 FLOP/byte");
        assert_eq!(format_intensity(19.97, "OP"), "20 OP/byte");
        assert_eq!(significant(19.97, 4), "19.97");
        assert_eq!(plain_number(0.001), "0.001");
        assert_eq!(plain_number(0.0001), "1e-4");
        assert_eq!(plain_number(25000.0), "25000");
        assert_eq!(log_bounds(1.0, 1000.0, 0.5), Some((-0.5, 3.5)));
        assert_eq!(log_bounds(0.0, 10.0, 0.5), None);
        assert_eq!(compact_value(500_000.0, "ns"), "500 us");
        assert_eq!(compact_value(1_500_000.0, "ns"), "1.5 ms");
        assert_eq!(compact_value(50.0, "%"), "50 %");
        let decade = GridMark {
            value: 6.0,
            step_size: 1.0,
        };
        assert_eq!(log_value_label(decade, &(5.0..=7.0), "ns"), "1 ms");
    }
}
