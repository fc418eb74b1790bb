//! Line charts as inline SVG for the HTML pages: one line per series over runs (the trend) or
//! over numbers (a sweep's sizes), tick labels on both axes, a log scale on an axis whose values
//! span more than tenfold (so that small values do not lie on the axis), and x labels that never
//! overlap: turned when they do not fit side by side, thinned when even turned they would
//! touch, long ones cut, every one whole in a tooltip. The chart takes the page's width and no
//! more, so a page never scrolls sideways for it.

use crate::analysis::series::spans_decades;
use crate::model::format::value_text;
use crate::model::units::auto_scale;
use crate::output::html_page::escape;

/// The x axis of a chart.
#[derive(Debug, Clone, PartialEq)]
pub enum XAxis {
    /// Runs, evenly spaced, named by their labels.
    Runs(Vec<String>),
    /// Numbers placed by value (a sweep's sizes), with the axis's name (`N`).
    Numbers { name: String, values: Vec<f64> },
}

impl XAxis {
    fn len(&self) -> usize {
        match self {
            XAxis::Runs(labels) => labels.len(),
            XAxis::Numbers { values, .. } => values.len(),
        }
    }

    fn label(&self, i: usize) -> String {
        match self {
            XAxis::Runs(labels) => labels.get(i).cloned().unwrap_or_default(),
            XAxis::Numbers { values, .. } => {
                values.get(i).map_or(String::new(), |v| format!("{v}"))
            }
        }
    }
}

/// One line: a value per x (`None` where there is none; a value that is no number is a gap
/// too).
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    pub values: Vec<Option<f64>>,
}

/// A chart to draw.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    /// What the chart shows (its accessible name).
    pub title: String,
    pub x: XAxis,
    /// The base unit of the values (`ns`, `FLOP/s`).
    pub unit: String,
    pub series: Vec<Series>,
}

/// The width of the drawing, the plot's height and margins (SVG units: pixels at most).
const WIDTH: f64 = 960.0;
const PLOT_HEIGHT: f64 = 220.0;
const LEFT: f64 = 96.0;
const RIGHT: f64 = 28.0;
const TOP: f64 = 14.0;
/// The width of a character of the 12 px labels, a little more than most need.
const CHAR: f64 = 7.0;
/// The least distance between turned labels (their height along the axis).
const TURNED_GAP: f64 = 16.0;
/// Labels longer than this are cut when turned (the whole text is in their tooltip).
const LONGEST: usize = 18;
/// How many colours the series take in turn (`s0` to `s7` in the page's style).
const COLOURS: usize = 8;

/// A scale from values to one axis of the plot.
#[derive(Debug, Clone, Copy)]
struct Scale {
    lo: f64,
    hi: f64,
    log: bool,
}

impl Scale {
    fn of(values: &[f64], from_zero: bool) -> Scale {
        let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let log = lo > 0.0 && spans_decades(values.iter().copied());
        if log {
            return Scale {
                lo: 10f64.powf(lo.log10().floor()),
                hi: 10f64
                    .powf(hi.log10().ceil())
                    .max(10f64.powf(lo.log10().floor() + 1.0)),
                log,
            };
        }
        let lo = if from_zero { lo.min(0.0) } else { lo };
        let hi = if hi > lo { hi } else { lo + hi.abs().max(1.0) };
        let step = nice_step((hi - lo) / 4.0);
        Scale {
            lo: (lo / step).floor() * step,
            hi: (hi / step).ceil() * step,
            log,
        }
    }

    /// Where `v` lies between the ends, 0 to 1.
    fn at(&self, v: f64) -> f64 {
        let f = |x: f64| if self.log { x.log10() } else { x };
        let span = f(self.hi) - f(self.lo);
        if span > 0.0 {
            (f(v) - f(self.lo)) / span
        } else {
            0.5
        }
    }

    /// The values marked on the axis.
    fn ticks(&self) -> Vec<f64> {
        if self.log {
            let (a, b) = (
                self.lo.log10().round() as i32,
                self.hi.log10().round() as i32,
            );
            let few = b - a <= 2;
            let mut out = Vec::new();
            for e in a..=b {
                let decade = 10f64.powi(e);
                out.push(decade);
                if few && e < b {
                    out.extend([2.0 * decade, 5.0 * decade]);
                }
            }
            return out;
        }
        let step = nice_step((self.hi - self.lo) / 4.0);
        let n = ((self.hi - self.lo) / step).round() as i64;
        (0..=n).map(|i| self.lo + step * i as f64).collect()
    }
}

/// 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * magnitude)
}

