//! Arrows from each visible baseline's achieved point to the selected result's.

use super::*;

/// One arrow per visible baseline and achieved value both have on this chart.
pub(super) fn baseline_arrows(
    cx: &PageContext<'_>,
    state: &mut RooflineViewState,
    options: &RooflineOptions,
    kind: ChartKind,
    chart: &Chart,
) -> Vec<BaselineArrow> {
    let mut out = Vec::new();
    for b in cx.baselines.iter().filter(|b| b.at != cx.at) {
        out.extend(arrows_of(cx, state, options, kind, chart, b));
    }
    out
}

pub(super) fn arrows_of(
    cx: &PageContext<'_>,
    state: &mut RooflineViewState,
    options: &RooflineOptions,
    kind: ChartKind,
    chart: &Chart,
    b: &VisibleBaseline,
) -> Vec<BaselineArrow> {
    let Some((open, result)) = cx.workspace.result(b.at) else {
        return Vec::new();
    };
    let context = state.context(cx.workspace, b.at.report);
    let roof = roofline::analyze(result, open.report.device_of(result), &context, options);
    let theirs = roof.chart(kind);
    chart
        .points
        .iter()
        .filter_map(|p| {
            let q = theirs.points.iter().find(|q| q.label == p.label)?;
            Some(BaselineArrow {
                from: (to_log(q.intensity)?, to_log(q.work)?),
                to: (to_log(p.intensity)?, to_log(p.work)?),
                color: crate::ui::widgets::theme::rgb(b.color),
                label: change_label(q.work, p.work, chart.work_unit),
                baseline: b.title.clone(),
                point: p.label.clone(),
            })
        })
        .collect()
}
