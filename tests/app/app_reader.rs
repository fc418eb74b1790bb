//! What a careful reader notices, in the window (issue 49), driven headless with egui_kittest:
//! a why-list line that only the baseline has opens the baseline's Source page; nothing is
//! called won or better before the direction of a report comparison is confirmed, nor won
//! beside "neutral" for two different kernels; a renamed pair's Kernel cell names both
//! kernels; the tensor roofline of a Hopper `--set full` report is drawn; report labels are
//! whole at the table's first width; the NVTX column and the `nvtx:` filter.

use crate::common;

use common::app_harness::{
    AppHarness, assert_label, assert_label_containing, has_label, has_label_containing,
    open_in_order, open_ok, options, show_page, step_until, type_into, until_compared,
};
use common::{fixture_file, fixture_path, temp_dir};
use egui::accesskit::Role;
use egui_kittest::kittest::{NodeT, Queryable};
use sightline_app::core::ids::ResultRef;
use sightline_ui::{Command, PageId, SightlineApp};

/// The text of a node: its label, or a text widget's value.
fn text_of(n: &egui_kittest::Node<'_>) -> Option<String> {
    let node = n.accesskit_node();
    node.label().or_else(|| node.value())
}

/// The labels on screen that contain `part`.
fn labels_containing(h: &AppHarness, part: &str) -> Vec<String> {
    h.query_all_by_label_contains(part)
        .filter_map(|n| text_of(&n))
        .collect()
}

/// The result at `index` of the open report named `name`.
fn result_in(h: &AppHarness, name: &str, index: usize) -> ResultRef {
    let report = h
        .state()
        .workspace()
        .reports()
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("{name} is not open"))
        .id;
    ResultRef { report, index }
}

/// Opens the Report vs report row of `function` (its side-by-side comparison).
fn open_pair_row(h: &mut AppHarness, function: &str) {
    show_page(h, PageId::ReportDiff);
    let prefix = format!("{function}(");
    // The lowest: the header above shows the selected result's name too.
    h.query_all_by_label_contains(&prefix)
        .filter(|n| text_of(n).is_some_and(|l| l.starts_with(&prefix)))
        .max_by(|a, b| a.rect().center().y.total_cmp(&b.rect().center().y))
        .unwrap_or_else(|| panic!("no row of {function}"))
        .click();
    until_compared(h);
    assert_eq!(h.state().settings().page, PageId::Compare);
}

