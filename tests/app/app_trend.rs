//! The Trend page's chart, driven headless with egui_kittest on the GEMM series (v1 to v5,
//! renamed at v4): the scale switched to a log axis and back, a reference kernel picked and
//! each run read as a share of it (table and chart), the latest run's changes against NVIDIA's
//! durations, Ctrl+wheel zoom with Reset view, a click on a point of the zoomed chart opening
//! that step as a Compare, and the whole page in a laptop window.

use crate::app_layout::series_on_trend_page;
use crate::common;

use common::app_harness::{AppHarness, assert_label, has_label, until_compared};
use common::{load_truth, temp_dir};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use sightline_app::core::ids::ResultRef;
use sightline_engine::model::format::measured_text;
use sightline_engine::model::names::DURATION;
use sightline_ui::PageId;
use sightline_ui::pages::trend::chart_id;

const TITLE: &str = "gemm_step \u{2192} gemm_tiled_2d over the runs";
const GEMM: [&str; 2] = ["gemm_step", "gemm_tiled_2d"];
/// 1280x800 pixels at zoom 1.5.
const LAPTOP: egui::Vec2 = egui::vec2(1280.0 / 1.5, 800.0 / 1.5);

/// NVIDIA's duration of the first launch of `functions` in version `v`, and its index.
fn truth_of(v: usize, functions: &[&str]) -> (usize, f64) {
    load_truth(&format!("series/v{v}.truth.json.xz"))
        .iter()
        .enumerate()
        .find(|(_, t)| functions.contains(&t.function.as_str()))
        .map(|(i, t)| (i, t.number(DURATION)))
        .expect("the kernel in the truth")
}

fn bounds(h: &AppHarness) -> egui_plot::PlotBounds {
    *egui_plot::PlotMemory::load(&h.ctx, chart_id())
        .expect("the trend chart")
        .bounds()
}

/// The screen position of run `run`'s point at `y` (on the chart's value axis).
fn point_at(h: &AppHarness, run: usize, y: f64) -> egui::Pos2 {
    egui_plot::PlotMemory::load(&h.ctx, chart_id())
        .expect("the trend chart")
        .transform()
        .position_from_point(&egui_plot::PlotPoint::new(run as f64, y))
}

/// Clicks the button `label` (a choice above the chart).
fn click(h: &mut AppHarness, label: &str) {
    h.get_by_role_and_label(Role::Button, label).click();
    h.run();
}

fn share(v: f64) -> String {
    format!("{v:.1} %")
}

