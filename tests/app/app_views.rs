//! The Roofline and Occupancy pages of the desktop app, driven headless with egui_kittest:
//! estimated rooflines from ncu text, exact ones from the `.ncu-rep` of the same run checked
//! against the section formulas applied to the oracle, the report-wide chart (hover and click
//! to select), zoom reset, the occupancy limits and what-if, an assumed architecture for the
//! older CLI layout, and image snapshots of both pages.

use crate::common;

use common::app_harness::{
    AppHarness, assert_in_row, assert_label, assert_label_containing, assert_rows, has_label,
    has_label_containing, in_row, open_ok, show_page,
};
use common::{fixture_file, fixture_path, load_fixture, load_truth, temp_dir};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use sightline_engine::model::{KernelResult, Report};
use sightline_ui::plot_util::{format_intensity, format_pct, format_rate};
use sightline_ui::{PageId, pages::roofline};

const TEXT: &str = "h100/kernels_full.details.txt";
const REPORT: &str = "h100/kernels_full.ncu-rep.xz";
const TRUTH: &str = "h100/kernels_full.truth.json.xz";
/// Result indices of the run: a memory-bound and a compute-bound kernel.
const VECTOR_ADD: usize = 0;
const MATMUL_TILED: usize = 4;
const DGEMM_NAIVE: usize = 5;
/// Rows of the roofline page's table: the FP32 roof and the FP32 point.
const SP_ROOF: &str = "Single Precision Roofline";
const SP_POINT: &str = "Single Precision Achieved Value";

fn select(h: &mut AppHarness, index: usize) {
    assert_eq!(
        h.state_mut().select_row(index).map(|at| at.index),
        Some(index)
    );
    h.run();
}

/// The selected result.
fn selected(h: &AppHarness) -> (usize, String) {
    let at = h.state().selection().expect("a selection");
    let (_, r) = h.state().workspace().result(at).expect("selected result");
    (at.index, r.name.function.clone())
}

/// The value a text row of a result's section shows (as the parser read it).
fn row_value(r: &KernelResult, label: &str) -> f64 {
    r.sections()
        .iter()
        .flat_map(|s| &s.rows)
        .find(|row| row.label == label)
        .and_then(|row| row.metric.as_f64())
        .unwrap_or_else(|| panic!("{}: no row {label}", r.name.function))
}

/// The block limits of the Occupancy section.
const BLOCK_LIMITS: [&str; 5] = [
    "Block Limit Registers",
    "Block Limit Shared Mem",
    "Block Limit Warps",
    "Block Limit SM",
    "Block Limit Barriers",
];

/// A row of the Occupancy page with the percentage the fixture prints for it (`50.00 %`).
fn pct_row(r: &KernelResult, label: &'static str) -> (&'static str, String) {
    (label, format!("{:.2} %", row_value(r, label)))
}

/// A row of the Occupancy page with the count the fixture prints for it.
fn count_row(r: &KernelResult, label: &'static str) -> (&'static str, String) {
    (label, format!("{}", row_value(r, label)))
}

/// The oracle of the run.
fn truth() -> Vec<common::TruthResult> {
    load_truth(TRUTH)
}

fn v(t: &common::TruthResult, key: &str) -> f64 {
    t.metrics[key].value.as_f64().unwrap()
}

/// The section formulas (FP32 against DRAM) on the oracle's values.
struct Fp32Roof {
    peak: f64,
    achieved: f64,
    dram_peak: f64,
    dram: f64,
    l1_peak: f64,
}

