//! The desktop app driven headless with egui_kittest: opening every form of report, the results
//! table, the Details/Raw/Session pages, drag and drop, paste, errors, persistence, zoom, and
//! image snapshots of the main views.

use crate::common;

use common::app_harness::{
    MemoryStorage, assert_label, assert_labels, assert_loaded, drag, harness, harness_with,
    has_label, has_label_containing, new_app, open_settled, options, selected_function, settle,
    type_into,
};
use common::{fixture_bytes, fixture_file, fixture_path, load_truth, temp_dir};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use sightline_ui::{AppOptions, OpenRequest, PageId, SightlineApp, ThemeChoice};
use std::path::{Path, PathBuf};
use std::sync::Arc;

#[test]
fn cli_text_report_fills_the_table_and_selects_the_first_result() {
    let mut h = open_settled(vec![fixture_path("h100/kernels_basic.details.txt")]);
    assert_loaded(&h, 1, 13);
    assert_labels(
        &h,
        &[
            "13 of 13 results",
            "vector_add",
            "strided_copy",
            "matmul_naive",
            "matmul_tiled<32>",
            "dgemm_naive",
            // Row 0 as the fixture prints it: duration, SOL compute and memory, achieved
            // occupancy, shape.
            "72.64 us",
            "33.22 %",
            "78.53 %",
            "76.28 %",
            "(65536, 1, 1)×(256, 1, 1)",
        ],
    );
    // Rows below the visible part are not laid out (virtualised)...
    assert!(!has_label(&h, "tiny_grid"));
    // Its top rule is the occupancy rule, a local speedup of 23.72%.
    assert!(
        has_label_containing(&h, "23.72% local · "),
        "top rule with its speedup"
    );
    // The first result is selected and named in the header.
    assert_eq!(selected_function(&h), "vector_add");
    assert_label(&h, "kernels_basic.details.txt");
    // ...until the selection moves to the last row, which scrolls it into view.
    for _ in 0..12 {
        h.key_press(egui::Key::ArrowDown);
    }
    h.run();
    assert_eq!(selected_function(&h), "tiny_grid");
    assert!(
        h.query_all_by_label("tiny_grid").count() >= 2,
        "row and header"
    );
}

#[test]
fn details_page_shows_sol_bars_sections_metrics_and_rules() {
    let h = open_settled(vec![fixture_path("h100/kernels_basic.details.txt")]);
    assert_loaded(&h, 1, 13);
    assert_eq!(h.state().settings().page, PageId::Details);
    assert_labels(
        &h,
        &[
            "Compute (SM) Throughput",
            "Memory Throughput",
            // Sections in order, collapsible, with label / unit / value.
            "GPU Speed Of Light Throughput",
            "Launch Statistics",
            "Occupancy",
            "Registers Per Thread",
            "register/thread",
            "16,777,216",
            "PolicySpread",
            "Kbyte/block",
            // Rule results with kind and estimated speedup.
            "OPT",
            "Est. Local Speedup: 23.72%",
        ],
    );
    assert!(has_label_containing(
        &h,
        "Memory is more heavily utilized than Compute"
    ));
}

#[test]
fn sol_breakdown_shows_unit_throughputs_on_demand() {
    let mut h = open_settled(vec![fixture_path("h100/kernels_basic.details.txt")]);
    // Before: only the SOL section's table row names L1/TEX.
    assert_eq!(h.query_all_by_label("L1/TEX Cache Throughput").count(), 1);
    assert!(!h.state().settings().show_sol_breakdown);
    h.get_by_label("Show throughput breakdown").click();
    h.run();
    assert!(h.state().settings().show_sol_breakdown);
    // After: a bar too, with the fixture's L1/TEX 15.46 % and L2 78.23 % (first kernel).
    assert_eq!(h.query_all_by_label("L1/TEX Cache Throughput").count(), 2);
    assert_eq!(h.query_all_by_label("L2 Cache Throughput").count(), 2);
    assert_label(&h, "15.46 %");
    assert_label(&h, "78.23 %");
}