/// A tick's label: scaled to its unit, at most three significant digits (`500 us`, `2 ms`,
/// `5 TFLOP/s`); also what the window's chart axes print.
pub fn tick_text(v: f64, unit: &str) -> String {
    if v == 0.0 {
        return "0".into();
    }
    let (shown, div) = auto_scale(unit, v);
    let x = v / div;
    let digits = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    let mut text = format!("{x:.digits$}");
    if text.contains('.') {
        text = text.trim_end_matches('0').trim_end_matches('.').to_string();
    }
    if shown.is_empty() {
        text
    } else {
        format!("{text} {shown}")
    }
}

/// A label cut to [`LONGEST`] characters, with `…`.
fn cut(label: &str) -> String {
    if label.chars().count() <= LONGEST {
        label.to_string()
    } else {
        let head: String = label.chars().take(LONGEST - 1).collect();
        format!("{head}\u{2026}")
    }
}

fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR
}

/// How the x labels are drawn: side by side, or turned (and which of them are shown).
struct XLabels {
    turned: bool,
    shown: Vec<bool>,
}

/// Side by side where every label fits between its neighbours; else turned, and thinned so
/// that turned labels keep [`TURNED_GAP`] apart (the first and the last always shown).
fn x_labels(xs: &[f64], labels: &[String]) -> XLabels {
    let fits = xs
        .windows(2)
        .zip(labels.windows(2))
        .all(|(x, l)| x[1] - x[0] >= (text_width(&l[0]) + text_width(&l[1])) / 2.0 + 8.0);
    if fits {
        return XLabels {
            turned: false,
            shown: vec![true; xs.len()],
        };
    }
    let mut shown = vec![false; xs.len()];
    let mut last: Option<f64> = None;
    for (i, &x) in xs.iter().enumerate() {
        if last.is_none_or(|l| x - l >= TURNED_GAP) {
            shown[i] = true;
            last = Some(x);
        }
    }
    // The last label is shown in place of the one before it when they would touch.
    if let Some(end) = xs.len().checked_sub(1)
        && !shown[end]
    {
        if let Some(prev) = (0..end).rev().find(|&i| shown[i])
            && prev > 0
        {
            shown[prev] = false;
        }
        shown[end] = true;
    }
    XLabels {
        turned: true,
        shown,
    }
}

