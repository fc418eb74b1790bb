//! Driving the desktop app headless with egui_kittest: building the app and its harness,
//! waiting for background loads, temporary copies of fixtures, and queries on what is shown.

use super::{fixture_bytes, fixture_file};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use egui_kittest::{Harness, SnapshotOptions};
use sightline_engine::parse::sass::Disassembler;
use sightline_ui::{AppOptions, PageId, SightlineApp};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The window the tests draw into.
pub const WINDOW: [f32; 2] = [1400.0, 900.0];

/// The harness of the app.
pub type AppHarness = Harness<'static, SightlineApp>;

/// `n` copies of a fixture in `dir`, `many_basic.details.txt` giving
/// `many_basic_0.details.txt`, `many_basic_1.details.txt`, ...
pub fn fixture_copies(dir: &Path, rel: &str, n: usize) -> Vec<PathBuf> {
    let bytes = fixture_bytes(rel);
    let name = Path::new(rel.trim_end_matches(".xz"))
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let (stem, rest) = name.split_once('.').unwrap_or((&name, ""));
    (0..n)
        .map(|i| {
            let path = dir.join(format!("{stem}_{i}.{rest}"));
            std::fs::write(&path, &bytes).unwrap();
            path
        })
        .collect()
}

/// Start options without the demo or a file dialog; `persist` saves settings. No nvdisasm is
/// run and no cache read, so what a page shows never depends on the machine or on an earlier
/// test: a test that wants SASS text names its nvdisasm ([`options_with_sass`]).
pub fn options(files: Vec<PathBuf>, persist: bool) -> AppOptions {
    AppOptions {
        files,
        demo_when_empty: false,
        persist_state: persist,
        file_dialog: false,
        follow: None,
        disassembler: Disassembler::none(),
    }
}

/// [`options`] with pip's nvdisasm of the test environment ([`super::pip_disassembler`]).
pub fn options_with_sass(files: Vec<PathBuf>) -> AppOptions {
    AppOptions {
        disassembler: super::pip_disassembler(),
        ..options(files, false)
    }
}

/// The app opening `files`, saving nothing.
pub fn new_app(files: Vec<PathBuf>) -> SightlineApp {
    SightlineApp::new(None, options(files, false))
}

/// Image comparisons: text rasterisation differs slightly between software renderers.
pub fn snapshot_options() -> SnapshotOptions {
    SnapshotOptions::new().threshold(2.0).max_failed_pixels(400)
}

/// A harness of `app`; with `snapshots` it renders (wgpu) for image comparisons.
pub fn harness_with(app: SightlineApp, snapshots: bool) -> AppHarness {
    let builder = Harness::builder().with_size(WINDOW).with_max_steps(12);
    if snapshots {
        builder
            .with_options(snapshot_options())
            .wgpu()
            .build_ui_state(|ui, app: &mut SightlineApp| app.ui(ui), app)
    } else {
        builder.build_ui_state(|ui, app: &mut SightlineApp| app.ui(ui), app)
    }
}

/// A harness of `app` that does not render.
pub fn harness(app: SightlineApp) -> AppHarness {
    harness_with(app, false)
}

/// Runs a frame, waits for every background load, then lets the UI settle.
pub fn settle(h: &mut AppHarness) {
    h.step();
    assert!(
        h.state_mut().wait_for_loads(WAIT_TIMEOUT),
        "loads did not finish"
    );
    until_compared(h);
}

/// The names of the open reports, in the order the Reports panel lists them.
pub fn report_names(h: &AppHarness) -> Vec<&str> {
    h.state()
        .workspace()
        .reports()
        .iter()
        .map(|r| r.name.as_str())
        .collect()
}

/// The failure messages, to show when a report that should have loaded did not.
pub fn failures(h: &AppHarness) -> String {
    h.state()
        .workspace()
        .failed()
        .iter()
        .map(|f| format!("{}: {}", f.name, f.error))
        .collect::<Vec<_>>()
        .join("\n")
}

/// [`settle`], then asserts that every file loaded.
#[track_caller]
pub fn settle_ok(h: &mut AppHarness) {
    settle(h);
    assert!(h.state().workspace().failed().is_empty(), "{}", failures(h));
}

/// The app opening `files` (at once, in any order), settled.
pub fn open_settled(files: Vec<PathBuf>) -> AppHarness {
    let mut h = harness(new_app(files));
    settle(&mut h);
    h
}

/// The app opening `files` (at once), settled, every file loaded.
pub fn open_ok(files: Vec<PathBuf>, snapshots: bool) -> AppHarness {
    let mut h = harness_with(new_app(files), snapshots);
    settle_ok(&mut h);
    h
}

/// Opens the files one after the other (so the report order is fixed), every one loaded.
pub fn open_in_order(app: SightlineApp, files: &[PathBuf], snapshots: bool) -> AppHarness {
    let mut h = harness_with(app, snapshots);
    for f in files {
        h.state_mut()
            .open(sightline_ui::OpenRequest::Path(f.clone()));
        settle_ok(&mut h);
    }
    h
}

/// Longest a test waits for something the app does on its own threads (a load, a comparison,
/// a file watcher's finding). A wait ends as soon as the thing happens, so this only bounds a
/// failure; it is far above a debug build's time on a busy machine.
pub const WAIT_TIMEOUT: Duration = Duration::from_secs(120);