#[test]
fn clicking_a_section_title_collapses_it() {
    let mut h = open_settled(vec![fixture_path("h100/kernels_basic.details.txt")]);
    assert_label(&h, "Elapsed Cycles");
    h.get_by_role_and_label(Role::DisclosureTriangle, "GPU Speed Of Light Throughput")
        .click();
    h.run();
    assert!(!has_label(&h, "Elapsed Cycles"));
    // Other sections stay open.
    assert_label(&h, "Registers Per Thread");
}

#[test]
fn keyboard_up_down_moves_the_selection() {
    let mut h = open_settled(vec![fixture_path("h100/kernels_basic.details.txt")]);
    assert_eq!(selected_function(&h), "vector_add");
    h.key_press(egui::Key::ArrowDown);
    h.key_press(egui::Key::ArrowDown);
    h.run();
    assert_eq!(selected_function(&h), "strided_copy");
    h.key_press(egui::Key::ArrowUp);
    h.run();
    let at = h.state().selection().unwrap();
    assert_eq!(at.index, 1);
    // The header follows: result 1 is the second vector_add launch.
    assert_eq!(selected_function(&h), "vector_add");
}

#[test]
fn clicking_a_row_selects_it() {
    let mut h = open_settled(vec![fixture_path("h100/kernels_basic.details.txt")]);
    h.get_by_label("dgemm_naive").click();
    h.run();
    assert_eq!(selected_function(&h), "dgemm_naive");
    // The header names the new kernel with its launch shape.
    assert!(h.query_all_by_label("dgemm_naive").count() >= 2);
    assert_label(&h, "Grid (32, 32, 1)");
}

#[test]
fn sorting_by_duration_puts_the_longest_kernel_first() {
    let truth = load_truth("h100/kernels_basic.truth.json.xz");
    let longest = truth
        .iter()
        .max_by(|a, b| {
            let d = |t: &common::TruthResult| {
                t.metrics["gpu__time_duration.sum"].value.as_f64().unwrap()
            };
            d(a).total_cmp(&d(b))
        })
        .unwrap();
    let mut h = open_settled(vec![fixture_path("h100/kernels_basic.details.txt")]);
    h.get_by_role_and_label(Role::Button, "Duration").click();
    h.run();
    let sort = h.state().settings().sort;
    assert!(!sort.ascending, "durations sort longest first");
    h.state_mut().select_row(0);
    h.run();
    assert_eq!(selected_function(&h), longest.function);
    // A second click flips the order: the shortest kernel (tiny_grid) comes first.
    h.get_by_role_and_label(Role::Button, "Duration").click();
    h.run();
    h.state_mut().select_row(0);
    h.run();
    assert_eq!(selected_function(&h), "tiny_grid");
}

#[test]
fn filter_keeps_matching_kernels() {
    let mut h = open_settled(vec![fixture_path("h100/kernels_basic.details.txt")]);
    type_into(&mut h, "Filter kernels", "MATMUL");
    assert_label(&h, "2 of 13 results");
    assert_label(&h, "matmul_naive");
    // The table shows template arguments after the function name.
    assert_label(&h, "matmul_tiled<32>");
    assert!(!has_label(&h, "strided_copy"));
}

#[test]
fn raw_page_lists_every_metric_and_searches() {
    let mut h = open_settled(vec![fixture_path("h100/kernels_basic.details.txt")]);
    h.get_by_label("Raw").click();
    h.run();
    assert_eq!(h.state().settings().page, PageId::Raw);
    let at = h.state().selection().unwrap();
    let total = h.state().workspace().result(at).unwrap().1.metrics().len();
    assert!(total > 30, "the first result has {total} metrics");
    assert_label(&h, &format!("{total} of {total} metrics"));
    assert_label(&h, "gpu__time_duration.sum");
    type_into(&mut h, "Search metrics", "launch__registers");
    assert_label(&h, &format!("1 of {total} metrics"));
    assert_label(&h, "launch__registers_per_thread");
    assert!(!has_label(&h, "gpu__time_duration.sum"));
}

