//! Ranges and graphs in the app: rows named with their kind, their sections on the Details
//! page; a report's warnings behind a badge; same-named files told apart, in opening order.

use crate::common;

use common::app_harness::{
    assert_label, assert_labels, has_label, has_label_containing, open_ok, open_settled,
    report_names,
};
use common::{fixture_bytes, temp_dir};
use egui_kittest::kittest::Queryable;

/// Writes a fixture (decompressed) to `dir/sub/name`.
fn fixture_at(dir: &std::path::Path, sub: &str, name: &str, rel: &str) -> std::path::PathBuf {
    let folder = dir.join(sub);
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join(name);
    std::fs::write(&path, fixture_bytes(rel)).unwrap();
    path
}

#[test]
fn ranges_and_graphs_show_with_their_kind_and_sections() {
    let dir = temp_dir("kinds");
    // Both reports are named report.ncu-rep; the graph's is opened first.
    let graph = fixture_at(&dir, "b", "report.ncu-rep", "graph/graph_graph.ncu-rep.xz");
    let range = fixture_at(&dir, "a", "report.ncu-rep", "range/range_nvtx.ncu-rep.xz");
    let h = open_ok(vec![graph, range], false);
    assert_eq!(report_names(&h), ["b/report.ncu-rep", "a/report.ncu-rep"]);
    assert_labels(&h, &["init", "region (range)", "a/report.ncu-rep"]);
    assert_eq!(h.query_all_by_label("graph (graph)").count(), 2);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_range_result_shows_its_sections_and_rules() {
    let dir = temp_dir("range_details");
    let range = fixture_at(
        &dir,
        "x",
        "range.ncu-rep",
        "range/range_profiler.ncu-rep.xz",
    );
    let h = open_ok(vec![range], false);
    // The first range is selected: its sections as ncu's details page lists them.
    assert_labels(
        &h,
        &[
            "GPU Speed Of Light Throughput",
            "Launch Statistics",
            "Occupancy",
            "Achieved Occupancy",
        ],
    );
    assert!(has_label_containing(
        &h,
        "This workload exhibits low compute throughput"
    ));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn an_app_range_reads_apart_from_a_range_and_shows_only_achieved_occupancy() {
    let dir = temp_dir("app_range");
    let app_range = fixture_at(&dir, "x", "apprange.ncu-rep", "range/apprange.ncu-rep.xz");
    let range = fixture_at(
        &dir,
        "y",
        "range.ncu-rep",
        "range/range_profiler.ncu-rep.xz",
    );
    let mut h = open_ok(vec![app_range, range], false);
    assert!(has_label_containing(&h, "(app-range)"));
    assert!(has_label_containing(&h, "(range)"));
    // ncu shows a range's achieved occupancy only: its launch figures are one launch's of many.
    h.state_mut().settings_mut().page = sightline_ui::PageId::Occupancy;
    h.run();
    assert_label(&h, "Achieved Occupancy");
    assert!(has_label_containing(&h, "spans many kernel launches"));
    assert!(!has_label(&h, "Theoretical Occupancy"));
    assert!(!has_label(&h, "Limiter"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn warnings_sit_behind_a_badge_that_opens_their_list() {
    let dir = temp_dir("warnings");
    let text = fixture_bytes("h100/kernels_basic.details.txt");
    let cut = dir.join("cut.txt");
    std::fs::write(&cut, &text[..text.len() * 2 / 3]).unwrap();
    let mut h = open_settled(vec![cut]);
    let warnings = h.state().workspace().reports()[0].report.warnings.clone();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(
        !has_label(&h, warnings[0].as_str()),
        "the list starts closed"
    );
    h.get_by_label("1 warning").click();
    h.run();
    assert_label(&h, warnings[0].as_str());
    std::fs::remove_dir_all(&dir).ok();
}