#[test]
fn a_why_line_that_went_away_opens_the_baselines_source_page_there() {
    let dir = temp_dir("reader_why_baseline_line");
    let files = [
        fixture_file(&dir, "pair_lines/before.ncu-rep.xz"),
        fixture_file(&dir, "pair_lines/after.ncu-rep.xz"),
    ];
    let mut h = open_in_order(
        SightlineApp::new(None, options(Vec::new(), false)),
        &files,
        false,
    );
    let (before, after) = (
        result_in(&h, "before.ncu-rep", 0),
        result_in(&h, "after.ncu-rep", 0),
    );
    h.state_mut().select(Some(after));
    h.run();
    // saxpy_strided got faster: its scattered index (a line of the baseline's code only) lost
    // the stalls and the traffic.
    open_pair_row(&mut h, "saxpy_strided");
    let gone: Vec<String> = labels_containing(&h, "(baseline)")
        .into_iter()
        .filter(|l| l.contains(" % at pair.cu:"))
        .collect();
    assert!(!gone.is_empty(), "no link to a line only the baseline has");
    let line: u32 = gone[0]
        .rsplit(':')
        .next()
        .and_then(|l| l.trim_end_matches(" (baseline)").parse().ok())
        .unwrap_or_else(|| panic!("no line number in {:?}", gone[0]));
    h.get_all_by_label(&gone[0])
        .next()
        .expect("the link")
        .click();
    h.step();
    assert!(
        step_until(&mut h, common::app_harness::WAIT_TIMEOUT, |h| {
            has_label_containing(h, &format!("SASS of line {line} ("))
        }),
        "the Source page did not open at line {line}"
    );
    // The baseline's Source page: the line is in its code, not the current one's.
    assert_eq!(h.state().settings().page, PageId::Source);
    assert_eq!(h.state().selection(), Some(before));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether a label calls time won or lost (`12.00 us won`, `(−4.1%, 3.10 ms lost)`).
fn says_won_or_lost(label: &str) -> bool {
    [" won", " lost"]
        .iter()
        .any(|w| label.ends_with(w) || label.contains(&format!("{w})")))
}

#[test]
fn before_the_direction_is_confirmed_nothing_is_won_or_better() {
    let dir = temp_dir("reader_unconfirmed");
    // The newer run opened first: its capture time disagrees with the order given.
    let files = [
        fixture_file(&dir, "pair/after.ncu-rep.xz"),
        fixture_file(&dir, "pair/before.ncu-rep.xz"),
    ];
    let mut h = open_in_order(
        SightlineApp::new(None, options(Vec::new(), false)),
        &files,
        false,
    );
    let first = result_in(&h, "after.ncu-rep", 0);
    h.state_mut().select(Some(first));
    show_page(&mut h, PageId::ReportDiff);
    assert_label_containing(&h, "Direction unconfirmed");
    let judged = |h: &AppHarness| {
        let words: Vec<String> = labels_containing(h, " won")
            .into_iter()
            .chain(labels_containing(h, " lost"))
            .filter(|l| says_won_or_lost(l))
            .chain(["better", "worse"].iter().flat_map(|w| {
                h.query_all_by_label(w)
                    .filter_map(|n| text_of(&n))
                    .collect::<Vec<_>>()
            }))
            .collect();
        words
    };
    assert_eq!(judged(&h), Vec::<String>::new());
    // The totals and rows say which way the time went, and the verdicts are neutral.
    assert!(
        labels_containing(&h, "Matched (")
            .iter()
            .any(|l| l.ends_with(" longer)") || l.ends_with(" shorter)")),
        "{:?}",
        labels_containing(&h, "Matched (")
    );
    assert!(has_label(&h, "neutral"));
    assert_label_containing(&h, "changed beyond");
    // Once the order is kept, the same page calls the changes won or lost.
    h.get_by_label("Keep this order").click();
    until_compared(&mut h);
    assert!(!has_label_containing(&h, "Direction unconfirmed"));
    let words = judged(&h);
    assert!(
        words.iter().any(|w| says_won_or_lost(w)),
        "nothing won or lost once confirmed: {words:?}"
    );
    assert!(words.iter().any(|w| w == "better" || w == "worse"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn two_different_kernels_say_which_way_the_time_went_but_not_won() {
    let mut h = open_ok(vec![fixture_path("h100/kernels_basic.details.txt")], false);
    let report = h.state().workspace().reports()[0].id;
    // matmul_naive as the baseline of matmul_tiled<32>: other kernels, no pair.
    h.state_mut()
        .handle(Command::SetBaseline(ResultRef { report, index: 3 }));
    h.state_mut().select(Some(ResultRef { report, index: 4 }));
    h.run();
    show_page(&mut h, PageId::Compare);
    assert_label_containing(&h, "their changes are shown without a verdict");
    let headline: Vec<String> = labels_containing(&h, "Duration ")
        .into_iter()
        .filter(|l| l.contains(", was "))
        .collect();
    assert_eq!(headline.len(), 1, "{headline:?}");
    // The tiled kernel took less time: shorter, not won.
    assert!(headline[0].ends_with(" shorter"), "{}", headline[0]);
    assert!(!says_won_or_lost(&headline[0]), "{}", headline[0]);
    assert_label(&h, "neutral");
}

#[test]
fn a_renamed_pair_shows_both_names_and_each_whole_on_hover() {
    let dir = temp_dir("reader_renamed_cell");
    let files = [
        fixture_file(&dir, "renames/before.ncu-rep.xz"),
        fixture_file(&dir, "renames/after.ncu-rep.xz"),
    ];
    let mut h = open_in_order(
        SightlineApp::new(None, options(Vec::new(), false)),
        &files,
        false,
    );
    let first = result_in(&h, "before.ncu-rep", 0);
    h.state_mut().select(Some(first));
    show_page(&mut h, PageId::ReportDiff);
    let full = |report: &str, index: usize| {
        let at = result_in(&h, report, index);
        let (_, r) = h.state().workspace().result(at).expect("result");
        r.name.demangled.clone()
    };
    // naive_gemm (launches 1 and 2) became sgemm_global_mem_coalesce.
    let (old, new) = (full("before.ncu-rep", 1), full("after.ncu-rep", 1));
    assert!(old.starts_with("naive_gemm("), "{old}");
    assert!(new.starts_with("sgemm_global_mem_coalesce("), "{new}");
    let cells = labels_containing(&h, "naive_gemm → sgemm_global_mem_coalesce");
    assert_eq!(cells.len(), 2, "one cell per launch: {cells:?}");
    // The name change is the cell's start; what else differs follows.
    assert!(cells[0].starts_with("naive_gemm → sgemm_global_mem_coalesce"));
    assert!(!cells[0].contains("name changed"), "{}", cells[0]);
    h.query_all_by_label(&cells[0])
        .next()
        .expect("the cell")
        .hover();
    h.run();
    assert_label_containing(&h, &format!("{old}\n→ {new}"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// What the roofline sections of `file`'s first result say next to their charts, once the
/// tensor chart is in view.
fn roofline_notes(file: std::path::PathBuf) -> (AppHarness, usize, usize) {
    let mut h = open_ok(vec![file], false);
    show_page(&mut h, PageId::Details);
    h.query_all_by_label("Tensor Core Operations Roofline")
        .next()
        .expect("the tensor roofline section's chart")
        .scroll_to_me();
    h.run();
    let charts = labels_containing(&h, "Chart inputs (").len();
    let drawn = h
        .query_all_by_label(
            "Tables, zoom and every result of the report: the Roofline page (Ctrl+4).",
        )
        .count();
    (h, charts, drawn)
}

#[test]
fn the_tensor_roofline_of_a_hopper_full_report_is_drawn_without_tensor_work() {
    let dir = temp_dir("reader_tensor_roofline");
    // vector_add: no tensor work, every datapath's peak stored.
    let (h, charts, drawn) = roofline_notes(fixture_file(&dir, "h100/kernels_full.ncu-rep.xz"));
    assert!(charts >= 3, "{charts} roofline charts");
    assert_eq!(drawn, charts, "every roofline chart of the report drawn");
    assert!(!has_label_containing(&h, "draws it"));
    assert!(!has_label_containing(&h, "stores no tensor pipe peak"));
    // The Roofline page offers it among its charts too.
    let mut h = h;
    show_page(&mut h, PageId::Roofline);
    h.get_by_role_and_label(Role::ComboBox, "Chart").click();
    h.run();
    assert!(has_label(&h, "Tensor Core Operations Roofline"));
    // The text export holds the inputs only: the note says where the chart is drawn.
    let (h, charts, drawn) =
        roofline_notes(fixture_file(&dir, "h100/kernels_full.details_all.txt.xz"));
    assert!(drawn < charts, "{drawn} of {charts}");
    assert!(has_label_containing(&h, "the .ncu-rep report draws it"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Whether a label `value` is in the results table on the row of the label `row` (the same
/// height, not left of the table's Report column).
fn on_row_of(h: &AppHarness, row: &str, value: &str) -> bool {
    let table_left = h.get_by_label("Report").rect().left();
    let rows: Vec<egui::Rect> = h.query_all_by_label(row).map(|n| n.rect()).collect();
    h.query_all_by_label(value).any(|n| {
        let (y, left) = (n.rect().center().y, n.rect().left());
        left >= table_left - 1.0 && rows.iter().any(|r| y > r.top() && y < r.bottom())
    })
}

#[test]
fn report_labels_are_whole_at_the_tables_first_width() {
    let dir = temp_dir("reader_report_labels");
    // A native report: its label without the form's ending.
    let h = open_ok(
        vec![fixture_file(&dir, "h100/kernels_full.ncu-rep.xz")],
        false,
    );
    assert!(on_row_of(&h, "strided_copy", "kernels_full"));
    // A text export's whole name, wider than the column's old first width.
    let h = open_ok(vec![fixture_path("h100/kernels_full.details.txt")], false);
    assert!(on_row_of(&h, "strided_copy", "kernels_full.details.txt"));
    assert!(
        !labels_containing(&h, "…")
            .iter()
            .any(|l| l.starts_with("kernels_")),
        "a report label cut in the middle"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_nvtx_column_and_filter_read_a_run_range_by_range() {
    let dir = temp_dir("reader_nvtx");
    let mut h = open_ok(
        vec![fixture_file(&dir, "h100/kernels_full.ncu-rep.xz")],
        false,
    );
    // Each kernel's NVTX range (kernels.cu pushes elementwise, gemm, reduce and conv).
    assert!(has_label(&h, "NVTX"), "no NVTX column");
    assert!(on_row_of(&h, "strided_copy", "elementwise"));
    assert!(on_row_of(&h, "matmul_naive", "gemm"));
    assert!(on_row_of(&h, "reduce_sequential", "reduce"));
    type_into(&mut h, "Filter kernels", "nvtx:gemm");
    assert_label(&h, "3 of 13 results");
    for kernel in ["matmul_naive", "matmul_tiled<32>", "dgemm_naive"] {
        assert_label(&h, kernel);
    }
    assert!(!has_label(&h, "vector_add"));
    // With a name: both hold.
    type_into(&mut h, "Filter kernels", " tiled");
    assert_label(&h, "1 of 13 results");
    assert_label(&h, "matmul_tiled<32>");
    // A report without NVTX has no such column.
    let h = open_ok(vec![fixture_path("h100/kernels_basic.details.txt")], false);
    assert!(!has_label(&h, "NVTX"));
    let _ = std::fs::remove_dir_all(&dir);
}
