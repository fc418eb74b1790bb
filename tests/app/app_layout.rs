//! The window on a laptop screen (1280x800 at zoom 1.5: 853x533 points) and the keyboard
//! flows that stay on what is visible: every page starts in the top half of the window, the
//! header folds to one line, the results table folds to a strip and back (button and
//! Ctrl+Shift+Up/Down), the pages whose lists fill the pane scroll as a whole, filtering moves
//! the selection to the first match, shortcuts never act on a hidden result, and the first
//! result of the first report opened is selected at start.

use crate::common;

use common::app_harness::{
    AppHarness, assert_label, harness, has_label, has_label_containing, new_app, options,
    options_with_sass, selected_function, settle_ok, show_page,
};
use common::{fixture_file, fixture_path, load_truth, temp_dir};
use egui::{Key, Modifiers};
use egui_kittest::kittest::{NodeT, Queryable};
use sightline_ui::{PageId, SightlineApp};

const BASIC: &str = "h100/kernels_basic.details.txt";
const TRUTH: &str = "h100/kernels_basic.truth.json.xz";
/// 1280x800 pixels at zoom 1.5.
const LAPTOP: egui::Vec2 = egui::vec2(1280.0 / 1.5, 800.0 / 1.5);

fn laptop(files: Vec<std::path::PathBuf>) -> AppHarness {
    let mut h = harness(new_app(files));
    h.set_size(LAPTOP);
    settle_ok(&mut h);
    h.run();
    h
}

/// The top of the highest label on screen reading `text`.
fn top_of(h: &AppHarness, text: &str) -> f32 {
    h.query_all_by_label(text)
        .map(|n| n.rect().min.y)
        .fold(f32::INFINITY, f32::min)
}

/// The bottom of the page tab `page` (the tab strip, not the View menu's entry).
fn tab_bottom(h: &AppHarness, page: PageId) -> f32 {
    h.query_all_by_role_and_label(egui::accesskit::Role::Button, page.label())
        .map(|n| n.rect().max.y)
        .fold(0.0, f32::max)
}

/// Every page of `report` starts in the top half of the laptop window, the app opened with
/// `options`.
fn every_page_starts_in_the_top_half(options: sightline_ui::AppOptions, label: &str) {
    let mut h = harness(SightlineApp::new(None, options));
    h.set_size(LAPTOP);
    settle_ok(&mut h);
    h.run();
    let half = LAPTOP.y / 2.0;
    // The header is one line: the demangled name is on hover, not on a line of its own.
    assert!(!has_label(
        &h,
        "vector_add(const float *, const float *, float *, int)"
    ));
    for &page in PageId::ALL {
        show_page(&mut h, page);
        h.run();
        let tabs = tab_bottom(&h, page);
        assert!(
            tabs < half * 0.9,
            "{label}: {page:?}: the page starts at {tabs} of {}",
            LAPTOP.y
        );
    }
    show_page(&mut h, PageId::Details);
    let sol = top_of(&h, "GPU Speed Of Light Throughput");
    assert!(sol < half, "{label}: Details: its first section at {sol}");
    show_page(&mut h, PageId::Source);
    h.run();
    let lines = h
        .query_all_by_label_contains("CUDA source (")
        .map(|n| n.rect().min.y)
        .fold(f32::INFINITY, f32::min);
    assert!(
        lines < half * 1.3,
        "{label}: Source: its lines start at {lines}"
    );
}

