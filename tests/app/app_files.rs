//! Files in the desktop app, driven headless with egui_kittest: loads that are cancelled (one,
//! or all at once) never add a report, loading progress, reports whose file changes on disk
//! (the bar, Reload in place keeping position, selection and baselines, Dismiss), files that
//! vanish, reloads that fail, files that start loading before the window and the central
//! panel while files open, and the `--time-to-table` measurement.

use crate::common;

use common::app_harness::{
    AppHarness, WAIT_TIMEOUT, assert_label, assert_label_containing, assert_loaded, fixture_copies,
    harness, harness_with, has_label, has_label_containing, new_app, report_names,
    selected_function, settle, settle_ok, step_until,
};
use common::{fixture_bytes, fixture_file, fixture_path, load_truth, temp_dir};
use egui_kittest::kittest::Queryable;
use sightline_app::core::ids::ResultRef;
use sightline_app::core::started_loads::StartedLoads;
use sightline_engine::output::text::size_text;
use sightline_ui::{AppOptions, Command, OpenRequest, PageId, SightlineApp};
use std::path::{Path, PathBuf};
use std::time::Duration;

const BIG: &str = "big/many_basic.details.txt.xz";
const BIG_NAME: &str = "many_basic.details.txt";
const BASIC: &str = "h100/kernels_basic.details.txt";
/// Long enough for a loading thread that was not stopped to finish its parse (debug build).
const THREAD_TIMEOUT: Duration = WAIT_TIMEOUT;
/// The file watcher's interval in the tests that do not check the default one.
const FAST_POLL: Duration = Duration::from_millis(100);

/// The app opening `file` (loaded), its file watched every [`FAST_POLL`].
fn watching(file: &Path) -> AppHarness {
    let mut h = harness(new_app(vec![file.to_path_buf()]));
    h.state_mut().set_file_poll_interval(FAST_POLL);
    settle_ok(&mut h);
    h
}

/// Steps frames until `label` shows (a file watcher's finding); false after
/// [`THREAD_TIMEOUT`] (the wait ends as soon as it shows, so a busy machine only makes it
/// longer).
fn wait_for_label(h: &mut AppHarness, label: &str) -> bool {
    step_until(h, THREAD_TIMEOUT, |h| has_label(h, label))
}

/// Steps frames until no loading thread is alive (a cancelled one ends by itself).
fn wait_for_threads(h: &mut AppHarness) {
    assert!(
        step_until(h, THREAD_TIMEOUT, |h| h.state().loading_threads() == 0),
        "a loading thread did not end"
    );
    h.run();
}