#[test]
fn csv_exports_load_next_to_each_other() {
    let mut h = open_settled(vec![
        fixture_path("h100/kernels_basic.details.csv"),
        fixture_path("h100/kernels_basic.raw.csv"),
    ]);
    assert_loaded(&h, 2, 26);
    assert_label(&h, "26 of 26 results");
    assert_label(&h, "kernels_basic.details.csv");
    assert_label(&h, "kernels_basic.raw.csv");
    // Both forms carry the first launch's duration (in the table and the header).
    assert_label(&h, "72.64 us");
    assert_label(&h, "Duration 72.64 us");
    let second = sightline_app::core::ids::ResultRef {
        report: h.state().workspace().reports()[1].id,
        index: 0,
    };
    h.state_mut().select(Some(second));
    h.run();
    assert_label(&h, "kernels_basic.raw.csv");
    assert_label(&h, "Duration 72.64 us");
}

#[test]
fn seeds_of_every_text_layout_load() {
    let h = open_settled(vec![
        fixture_path("seeds/gui_details_copy_a100.txt"),
        fixture_path("seeds/cli_details_cc86.txt"),
        fixture_path("seeds/cli_script_log_cutlass.txt"),
    ]);
    // 1 GUI copy result, 5 CC 8.6 kernels, 21 CUTLASS kernels.
    assert_loaded(&h, 3, 27);
    assert_label(&h, "convolutionConstantKernel");
    assert_label(&h, "conv2d_forward_kernel");
    assert_label(&h, "evaluate_loss_kernel<autodiff::MSELoss>");
    // GUI copy: Compute (SM) Throughput 87.60 %, Duration 1.27 ms.
    assert_label(&h, "87.60 %");
    assert_label(&h, "1.27 ms");
}

#[test]
fn a_cutlass_signature_takes_one_line_of_the_header() {
    let h = open_settled(vec![fixture_path("seeds/cli_script_log_cutlass.txt")]);
    let (_, result) = h
        .state()
        .workspace()
        .result(h.state().selection().expect("a selection"))
        .expect("the result");
    let full = result.name.demangled.clone();
    assert!(full.len() > 1000, "{} characters", full.len());
    let shown = sightline_engine::output::kernel_names::short_demangled(
        &full,
        sightline_engine::output::kernel_names::HEADER_NAME_CHARS,
    );
    assert!(shown.contains('…'), "{shown}");
    let line = h.get_by_label(&shown).rect();
    let tabs = h
        .query_all_by_label("Details")
        .map(|n| n.rect())
        .min_by(|a, b| a.top().total_cmp(&b.top()))
        .expect("the Details tab");
    // One line of text, and the page tabs right below the header.
    assert!(
        line.height() < 24.0,
        "the name is {} px high",
        line.height()
    );
    assert!(
        tabs.top() - line.bottom() < 60.0,
        "tabs {tabs:?}, name {line:?}"
    );
}

