//! Comparison in the desktop app against baselines, driven headless with egui_kittest:
//! baselines set from the header and the results table's context menu, shown, hidden and kept
//! across restarts; the side-by-side view (Δ, Δ%, verdict, several baselines with z, a
//! compared value's copy menu); CSV and Markdown export; arrows on the roofline; Ctrl+wheel
//! over a plot; the image snapshot of the side-by-side view. Report vs report is in
//! `app_compare_reports`, which shares the helpers here.

use crate::app_compare_reports::{has_label_containing_text, open_renames};
use crate::common;

use common::app_harness::{
    AppHarness, MemoryStorage, WINDOW, assert_in_row, assert_label, assert_label_containing,
    assert_labels, harness_with, has_label, in_row, open_in_order, options, settle_ok, show_page,
    until_compared,
};
use common::{fixture_bytes, fixture_file, fixture_path, load_fixture, temp_dir};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use sightline_app::core::ids::{ReportId, ResultRef};
use sightline_engine::model::names;
use sightline_ui::{Command, OpenRequest, PageId, SightlineApp, pages::roofline};

pub(crate) const BASIC: &str = "h100/kernels_basic.details.txt";
pub(crate) const FULL: &str = "h100/kernels_full.details.txt";
pub(crate) const BASIC_NAME: &str = "kernels_basic.details.txt";
pub(crate) const FULL_NAME: &str = "kernels_full.details.txt";
/// Result indices (and IDs) of the run.
const MATMUL_NAIVE: usize = 3;
pub(crate) const MATMUL_TILED: usize = 4;

/// The basic and the full text report of the run, in that order.
pub(crate) fn open_both(snapshots: bool) -> AppHarness {
    let app = SightlineApp::new(None, options(Vec::new(), false));
    open_in_order(app, &[fixture_path(BASIC), fixture_path(FULL)], snapshots)
}

/// The open report of that name.
pub(crate) fn report_id(h: &AppHarness, name: &str) -> ReportId {
    h.state()
        .workspace()
        .reports()
        .iter()
        .find(|r| r.name == name)
        .unwrap_or_else(|| panic!("{name} is not open"))
        .id
}

pub(crate) fn result_at(h: &AppHarness, report: &str, index: usize) -> ResultRef {
    ResultRef {
        report: report_id(h, report),
        index,
    }
}

fn select(h: &mut AppHarness, at: ResultRef) {
    h.state_mut().select(Some(at));
    h.run();
}

/// Selects a result and makes it a baseline with the header's button.
fn set_baseline_from_header(h: &mut AppHarness, at: ResultRef) {
    select(h, at);
    h.get_by_role_and_label(Role::Button, "Set as baseline")
        .click();
    h.run();
}

/// Selects a result of the report named `report`.
pub(crate) fn select_in(h: &mut AppHarness, report: &str, index: usize) {
    let at = result_at(h, report, index);
    select(h, at);
}

/// Selects a result of the report named `report` and makes it a baseline from its header.
fn baseline_in(h: &mut AppHarness, report: &str, index: usize) {
    let at = result_at(h, report, index);
    set_baseline_from_header(h, at);
}

/// The duration of a result as parsed.
pub(crate) fn duration(report: &str, index: usize) -> f64 {
    load_fixture(report).results[index]
        .number(names::DURATION)
        .expect("a duration")
}

/// Δ% as ncu prints it: (current − base) / base × 100.
pub(crate) fn pct(base: f64, current: f64) -> f64 {
    (current - base) / base.abs() * 100.0
}

/// The text the app put on the clipboard in the last frame.
/// Clicks Copy CSV on the Report vs report page and waits for the CSV, which the page's
/// view-model writes in the background, to reach the clipboard.
pub(crate) fn copy_report_csv(h: &mut AppHarness) -> String {
    h.get_by_label("Copy CSV").click();
    let mut csv = None;
    let copied = common::app_harness::step_until(h, common::app_harness::WAIT_TIMEOUT, |h| {
        csv = common::app_harness::copied(h)
            .into_iter()
            .find(|t| t.starts_with("status,"));
        csv.is_some()
    });
    assert!(copied, "the CSV never reached the clipboard");
    csv.unwrap_or_default()
}