fn fp32_roof(t: &common::TruthResult) -> Fp32Roof {
    let inst = |op: &str, suffix: &str| {
        let scope = if suffix == "peak_sustained" {
            "sm"
        } else {
            "smsp"
        };
        v(
            t,
            &format!("{scope}__sass_thread_inst_executed_op_{op}_pred_on.sum.{suffix}"),
        )
    };
    let e = "per_cycle_elapsed";
    Fp32Roof {
        peak: inst("ffma", "peak_sustained") * 2.0 * v(t, "sm__cycles_elapsed.avg.per_second"),
        achieved: (inst("fadd", e) + inst("fmul", e) + 2.0 * inst("ffma", e))
            * v(t, "smsp__cycles_elapsed.avg.per_second"),
        dram_peak: v(t, "dram__bytes.sum.peak_sustained")
            * v(t, "dram__cycles_elapsed.avg.per_second"),
        dram: v(t, "dram__bytes.sum.per_second"),
        l1_peak: v(t, "l1tex__lsu_writeback_active_mem_lgds.sum.peak_sustained")
            * 128.0
            * v(t, "l1tex__cycles_elapsed.avg.per_second"),
    }
}

#[test]
fn text_report_roofline_is_estimated_and_lists_its_assumptions() {
    let report: Report = load_fixture(TEXT);
    let mut h = open_ok(vec![fixture_path(TEXT)], false);
    show_page(&mut h, PageId::Roofline);
    assert_eq!(selected(&h), (VECTOR_ADD, "vector_add".into()));
    assert_label(&h, "Estimated roofline");
    assert_eq!(
        h.get_by_role_and_label(Role::ComboBox, "Chart")
            .value()
            .as_deref(),
        Some("Floating Point Operations Roofline")
    );
    // Peak FP32 = # SMs × 128 FP32 lanes per Hopper SM × 2 FLOP per FMA × SM frequency, all
    // but the lanes as the fixture prints them (132 SMs, 1.97 GHz).
    let r = &report.results[VECTOR_ADD];
    let peak = row_value(r, "# SMs") * 128.0 * 2.0 * row_value(r, "SM Frequency");
    assert_rows(
        &h,
        &[
            (SP_ROOF, format_rate(peak, "FLOP/s")),
            (
                "Double Precision Roofline",
                format_rate(peak / 2.0, "FLOP/s"),
            ),
        ],
    );
    assert_label_containing(
        &h,
        "peak FP32 = 132 SMs x 128 FFMA lanes x 2 FLOP x SM frequency",
    );
    // The roofline rule printed "close to 0%" of the FP32 peak: the point is an estimate.
    assert_label_containing(&h, "the roofline rule printed close to 0%");
    assert_in_row(&h, SP_POINT, "Memory bound");

    // matmul_tiled: "achieved 13% of this device's FP32 peak", far right of the ridge.
    select(&mut h, MATMUL_TILED);
    let r = &report.results[MATMUL_TILED];
    let peak = row_value(r, "# SMs") * 128.0 * 2.0 * row_value(r, "SM Frequency");
    assert_rows(
        &h,
        &[
            (SP_ROOF, format_rate(peak, "FLOP/s")),
            (SP_POINT, format_rate(0.13 * peak, "FLOP/s")),
            (SP_POINT, "Compute bound".into()),
            (SP_POINT, format_pct(13.0)),
        ],
    );
}

