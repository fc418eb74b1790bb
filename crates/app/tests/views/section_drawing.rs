//! Section bodies as the pages draw them, built without a window from the before/after pair
//! (`fixtures/pair`) and checked against the oracle: the stall reasons' bars largest first by
//! NVIDIA's values, the opcode mix's instances largest first, the speed-of-light breakdowns in
//! the order of the stored members' values, the memory chart's colour-scale marks, and the
//! paired bars of a comparison ordered by the current side.

use sightline_app::views::section_bodies::{ItemDrawing, PairedBodies, ResultBodies};
use sightline_engine::analysis::sections::bars::{BarOrder, PairedBarOrder};
use sightline_engine::analysis::sections::paired::{PairedContent, group_extending_at, pair};
use sightline_engine::analysis::sections::sol_breakdown::breakdown_members;
use sightline_engine::analysis::sections::{bodies_of, stalls, timeline};
use sightline_engine::model::names;
use sightline_engine::model::section_body::{BodyItem, ItemKind};
use sightline_testkit::{TruthResult, load_fixture, load_truth};

/// The launch of `saxpy_strided` in both reports (`pair/README.md`).
const SAXPY: usize = 1;

fn truth_value(t: &TruthResult, name: &str) -> f64 {
    t.metrics
        .get(name)
        .and_then(|m| m.value.as_f64())
        .unwrap_or_else(|| panic!("the oracle has no value of {name}"))
}

fn items(r: &ResultBodies) -> impl Iterator<Item = (&BodyItem, &ItemDrawing)> {
    r.bodies.iter().zip(&r.drawings).flat_map(|(s, d)| {
        s.bodies.iter().enumerate().flat_map(move |(b, body)| {
            body.items
                .iter()
                .enumerate()
                .map(move |(k, item)| (item, d.item(b, k)))
        })
    })
}

fn non_increasing(values: &[f64]) -> bool {
    values.windows(2).all(|w| w[0] >= w[1])
}

#[test]
fn stall_bars_are_largest_first_by_the_oracle_values() {
    let report = load_fixture("pair/after.ncu-rep.xz");
    let truth = load_truth("pair/after.truth.json.xz").swap_remove(SAXPY);
    let shown = ResultBodies::of(&report, SAXPY);
    let mut charts = 0;
    for (item, drawing) in items(&shown) {
        if item.kind != ItemKind::BarChart || !stalls::is_stall_chart(&item.label) {
            continue;
        }
        let ItemDrawing::Bars(BarOrder::Rows { order, max }) = drawing else {
            panic!("{}: drawn as {drawing:?}", item.label);
        };
        charts += 1;
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..item.rows.len()).collect::<Vec<_>>());
        let values: Vec<f64> = order
            .iter()
            .map(|&k| {
                let name = item.rows[k]
                    .metric
                    .name
                    .expect("a stall row names its metric");
                truth_value(&truth, name.as_str())
            })
            .collect();
        assert!(non_increasing(&values), "{}: {values:?}", item.label);
        assert!(
            *max >= values[0] && *max > 0.0,
            "{}: scale {max}",
            item.label
        );
    }
    assert!(charts > 0, "no stall chart");
}

#[test]
fn instanced_bars_and_the_details_drawings_of_a_result() {
    let report = load_fixture("pair/after.ncu-rep.xz");
    let shown = ResultBodies::of(&report, SAXPY);
    assert_eq!(shown.bodies.len(), shown.drawings.len());
    assert_eq!(shown.missing, None);
    let (mut instanced, mut tables, mut charts, mut timelines) = (0, 0, 0, 0);
    for (item, drawing) in items(&shown) {
        match drawing {
            ItemDrawing::Bars(BarOrder::Instanced(groups)) => {
                instanced += 1;
                assert_eq!(groups.len(), item.rows.len());
                for (row, g) in item.rows.iter().zip(groups) {
                    assert_eq!(g.bars.len(), row.metric.instances.len());
                    let values: Vec<f64> = g.bars.iter().map(|b| b.1).collect();
                    assert!(non_increasing(&values), "{}: {values:?}", row.label);
                    assert_eq!(values.first().copied().unwrap_or(0.0), g.max);
                    let sum: f64 = values.iter().sum();
                    let stored: f64 = row
                        .metric
                        .instances
                        .iter()
                        .filter_map(|i| i.value.as_f64())
                        .sum();
                    assert_eq!(sum, stored, "{}", row.label);
                }
            }
            ItemDrawing::MemoryTable(g) => {
                tables += 1;
                assert!(item.kind.memory_group().is_some());
                assert_eq!(
                    g,
                    &sightline_engine::analysis::sections::memory_table::grid(item)
                );
            }
            ItemDrawing::MemoryChart(m) => {
                charts += 1;
                let pcts: Vec<f64> = m.marks.iter().map(|k| k.pct).collect();
                assert!(non_increasing(&pcts), "{pcts:?}");
                assert!(m.active.links.iter().all(|l| l.is_active()));
                assert_eq!(
                    m.active.links.len(),
                    m.chart.links.iter().filter(|l| l.is_active()).count()
                );
                assert_eq!(m.active.peak_marks(), m.marks);
            }
            ItemDrawing::Timeline(t) => {
                timelines += 1;
                assert_eq!(t, &timeline::build(item));
            }
            ItemDrawing::Bars(BarOrder::Rows { .. }) | ItemDrawing::Plain => {}
        }
    }
    assert!(instanced > 0, "no instanced chart");
    assert!(tables > 0, "no memory table");
    assert_eq!(charts, 1);
    assert_eq!(timelines, 1);
}