/// Steps frames (with a short sleep between them) until `done` holds; false after `timeout`.
pub fn step_until(
    h: &mut AppHarness,
    timeout: Duration,
    mut done: impl FnMut(&AppHarness) -> bool,
) -> bool {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        h.step();
        if done(h) {
            return true;
        }
        if std::time::Instant::now() > deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[track_caller]
pub fn assert_loaded(h: &AppHarness, reports: usize, results: usize) {
    let ws = h.state().workspace();
    assert_eq!(ws.reports().len(), reports, "failed: {}", failures(h));
    assert_eq!(ws.result_count(), results);
}

pub fn has_label(h: &AppHarness, label: &str) -> bool {
    h.query_all_by_label(label).next().is_some()
}

pub fn has_label_containing(h: &AppHarness, part: &str) -> bool {
    h.query_all_by_label_contains(part).next().is_some()
}

#[track_caller]
pub fn assert_label(h: &AppHarness, label: &str) {
    assert!(has_label(h, label), "no label {label:?} on screen");
}

/// Asserts every label with [`assert_label`].
#[track_caller]
pub fn assert_labels(h: &AppHarness, labels: &[&str]) {
    for label in labels {
        assert_label(h, label);
    }
}

#[track_caller]
pub fn assert_label_containing(h: &AppHarness, part: &str) {
    assert!(
        has_label_containing(h, part),
        "no label containing {part:?}"
    );
}

/// Focuses the text field labelled `label` and types into it.
pub fn type_into(h: &mut AppHarness, label: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, label).focus();
    h.run();
    h.get_by_role_and_label(Role::TextInput, label)
        .type_text(text);
    h.run();
}

/// Name of the selected result's kernel function.
pub fn selected_function(h: &AppHarness) -> String {
    let app = h.state();
    let at = app.selection().expect("a selected result");
    let (_, result) = app.workspace().result(at).expect("selected result exists");
    result.name.function.clone()
}

/// Clicks a page's tab (the lowest button with its name: the results table above has an
/// Occupancy column).
pub fn show_page(h: &mut AppHarness, page: PageId) {
    h.query_all_by_role_and_label(Role::Button, page.label())
        .max_by(|a, b| a.rect().center().y.total_cmp(&b.rect().center().y))
        .expect("a tab")
        .click();
    until_compared(h);
    assert_eq!(h.state().settings().page, page);
}

/// Steps until no page is still building its view in the background ("Comparing…", the
/// Source page reading its code), then runs until the app settles.
pub fn until_compared(h: &mut AppHarness) {
    // A click's page change shows the page a frame or two later: three frames in a row
    // without the spinner.
    let mut quiet = 0;
    let built = step_until(h, WAIT_TIMEOUT, |h| {
        let busy = has_label(h, "Comparing…")
            || has_label(
                h,
                "Reading the function's code and per-instruction metrics…",
            );
        quiet = if busy { 0 } else { quiet + 1 };
        quiet >= 3
    });
    assert!(built, "the Compare page never finished comparing");
    h.run();
}

/// Whether `value` is shown on the same row of a table as (any widget named) `row_label`.
pub fn in_row(h: &AppHarness, row_label: &str, value: &str) -> bool {
    let rows: Vec<egui::Rect> = h.query_all_by_label(row_label).map(|n| n.rect()).collect();
    assert!(!rows.is_empty(), "no row {row_label:?}");
    h.query_all_by_label(value).any(|n| {
        let r = n.rect();
        rows.iter().any(|row| {
            r.center().y > row.top() && r.center().y < row.bottom() && r.left() > row.left()
        })
    })
}

#[track_caller]
pub fn assert_in_row(h: &AppHarness, row_label: &str, value: &str) {
    assert!(
        in_row(h, row_label, value),
        "{value:?} not on the row of {row_label:?}"
    );
}

/// Asserts each `(row, value)` pair with [`assert_in_row`].
#[track_caller]
pub fn assert_rows(h: &AppHarness, expected: &[(&str, String)]) {
    for (row, value) in expected {
        assert_in_row(h, row, value);
    }
}

/// A storage that keeps values in memory, as eframe's does on disk.
#[derive(Default)]
pub struct MemoryStorage(pub std::collections::HashMap<String, String>);

impl eframe::Storage for MemoryStorage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }
    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_string(), value);
    }
    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }
    fn flush(&mut self) {}
}

/// The before/after pair of `fixtures/pair`, decompressed into `dir` and opened in that order.
pub fn open_pair(dir: &Path) -> AppHarness {
    let files = [
        fixture_file(dir, "pair/before.ncu-rep.xz"),
        fixture_file(dir, "pair/after.ncu-rep.xz"),
    ];
    let app = SightlineApp::new(None, options(Vec::new(), false));
    open_in_order(app, &files, false)
}

/// The texts the last frame copied to the clipboard.
pub fn copied(h: &AppHarness) -> Vec<String> {
    h.output()
        .platform_output
        .commands
        .iter()
        .filter_map(|c| match c {
            egui::OutputCommand::CopyText(text) => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// Drags with the primary button from `from` to `to`, a few frames on the way.
pub fn drag(h: &mut AppHarness, from: egui::Pos2, to: egui::Pos2) {
    h.event(egui::Event::PointerMoved(from));
    h.step();
    h.event(egui::Event::PointerButton {
        pos: from,
        button: egui::PointerButton::Primary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    h.step();
    for i in 1..=4 {
        h.event(egui::Event::PointerMoved(
            from + (to - from) * (i as f32 / 4.0),
        ));
        h.step();
    }
    h.event(egui::Event::PointerButton {
        pos: to,
        button: egui::PointerButton::Primary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    h.run();
}