fn copied_text(h: &AppHarness) -> String {
    h.output()
        .platform_output
        .commands
        .iter()
        .find_map(|c| match c {
            egui::OutputCommand::CopyText(t) => Some(t.clone()),
            _ => None,
        })
        .expect("text copied to the clipboard")
}

#[test]
fn side_by_side_shows_the_duration_change_and_its_verdict() {
    let mut h = open_both(false);
    let naive = result_at(&h, BASIC_NAME, MATMUL_NAIVE);
    set_baseline_from_header(&mut h, naive);
    let baselines = h.state().baselines();
    assert_eq!(baselines.len(), 1);
    assert_eq!(baselines[0].attached, Some(naive));
    assert_eq!(baselines[0].kernel, "matmul_naive");
    assert_eq!(baselines[0].result_id, 3);
    // The baseline's header says so and offers to remove it.
    assert_label(&h, "Remove baseline");

    select_in(&mut h, FULL_NAME, MATMUL_TILED);
    show_page(&mut h, PageId::Compare);
    let expected = format!(
        "{:+.2}%",
        pct(duration(BASIC, MATMUL_NAIVE), duration(FULL, MATMUL_TILED))
    );
    assert!(expected.starts_with("-4"), "tiled is faster: {expected}");
    assert_in_row(&h, "Duration", &expected);
    // Two different kernels: the change is shown, but no verdict.
    assert!(!in_row(&h, "Duration", "better"));
    assert_label_containing(&h, "Different kernels: matmul_naive · ID 3");
    assert_label_containing(&h, "their changes are shown without a verdict");
    assert_label_containing(&h, &format!(": {expected} · "));
    // Both sides' names, the section-set warning of the two reports and the launch shapes.
    assert_label_containing(&h, "the section sets differ");
    assert_label_containing(&h, "grid changed: (64, 64, 1) → (32, 32, 1)");
    // Why it changed: rules that fired only for matmul_tiled, in sections both sides list.
    assert_label(&h, "Why it changed");
    assert_labels(
        &h,
        &[
            "matmul_naive · ID 3 (kernels_basic.details.txt)",
            "matmul_tiled<32> · ID 4 (kernels_full.details.txt)",
            // SOL bars and occupancy of both.
            "Compute (SM) Throughput",
            "Theoretical Occupancy",
            // A metric both have unchanged goes away with "Changed only"; Duration stays.
            "Function Cache Configuration",
        ],
    );
    h.get_by_label("Changed only").click();
    h.run();
    assert!(h.state().settings().compare_changed_only);
    assert!(!has_label(&h, "Function Cache Configuration"));
    assert_in_row(&h, "Duration", &expected);
}

#[test]
fn several_baselines_give_the_change_against_their_mean_and_z() {
    let mut h = open_both(false);
    let basic_naive = result_at(&h, BASIC_NAME, MATMUL_NAIVE);
    let full_naive = result_at(&h, FULL_NAME, MATMUL_NAIVE);
    set_baseline_from_header(&mut h, basic_naive);
    // The second one from the results table's context menu: of the two matmul_naive rows
    // (above the header that names the selected result), the lower one.
    h.state_mut().filter_mut().push_str("matmul_naive");
    h.run();
    let mut labels: Vec<_> = h.query_all_by_label("matmul_naive").collect();
    labels.sort_by(|a, b| a.rect().top().total_cmp(&b.rect().top()));
    assert!(labels.len() >= 3, "two rows and the header");
    labels[1].click_secondary();
    h.run();
    // The right-click selected that row, so its header offers "Set as baseline" too: the
    // menu's button is the one up by the row.
    h.query_all_by_role_and_label(Role::Button, "Set as baseline")
        .min_by(|a, b| a.rect().top().total_cmp(&b.rect().top()))
        .expect("the menu's button")
        .click();
    h.run();
    let attached: Vec<Option<ResultRef>> =
        h.state().baselines().iter().map(|b| b.attached).collect();
    assert_eq!(attached, vec![Some(basic_naive), Some(full_naive)]);
    assert_ne!(
        h.state().baselines()[0].color,
        h.state().baselines()[1].color
    );

    h.state_mut().filter_mut().clear();
    select_in(&mut h, FULL_NAME, MATMUL_TILED);
    show_page(&mut h, PageId::Compare);
    let (b1, b2) = (duration(BASIC, MATMUL_NAIVE), duration(FULL, MATMUL_NAIVE));
    let c = duration(FULL, MATMUL_TILED);
    let mean = (b1 + b2) / 2.0;
    let all_mean = (b1 + b2 + c) / 3.0;
    let sd =
        (((b1 - all_mean).powi(2) + (b2 - all_mean).powi(2) + (c - all_mean).powi(2)) / 3.0).sqrt();
    let z = (c - all_mean) / sd;
    let cell = format!("({:+.2}%, z={z:.2})", pct(mean, c));
    assert_label_containing(&h, &cell);
    assert_label_containing(&h, "(mean of 2 baselines)");
    // matmul_tiled against two matmul_naive: two versions under different names, so the mean
    // covers both and says why.
    assert_label(
        &h,
        "No baseline is of the same kernel as the current result: the mean covers them all.",
    );
}

