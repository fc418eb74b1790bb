//! What a careful reader notices, in the window (issue 49), driven headless with egui_kittest:
//! a why-list line that only the baseline has opens the baseline's Source page.

use crate::common;

use common::app_harness::{
    AppHarness, has_label_containing, open_in_order, options, show_page, step_until, until_compared,
};
use common::{fixture_file, temp_dir};
use egui_kittest::kittest::{NodeT, Queryable};
use sightline::app::core::ids::ResultRef;
use sightline::ui::{PageId, SightlineApp};

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