#[test]
fn ncu_rep_report_shows_header_and_session_page() {
    let dir = temp_dir("ncu_rep");
    let rep = fixture_file(&dir, "h100/kernels_basic.ncu-rep.xz");
    let mut h = open_settled(vec![rep]);
    assert_loaded(&h, 1, 13);
    let truth = load_truth("h100/kernels_basic.truth.json.xz");
    assert_eq!(selected_function(&h), truth[0].function);
    // Header: the GPU and the tool version.
    let gpu = truth[0].metrics["device__attribute_display_name"]
        .value
        .as_str()
        .unwrap()
        .to_string();
    assert!(has_label_containing(&h, &gpu), "GPU {gpu} in the header");
    h.get_by_label("Session").click();
    h.run();
    assert_eq!(h.state().settings().page, PageId::Session);
    assert_label(&h, "Launch Settings");
    assert_label(&h, "Device Attributes");
    assert_label(&h, "Profiler Command Line");
    assert!(has_label_containing(&h, "--set basic"));
    assert!(h.query_all_by_label(&gpu).next().is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ncu_rep_breakdown_lists_stored_members_largest_first() {
    let truth = load_truth("h100/kernels_basic.truth.json.xz");
    let metrics = &truth[0].metrics;
    let throughput = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed";
    let list = metrics[&format!("breakdown:{throughput}")]
        .value
        .as_str()
        .unwrap()
        .to_string();
    let mut members: Vec<(String, f64)> = list
        .split(',')
        .filter_map(|m| Some((m.to_string(), metrics.get(m)?.value.as_f64()?)))
        .collect();
    members.sort_by(|a, b| b.1.total_cmp(&a.1));
    let label = |m: &str| sightline_ui::sol_bars::breakdown_label(m);

    let dir = temp_dir("breakdown");
    let rep = fixture_file(&dir, "h100/kernels_basic.ncu-rep.xz");
    let mut h = open_settled(vec![rep]);
    assert_loaded(&h, 1, 13);
    assert!(!has_label(&h, "Memory Throughput Breakdown"));
    h.get_by_label("Show throughput breakdown").click();
    h.run();
    assert_label(&h, "Compute Throughput Breakdown");
    assert_label(&h, "Memory Throughput Breakdown");
    let first = label(&members[0].0);
    let second = label(&members[1].0);
    assert_eq!(first, "DRAM: Cycles Active");
    let y = |l: &str| h.get_by_label(l).rect().min.y;
    assert!(y(&first) < y(&second), "{first} above {second}");
    assert_label(&h, &format!("{:.2} %", members[1].1));
    let _ = std::fs::remove_dir_all(&dir);
}

#[derive(Debug)]
struct FakeDrop(PathBuf);

impl egui::DroppedFile for FakeDrop {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn dropping_files_shows_an_overlay_then_opens_them() {
    let dir = temp_dir("drop");
    let a = fixture_file(&dir, "h100/kernels_basic.details.txt");
    let b = fixture_file(&dir, "seeds/gui_details_copy_a100.txt");
    let mut h = harness(new_app(Vec::new()));
    h.run();
    for p in [&a, &b] {
        h.input_mut().hovered_files.push(egui::HoveredFile {
            path: Some(p.clone()),
            mime: String::new(),
        });
    }
    // An area is laid out invisibly on its first frame.
    h.run_steps(2);
    assert_label(&h, "Drop to open 2 files");
    assert_label(&h, "kernels_basic.details.txt");
    h.input_mut().hovered_files.clear();
    for p in [&a, &b] {
        h.input_mut()
            .dropped_files
            .push(Arc::new(FakeDrop(p.clone())));
    }
    settle(&mut h);
    assert!(!has_label(&h, "Drop to open 2 files"));
    assert_loaded(&h, 2, 14);
    assert_label(&h, "gui_details_copy_a100.txt");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_broken_file_shows_its_error_and_other_reports_stay() {
    let dir = temp_dir("broken");
    let good = fixture_path("h100/kernels_basic.details.txt");
    let broken = dir.join("garbage.ncu-rep");
    // Deterministic pseudo-random bytes (xorshift), with a NUL so it reads as binary.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let bytes: Vec<u8> = (0..4096)
        .map(|i| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            if i == 10 { 0 } else { (x >> 24) as u8 }
        })
        .collect();
    std::fs::write(&broken, bytes).unwrap();
    let mut h = open_settled(vec![good, broken]);
    assert_loaded(&h, 1, 13);
    assert_eq!(h.state().workspace().failed().len(), 1);
    assert_label(&h, "garbage.ncu-rep");
    assert!(has_label_containing(
        &h,
        "binary content that is not an .ncu-rep report"
    ));
    h.get_by_label("Dismiss garbage.ncu-rep").click();
    h.run();
    assert!(h.state().workspace().failed().is_empty());
    assert!(!has_label(&h, "garbage.ncu-rep"));
    assert_loaded(&h, 1, 13);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_file_names_the_io_error() {
    let dir = temp_dir("missing");
    let mut h = open_settled(vec![dir.join("nope.ncu-rep")]);
    assert_loaded(&h, 0, 0);
    assert_label(&h, "nope.ncu-rep");
    assert!(has_label_containing(&h, "No such file"));
    h.run();
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn closing_a_report_is_one_click() {
    let mut h = open_settled(vec![
        fixture_path("h100/kernels_basic.details.txt"),
        fixture_path("seeds/gui_details_copy_a100.txt"),
    ]);
    assert_loaded(&h, 2, 14);
    h.get_by_label("Close kernels_basic.details.txt").click();
    h.run();
    assert_loaded(&h, 1, 1);
    assert_eq!(selected_function(&h), "convolutionConstantKernel");
    assert_label(&h, "1 of 1 result");
}

#[test]
fn pasting_ncu_text_opens_it() {
    let text = String::from_utf8(fixture_bytes("seeds/cli_details_cc86.txt")).unwrap();
    let mut h = harness(new_app(Vec::new()));
    h.run();
    h.event(egui::Event::Paste(text));
    settle(&mut h);
    assert_loaded(&h, 1, 5);
    assert_label(&h, "Pasted text 1");
    assert_eq!(selected_function(&h), "conv2d_forward_kernel");
}

#[test]
fn the_demo_report_opens_when_no_file_is_given() {
    let app = SightlineApp::new(
        None,
        AppOptions {
            demo_when_empty: true,
            ..AppOptions::default()
        },
    );
    let mut h = harness(app);
    settle(&mut h);
    assert_loaded(&h, 1, 13);
    assert_label(&h, "Demo report (H100)");
    let demo = &h.state().workspace().reports()[0].report;
    assert_eq!(demo.format, sightline_engine::model::Format::NcuRep);
    assert_eq!(selected_function(&h), "vector_add");
    // The embedded report is the basic H100 fixture: same durations as the oracle.
    let truth = load_truth("h100/kernels_basic.truth.json.xz");
    for (result, t) in demo.results.iter().zip(&truth) {
        assert_eq!(
            result.number("gpu__time_duration.sum"),
            t.metrics["gpu__time_duration.sum"].value.as_f64()
        );
    }
}

#[test]
fn open_without_a_file_dialog_says_so_and_takes_a_path() {
    let mut h = harness(new_app(Vec::new()));
    h.run();
    h.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::O);
    h.run();
    let notice = h.state().notice().expect("a notice").to_string();
    assert!(notice.starts_with("No file dialog could be shown"));
    assert!(has_label_containing(&h, "No file dialog could be shown"));
    let path = fixture_path("seeds/gui_details_copy_a100.txt");
    type_into(&mut h, "Path", &path.display().to_string());
    h.get_by_label("Open path").click();
    settle(&mut h);
    assert!(h.state().notice().is_none());
    assert_loaded(&h, 1, 1);
}

#[test]
fn theme_page_and_recent_files_persist() {
    let file = fixture_path("seeds/gui_details_copy_a100.txt");
    let app = SightlineApp::new(None, options(vec![file.clone()], true));
    let mut h = harness(app);
    settle(&mut h);
    assert_eq!(h.state().settings().theme, ThemeChoice::Dark);
    h.get_by_label("View").click();
    h.run();
    h.get_by_label("Light").click();
    h.run();
    assert_eq!(h.state().settings().theme, ThemeChoice::Light);
    assert_eq!(h.ctx.theme(), egui::Theme::Light);
    h.state_mut().settings_mut().page = PageId::Raw;
    let mut storage = MemoryStorage::default();
    eframe::App::save(h.state_mut(), &mut storage);

    let restored = SightlineApp::new(Some(&storage), AppOptions::default());
    assert_eq!(restored.settings().theme, ThemeChoice::Light);
    assert_eq!(restored.settings().page, PageId::Raw);
    assert_eq!(restored.settings().recent_files, vec![file]);

    // With persistence off (tests, screenshots) nothing is written.
    let mut quiet = new_app(Vec::new());
    let mut empty = MemoryStorage::default();
    eframe::App::save(&mut quiet, &mut empty);
    assert!(empty.0.is_empty());
}

#[test]
fn panel_sizes_follow_drags_and_survive_a_restart() {
    let file = fixture_path("h100/kernels_basic.details.txt");
    let start = |storage: Option<&MemoryStorage>| {
        let app = SightlineApp::new(
            storage.map(|s| s as &dyn eframe::Storage),
            options(vec![file.clone()], true),
        );
        let mut h = harness(app);
        settle(&mut h);
        h
    };
    let mut h = start(None);
    let defaults = h.state().settings().panels;
    assert_eq!(
        (defaults.reports_width, defaults.results_height),
        (250.0, 260.0)
    );
    // The Reports panel's right edge dragged 90 points to the right.
    drag(&mut h, egui::pos2(250.0, 600.0), egui::pos2(340.0, 600.0));
    let wider = h.state().settings().panels.reports_width;
    assert!((320.0..=345.0).contains(&wider), "reports panel {wider}");
    let table_left = h.get_by_label("Filter kernels").rect().left();
    assert!(table_left > wider, "the table starts at {table_left}");
    // The results table made taller (as a drag of its lower edge would).
    let taller = 420.0;
    h.state_mut().settings_mut().panels.results_height = taller;
    let mut storage = MemoryStorage::default();
    eframe::App::save(h.state_mut(), &mut storage);

    // A new window (no egui memory) takes the sizes from the settings.
    let h = start(Some(&storage));
    let panels = h.state().settings().panels;
    assert_eq!(
        (panels.reports_width, panels.results_height),
        (wider, taller)
    );
    assert_eq!(h.get_by_label("Filter kernels").rect().left(), table_left);
    // The pages start below the taller table: the page tabs moved down by the difference.
    let tabs = h.get_by_label("Details").rect().top();
    let h = start(None);
    let default_tabs = h.get_by_label("Details").rect().top();
    assert_eq!(tabs - default_tabs, taller - defaults.results_height);
}

#[test]
fn ctrl_wheel_zooms() {
    let mut h = harness(new_app(vec![fixture_path(
        "seeds/gui_details_copy_a100.txt",
    )]));
    settle(&mut h);
    assert_eq!(h.ctx.zoom_factor(), 1.0);
    h.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, 60.0),
        phase: egui::TouchPhase::Move,
        source: egui::MouseWheelSource::Wheel,
        modifiers: egui::Modifiers::COMMAND,
    });
    h.run_steps(30);
    let zoom = h.ctx.zoom_factor();
    assert!(zoom > 1.05, "zoom factor {zoom}");
    assert_eq!(h.state().settings().zoom_factor, zoom);
}

#[test]
fn recent_files_reopen_from_the_menu() {
    let file = fixture_path("seeds/gui_details_copy_a100.txt");
    let mut h = open_settled(vec![file.clone()]);
    h.get_by_label("Close gui_details_copy_a100.txt").click();
    h.run();
    assert_loaded(&h, 0, 0);
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Open Recent").hover();
    h.run();
    h.get_by_label("gui_details_copy_a100.txt").click();
    settle(&mut h);
    assert_loaded(&h, 1, 1);
    assert_eq!(h.state().settings().recent_files, vec![file]);
}

#[test]
fn open_request_from_code_is_the_same_command() {
    let mut h = harness(new_app(Vec::new()));
    h.run();
    let path = fixture_path("h100/kernels_basic.details.txt");
    h.state_mut().open(OpenRequest::Path(path.clone()));
    // Listed as loading (name and size) until a frame takes the outcome.
    let pending = h.state().workspace().pending().to_vec();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0].name, "kernels_basic.details.txt");
    assert_eq!(
        pending[0].size,
        Some(std::fs::metadata(&path).unwrap().len())
    );
    settle(&mut h);
    assert!(h.state().workspace().pending().is_empty());
    assert_loaded(&h, 1, 13);
}