/// The chart as inline SVG; a line of text instead where no series has a value.
pub fn line_chart(chart: &LineChart) -> String {
    let values: Vec<f64> = chart
        .series
        .iter()
        .flat_map(|s| s.values.iter().flatten().copied())
        .filter(|v| v.is_finite())
        .collect();
    if values.is_empty() || chart.x.len() == 0 {
        return format!(
            "<p class=\"muted\">{}: no value to chart.</p>\n",
            escape(&chart.title)
        );
    }
    let y = Scale::of(&values, true);
    let plot_width = WIDTH - LEFT - RIGHT;
    let n = chart.x.len();
    // Numbers are placed by value (on a log scale where they span more than tenfold), with a
    // margin so that the first and the last are not on the plot's edges; runs evenly.
    let x_scale = match &chart.x {
        XAxis::Numbers { values, .. } => {
            let lo = values.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            Some(Scale {
                lo,
                hi,
                log: lo > 0.0 && spans_decades(values.iter().copied()),
            })
        }
        XAxis::Runs(_) => None,
    };
    let xs: Vec<f64> = (0..n)
        .map(|i| {
            let share = match (&x_scale, &chart.x) {
                (Some(s), XAxis::Numbers { values, .. }) => {
                    0.04 + 0.92 * values.get(i).map_or(0.5, |&v| s.at(v))
                }
                _ if n == 1 => 0.5,
                _ => i as f64 / (n - 1) as f64,
            };
            LEFT + plot_width * share
        })
        .collect();
    let labels: Vec<String> = (0..n).map(|i| chart.x.label(i)).collect();
    let layout = x_labels(&xs, &labels);
    let drawn: Vec<String> = labels
        .iter()
        .map(|l| if layout.turned { cut(l) } else { l.clone() })
        .collect();
    let legend_rows = legend_rows(&chart.series);
    let legend_height = if chart.series.len() > 1 {
        18.0 * legend_rows.len() as f64 + 6.0
    } else {
        0.0
    };
    let top = TOP + legend_height;
    let bottom_axis = top + PLOT_HEIGHT;
    let label_room = if layout.turned {
        drawn
            .iter()
            .zip(&layout.shown)
            .filter(|(_, s)| **s)
            .map(|(l, _)| text_width(l))
            .fold(0.0, f64::max)
            * std::f64::consts::FRAC_1_SQRT_2
            + 24.0
    } else {
        24.0
    };
    let axis_title = match &chart.x {
        XAxis::Numbers { name, .. } => Some(format!(
            "{name}{}",
            if x_scale.is_some_and(|s| s.log) {
                " (log scale)"
            } else {
                ""
            }
        )),
        XAxis::Runs(_) => None,
    };
    let height = bottom_axis + label_room + if axis_title.is_some() { 20.0 } else { 4.0 };
    let y_at = |v: f64| bottom_axis - PLOT_HEIGHT * y.at(v);
    let mut svg = format!(
        "<svg class=\"line-chart\" role=\"img\" aria-label=\"{title}\" viewBox=\"0 0 {WIDTH} \
         {height:.0}\" width=\"100%\" style=\"max-width: {WIDTH}px\">\n<title>{title}</title>\n",
        title = escape(&chart.title),
    );
    if chart.series.len() > 1 {
        svg.push_str(&legend(&chart.series, &legend_rows));
    }
    // The y axis: a grid line and a label per tick.
    for tick in y.ticks() {
        let at = y_at(tick);
        svg.push_str(&format!(
            "<line class=\"grid\" x1=\"{LEFT}\" y1=\"{at:.1}\" x2=\"{:.1}\" y2=\"{at:.1}\"/>\
             <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>\n",
            WIDTH - RIGHT,
            LEFT - 8.0,
            at + 4.0,
            escape(&tick_text(tick, &chart.unit))
        ));
    }
    if y.log {
        svg.push_str(&format!(
            "<text class=\"note\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">log scale</text>\n",
            WIDTH - RIGHT,
            top - 4.0
        ));
    }
    svg.push_str(&format!(
        "<line class=\"axis\" x1=\"{LEFT}\" y1=\"{bottom_axis:.1}\" x2=\"{:.1}\" \
         y2=\"{bottom_axis:.1}\"/>\n",
        WIDTH - RIGHT
    ));
    // The x labels: whole in their tooltip.
    for (i, &x) in xs.iter().enumerate() {
        svg.push_str(&format!(
            "<line class=\"axis\" x1=\"{x:.1}\" y1=\"{bottom_axis:.1}\" x2=\"{x:.1}\" y2=\"{:.1}\"/>",
            bottom_axis + 4.0
        ));
        if !layout.shown[i] {
            continue;
        }
        let ty = bottom_axis + 16.0;
        let place = if layout.turned {
            format!(
                "x=\"{x:.1}\" y=\"{ty:.1}\" text-anchor=\"end\" transform=\"rotate(-45 {x:.1} {ty:.1})\""
            )
        } else {
            format!("x=\"{x:.1}\" y=\"{ty:.1}\" text-anchor=\"middle\"")
        };
        svg.push_str(&format!(
            "<text {place}><title>{}</title>{}</text>\n",
            escape(&labels[i]),
            escape(&drawn[i])
        ));
    }
    if let Some(title) = &axis_title {
        svg.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n",
            LEFT + plot_width / 2.0,
            height - 6.0,
            escape(title)
        ));
    }
    for (k, s) in chart.series.iter().enumerate() {
        svg.push_str(&series_svg(chart, s, k % COLOURS, &xs, &labels, &y_at));
    }
    svg.push_str("</svg>\n");
    svg
}

/// One series: its line (broken where a value is missing) and a point per value, each with
/// its value in a tooltip.
fn series_svg(
    chart: &LineChart,
    s: &Series,
    colour: usize,
    xs: &[f64],
    labels: &[String],
    y_at: &dyn Fn(f64) -> f64,
) -> String {
    let mut out = format!("<g class=\"s{colour}\">");
    let mut run: Vec<String> = Vec::new();
    let flush = |run: &mut Vec<String>, out: &mut String| {
        if run.len() > 1 {
            out.push_str(&format!(
                "<polyline fill=\"none\" stroke-width=\"2\" points=\"{}\"/>",
                run.join(" ")
            ));
        }
        run.clear();
    };
    for (i, v) in s.values.iter().enumerate() {
        match (v.filter(|v| v.is_finite()), xs.get(i)) {
            (Some(v), Some(&x)) => run.push(format!("{x:.1},{:.1}", y_at(v))),
            _ => flush(&mut run, &mut out),
        }
    }
    flush(&mut run, &mut out);
    for (i, v) in s.values.iter().enumerate() {
        let (Some(v), Some(&x)) = (v.filter(|v| v.is_finite()), xs.get(i)) else {
            continue;
        };
        let who = if chart.series.len() > 1 {
            format!("{} · ", s.name)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "<circle cx=\"{x:.1}\" cy=\"{:.1}\" r=\"3.5\"><title>{}{}: {}</title></circle>",
            y_at(v),
            escape(&who),
            escape(&labels[i]),
            escape(&value_text(v, &chart.unit))
        ));
    }
    out.push_str("</g>\n");
    out
}