#[test]
fn baselines_of_other_kernels_stay_out_of_the_mean() {
    const VECTOR_ADD: usize = 0;
    const VECTOR_ADD_AGAIN: usize = 1;
    let mut h = open_both(false);
    baseline_in(&mut h, BASIC_NAME, VECTOR_ADD);
    baseline_in(&mut h, FULL_NAME, VECTOR_ADD);
    baseline_in(&mut h, BASIC_NAME, MATMUL_NAIVE);
    assert_eq!(h.state().baselines().len(), 3);
    select_in(&mut h, FULL_NAME, VECTOR_ADD_AGAIN);
    show_page(&mut h, PageId::Compare);
    let (b1, b2) = (duration(BASIC, VECTOR_ADD), duration(FULL, VECTOR_ADD));
    let c = duration(FULL, VECTOR_ADD_AGAIN);
    let mean = (b1 + b2) / 2.0;
    let all_mean = (b1 + b2 + c) / 3.0;
    let sd =
        (((b1 - all_mean).powi(2) + (b2 - all_mean).powi(2) + (c - all_mean).powi(2)) / 3.0).sqrt();
    let z = if sd > 0.0 { (c - all_mean) / sd } else { 0.0 };
    assert_label_containing(&h, &format!("({:+.2}%, z={z:.2})", pct(mean, c)));
    assert_label_containing(&h, "(mean of 2 of 3 baselines, those of the same kernel)");
    assert_label(
        &h,
        &format!("Other kernels, not in the mean: matmul_naive · ID {MATMUL_NAIVE}."),
    );
}

#[test]
fn baselines_hide_show_and_remove() {
    let mut h = open_both(false);
    baseline_in(&mut h, BASIC_NAME, MATMUL_NAIVE);
    select_in(&mut h, FULL_NAME, MATMUL_TILED);
    show_page(&mut h, PageId::Compare);
    assert_label(&h, "matmul_naive · ID 3 (kernels_basic.details.txt)");
    // The list on the left hides it...
    h.get_by_role_and_label(Role::CheckBox, "matmul_naive · ID 3")
        .click();
    h.run();
    assert!(!h.state().baselines()[0].visible);
    assert_label(&h, "No baseline to compare with.");
    assert!(!has_label(
        &h,
        "matmul_naive · ID 3 (kernels_basic.details.txt)"
    ));
    // ...shows it again...
    h.get_by_role_and_label(Role::CheckBox, "matmul_naive · ID 3")
        .click();
    h.run();
    assert!(h.state().baselines()[0].visible);
    assert_label(&h, "matmul_naive · ID 3 (kernels_basic.details.txt)");
    // ...and removes it.
    h.get_by_label("Remove baseline matmul_naive · ID 3")
        .click();
    h.run();
    assert!(h.state().baselines().is_empty());
    assert_label(&h, "No baseline to compare with.");
    // Closing the report of a baseline keeps it (by file) until it is removed.
    baseline_in(&mut h, BASIC_NAME, MATMUL_NAIVE);
    h.get_by_label(&format!("Close {BASIC_NAME}")).click();
    h.run();
    assert_eq!(h.state().baselines().len(), 1);
    assert_eq!(h.state().baselines()[0].attached, None);
    assert_label(&h, &format!("{BASIC_NAME} is not open"));
}