#[test]
fn snapshot_results_table_and_details_page() {
    let mut h = harness_with(
        new_app(vec![fixture_path("h100/kernels_basic.details.txt")]),
        true,
    );
    settle(&mut h);
    assert_loaded(&h, 1, 13);
    h.state_mut().select_row(3);
    h.run();
    h.snapshot("details_page");
    h.get_by_label("Raw").click();
    h.run();
    h.snapshot("raw_page");
}

#[test]
fn snapshot_light_theme_with_breakdown() {
    let mut app = new_app(vec![fixture_path("h100/kernels_basic.details.txt")]);
    app.settings_mut().theme = ThemeChoice::Light;
    app.settings_mut().show_sol_breakdown = true;
    let mut h = harness_with(app, true);
    settle(&mut h);
    h.snapshot("details_page_light");
}

#[test]
fn snapshot_failed_file_next_to_an_open_report() {
    let dir = temp_dir("snapshot_failed");
    let broken = dir.join("truncated.ncu-rep");
    // The magic of a report and nothing else.
    std::fs::write(&broken, b"NVR\0").unwrap();
    let mut h = harness_with(
        new_app(vec![
            fixture_path("seeds/gui_details_copy_a100.txt"),
            broken,
        ]),
        true,
    );
    settle(&mut h);
    assert_loaded(&h, 1, 1);
    assert_eq!(h.state().workspace().failed().len(), 1);
    assert_label(&h, "truncated.ncu-rep");
    h.snapshot("failed_file");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A metric of a report that ncu's raw CSV export gives a unit but no value keeps its unit on
/// the Raw page, its value the not-measured dash.
#[test]
fn raw_page_keeps_the_unit_of_a_metric_without_a_value() {
    let bytes = fixture_bytes("h100/kernels_full.raw.csv.xz");
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(bytes.as_slice());
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("row")).collect();
    let header = rows
        .iter()
        .position(|r| r.get(0) == Some("ID"))
        .expect("header");
    let (names, units) = (&rows[header], &rows[header + 1]);
    // The first result with an empty value of a metric that has a unit.
    let (result, name, unit) = rows[header + 2..]
        .iter()
        .enumerate()
        .find_map(|(i, r)| {
            r.iter().enumerate().find_map(|(j, v)| {
                let unit = units.get(j)?.trim();
                (v.trim().is_empty() && !unit.is_empty())
                    .then(|| (i, names[j].to_string(), unit.to_string()))
            })
        })
        .expect("an empty value with a unit");
    let dir = temp_dir("raw_empty_unit");
    let mut h = open_settled(vec![fixture_file(&dir, "h100/kernels_full.ncu-rep.xz")]);
    let report = h.state().workspace().reports()[0].id;
    h.state_mut()
        .select(Some(sightline_app::core::ids::ResultRef {
            report,
            index: result,
        }));
    h.state_mut().settings_mut().page = PageId::Raw;
    h.run();
    type_into(&mut h, "Search metrics", &name);
    assert!(
        common::app_harness::in_row(&h, &name, &unit),
        "{name}: the unit {unit:?} is not on its row"
    );
    assert!(
        common::app_harness::in_row(&h, &name, sightline_engine::model::format::NOT_MEASURED),
        "{name}: no dash on its row"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