/// With nvdisasm (SASS text) and without it (the page says how to get SASS), the layout
/// holds: the notice takes one line beside its button.
#[test]
fn on_a_laptop_screen_every_page_starts_in_the_top_half() {
    let dir = temp_dir("layout-pages");
    let report = fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    every_page_starts_in_the_top_half(options_with_sass(vec![report.clone()]), "with nvdisasm");
    let mut h = harness(SightlineApp::new(
        None,
        options(vec![report.clone()], false),
    ));
    h.set_size(LAPTOP);
    settle_ok(&mut h);
    show_page(&mut h, PageId::Source);
    h.run();
    assert!(
        has_label_containing(&h, "No SASS text: nvdisasm was not found"),
        "without nvdisasm the page says so"
    );
    drop(h);
    every_page_starts_in_the_top_half(options(vec![report], false), "without nvdisasm");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_results_table_folds_to_a_strip_and_back() {
    let mut h = laptop(vec![fixture_path(BASIC)]);
    let names: Vec<String> = load_truth(TRUTH).into_iter().map(|t| t.function).collect();
    let tabs_unfolded = tab_bottom(&h, PageId::Details);
    h.get_by_label("\u{25b4} Fold table").click();
    h.run();
    assert!(h.state().settings().panels.results_collapsed);
    let tabs_folded = tab_bottom(&h, PageId::Details);
    assert!(
        tabs_folded < tabs_unfolded - 80.0,
        "the page gains the table's room: {tabs_unfolded} -> {tabs_folded}"
    );
    // The strip names the selected result; Down still moves the selection.
    assert_label(&h, &format!("Row 1 of {}", names.len()));
    h.key_press(Key::ArrowDown);
    h.run();
    assert_eq!(selected_function(&h), names[1]);
    assert_label(&h, &format!("Row 2 of {}", names.len()));
    // Ctrl+Shift+Down unfolds it at its least height, Ctrl+Shift+Up folds it again.
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::ArrowDown);
    h.run();
    assert!(!h.state().settings().panels.results_collapsed);
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::ArrowDown);
    h.run();
    let grown = h.state().settings().panels.results_height_short;
    assert!(grown > 120.0, "a step down grows the table: {grown}");
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::ArrowUp);
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND | Modifiers::SHIFT, Key::ArrowUp);
    h.run();
    assert!(h.state().settings().panels.results_collapsed);
    h.get_by_label("\u{25be} Results table").click();
    h.run();
    assert!(!h.state().settings().panels.results_collapsed);
    // A tall window keeps its own height.
    assert_eq!(h.state().settings().panels.results_height, 260.0);
}

#[test]
fn filtering_moves_the_selection_to_the_first_match_and_keys_act_on_it() {
    let names: Vec<String> = load_truth(TRUTH).into_iter().map(|t| t.function).collect();
    let mut h = harness(new_app(vec![fixture_path(BASIC)]));
    settle_ok(&mut h);
    assert_eq!(selected_function(&h), names[0]);
    let target = names
        .iter()
        .find(|n| !names[0].contains(n.as_str()) && n.starts_with("matmul"))
        .expect("a matmul kernel")
        .clone();
    h.key_press_modifiers(Modifiers::COMMAND, Key::F);
    h.run();
    h.get_by_role_and_label(egui::accesskit::Role::TextInput, "Filter kernels")
        .type_text(&target);
    h.run();
    let first = names.iter().position(|n| n.contains(&target)).unwrap();
    assert_eq!(
        selected_function(&h),
        names[first],
        "the selection follows the filter"
    );
    // Enter hands the keys to the table: End goes to the last match, Ctrl+B marks it.
    h.key_press(Key::Enter);
    h.run();
    h.key_press(Key::End);
    h.run();
    let last = names.iter().rposition(|n| n.contains(&target)).unwrap();
    assert_eq!(selected_function(&h), names[last]);
    h.key_press_modifiers(Modifiers::COMMAND, Key::B);
    h.run();
    assert_eq!(h.state().baselines().len(), 1);
    assert_eq!(h.state().baselines()[0].kernel, names[last]);
}

#[test]
fn shortcuts_do_not_act_on_a_result_the_filter_hides() {
    let names: Vec<String> = load_truth(TRUTH).into_iter().map(|t| t.function).collect();
    let mut h = harness(new_app(vec![fixture_path(BASIC)]));
    settle_ok(&mut h);
    // A filter set without typing (as a restored session would) hides the selection.
    h.state_mut().filter_mut().push_str(&names[3]);
    h.run();
    assert!(has_label(&h, "The selected result is hidden by the filter"));
    h.key_press_modifiers(Modifiers::COMMAND, Key::B);
    h.run();
    assert!(
        h.state().baselines().is_empty(),
        "Ctrl+B on a hidden result"
    );
    h.key_press_modifiers(Modifiers::COMMAND, Key::W);
    h.run();
    assert_eq!(
        h.state().workspace().reports().len(),
        1,
        "Ctrl+W on a hidden result"
    );
}

