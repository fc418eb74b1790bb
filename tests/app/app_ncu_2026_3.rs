//! What ncu 2026.3 adds, in the app: a result's CUDA graph (its nodes and edges), PC samples,
//! device NVTX and metric-instances table on the Details page, and a merged report's origin on
//! the Session page. The report is built in `sightline_testkit::ncu_2026_3_report`.

use crate::common;

use sightline_testkit::ncu_2026_3_report as built;

use common::app_harness::{
    assert_label, assert_label_containing, assert_labels, open_ok, show_page,
};
use common::temp_dir;
use egui_kittest::kittest::Queryable;
use sightline_app::core::page_id::PageId;

#[test]
fn details_and_session_pages_show_what_2026_3_adds() {
    let dir = temp_dir("ncu_2026_3");
    let path = built::written(&dir);
    let mut h = open_ok(vec![path], false);
    assert_labels(
        &h,
        &[
            "Instances Demo",
            "CUDA Graph",
            "PM Sampling: PC Samples",
            "Device NVTX",
            "Subgrid Schedule",
            "Schedule: 0x1234",
            "kernelA -> copy",
            "Instance Values",
        ],
    );
    // The instances table: the instance's value and the values stored on it.
    let text = |v: f64| sightline_engine::model::format::value_text(v, "inst");
    assert_label(&h, &format!("{}; {}", text(1.5), text(2.5)));
    assert_label_containing(&h, "phase A");
    // The header names the section set the result was collected with.
    assert_label(&h, "Section set full");
    // What the reader passed over is listed under the report, behind a quiet count; what the
    // bodies hold is counted as they are read.
    h.get_by(|n| {
        n.label().is_some_and(|l| {
            l.ends_with(" notes") && l.chars().next().is_some_and(|c| c.is_ascii_digit())
        })
    })
    .click();
    h.run();
    assert_label_containing(&h, "ProfilerSection field 14 is not known to this reader");
    assert_label_containing(&h, "ProfileMetricValue field 9 is not known to this reader");
    show_page(&mut h, PageId::Session);
    assert_labels(
        &h,
        &[
            "Merged Report",
            "Merged From",
            "app (42) on hostA; other (43) on hostB",
        ],
    );
    std::fs::remove_dir_all(&dir).ok();
}