/// The series named in rows that fit the width: each row's series by index.
fn legend_rows(series: &[Series]) -> Vec<Vec<usize>> {
    let mut rows: Vec<Vec<usize>> = vec![Vec::new()];
    let mut used = 0.0;
    for (i, s) in series.iter().enumerate() {
        let w = 34.0 + text_width(&cut(&s.name));
        if used + w > WIDTH - LEFT - RIGHT && rows.last().is_some_and(|r| !r.is_empty()) {
            rows.push(Vec::new());
            used = 0.0;
        }
        if let Some(row) = rows.last_mut() {
            row.push(i);
        }
        used += w;
    }
    rows
}

/// The legend: a short line in each series' colour and its name.
fn legend(series: &[Series], rows: &[Vec<usize>]) -> String {
    let mut out = String::new();
    for (r, row) in rows.iter().enumerate() {
        let y = TOP + 18.0 * r as f64 + 6.0;
        let mut x = LEFT;
        for &i in row {
            let name = cut(&series[i].name);
            out.push_str(&format!(
                "<g class=\"s{}\"><line x1=\"{x:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\" \
                 stroke-width=\"3\"/><text x=\"{:.1}\" y=\"{:.1}\"><title>{}</title>{}</text></g>\n",
                i % COLOURS,
                x + 20.0,
                x + 26.0,
                y + 4.0,
                escape(&series[i].name),
                escape(&name)
            ));
            x += 34.0 + text_width(&name);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(n: usize, label: impl Fn(usize) -> String, values: Vec<Option<f64>>) -> LineChart {
        LineChart {
            title: "t".into(),
            x: XAxis::Runs((0..n).map(label).collect()),
            unit: "ns".into(),
            series: vec![Series {
                name: "k".into(),
                values,
            }],
        }
    }

    #[test]
    fn values_spanning_more_than_tenfold_read_on_a_log_scale() {
        let wide = line_chart(&runs(
            3,
            |i| format!("v{i}"),
            vec![Some(2.3e6), Some(4.2e5), Some(1.0e5)],
        ));
        assert!(wide.contains("log scale"), "{wide}");
        assert!(
            wide.contains(">1 ms<") && wide.contains(">100 us<"),
            "{wide}"
        );
        let narrow = line_chart(&runs(
            3,
            |i| format!("v{i}"),
            vec![Some(2.3e6), Some(4.2e5), Some(3.0e5)],
        ));
        assert!(!narrow.contains("log scale"));
        assert!(narrow.contains(">0<"), "a linear scale starts at zero");
    }

    #[test]
    fn crowded_labels_are_turned_thinned_and_whole_in_their_tooltips() {
        let long = |i: usize| format!("nightly-2026-11-{i:02}-build-with-a-long-name");
        let chart = runs(60, long, (0..60).map(|i| Some(1.0 + i as f64)).collect());
        let svg = line_chart(&chart);
        assert!(svg.contains("rotate(-45"), "turned");
        let shown = svg.matches("rotate(-45").count();
        assert!(shown < 60 && shown > 10, "thinned: {shown}");
        // Every point names its run whole.
        assert!(svg.contains("<title>nightly-2026-11-59-build-with-a-long-name: "));
        assert!(
            svg.contains("nightly-2026-11-0\u{2026}"),
            "cut with an ellipsis"
        );
        // Few short labels stay side by side.
        let few = line_chart(&runs(5, |i| format!("v{i}"), vec![Some(1.0); 5]));
        assert!(!few.contains("rotate("));
        assert_eq!(few.matches("text-anchor=\"middle\">").count(), 5);
    }

    #[test]
    fn sizes_are_placed_by_value_with_a_line_per_series() {
        let chart = LineChart {
            title: "Duration".into(),
            x: XAxis::Numbers {
                name: "N".into(),
                values: vec![64.0, 256.0, 1024.0, 4096.0],
            },
            unit: "ns".into(),
            series: ["v1", "v3"]
                .iter()
                .map(|v| Series {
                    name: v.to_string(),
                    values: vec![Some(1e4), None, Some(1e5), Some(1e6)],
                })
                .collect(),
        };
        let svg = line_chart(&chart);
        assert!(svg.contains("N (log scale)"));
        assert!(svg.contains("class=\"s0\"") && svg.contains("class=\"s1\""));
        // The missing size breaks each line: two pieces of line, one of them a single point
        // (no polyline), so one polyline per series.
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert_eq!(svg.matches("<circle").count(), 6);
        assert!(svg.contains("<title>v3 · 4096: 1.00 ms</title>"), "{svg}");
    }
}