#[test]
fn the_first_result_of_the_first_report_opened_is_selected() {
    // The large report is opened first and finishes last.
    let dir = temp_dir("layout-first");
    let big = fixture_file(&dir, "big/many_basic.details.txt.xz");
    let small = fixture_path(BASIC);
    let app = SightlineApp::new(None, options(vec![big.clone(), small], false));
    let mut h = harness(app);
    settle_ok(&mut h);
    let at = h.state().selection().expect("a selection");
    let first = h.state().workspace().reports().first().map(|r| r.id);
    assert_eq!(Some(at.report), first);
    assert_eq!(at.index, 0);
    let (open, _) = h.state().workspace().result(at).unwrap();
    assert_eq!(open.path.as_deref(), Some(big.as_path()));
    let _ = std::fs::remove_dir_all(dir);
}

/// The series fixtures v1 to v`runs` open in order in `dir`, on the Trend page once it shows
/// `label` (the trend is built in the background, a spinner meanwhile).
pub(crate) fn series_on_trend_page(dir: &std::path::Path, runs: u32, label: &str) -> AppHarness {
    let files: Vec<std::path::PathBuf> = (1..=runs)
        .map(|v| fixture_file(dir, &format!("series/v{v}.ncu-rep.xz")))
        .collect();
    let app = SightlineApp::new(None, options(Vec::new(), false));
    let mut h = common::app_harness::open_in_order(app, &files, false);
    h.state_mut().settings_mut().page = PageId::Trend;
    assert!(
        common::app_harness::step_until(&mut h, common::app_harness::WAIT_TIMEOUT, |h| {
            has_label(h, label)
        }),
        "the Trend page never showed {label:?}"
    );
    h
}