#[test]
fn the_chart_switches_to_a_log_axis_and_reads_runs_against_a_reference() {
    let dir = temp_dir("trend-chart");
    let mut h = series_on_trend_page(&dir, 5, TITLE);
    let gemm: Vec<f64> = (1..=5).map(|v| truth_of(v, &GEMM).1).collect();
    let bias: Vec<f64> = (1..=5).map(|v| truth_of(v, &["bias_add"]).1).collect();
    // The GEMM alone spans less than ten times: Auto is linear, with zero in view.
    assert!(gemm[0] / gemm[2] < 10.0);
    assert_label(&h, "Auto (linear)");
    let linear = bounds(&h);
    assert!(linear.min()[1] <= 0.0 && linear.max()[1] >= gemm[0]);
    // The latest run against the run before, the first and the fastest, from NVIDIA's values.
    let pct = |from: f64, to: f64| format!("{:+.1}%", (to - from) / from * 100.0);
    assert_label(
        &h,
        &format!("Latest (v5): {}", measured_text(gemm[4], "ns")),
    );
    assert_label(
        &h,
        &format!("{} against the run before (v4)", pct(gemm[3], gemm[4])),
    );
    assert_label(
        &h,
        &format!("{} against the first run (v1)", pct(gemm[0], gemm[4])),
    );
    assert_label(
        &h,
        &format!("{} against the fastest run (v3)", pct(gemm[2], gemm[4])),
    );
    // Log: the value axis holds the logs of the durations.
    click(&mut h, "Log");
    let log = bounds(&h);
    for d in &gemm {
        let y = d.log10();
        assert!(log.min()[1] < y && y < log.max()[1], "{y} in {log:?}");
    }
    assert!(log.max()[1] - log.min()[1] < 3.0, "{log:?}");
    // A reference picked: the chart reads each run as a share of it, and so do the tables.
    let before: Vec<egui::Rect> = h.query_all_by_label("bias_add").map(|n| n.rect()).collect();
    h.get_by_role_and_label(Role::ComboBox, "Reference").click();
    h.run();
    let entry = h
        .query_all_by_label("bias_add")
        .find(|n| !before.contains(&n.rect()))
        .expect("bias_add among the references offered");
    entry.click();
    h.run();
    assert_label(&h, "% of bias_add");
    for i in 0..5 {
        assert_label(&h, &share(gemm[i] / bias[i] * 100.0));
    }
    let shares = bounds(&h);
    let y = (gemm[4] / bias[4] * 100.0).log10();
    assert!(
        shares.min()[1] < y && y < shares.max()[1],
        "{y} in {shares:?}"
    );
    // As measured with the reference beside it: both span hundreds of times, Auto is log.
    click(&mut h, "As measured");
    click(&mut h, "Auto (log)");
    let both = bounds(&h);
    for d in gemm.iter().chain(&bias) {
        let y = d.log10();
        assert!(both.min()[1] < y && y < both.max()[1], "{y} in {both:?}");
    }
    // Linear again, and no reference.
    click(&mut h, "Linear");
    assert!(bounds(&h).min()[1] <= 0.0);
    h.get_by_role_and_label(Role::ComboBox, "Reference").click();
    h.run();
    h.get_by_label("none").click();
    h.run();
    assert!(!has_label(&h, "% of bias_add"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_click_on_a_point_of_the_zoomed_chart_opens_that_step_as_a_compare() {
    let dir = temp_dir("trend-zoom");
    let mut h = series_on_trend_page(&dir, 5, TITLE);
    let (v3_index, _) = truth_of(3, &GEMM);
    let (v4_index, v4) = truth_of(4, &GEMM);
    let initial = bounds(&h);
    // Ctrl+wheel over v4's point zooms the chart there, not the window.
    let at = point_at(&h, 3, v4);
    h.hover_at(at);
    h.run();
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, 60.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
        modifiers: egui::Modifiers::COMMAND,
    });
    h.run_steps(30);
    assert_eq!(h.ctx.zoom_factor(), 1.0);
    let zoomed = bounds(&h);
    assert!(
        zoomed.width() < initial.width() * 0.99,
        "zoomed in: {initial:?} -> {zoomed:?}"
    );
    // Reset view: every run in view again.
    click(&mut h, "Reset view");
    let reset = bounds(&h);
    assert!(
        (reset.width() - initial.width()).abs() < 1e-9 * initial.width()
            && (reset.height() - initial.height()).abs() < 1e-9 * initial.height(),
        "{initial:?} -> {reset:?}"
    );
    // Zoomed in again, a click on v4's point compares v3's GEMM with v4's (renamed).
    h.hover_at(at);
    h.run();
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, 60.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
        modifiers: egui::Modifiers::COMMAND,
    });
    h.run_steps(30);
    assert!(bounds(&h).width() < initial.width() * 0.99);
    let at = point_at(&h, 3, v4);
    h.drag_at(at);
    h.step();
    h.drop_at(at);
    until_compared(&mut h);
    assert_eq!(h.state().settings().page, PageId::Compare);
    let reports = h.state().workspace().reports();
    let v3 = ResultRef {
        report: reports[2].id,
        index: v3_index,
    };
    let v4 = ResultRef {
        report: reports[3].id,
        index: v4_index,
    };
    assert_eq!(h.state().baselines()[0].attached, Some(v3));
    assert_eq!(h.state().selection(), Some(v4));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_whole_trend_page_fits_a_laptop_window() {
    let dir = temp_dir("trend-laptop");
    let mut h = series_on_trend_page(&dir, 5, TITLE);
    h.set_size(LAPTOP);
    h.run();
    // The table's figures stay in view beside the kernel names.
    for header in ["Latest", "Change"] {
        let right = h
            .query_all_by_label(header)
            .map(|n| n.rect().max.x)
            .fold(0.0, f32::max);
        assert!(
            right > 0.0 && right <= LAPTOP.x,
            "{header} ends at {right} of {}",
            LAPTOP.x
        );
    }
    // The chart is as wide as the page: its right edge near the window's.
    let frame = *egui_plot::PlotMemory::load(&h.ctx, chart_id())
        .expect("the trend chart")
        .transform()
        .frame();
    assert!(
        frame.max.x <= LAPTOP.x && frame.max.x > LAPTOP.x - 40.0,
        "{frame:?} in {LAPTOP:?}"
    );
    // Every biggest step's line is whole within the window's width (wrapped, not cut).
    let steps: Vec<egui::Rect> = h
        .query_all_by_label_contains("%)")
        .map(|n| n.rect())
        .collect();
    assert!(!steps.is_empty());
    for rect in steps {
        assert!(rect.max.x <= LAPTOP.x, "{rect:?} in {LAPTOP:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
