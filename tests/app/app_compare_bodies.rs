//! The section bodies of the Compare page, driven headless with egui_kittest: on the
//! before/after pair, `saxpy_strided` against its baseline shows every memory table cell with
//! the current value and its change, and the tables of both sides, as the oracle has them.

use crate::common;

use common::app_harness::{AppHarness, assert_label, open_pair, show_page};
use common::{load_truth, temp_dir};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use sightline_app::core::ids::ResultRef;
use sightline_engine::model::units::format_value;
use sightline_ui::PageId;

/// `saxpy_strided`, launch 1 of both reports.
const SAXPY: usize = 1;

fn at(h: &AppHarness, name: &str, index: usize) -> ResultRef {
    let id = h
        .state()
        .workspace()
        .reports()
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("{name} is not open"))
        .id;
    ResultRef { report: id, index }
}

#[test]
fn compare_page_shows_each_body_with_both_sides() {
    let dir = temp_dir("compare_bodies");
    let mut h = open_pair(&dir);
    let base = at(&h, "before.ncu-rep", SAXPY);
    h.state_mut().select(Some(base));
    h.run();
    h.get_by_role_and_label(Role::Button, "Set as baseline")
        .click();
    h.run();
    let current = at(&h, "after.ncu-rep", SAXPY);
    h.state_mut().select(Some(current));
    h.run();
    show_page(&mut h, PageId::Compare);
    h.set_size(egui::vec2(1500.0, 20000.0));
    h.run();
    h.run();
    assert_label(&h, "Section bodies");
    assert_label(&h, "Memory Workload Analysis Tables");

    let (tb, ta) = (
        &load_truth("pair/before.truth.json.xz")[SAXPY],
        &load_truth("pair/after.truth.json.xz")[SAXPY],
    );
    // A memory table cell: the current value (a count, without its unit, which the column
    // names) and the change.
    let name = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum";
    let (b, a) = (tb.number(name), ta.number(name));
    assert_label(&h, &format_value(a, ""));
    assert_label(&h, &format!("{:+.2}%", (a - b) / b * 100.0));
    // A table (the workload distribution) with both sides' values.
    assert_label(&h, "Workload Distribution");
    let name = "sm__cycles_active.max";
    assert_label(&h, &format_value(tb.number(name), "cycle"));
    assert_label(&h, &format_value(ta.number(name), "cycle"));
    let _ = std::fs::remove_dir_all(&dir);
}
