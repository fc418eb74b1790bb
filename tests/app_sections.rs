//! Section bodies on the Details page, driven headless with egui_kittest: the charts and
//! tables of a native report and of its `--print-details all` text export.

#![cfg(feature = "app")]

mod common;

use common::app_harness::{assert_label, fixture_file, has_label, open_ok, show_page, temp_dir};
use sightline::ui::PageId;

/// Item labels the Details page shows for the first kernel (vector_add) of `kernels_full`.
const ITEMS: [&str; 5] = [
    "Warp State (All Cycles)",
    "Warps Per Scheduler",
    "Pipe Utilization (% of active cycles)",
    "Memory Chart",
    "Device Memory",
];

#[test]
fn details_page_shows_the_report_bodies() {
    let dir = temp_dir("sections_rep");
    let file = fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let mut h = open_ok(vec![file], false);
    show_page(&mut h, PageId::Details);
    for label in ITEMS {
        assert_label(&h, label);
    }
    // Memory tables laid out by access type.
    assert_label(&h, "Global Loads");
    // The memory chart's label switch.
    assert_label(&h, "Transfer Size");
}

#[test]
fn details_page_shows_the_bodies_of_the_text_export() {
    let dir = temp_dir("sections_text");
    let file = fixture_file(&dir, "h100/kernels_full.details_all.txt.xz");
    let mut h = open_ok(vec![file], false);
    show_page(&mut h, PageId::Details);
    for label in ITEMS {
        assert_label(&h, label);
    }
    assert!(has_label(&h, "Global Loads"));
}