#[test]
fn comparisons_export_as_csv_and_markdown() {
    let mut h = open_both(false);
    select_in(&mut h, FULL_NAME, 0);
    show_page(&mut h, PageId::ReportDiff);
    let (base, current) = (duration(BASIC, MATMUL_TILED), duration(FULL, MATMUL_TILED));

    let csv = copy_report_csv(&mut h);
    let header = csv.lines().next().unwrap();
    assert!(header.starts_with("status,base_id,current_id,kernel,metric"));
    let duration_row = csv
        .lines()
        .find(|l| l.contains("matmul_tiled") && l.contains(names::DURATION))
        .expect("matmul_tiled's duration row");
    assert!(
        duration_row.contains(&format!(",{:.4},", pct(base, current))),
        "{duration_row}"
    );
    for kernel in ["vector_add", "matmul_naive", "conv2d_naive", "tiny_grid"] {
        assert!(csv.contains(kernel), "{kernel} in the CSV");
    }
    h.run();
    assert_label_containing(&h, "Copied CSV (");

    h.get_by_label("Copy Markdown").click();
    h.step();
    let md = copied_text(&h);
    assert!(md.starts_with(&format!("### Comparison: {BASIC_NAME} → {FULL_NAME}")));
    assert!(md.contains("the section sets differ"));
    let tiled_line = md
        .lines()
        .find(|l| l.contains("`void matmul_tiled<32>(const float *, const float *, float *, int)`"))
        .expect("matmul_tiled in the table");
    assert!(
        tiled_line.contains(&format!("| {:+.2}% |", pct(base, current))),
        "{tiled_line}"
    );
    h.run();

    // No save dialog here: the app says so, copying still works.
    h.get_by_label("Save CSV…").click();
    assert!(
        common::app_harness::step_until(&mut h, common::app_harness::WAIT_TIMEOUT, |h| {
            common::app_harness::has_label_containing(h, "No save dialog can be shown here")
        }),
        "the CSV written in the background never reached the save step"
    );

    // The side-by-side view exports the pair the same way.
    baseline_in(&mut h, BASIC_NAME, MATMUL_NAIVE);
    select_in(&mut h, FULL_NAME, MATMUL_TILED);
    show_page(&mut h, PageId::Compare);
    h.get_by_label("Copy Markdown").click();
    h.step();
    let md = copied_text(&h);
    let naive = duration(BASIC, MATMUL_NAIVE);
    assert!(md.contains("matmul_naive → matmul_tiled"), "{md}");
    assert!(md.contains("| 3 → 4 |"), "{md}");
    assert!(
        md.contains(&format!("| {:+.2}% |", pct(naive, current))),
        "{md}"
    );
}

#[test]
fn baselines_persist_and_attach_when_their_file_opens() {
    let files = [fixture_path(BASIC), fixture_path(FULL)];
    let app = SightlineApp::new(None, options(Vec::new(), true));
    let mut h = open_in_order(app, &files, false);
    baseline_in(&mut h, BASIC_NAME, MATMUL_NAIVE);
    baseline_in(&mut h, FULL_NAME, MATMUL_NAIVE);
    // The second one hidden.
    h.query_all_by_role_and_label(Role::CheckBox, "matmul_naive · ID 3")
        .nth(1)
        .expect("the second baseline's checkbox")
        .click();
    h.run();
    let saved = h.state().baselines().to_vec();
    let mut storage = MemoryStorage::default();
    eframe::App::save(h.state_mut(), &mut storage);

    // Restart with the full report first and the basic one second.
    let restored = SightlineApp::new(Some(&storage), options(Vec::new(), true));
    assert_eq!(restored.baselines().len(), 2);
    assert!(restored.baselines().iter().all(|b| b.attached.is_none()));
    let mut h = open_in_order(restored, &[files[1].clone()], false);
    let full_naive = result_at(&h, FULL_NAME, MATMUL_NAIVE);
    let b = h.state().baselines();
    assert_eq!(b[0].attached, None, "basic is not open yet");
    assert_eq!(b[1].attached, Some(full_naive));
    h.state_mut().open(OpenRequest::Path(files[0].clone()));
    settle_ok(&mut h);
    let basic_naive = result_at(&h, BASIC_NAME, MATMUL_NAIVE);
    let b = h.state().baselines();
    assert_eq!(b[0].attached, Some(basic_naive));
    for (now, before) in b.iter().zip(&saved) {
        assert_eq!(now.path, before.path);
        assert_eq!(now.result_id, before.result_id);
        assert_eq!(now.color, before.color);
        assert_eq!(now.visible, before.visible);
    }
    assert!(b[0].visible);
    assert!(!b[1].visible);
    assert_eq!(b[0].path.as_deref(), Some(files[0].as_path()));
}

