//! What the Roofline page shows of the selected result, computed once per selection, baseline
//! set and architecture choice (and cached by the page): the result's roofline analysis, the
//! charts that have something to draw, and on each chart an arrow from every visible
//! baseline's achieved value to the result's.

use crate::analysis::roofline::{
    self, Chart, ChartKind, Roofline, RooflineContext, RooflineOptions,
};
use crate::core::actions::Action;
use crate::core::baselines::VisibleBaseline;
use crate::core::ids::{ReportId, ResultRef};
use crate::core::page_id::PageId;
use crate::core::workspace::Workspace;
use crate::model::Format;

/// An arrow from a baseline's achieved value to the selected result's, log10 coordinates.
#[derive(Debug, Clone, PartialEq)]
pub struct BaselineArrow {
    pub from: (f64, f64),
    pub to: (f64, f64),
    /// The baseline's colour, red, green, blue.
    pub color: [u8; 3],
    /// The change of performance (`+35% FLOP/s`).
    pub label: String,
    /// The baseline (`matmul_naive · ID 3`) and the achieved value it belongs to.
    pub baseline: String,
    pub point: String,
}

/// The selected result's roofline with its charts and arrows.
#[derive(Debug, Clone)]
pub struct RooflineScene {
    pub roof: Roofline,
    /// The charts with at least one ceiling or point, in [`ChartKind::ALL`] order.
    pub charts: Vec<(ChartKind, Chart)>,
    /// The baselines' arrows of each chart.
    pub arrows: Vec<(ChartKind, Vec<BaselineArrow>)>,
    /// The form the result was read from (what a chart it cannot draw needs depends on it).
    pub format: Format,
}

/// Where a chart of the roofline section is drawn, with the page's key.
pub fn drawn_on_the_page() -> String {
    format!(
        "{}.",
        Action::ShowPage(PageId::Roofline).with_key("The chart is drawn on the Roofline page")
    )
}

impl RooflineScene {
    /// A chart by kind.
    pub fn chart(&self, kind: ChartKind) -> Option<&Chart> {
        self.charts.iter().find(|(k, _)| *k == kind).map(|(_, c)| c)
    }

    /// Why the chart `kind`, which the result's roofline section has, is not drawn: a text
    /// or CSV form holds the chart's inputs as ncu printed them but not every metric it is
    /// drawn from; a native report that lacks them stores no peak for it.
    pub fn undrawn_note(&self, kind: ChartKind) -> String {
        let note = match (self.format, kind) {
            (Format::NcuRep, ChartKind::Tensor) => {
                "This result stores no tensor pipe peak to draw the chart from; its inputs are \
                 below."
            }
            (Format::NcuRep, _) => {
                "This result stores no peak or traffic to draw the chart from; its inputs are \
                 below."
            }
            (_, ChartKind::Tensor) => {
                "This form holds the chart's inputs below but not the tensor pipe metrics it is \
                 drawn from: the .ncu-rep report draws it."
            }
            _ => return drawn_on_the_page(),
        };
        note.to_string()
    }

    /// The arrows of a chart.
    pub fn arrows(&self, kind: ChartKind) -> &[BaselineArrow] {
        self.arrows
            .iter()
            .find(|(k, _)| *k == kind)
            .map_or(&[], |(_, a)| a.as_slice())
    }
}

/// What a scene is computed from; the scene is computed again when it changes.
#[derive(Debug, Clone, PartialEq)]
pub struct SceneKey {
    pub generation: u64,
    pub at: ResultRef,
    /// The visible baselines: result and colour.
    pub baselines: Vec<(ResultRef, [u8; 3], String)>,
    pub assumed_cc: Option<(u32, u32)>,
}

impl SceneKey {
    pub fn new(
        workspace: &Workspace,
        at: ResultRef,
        baselines: &[VisibleBaseline],
        options: &RooflineOptions,
    ) -> Self {
        SceneKey {
            generation: workspace.generation(),
            at,
            baselines: baselines
                .iter()
                .map(|b| (b.at, b.color, b.title.clone()))
                .collect(),
            assumed_cc: options.assumed_cc,
        }
    }
}

/// log10 of a positive finite value.
fn to_log(v: f64) -> Option<f64> {
    (v.is_finite() && v > 0.0).then(|| v.log10())
}

/// The change of an achieved performance as the arrows label it: `+35% FLOP/s`, `-4.2% FLOP/s`.
pub fn change_label(base_work: f64, current_work: f64, work_unit: &str) -> String {
    let pct = (current_work / base_work - 1.0) * 100.0;
    if !pct.is_finite() {
        return format!("{work_unit}/s changed");
    }
    if pct.abs() >= 10.0 {
        format!("{pct:+.0}% {work_unit}/s")
    } else {
        format!("{pct:+.1}% {work_unit}/s")
    }
}

/// The scene of result `at`; `context` gives a report's roofline context (the page caches
/// them). `None` when `at` is not open.
pub fn roofline_scene(
    workspace: &Workspace,
    at: ResultRef,
    baselines: &[VisibleBaseline],
    options: &RooflineOptions,
    context: &mut dyn FnMut(ReportId) -> RooflineContext,
) -> Option<RooflineScene> {
    let (open, result) = workspace.result(at)?;
    let roof = roofline::analyze(
        result,
        open.report.device_of(result),
        &context(at.report),
        options,
    );
    let charts: Vec<(ChartKind, Chart)> = ChartKind::ALL
        .into_iter()
        .map(|k| (k, roof.chart(k)))
        .filter(|(_, c)| !c.is_empty())
        .collect();
    let theirs: Vec<(&VisibleBaseline, Roofline)> = baselines
        .iter()
        .filter(|b| b.at != at)
        .filter_map(|b| {
            let (open, result) = workspace.result(b.at)?;
            let roof = roofline::analyze(
                result,
                open.report.device_of(result),
                &context(b.at.report),
                options,
            );
            Some((b, roof))
        })
        .collect();
    let arrows = charts
        .iter()
        .map(|(kind, chart)| {
            let list = theirs
                .iter()
                .flat_map(|(b, roof)| arrows_of(*kind, chart, b, roof))
                .collect();
            (*kind, list)
        })
        .collect();
    Some(RooflineScene {
        roof,
        charts,
        arrows,
        format: open.report.format,
    })
}

/// One arrow per achieved value both the chart and the baseline have.
fn arrows_of(
    kind: ChartKind,
    chart: &Chart,
    b: &VisibleBaseline,
    roof: &Roofline,
) -> Vec<BaselineArrow> {
    let theirs = roof.chart(kind);
    chart
        .points
        .iter()
        .filter_map(|p| {
            let q = theirs.points.iter().find(|q| q.label == p.label)?;
            Some(BaselineArrow {
                from: (to_log(q.intensity)?, to_log(q.work)?),
                to: (to_log(p.intensity)?, to_log(p.work)?),
                color: b.color,
                label: change_label(q.work, p.work, chart.work_unit),
                baseline: b.title.clone(),
                point: p.label.clone(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn change_labels_round_by_size() {
        assert_eq!(change_label(100.0, 135.0, "FLOP"), "+35% FLOP/s");
        assert_eq!(change_label(100.0, 95.8, "FLOP"), "-4.2% FLOP/s");
        assert_eq!(change_label(0.0, 1.0, "FLOP"), "FLOP/s changed");
    }
}
