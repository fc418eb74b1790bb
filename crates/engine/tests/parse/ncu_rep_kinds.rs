//! Range, application-range and whole-graph results, metrics-only and multi-process reports read
//! from `.ncu-rep` against NVIDIA's report module (every value exact) and the details page.

use sightline_engine::model::{Dim3, ResultKind};
use sightline_testkit::KIND_REPORTS as REPORTS;
use sightline_testkit::oracle::{compare_with_details, compare_with_truth, parse_fixture};

fn report_path(stem: &str) -> String {
    format!("{stem}.ncu-rep.xz")
}

fn details_path(stem: &str) -> String {
    let plain = format!("{stem}.details.txt");
    if sightline_testkit::fixture_path(&plain).exists() {
        plain
    } else {
        format!("{plain}.xz")
    }
}

#[test]
fn every_value_of_every_report_equals_the_oracle() {
    for stem in REPORTS {
        let compared = compare_with_truth(&report_path(stem), &format!("{stem}.truth.json.xz"));
        // At least every metric of one result (534 to 563 each).
        assert!(compared > 500, "{stem}: only {compared} values compared");
    }
}

#[test]
fn sections_and_rules_match_the_details_page() {
    for stem in REPORTS {
        let compared = compare_with_details(&report_path(stem), &details_path(stem));
        // A metrics-only run has no sections at all.
        if stem != "variants/metrics_only" {
            assert!(compared > 20, "{stem}: only {compared} rows compared");
        }
    }
}

#[test]
fn range_results_have_their_kind_and_nvtx_path() {
    let profiler = parse_fixture(&report_path("range/range_profiler"));
    assert_eq!(profiler.results.len(), 2);
    for r in &profiler.results {
        assert_eq!(r.kind, ResultKind::Range);
        assert_eq!(r.display_name(), "range");
        assert_eq!((r.grid, r.block), (None, None));
        assert_eq!(r.context, Some(1));
    }
    let nvtx = parse_fixture(&report_path("range/range_nvtx"));
    assert_eq!(nvtx.results.len(), 1);
    assert_eq!(nvtx.results[0].display_name(), "region");
    let app = parse_fixture(&report_path("range/apprange"));
    assert!(app.results.iter().all(|r| r.kind == ResultKind::Range));
    let kernels = parse_fixture(&report_path("range/range_kernels"));
    assert!(kernels.results.iter().all(|r| r.kind == ResultKind::Kernel));
}

#[test]
fn graph_results_follow_the_kernel_in_file_order() {
    let report = parse_fixture(&report_path("graph/graph_graph"));
    let kinds: Vec<ResultKind> = report.results.iter().map(|r| r.kind).collect();
    assert_eq!(
        kinds,
        [ResultKind::Kernel, ResultKind::Graph, ResultKind::Graph]
    );
    let ids: Vec<u64> = report.results.iter().map(|r| r.id).collect();
    assert_eq!(ids, [0, 1, 2]);
    // The details page prints a graph's shape as `graph (4096, 1, 1)x(256, 1, 1)`.
    let graph = &report.results[1];
    assert_eq!(graph.display_name(), "graph");
    assert_eq!(
        graph.grid,
        Some(Dim3 {
            x: 4096,
            y: 1,
            z: 1
        })
    );
    assert_eq!(graph.block, Some(Dim3 { x: 256, y: 1, z: 1 }));
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
}