#[test]
fn baselines_of_pasted_text_are_not_saved() {
    let mut h = harness_with(SightlineApp::new(None, options(Vec::new(), true)), false);
    let text = String::from_utf8(fixture_bytes(BASIC)).unwrap();
    h.state_mut().open(OpenRequest::Text {
        name: "Pasted text 1".into(),
        text,
    });
    settle_ok(&mut h);
    let at = result_at(&h, "Pasted text 1", MATMUL_NAIVE);
    h.state_mut().handle(Command::SetBaseline(at));
    assert_eq!(h.state().baselines().len(), 1);
    let mut storage = MemoryStorage::default();
    eframe::App::save(h.state_mut(), &mut storage);
    let restored = SightlineApp::new(Some(&storage), options(Vec::new(), true));
    assert!(restored.baselines().is_empty());
    // Closing its report forgets it.
    let id = report_id(&h, "Pasted text 1");
    h.state_mut().handle(Command::CloseReport(id));
    assert!(h.state().baselines().is_empty());
}

#[test]
fn roofline_draws_an_arrow_from_each_baseline() {
    let dir = temp_dir("arrow");
    let report = fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = open_in_order(app, &[report], false);
    let name = h.state().workspace().reports()[0].name.clone();
    baseline_in(&mut h, &name, MATMUL_NAIVE);
    select_in(&mut h, &name, MATMUL_TILED);
    show_page(&mut h, PageId::Roofline);
    // The FP32 performance of both, by the roofline section's formula, from the oracle.
    let truth = common::load_truth("h100/kernels_full.truth.json.xz");
    let fp32 = |t: &common::TruthResult| {
        let v = |k: &str| t.metrics[k].value.as_f64().unwrap();
        let e = "per_cycle_elapsed";
        let inst = |op: &str| {
            v(&format!(
                "smsp__sass_thread_inst_executed_op_{op}_pred_on.sum.{e}"
            ))
        };
        (inst("fadd") + inst("fmul") + 2.0 * inst("ffma"))
            * v("smsp__cycles_elapsed.avg.per_second")
    };
    let change = (fp32(&truth[MATMUL_TILED]) / fp32(&truth[MATMUL_NAIVE]) - 1.0) * 100.0;
    assert!(change.abs() >= 10.0, "{change}");
    assert_label_containing(
        &h,
        &format!("matmul_naive · ID 3 Single Precision Achieved Value: {change:+.0}% FLOP/s"),
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_wheel_over_a_plot_zooms_the_plot_not_the_window() {
    let dir = temp_dir("zoom");
    let report = fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = open_in_order(app, &[report], false);
    show_page(&mut h, PageId::Roofline);
    let memory = || egui_plot::PlotMemory::load(&h.ctx, roofline::plot_id()).expect("a plot");
    let before = *memory().bounds();
    let center = memory().transform().frame().center();
    let ctrl_wheel = |h: &mut AppHarness| {
        h.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, 60.0),
            phase: egui::TouchPhase::Move,
            source: egui::MouseWheelSource::Wheel,
            modifiers: egui::Modifiers::COMMAND,
        });
        h.run_steps(30);
    };
    h.hover_at(center);
    h.run();
    ctrl_wheel(&mut h);
    assert_eq!(h.ctx.zoom_factor(), 1.0);
    assert_eq!(h.state().settings().zoom_factor, 1.0);
    let after = *egui_plot::PlotMemory::load(&h.ctx, roofline::plot_id())
        .unwrap()
        .bounds();
    assert!(
        after.width() < before.width() * 0.99,
        "the plot zoomed in: {before:?} -> {after:?}"
    );
    // Elsewhere it zooms the window.
    let panel = h.get_by_label("Reports").rect().center();
    h.hover_at(panel);
    h.run();
    ctrl_wheel(&mut h);
    assert!(h.ctx.zoom_factor() > 1.05, "zoom {}", h.ctx.zoom_factor());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn snapshot_side_by_side() {
    let mut h = open_both(true);
    baseline_in(&mut h, BASIC_NAME, MATMUL_NAIVE);
    select_in(&mut h, FULL_NAME, MATMUL_TILED);
    show_page(&mut h, PageId::Compare);
    // Tall enough to show the first metric sections under the bars and occupancy.
    h.set_size(egui::vec2(WINDOW[0], 1300.0));
    h.run();
    h.snapshot("compare_side_by_side");
}