#[test]
fn ncu_rep_roofline_is_exact_and_follows_the_section_formulas() {
    let truth = truth();
    let dir = temp_dir("exact");
    let mut h = open_ok(vec![fixture_file(&dir, REPORT)], false);
    show_page(&mut h, PageId::Roofline);
    assert!(!has_label(&h, "Estimated roofline"));

    // vector_add: memory bound, under the DRAM slope.
    let t = fp32_roof(&truth[VECTOR_ADD]);
    let ai = t.achieved / t.dram;
    assert_rows(
        &h,
        &[
            (SP_ROOF, format_rate(t.peak, "FLOP/s")),
            (SP_ROOF, format_rate(t.dram_peak, "B/s")),
            (SP_ROOF, format_intensity(t.peak / t.dram_peak, "FLOP")),
            (SP_POINT, format_intensity(ai, "FLOP")),
            (SP_POINT, format_rate(t.achieved, "FLOP/s")),
            (
                SP_POINT,
                format_pct(100.0 * t.achieved / (t.dram_peak * ai)),
            ),
            (SP_POINT, "Memory bound".into()),
        ],
    );

    // matmul_tiled: compute bound, under the flat FP32 roof.
    select(&mut h, MATMUL_TILED);
    let t = fp32_roof(&truth[MATMUL_TILED]);
    assert!(
        t.achieved / t.dram > t.peak / t.dram_peak,
        "right of the ridge"
    );
    assert_rows(
        &h,
        &[
            (SP_ROOF, format_rate(t.peak, "FLOP/s")),
            (SP_POINT, format_rate(t.achieved, "FLOP/s")),
            (SP_POINT, format_pct(100.0 * t.achieved / t.peak)),
            (SP_POINT, "Compute bound".into()),
        ],
    );

    // The hierarchical FP32 chart adds the L1 roof (global, local and distributed shared).
    h.get_by_role_and_label(Role::ComboBox, "Chart").click();
    h.run();
    h.get_by_label("Floating Point Operations Roofline (Single Precision)")
        .click();
    h.run();
    assert_rows(
        &h,
        &[
            ("L1 Roofline (Global/Local)", format_rate(t.l1_peak, "B/s")),
            ("DRAM Roofline", format_rate(t.dram_peak, "B/s")),
        ],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The screen position of a (intensity, performance) point in the roofline plot.
fn plot_position(h: &AppHarness, intensity: f64, work: f64) -> egui::Pos2 {
    let memory = egui_plot::PlotMemory::load(&h.ctx, roofline::plot_id()).expect("a plot");
    memory
        .transform()
        .position_from_point(&egui_plot::PlotPoint::new(intensity.log10(), work.log10()))
}

#[test]
fn report_wide_roofline_names_results_on_hover_and_selects_on_click() {
    let truth = truth();
    let dir = temp_dir("wide");
    let mut h = open_ok(vec![fixture_file(&dir, REPORT)], false);
    select(&mut h, MATMUL_TILED);
    show_page(&mut h, PageId::Roofline);
    h.get_by_label("All results of this report").click();
    h.run();
    assert_label_containing(&h, "results drawn, each sized by its duration");
    // dgemm_naive does FP64 work only: its point is FP64 work against DRAM traffic.
    let t = &truth[DGEMM_NAIVE];
    let e = "per_cycle_elapsed";
    let inst = |op: &str| {
        v(
            t,
            &format!("smsp__sass_thread_inst_executed_op_{op}_pred_on.sum.{e}"),
        )
    };
    let fp64 = (inst("dadd") + inst("dmul") + 2.0 * inst("dfma"))
        * v(t, "smsp__cycles_elapsed.avg.per_second");
    let dram = v(t, "dram__bytes.sum.per_second");
    let at = plot_position(&h, fp64 / dram, fp64);
    h.hover_at(at);
    h.run();
    assert_label(&h, "dgemm_naive (ID 5)");
    assert_label(&h, "FP64 work against DRAM traffic");
    assert_label(&h, &format!("Performance: {}", format_rate(fp64, "FLOP/s")));
    h.drag_at(at);
    h.step();
    h.drop_at(at);
    h.run();
    assert_eq!(selected(&h), (DGEMM_NAIVE, "dgemm_naive".into()));
    // The view stays report-wide after the selection moved.
    assert_eq!(h.state().settings().page, PageId::Roofline);
    assert_label_containing(&h, "results drawn, each sized by its duration");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn roofline_pans_and_resets() {
    let dir = temp_dir("reset");
    let mut h = open_ok(vec![fixture_file(&dir, REPORT)], false);
    show_page(&mut h, PageId::Roofline);
    let bounds = |h: &AppHarness| {
        *egui_plot::PlotMemory::load(&h.ctx, roofline::plot_id())
            .expect("a plot")
            .bounds()
    };
    let initial = bounds(&h);
    let frame = *egui_plot::PlotMemory::load(&h.ctx, roofline::plot_id())
        .unwrap()
        .transform()
        .frame();
    let start = frame.center();
    h.drag_at(start);
    h.run();
    for step in 1..=4 {
        h.hover_at(start + egui::vec2(30.0 * step as f32, 20.0 * step as f32));
        h.run();
    }
    h.drop_at(start + egui::vec2(120.0, 80.0));
    h.run();
    let moved = bounds(&h);
    assert!(
        (moved.min()[0] - initial.min()[0]).abs() > 0.1,
        "dragging pans: {initial:?} -> {moved:?}"
    );
    h.get_by_label("Reset view").click();
    h.run();
    let back = bounds(&h);
    for i in 0..2 {
        assert!(
            (back.min()[i] - initial.min()[i]).abs() < 1e-9,
            "{initial:?} vs {back:?}"
        );
        assert!(
            (back.max()[i] - initial.max()[i]).abs() < 1e-9,
            "{initial:?} vs {back:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn occupancy_page_shows_limits_limiter_and_what_if() {
    let report: Report = load_fixture(TEXT);
    let mut h = open_ok(vec![fixture_path(TEXT)], false);
    show_page(&mut h, PageId::Occupancy);
    let r = &report.results[VECTOR_ADD];
    // The calculator agrees with the Occupancy section the fixture prints.
    let mut printed = vec![
        pct_row(r, "Theoretical Occupancy"),
        pct_row(r, "Achieved Occupancy"),
    ];
    printed.extend(BLOCK_LIMITS.map(|label| count_row(r, label)));
    assert_rows(&h, &printed);
    // Warps allow the fewest blocks (8 of 8 warps each): the limiter, highlighted.
    assert_in_row(&h, "Limiter", "Warps");
    assert_in_row(&h, "Block Limit Warps", "limiter");
    assert!(!in_row(&h, "Block Limit Registers", "limiter"));
    assert_label_containing(&h, "the built-in table for CC 9.0");
    // ncu's graph titles, each after the graphs' common "impact of varying" header.
    assert_label(&h, "Occupancy graphs: impact of varying");
    for graph in [
        "Block Size",
        "Register Count Per Thread",
        "Shared Memory Usage Per Block",
        "Block Barriers",
    ] {
        assert_label(&h, graph);
    }

    // What if the kernel used 128 registers per thread: 128 × 32 = 4,096 registers per warp;
    // each of the 4 sub-partitions holds 65,536 / 4 = 16,384, i.e. 4 warps; 16 warps per SM
    // make 2 blocks of 8 warps: 16 of 64 warps, 25 %, limited by registers.
    h.get_by_role_and_label(Role::Slider, "Registers per thread")
        .set_value_accesskit(128.0);
    h.run();
    assert_label(
        &h,
        "What-if occupancy: 25.00 % (16 warps per SM, limited by Registers)",
    );
    assert_label(&h, "What-if curve");
    // The kernel's own figures stay.
    assert_rows(&h, &[pct_row(r, "Theoretical Occupancy")]);
    h.get_by_label("Reset to the kernel's values").click();
    h.run();
    assert!(!has_label_containing(&h, "What-if occupancy"));

    // matmul_tiled: 1,024 threads, 32 registers: registers and warps both allow 2 blocks.
    select(&mut h, MATMUL_TILED);
    let r = &report.results[MATMUL_TILED];
    assert_eq!(row_value(r, "Block Limit Registers"), 2.0);
    assert_eq!(row_value(r, "Block Limit Warps"), 2.0);
    assert_rows(
        &h,
        &[
            pct_row(r, "Theoretical Occupancy"),
            count_row(r, "Block Limit Shared Mem"),
            ("Limiter", "Registers, Warps".into()),
            ("Block Limit Registers", "limiter".into()),
        ],
    );
}

#[test]
fn older_cli_layout_asks_for_an_architecture() {
    let file = "seeds/cli_script_log_cutlass.txt";
    let report: Report = load_fixture(file);
    let mut h = open_ok(vec![fixture_path(file)], false);
    show_page(&mut h, PageId::Occupancy);
    assert_label(&h, "The source names no compute capability.");
    assert_label_containing(&h, "the compute capability is unknown");
    h.get_by_role_and_label(Role::ComboBox, "Assumed architecture")
        .click();
    h.run();
    h.get_by_label("CC 8.6").click();
    h.run();
    assert_label_containing(&h, "the built-in table for CC 8.6, an assumed architecture");
    // With CC 8.6 the calculator reproduces the printed section (the log is from a CC 8.6 GPU:
    // 16 blocks and 48 warps per SM).
    let r = &report.results[0];
    assert_rows(
        &h,
        &[
            pct_row(r, "Theoretical Occupancy"),
            count_row(r, "Block Limit Shared Mem"),
            ("Limiter", "Shared Memory".into()),
        ],
    );
    // The roofline page now has peaks for the assumed architecture and says so.
    show_page(&mut h, PageId::Roofline);
    assert_label(&h, "Estimated roofline");
    assert_label_containing(&h, "compute capability not in the source: assumed 8.6");
}

/// Opens the report on a page with a result selected, for a snapshot.
fn snapshot(page: PageId, index: usize, name: &str) {
    let dir = temp_dir(name);
    let mut h = open_ok(vec![fixture_file(&dir, REPORT)], true);
    select(&mut h, index);
    show_page(&mut h, page);
    h.run();
    h.snapshot(name);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn snapshot_roofline_memory_bound() {
    snapshot(PageId::Roofline, VECTOR_ADD, "roofline_memory_bound");
}

#[test]
fn snapshot_roofline_compute_bound() {
    snapshot(PageId::Roofline, MATMUL_TILED, "roofline_compute_bound");
}

#[test]
fn snapshot_occupancy_memory_bound() {
    snapshot(PageId::Occupancy, VECTOR_ADD, "occupancy_memory_bound");
}

#[test]
fn snapshot_occupancy_compute_bound() {
    snapshot(PageId::Occupancy, MATMUL_TILED, "occupancy_compute_bound");
}

#[test]
fn snapshot_report_wide_roofline() {
    let dir = temp_dir("snapshot_wide");
    let mut h = open_ok(vec![fixture_file(&dir, REPORT)], true);
    select(&mut h, MATMUL_TILED);
    show_page(&mut h, PageId::Roofline);
    h.get_by_label("All results of this report").click();
    h.run();
    h.snapshot("roofline_report_wide");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn snapshot_estimated_roofline_from_text() {
    let mut h = open_ok(vec![fixture_path(TEXT)], true);
    select(&mut h, MATMUL_TILED);
    show_page(&mut h, PageId::Roofline);
    h.run();
    assert_eq!(h.state().settings().page, PageId::Roofline);
    h.snapshot("roofline_estimated");
}

/// The Rules page (Ctrl+9) lists the selected result's rule results, the largest estimated
/// speedup first, each with its section: for vector_add, ncu's 43.64% of the Memory Workload
/// Analysis Chart comes first.
#[test]
fn rules_page_ranks_the_rule_results_of_the_selected_result() {
    let dir = temp_dir("rules_page");
    let mut h = open_ok(vec![fixture_file(&dir, REPORT)], false);
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Num9);
    h.run();
    assert_eq!(h.state().settings().page, PageId::Rules);
    assert_label_containing(&h, "with an estimated speedup; largest first.");
    let top = h
        .query_all_by_label_contains("Est. Speedup: ")
        .map(|n| n.rect().center().y)
        .fold(f32::INFINITY, f32::min);
    let largest = h
        .query_all_by_label("Est. Speedup: 43.64%")
        .next()
        .expect("ncu's largest estimate")
        .rect()
        .center()
        .y;
    assert_eq!(largest, top, "the largest estimate is listed first");
    assert_label(&h, "in Memory Workload Analysis Chart");
    std::fs::remove_dir_all(&dir).ok();
}