#[test]
fn a_pending_load_shows_its_size_and_cancelling_it_adds_nothing() {
    let dir = temp_dir("cancel_one");
    let big = fixture_file(&dir, BIG);
    let size = std::fs::metadata(&big).unwrap().len();
    let mut h = harness(new_app(Vec::new()));
    h.run();
    h.state_mut().open(OpenRequest::Path(big));
    h.step();
    // Listed with a spinner, its size and the time so far, and a Cancel button.
    assert_label(&h, BIG_NAME);
    // "3.0 MB" alone, or "X of 3.0 MB" once bytes are read.
    assert_label_containing(&h, &format!("{} · ", size_text(size)));
    assert_eq!(size_text(size), "3.0 MB");
    assert!(!has_label(&h, "Cancel all"), "one load: no Cancel all");
    h.get_by_label(&format!("Cancel {BIG_NAME}")).click();
    h.run();
    // Gone at once, before its thread ended.
    assert!(h.state().workspace().pending().is_empty());
    assert!(!has_label(&h, BIG_NAME));
    wait_for_threads(&mut h);
    // Whatever the thread had read was dropped: no report, no error.
    assert_loaded(&h, 0, 0);
    assert!(h.state().workspace().failed().is_empty());
    assert!(!has_label(&h, BIG_NAME));
    assert_label(&h, "No report open.");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A load cancelled while its thread is blocked opening the file (a pipe nobody writes yet):
/// once the pipe opens, the thread finds the load cancelled and ends; its outcome (here an
/// error: the pipe is empty) is never shown.
#[cfg(target_os = "linux")]
#[test]
fn the_late_outcome_of_a_cancelled_load_is_dropped() {
    let dir = temp_dir("cancel_pipe");
    let pipe = pipes(&dir, &["incoming.details.txt"]).remove(0);
    let mut h = harness(new_app(vec![pipe.clone()]));
    h.step();
    assert_label(&h, "incoming.details.txt");
    assert_eq!(h.state().loading_threads(), 1);
    // Once it has a core, its thread goes on to open the pipe, and waits there.
    assert!(step_until(&mut h, THREAD_TIMEOUT, |h| {
        h.state().workspace().pending()[0].control.has_started()
    }));
    std::thread::sleep(Duration::from_millis(100));
    h.get_by_label("Cancel incoming.details.txt").click();
    h.run();
    assert!(h.state().workspace().pending().is_empty());
    assert!(!has_label(&h, "incoming.details.txt"));
    release_pipes(&mut h, std::slice::from_ref(&pipe));
    assert_loaded(&h, 0, 0);
    assert!(
        h.state().workspace().failed().is_empty(),
        "{:?}",
        h.state().workspace().failed()
    );
    assert!(!has_label(&h, "incoming.details.txt"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Named pipes in `dir` that nobody writes yet: a load of one waits until it is cancelled.
#[cfg(target_os = "linux")]
fn pipes(dir: &Path, names: &[&str]) -> Vec<PathBuf> {
    names
        .iter()
        .map(|name| {
            let pipe = dir.join(name);
            let made = std::process::Command::new("mkfifo")
                .arg(&pipe)
                .status()
                .unwrap();
            assert!(made.success());
            pipe
        })
        .collect()
}

/// Lets the loading threads waiting on `pipes` go on, each opening a writer (without
/// blocking: it succeeds only while a reader waits, ENXIO otherwise), and waits for them.
#[cfg(target_os = "linux")]
fn release_pipes(h: &mut AppHarness, pipes: &[PathBuf]) {
    use std::os::unix::fs::OpenOptionsExt;
    const O_NONBLOCK: i32 = 0o4000;
    let mut waiting: Vec<&PathBuf> = pipes.iter().collect();
    while h.state().loading_threads() > 0 && !waiting.is_empty() {
        waiting.retain(|pipe| {
            std::fs::OpenOptions::new()
                .write(true)
                .custom_flags(O_NONBLOCK)
                .open(pipe)
                .is_err()
        });
        std::thread::sleep(Duration::from_millis(10));
    }
    wait_for_threads(h);
}

/// While no report is open, the central panel shows the files being opened (one by name,
/// several by count), each with a Cancel button of its own, and the welcome again once none
/// is left.
#[cfg(target_os = "linux")]
#[test]
fn with_no_report_open_the_central_panel_shows_each_file_being_opened() {
    let dir = temp_dir("central_loading");
    let names = ["first.details.txt", "second.details.txt"];
    let incoming = pipes(&dir, &names);
    let mut h = harness(new_app(Vec::new()));
    h.run();
    assert_label(&h, "Open a Nsight Compute result");
    h.state_mut().open(OpenRequest::Path(incoming[0].clone()));
    h.step();
    assert_label(&h, "Opening first.details.txt");
    assert!(!has_label(&h, "Open a Nsight Compute result"));
    h.state_mut().open(OpenRequest::Path(incoming[1].clone()));
    h.step();
    assert_label(&h, "Opening 2 files");
    h.get_by_label("Cancel opening first.details.txt").click();
    h.run();
    assert_eq!(h.state().workspace().pending().len(), 1);
    assert_label(&h, "Opening second.details.txt");
    assert!(!has_label(&h, "Cancel opening first.details.txt"));
    h.get_by_label("Cancel opening second.details.txt").click();
    h.run();
    assert!(h.state().workspace().pending().is_empty());
    assert_label(&h, "Open a Nsight Compute result");
    release_pipes(&mut h, &incoming);
    assert_loaded(&h, 0, 0);
    assert!(h.state().workspace().failed().is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cancel_all_stops_every_load_and_other_reports_stay() {
    let dir = temp_dir("cancel_all");
    let copies = fixture_copies(&dir, BIG, 4);
    let mut h = harness(new_app(vec![fixture_path(BASIC)]));
    settle_ok(&mut h);
    assert_loaded(&h, 1, 13);
    for path in &copies {
        h.state_mut().open(OpenRequest::Path(path.clone()));
    }
    h.step();
    assert_eq!(h.state().workspace().pending().len(), 4);
    assert_label(&h, "Loading 4 files");
    for path in &copies {
        let name = path.file_name().unwrap().to_string_lossy();
        assert_label(&h, &format!("Cancel {name}"));
    }
    h.get_by_label("Cancel all").click();
    h.run();
    assert!(h.state().workspace().pending().is_empty());
    assert!(!has_label(&h, "Cancel all"));
    wait_for_threads(&mut h);
    assert_loaded(&h, 1, 13);
    assert!(h.state().workspace().failed().is_empty());
    assert_eq!(selected_function(&h), "vector_add");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first `results` results of the basic text report, as a copy cut short would hold them
/// (the text up to the header line of the next result).
fn first_results_of_basic(results: usize) -> String {
    let text = String::from_utf8(fixture_bytes(BASIC)).unwrap();
    let mut headers = 0;
    let mut end = text.len();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.contains(", Context 1, Stream ") {
            headers += 1;
            if headers == results + 1 {
                end = offset;
                break;
            }
        }
        offset += line.len();
    }
    text[..end].to_string()
}

#[test]
fn a_changed_file_shows_a_bar_and_reload_replaces_the_report_in_place() {
    let dir = temp_dir("reload");
    let other = fixture_file(&dir, "seeds/gui_details_copy_a100.txt");
    let copy = dir.join("kernels_basic.details.txt");
    std::fs::write(&copy, first_results_of_basic(2)).unwrap();
    let mut h = harness(new_app(Vec::new()));
    for f in [&other, &copy] {
        h.state_mut().open(OpenRequest::Path(f.clone()));
        settle_ok(&mut h);
    }
    assert_loaded(&h, 2, 3);
    let copy_id = h.state().workspace().reports()[1].id;
    // The second vector_add launch selected, the first one a baseline.
    let first = ResultRef {
        report: copy_id,
        index: 0,
    };
    let second = ResultRef {
        report: copy_id,
        index: 1,
    };
    h.state_mut().handle(Command::SetBaseline(first));
    h.state_mut().select(Some(second));
    h.run();
    assert!(!has_label_containing(&h, "changed on disk"));

    // The rest of the file arrives; the default interval (one second) passes.
    std::fs::write(&copy, fixture_bytes(BASIC)).unwrap();
    assert!(
        wait_for_label(&mut h, "kernels_basic.details.txt changed on disk"),
        "no bar for the changed file"
    );
    h.run();
    assert_label(&h, "Changed on disk");
    // Still the old report until asked.
    assert_loaded(&h, 2, 3);
    h.get_by_label("Reload kernels_basic.details.txt").click();
    settle_ok(&mut h);

    let truth = load_truth("h100/kernels_basic.truth.json.xz");
    assert_loaded(&h, 2, 1 + truth.len());
    assert!(!has_label_containing(&h, "changed on disk"));
    assert!(!has_label(&h, "Changed on disk"));
    let ws = h.state().workspace();
    // Same place, same id, the new results.
    assert_eq!(ws.reports()[1].id, copy_id);
    assert_eq!(ws.reports()[1].name, "kernels_basic.details.txt");
    assert_eq!(ws.reports()[1].report.results.len(), truth.len());
    let kernels: Vec<&str> = ws.reports()[1]
        .report
        .results
        .iter()
        .map(|r| r.name.function.as_str())
        .collect();
    let expected: Vec<&str> = truth.iter().map(|t| t.function.as_str()).collect();
    assert_eq!(kernels, expected);
    // The table keeps report order: the other report's row, then the reloaded ones.
    let rows: Vec<(usize, usize)> = ws
        .rows()
        .iter()
        .map(|r| (r.report_order, r.result.index))
        .collect();
    let mut expected_rows = vec![(0, 0)];
    expected_rows.extend((0..truth.len()).map(|i| (1, i)));
    assert_eq!(rows, expected_rows);
    // Selection and baseline stay on the same results.
    assert_eq!(h.state().selection(), Some(second));
    assert_eq!(h.state().baselines().len(), 1);
    assert_eq!(h.state().baselines()[0].attached, Some(first));
    assert_label(
        &h,
        &format!("{} of {} results", 1 + truth.len(), 1 + truth.len()),
    );
    assert_label(&h, "matmul_tiled<32>");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn dismissing_the_bar_hides_it_until_the_next_change() {
    let dir = temp_dir("dismiss");
    let copy = dir.join("kernels_basic.details.txt");
    std::fs::write(&copy, first_results_of_basic(2)).unwrap();
    let mut h = watching(&copy);
    assert_loaded(&h, 1, 2);
    let bar = "kernels_basic.details.txt changed on disk";
    std::fs::write(&copy, first_results_of_basic(3)).unwrap();
    assert!(wait_for_label(&mut h, bar));
    h.get_by_label("Dismiss the notice about kernels_basic.details.txt")
        .click();
    h.run();
    assert!(!has_label(&h, bar));
    // Several intervals later it stays away: the file did not change again.
    std::thread::sleep(FAST_POLL * 4);
    h.run();
    assert!(!has_label(&h, bar));
    assert_loaded(&h, 1, 2);
    // Another change brings it back.
    std::fs::write(&copy, first_results_of_basic(4)).unwrap();
    assert!(wait_for_label(&mut h, bar));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn always_reload_reads_changed_files_again_through_the_reload_command() {
    let dir = temp_dir("always_reload");
    let copy = dir.join("kernels_basic.details.txt");
    std::fs::write(&copy, first_results_of_basic(2)).unwrap();
    let mut h = watching(&copy);
    assert!(!h.state().settings().reload_changed_files);
    let bar = "kernels_basic.details.txt changed on disk";
    std::fs::write(&copy, first_results_of_basic(3)).unwrap();
    assert!(wait_for_label(&mut h, bar));
    assert_loaded(&h, 1, 2);
    // "Always reload" reloads the changed file at once and remembers the choice.
    h.get_by_label("Always reload").click();
    settle_ok(&mut h);
    assert!(h.state().settings().reload_changed_files);
    assert_loaded(&h, 1, 3);
    assert!(!has_label(&h, bar));
    // The next change is read without a bar; the report keeps its id.
    let id = h.state().workspace().reports()[0].id;
    std::fs::write(&copy, first_results_of_basic(4)).unwrap();
    assert!(
        step_until(&mut h, THREAD_TIMEOUT, |h| {
            h.state()
                .workspace()
                .report(id)
                .map(|r| r.report.results.len())
                == Some(4)
        }),
        "the changed file was not reloaded"
    );
    settle_ok(&mut h);
    assert!(!has_label(&h, bar));
    assert_loaded(&h, 1, 4);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_vanished_file_says_so_and_its_report_stays() {
    let dir = temp_dir("vanished");
    let copy = fixture_file(&dir, BASIC);
    let mut h = watching(&copy);
    std::fs::remove_file(&copy).unwrap();
    let text = "kernels_basic.details.txt is no longer on disk (removed or renamed); the report \
                shown stays open";
    assert!(
        wait_for_label(&mut h, text),
        "no notice for the removed file"
    );
    h.run();
    assert_label(&h, "File no longer readable");
    assert!(!has_label(&h, "Reload kernels_basic.details.txt"));
    assert_loaded(&h, 1, 13);
    // Written again (with a new modification time): now it counts as changed.
    std::fs::write(&copy, fixture_bytes(BASIC)).unwrap();
    assert!(wait_for_label(
        &mut h,
        "kernels_basic.details.txt changed on disk"
    ));
    assert!(!has_label(&h, text));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_failed_reload_keeps_the_report_and_shows_the_error() {
    let dir = temp_dir("reload_fails");
    let copy = fixture_file(&dir, BASIC);
    let mut h = watching(&copy);
    assert_loaded(&h, 1, 13);
    h.state_mut().select_row(4);
    h.run();
    assert_eq!(selected_function(&h), "matmul_tiled");
    // Overwritten by bytes that are no report (binary, with a NUL).
    let mut garbage = vec![0x5a_u8; 2048];
    garbage[7] = 0;
    std::fs::write(&copy, &garbage).unwrap();
    assert!(wait_for_label(&mut h, "Reload kernels_basic.details.txt"));
    h.get_by_label("Reload kernels_basic.details.txt").click();
    settle(&mut h);
    assert_label_containing(&h, "Reloading kernels_basic.details.txt failed: ");
    assert_label_containing(&h, "The report shown is the one loaded before.");
    assert_label(&h, "Reload failed");
    assert!(
        h.state().workspace().failed().is_empty(),
        "not a failed open"
    );
    assert_loaded(&h, 1, 13);
    assert_eq!(selected_function(&h), "matmul_tiled");
    h.get_by_label("Dismiss the notice about kernels_basic.details.txt")
        .click();
    h.run();
    assert!(!has_label_containing(
        &h,
        "Reloading kernels_basic.details.txt"
    ));
    assert_loaded(&h, 1, 13);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn closing_a_report_while_it_reloads_drops_the_reload() {
    let dir = temp_dir("close_reloading");
    let copy = dir.join(BIG_NAME);
    std::fs::write(&copy, first_results_of_basic(2)).unwrap();
    let mut h = watching(&copy);
    assert_loaded(&h, 1, 2);
    std::fs::write(&copy, fixture_bytes(BIG)).unwrap();
    assert!(wait_for_label(&mut h, &format!("Reload {BIG_NAME}")));
    h.get_by_label(&format!("Reload {BIG_NAME}")).click();
    h.step();
    h.step();
    assert_label(&h, &format!("Reloading {BIG_NAME}"));
    assert_label(&h, &format!("Reloading {BIG_NAME}…"));
    h.get_by_label(&format!("Close {BIG_NAME}")).click();
    h.run();
    assert!(h.state().workspace().pending().is_empty());
    wait_for_threads(&mut h);
    assert_loaded(&h, 0, 0);
    // Named only by the bar that offers to open it again.
    let closed = format!("Closed {BIG_NAME}.");
    assert!(has_label(&h, &closed));
    assert_eq!(h.query_all_by_label_contains(BIG_NAME).count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn time_to_table_closes_the_window_after_the_complete_table() {
    let dir = temp_dir("time_to_table");
    let big = fixture_file(&dir, BIG);
    let mut h = harness(new_app(vec![fixture_path(BASIC), big]));
    h.state_mut()
        .report_time_to_table(std::time::Instant::now());
    let closes = |h: &AppHarness| {
        h.output()
            .viewport_output
            .values()
            .any(|v| v.commands.contains(&egui::ViewportCommand::Close))
    };
    // The frame before the one that closes showed every result of both reports.
    let complete = "413 of 413 results";
    let mut shown_before_closing = false;
    let closed = step_until(&mut h, THREAD_TIMEOUT, |h| {
        if closes(h) {
            return true;
        }
        shown_before_closing = has_label(h, complete);
        false
    });
    assert!(closed, "the window did not close");
    assert!(
        shown_before_closing,
        "closed before the table showed {complete}"
    );
    assert_loaded(&h, 2, 413);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn files_started_before_the_window_are_its_loads_in_order_and_no_demo_opens() {
    let dir = temp_dir("started_loads");
    let big = fixture_file(&dir, BIG);
    let started = StartedLoads::start([
        OpenRequest::Path(big.clone()),
        OpenRequest::Path(fixture_path(BASIC)),
    ]);
    assert_eq!(started.len(), 2);
    let options = AppOptions {
        demo_when_empty: true,
        ..common::app_harness::options(Vec::new(), false)
    };
    let app = SightlineApp::with_started_loads(None, options, started);
    let pending: Vec<Option<PathBuf>> = app
        .state()
        .workspace()
        .pending()
        .iter()
        .map(|p| p.path.clone())
        .collect();
    assert_eq!(pending, [Some(big.clone()), Some(fixture_path(BASIC))]);
    let mut h = harness(app);
    settle_ok(&mut h);
    assert_loaded(&h, 2, 413);
    assert_eq!(report_names(&h), [BIG_NAME, "kernels_basic.details.txt"]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn click_through_selects_the_rows_one_per_frame_on_the_details_page_then_closes() {
    let dir = temp_dir("click_through");
    let report = fixture_file(&dir, "big/many_basic.ncu-rep.xz");
    let mut h = harness(new_app(vec![report]));
    h.state_mut()
        .click_through_then_report(std::time::Instant::now(), 40);
    let closes = |h: &AppHarness| {
        h.output()
            .viewport_output
            .values()
            .any(|v| v.commands.contains(&egui::ViewportCommand::Close))
    };
    // The selection of every frame drawn before the window closes.
    let mut selected: Vec<Option<ResultRef>> = Vec::new();
    let closed = step_until(&mut h, THREAD_TIMEOUT, |h| {
        if closes(h) {
            return true;
        }
        selected.push(h.state().selection());
        false
    });
    assert!(closed, "the window did not close");
    assert_loaded(&h, 1, 400);
    let report = h.state().workspace().reports()[0].id;
    // The table lists the results in file order: the last 40 frames drawn selected results
    // 0, 1, ..., 39, one per frame.
    let expected: Vec<Option<ResultRef>> = (0..40)
        .map(|index| Some(ResultRef { report, index }))
        .collect();
    assert!(selected.len() >= 40, "{} frames", selected.len());
    assert_eq!(selected[selected.len() - 40..], expected[..]);
    assert_eq!(h.state().settings().page, PageId::Details);
    // Each body was decoded to be shown, and released again once it was not among the last used
    // (a frame releases before it draws, so the last frame's body comes on top).
    let decoded = h.state().workspace().reports()[0].report.decoded_bodies();
    assert!(
        (1..=sightline_app::core::state::KEPT_BODIES + 1).contains(&decoded),
        "{decoded} bodies decoded"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The app with a report whose file changed on disk (the bar above the table, the mark in the
/// list of reports), drawn by `harness`.
fn changed_file_bar(harness: impl FnOnce(SightlineApp) -> AppHarness) -> (AppHarness, PathBuf) {
    let dir = temp_dir("changed_file_bar");
    let copy = dir.join("kernels_basic.details.txt");
    std::fs::write(&copy, first_results_of_basic(2)).unwrap();
    let mut app = new_app(vec![copy.clone()]);
    app.set_file_poll_interval(FAST_POLL);
    let mut h = harness(app);
    settle_ok(&mut h);
    std::fs::write(&copy, fixture_bytes(BASIC)).unwrap();
    assert!(wait_for_label(
        &mut h,
        "kernels_basic.details.txt changed on disk"
    ));
    h.run();
    (h, dir)
}

#[test]
fn snapshot_changed_file_bar() {
    let (mut h, dir) = changed_file_bar(|app| harness_with(app, true));
    h.snapshot("changed_file_bar");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A rendering harness of the size of the documentation's screenshots whose app covers the
/// whole window, as in the real one (the test harness puts a margin around what it draws).
fn docs_harness(app: SightlineApp) -> AppHarness {
    egui_kittest::Harness::builder()
        .with_size([1360.0, 860.0])
        .with_max_steps(12)
        .wgpu()
        .build_ui_state(
            |ui, app: &mut SightlineApp| {
                let ctx = ui.ctx().clone();
                let mut window = egui::Ui::new(
                    ctx.clone(),
                    egui::Id::unique("docs_screenshot_window"),
                    egui::UiBuilder::new()
                        .layer_id(egui::LayerId::background())
                        .max_rect(ctx.viewport_rect()),
                );
                app.ui(&mut window);
            },
            app,
        )
}

/// Writes the screenshots of the documentation (`docs/screenshots/app_reload.png`,
/// `app_loading.png`), rendered like the snapshots:
/// `cargo test --test app -- --ignored docs_screenshots`.
#[test]
#[ignore = "writes the documentation's screenshots"]
fn docs_screenshots() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/screenshots");
    let (mut h, dir) = changed_file_bar(docs_harness);
    h.render()
        .unwrap()
        .save(docs.join("app_reload.png"))
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);

    // Six large reports loading (those without a free core waiting) next to an open one.
    let dir = temp_dir("docs_loading");
    let bytes = fixture_bytes("big/many_basic.ncu-rep.xz");
    let files: Vec<PathBuf> = (1..=6)
        .map(|i| {
            let path = dir.join(format!("nightly_run_{i}.ncu-rep"));
            std::fs::write(&path, &bytes).unwrap();
            path
        })
        .collect();
    let mut h = docs_harness(new_app(vec![fixture_path(BASIC)]));
    settle_ok(&mut h);
    for path in files {
        h.state_mut().open(OpenRequest::Path(path));
    }
    std::thread::sleep(Duration::from_millis(300));
    h.step();
    h.step();
    assert_eq!(h.state().workspace().pending().len(), 6);
    assert_label(&h, "Cancel all");
    h.render()
        .unwrap()
        .save(docs.join("app_loading.png"))
        .unwrap();
    h.get_by_label("Cancel all").click();
    // The spinners keep repainting until the cancelled threads are gone.
    h.step();
    wait_for_threads(&mut h);
    let _ = std::fs::remove_dir_all(&dir);
}