#[test]
fn breakdown_members_are_largest_first_by_the_oracle_values() {
    let report = load_fixture("h100/kernels_basic.ncu-rep.xz");
    let truth = load_truth("h100/kernels_basic.truth.json.xz");
    for (r, t) in report.results.iter().zip(&truth) {
        for throughput in [names::SOL_COMPUTE, names::SOL_MEMORY] {
            let members = breakdown_members(r, throughput);
            let list = t.metrics[&format!("breakdown:{throughput}")]
                .value
                .as_str()
                .expect("a breakdown list")
                .to_string();
            assert_eq!(members.len(), list.split(',').count(), "{throughput}");
            let values: Vec<f64> = members.iter().map(|(m, _)| truth_value(t, m)).collect();
            assert!(non_increasing(&values), "{throughput}: {values:?}");
            // The stored values are ncu's, to the last digit the oracle's JSON keeps.
            for (m, v) in &members {
                let exact = truth_value(t, m);
                assert!(
                    (v - exact).abs() <= 1e-12 * exact.abs(),
                    "{m}: {v} vs {exact}"
                );
            }
        }
    }
}

#[test]
fn paired_stall_bars_follow_the_current_side() {
    let before = load_fixture("pair/before.ncu-rep.xz");
    let after = load_fixture("pair/after.ncu-rep.xz");
    let ta = load_truth("pair/after.truth.json.xz").swap_remove(SAXPY);
    let sections = pair(&bodies_of(&before, SAXPY), &bodies_of(&after, SAXPY));
    let groups = group_extending_at(&sections);
    let paired = PairedBodies::new(sections);
    assert_eq!(paired.groups, groups);
    let mut stall_charts = 0;
    for (s, d) in paired.sections.iter().zip(&paired.drawings) {
        for (b, body) in s.bodies.iter().enumerate() {
            for (k, item) in body.items.iter().enumerate() {
                let order = d.item(b, k);
                let is_bars = matches!(item.kind, ItemKind::BarChart | ItemKind::HistogramChart)
                    && matches!(item.content, PairedContent::Rows(_));
                assert_eq!(order.is_some(), is_bars, "{}", item.label);
                if !stalls::is_stall_chart(&item.label) || !is_bars {
                    continue;
                }
                let Some(PairedBarOrder::Rows { order, max }) = order else {
                    panic!("{}: {order:?}", item.label);
                };
                stall_charts += 1;
                let rows = item.rows();
                let current: Vec<f64> = order
                    .iter()
                    .map(|&i| {
                        let m = rows[i]
                            .metric
                            .as_deref()
                            .expect("a stall row names its metric");
                        truth_value(&ta, m)
                    })
                    .collect();
                assert!(non_increasing(&current), "{}: {current:?}", item.label);
                let data_max = rows.iter().map(|r| r.value.max()).fold(0.0, f64::max);
                assert!(*max >= data_max, "{}", item.label);
            }
        }
    }
    assert!(stall_charts > 0, "no paired stall chart");
}

#[test]
fn the_details_view_model_builds_once_per_result() {
    use sightline_app::core::ids::{ReportId, ResultRef};
    use sightline_app::views::section_bodies::SectionBodiesView;
    use std::sync::Arc;
    let report = load_fixture("pair/after.ncu-rep.xz");
    let at = |index| ResultRef {
        report: ReportId(1),
        index,
    };
    let mut view = SectionBodiesView::default();
    let first = view.of(&report, at(SAXPY));
    assert!(Arc::ptr_eq(&first, &view.of(&report, at(SAXPY))));
    assert_eq!(
        first.bodies.as_slice(),
        bodies_of(&report, SAXPY).as_slice()
    );
    let other = view.of(&report, at(0));
    assert!(!Arc::ptr_eq(&first, &other));
    assert_eq!(other.bodies.as_slice(), bodies_of(&report, 0).as_slice());
    view.release();
    assert!(!Arc::ptr_eq(&other, &view.of(&report, at(0))));
}