#[test]
fn the_trend_page_follows_a_kernel_through_the_open_reports() {
    let dir = temp_dir("layout-trend");
    let mut h = series_on_trend_page(&dir, 5, "gemm_step \u{2192} gemm_tiled_2d");
    assert!(has_label(
        &h,
        "5 runs, in the order given: v1, v2, v3, v4, v5"
    ));
    assert!(!has_label(&h, "regressed"));
    // By capture time: v5 was profiled before v4.
    h.get_by_label("by capture time").click();
    assert!(
        common::app_harness::step_until(&mut h, common::app_harness::WAIT_TIMEOUT, |h| {
            has_label(h, "5 runs, by capture time: v1, v2, v3, v5, v4")
        }),
        "the order never changed"
    );
    assert!(has_label(
        &h,
        "gemm_step \u{2192} gemm_tiled_2d over the runs"
    ));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_followed_folder_opens_reports_as_their_writes_complete() {
    let dir = temp_dir("layout-follow");
    let watched = dir.join("runs");
    std::fs::create_dir_all(&watched).unwrap();
    for v in 1..=2 {
        std::fs::write(
            watched.join(format!("v{v}.ncu-rep")),
            common::fixture_bytes(&format!("series/v{v}.ncu-rep.xz")),
        )
        .unwrap();
    }
    let app = SightlineApp::new(
        None,
        sightline_ui::AppOptions {
            follow: Some(watched.clone()),
            ..options(Vec::new(), false)
        },
    );
    let mut h = harness(app);
    let loaded = |h: &AppHarness, n: usize| {
        h.state().workspace().reports().len() == n && !h.state().workspace().is_loading()
    };
    assert!(
        common::app_harness::step_until(&mut h, common::app_harness::WAIT_TIMEOUT, |h| loaded(
            h, 2
        )),
        "the reports already there never opened"
    );
    assert!(has_label(&h, "Following"));
    // v3 copied in two parts with a pause longer than the settling time between them (a
    // stalled copy): never opened half written, opened once whole.
    use sightline_app::core::follow::{FOLLOW_INTERVAL, SETTLE};
    let bytes = common::fixture_bytes("series/v3.ncu-rep.xz");
    let path = watched.join("v3.ncu-rep");
    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    let paused = std::time::Instant::now();
    while paused.elapsed() < SETTLE * 2 + FOLLOW_INTERVAL * 2 {
        h.step();
        std::thread::sleep(FOLLOW_INTERVAL / 5);
        assert_eq!(
            h.state().workspace().reports().len(),
            2,
            "opened half written"
        );
        assert!(h.state().workspace().failed().is_empty());
    }
    std::fs::write(&path, &bytes).unwrap();
    assert!(
        common::app_harness::step_until(&mut h, common::app_harness::WAIT_TIMEOUT, |h| loaded(
            h, 3
        )),
        "the report written while followed never opened"
    );
    assert!(h.state().workspace().failed().is_empty());
    let names: Vec<String> = h
        .state()
        .workspace()
        .reports()
        .iter()
        .map(|r| r.name.clone())
        .collect();
    assert_eq!(names, ["v1.ncu-rep", "v2.ncu-rep", "v3.ncu-rep"]);
    let v3 = &h.state().workspace().reports()[2].report;
    assert_eq!(v3.results.len(), 4);
    assert!(v3.warnings.is_empty(), "{:?}", v3.warnings);
    // One path is one run: v2 written again (here with v5's profile) is read again in place.
    let v5 = common::fixture_bytes("series/v5.ncu-rep.xz");
    std::fs::write(watched.join("v2.ncu-rep"), &v5).unwrap();
    let v5_kernel = sightline_engine::parse::ncu_rep::parse(&v5)
        .expect("v5")
        .results
        .iter()
        .any(|r| r.name.function == "gemm_tiled_2d");
    assert!(v5_kernel);
    assert!(
        common::app_harness::step_until(&mut h, common::app_harness::WAIT_TIMEOUT, |h| {
            let reports = h.state().workspace().reports();
            reports.len() == 3
                && reports[1]
                    .report
                    .results
                    .iter()
                    .any(|r| r.name.function == "gemm_tiled_2d")
        }),
        "v2 written again was not read again in place"
    );
    assert_eq!(h.state().workspace().reports().len(), 3);
    // Stop: nothing more opens.
    h.get_by_label("Stop").click();
    h.run();
    assert!(!has_label(&h, "Following"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_trend_page_charts_a_metric_typed_by_name() {
    let dir = temp_dir("layout-trend-metric");
    let mut h = series_on_trend_page(&dir, 3, "gemm_step over the runs");
    // Every keystroke stays in the field, and the open reports' names that match are offered.
    common::app_harness::type_into(&mut h, "Metric", "dram__cycles_active.avg.pct");
    let typed = h
        .get_by_role_and_label(egui::accesskit::Role::TextInput, "Metric")
        .accesskit_node()
        .value()
        .map(|v| v.to_string());
    assert_eq!(typed.as_deref(), Some("dram__cycles_active.avg.pct"));
    let wanted = "dram__cycles_active.avg.pct_of_peak_sustained_elapsed";
    let names: Vec<String> = load_truth("series/v1.truth.json.xz")
        .into_iter()
        .flat_map(|t| t.metrics.into_keys())
        .collect();
    assert!(
        names.iter().any(|n| n == wanted),
        "the reports hold {wanted}"
    );
    assert!(has_label(&h, "Metrics:"));
    h.get_by_label(wanted).click();
    h.step();
    assert!(
        common::app_harness::step_until(&mut h, common::app_harness::WAIT_TIMEOUT, |h| {
            !has_label(h, "Metrics:") && has_label(h, "gemm_step over the runs")
        }),
        "the metric was never charted"
    );
    // The chart's choice now names the metric (the field is not the only place it shows).
    let shown = h
        .query_all_by(|n| {
            n.role() != egui::accesskit::Role::TextInput
                && [n.label(), n.value()]
                    .into_iter()
                    .flatten()
                    .any(|t| t == wanted)
        })
        .count();
    assert!(shown > 0, "the Chart choice shows the metric");
    let _ = std::fs::remove_dir_all(dir);
}