#[test]
fn a_baseline_the_comparison_pairs_as_renamed_gets_verdicts() {
    let dir = temp_dir("renames_baseline");
    let mut h = open_renames(&dir);
    // naive_gemm (before) as the baseline of sgemm_global_mem_coalesce (after): other names,
    // one kernel renamed as the comparison pairs it.
    baseline_in(&mut h, "before.ncu-rep", 1);
    let current = result_at(&h, "after.ncu-rep", 1);
    h.state_mut().select(Some(current));
    until_compared(&mut h);
    show_page(&mut h, PageId::Compare);
    assert!(!has_label_containing_text(&h, "shown without a verdict"));
    assert_label_containing(
        &h,
        "paired with sgemm_global_mem_coalesce by the comparison",
    );
    // A baseline of another kernel the comparison does not pair stays without a verdict.
    let other = result_at(&h, "after.ncu-rep", 5);
    h.state_mut().select(Some(other));
    until_compared(&mut h);
    assert_label_containing(&h, "shown without a verdict");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A compared value has the Details tables' copy menu: the value, the label, the metric name
/// and the whole line.
#[test]
fn right_click_on_a_compared_value_copies_it() {
    let mut h = open_both(false);
    let naive = result_at(&h, BASIC_NAME, MATMUL_NAIVE);
    set_baseline_from_header(&mut h, naive);
    select_in(&mut h, FULL_NAME, MATMUL_TILED);
    show_page(&mut h, PageId::Compare);
    // Tall enough that the Duration line is on screen.
    h.set_size(egui::vec2(1400.0, 1300.0));
    h.run();
    let expected = format!(
        "{:+.2}%",
        pct(duration(BASIC, MATMUL_NAIVE), duration(FULL, MATMUL_TILED))
    );
    h.get_all_by_label(&expected)
        .next()
        .expect("the duration change")
        .click_secondary();
    h.run();
    h.get_by_label("Copy value").click();
    h.step();
    let copied: Vec<String> = common::app_harness::copied(&h);
    assert_eq!(copied, vec![expected.clone()]);
    // The line as TSV: label, baseline, current, Δ and Δ %.
    h.get_all_by_label(&expected)
        .next()
        .expect("the duration change")
        .click_secondary();
    h.run();
    h.get_by_label("Copy row (TSV)").click();
    h.step();
    let tsv: Vec<String> = common::app_harness::copied(&h);
    assert_eq!(tsv.len(), 1);
    let lines: Vec<&str> = tsv[0].lines().collect();
    assert_eq!(lines[0], "Metric\tBaseline\tCurrent\tΔ\tΔ %");
    // (Elapsed Cycles changed by the same share as the duration.)
    assert_eq!(lines[1].split('\t').count(), 5, "{}", lines[1]);
    assert!(lines[1].ends_with(&format!("\t{expected}")), "{}", lines[1]);
}
