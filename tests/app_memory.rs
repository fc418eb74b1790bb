//! Closing reports gives their memory back: a counting global allocator measures the heap
//! of the real app (driven headless with egui_kittest) before opening 10 copies of the big text
//! report (4,000 results), with them open and looked at (table, Details, Raw with a search,
//! Compare with a baseline, Report vs report, the report-wide roofline), and after closing them
//! all with File > Close all reports, in several rounds. Run with `--nocapture` to see the
//! figures.
//!
//! The check counts what the app's own threads allocated and still hold (reports are read,
//! and comparisons built, on threads of the app's own): after every round that returns to what
//! it was before the first round, to a small fraction of one report, so a report kept after
//! closing fails it every time. What the test's UI thread holds is printed beside it but not
//! checked: in debug builds egui keeps a map describing every widget id it ever made there,
//! which grows with the ids that new reports bring and now and then doubles its table.
//!
//! A binary of its own (not in `tests/app/`): its global allocator counts every allocation of
//! the process.

#![cfg(feature = "app")]

mod common;

use common::app_harness::{
    AppHarness, assert_loaded, fixture_copies, harness, new_app, settle_ok, show_page, type_into,
    until_compared,
};
use common::{fixture_file, temp_dir};
use egui_kittest::kittest::Queryable;
use sightline_testkit::live_heap::{self, LiveHeap};
use sightline_ui::{Command, OpenRequest, PageId};
use std::path::PathBuf;

#[global_allocator]
static ALLOCATOR: LiveHeap = LiveHeap;

const BIG: &str = "big/many_basic.details.txt.xz";
const COPIES: usize = 10;
const RESULTS_PER_COPY: usize = 400;

const ROUNDS: usize = 3;

/// Heap figures in MB at one moment.
#[derive(Debug, Clone, Copy)]
struct Heap {
    /// Held by the app's own threads (loads, comparisons), less the process-wide table of
    /// interned names, units and string values, which is kept for the whole process by design
    /// (its growth is checked on its own).
    app_threads: f64,
    /// Held by the UI thread (egui's state and the app's, in debug builds egui's id map).
    ui_thread: f64,
    /// The resident set of the process, when the OS tells.
    resident: Option<f64>,
}

fn heap() -> Heap {
    Heap {
        app_threads: (live_heap::live_bytes_off_ui() as f64
            - sightline_engine::model::intern::table_bytes() as f64)
            / 1e6,
        ui_thread: live_heap::live_bytes_on_ui() as f64 / 1e6,
        resident: live_heap::resident_bytes().map(|b| b as f64 / 1e6),
    }
}

impl std::fmt::Display for Heap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "app threads {:7.3}, UI thread {:6.1}",
            self.app_threads, self.ui_thread
        )?;
        if let Some(r) = self.resident {
            write!(f, ", resident {r:6.1}")?;
        }
        Ok(())
    }
}

/// Opens `files`, looks at them the way a user would (every cache the pages keep gets filled),
/// and returns the heap with them open.
fn open_and_browse(h: &mut AppHarness, files: &[PathBuf]) -> Heap {
    for f in files {
        h.state_mut().open(OpenRequest::Path(f.clone()));
    }
    settle_ok(h);
    let results = files.len() * RESULTS_PER_COPY;
    assert_loaded(h, files.len(), results);
    h.get_by_label(&format!("{results} of {results} results"));
    for _ in 0..30 {
        h.key_press(egui::Key::ArrowDown);
    }
    h.run();
    let at = h.state().selection().expect("a selection");
    show_page(h, PageId::Raw);
    type_into(h, "Search metrics", "dram");
    show_page(h, PageId::Roofline);
    h.get_by_label("All open reports").click();
    h.run();
    h.state_mut()
        .handle(Command::SetBaseline(sightline_app::core::ids::ResultRef {
            index: 0,
            ..at
        }));
    // Set the last two pages directly: after the report-wide roofline of 4,000 results, a click
    // on their tabs does not always reach them in the headless harness.
    for page in [PageId::Compare, PageId::ReportDiff] {
        h.state_mut().settings_mut().page = page;
        until_compared(h);
    }
    heap()
}

/// Closes everything with File > Close all reports and lets a few frames pass.
fn close_all(h: &mut AppHarness) -> Heap {
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Close all reports").click();
    h.run();
    h.run_steps(5);
    assert_loaded(h, 0, 0);
    heap()
}

#[test]
fn closing_reports_gives_their_memory_back() {
    live_heap::mark_ui_thread();
    let dir = temp_dir("memory");
    let warm_up = fixture_file(&dir, BIG);
    let files = fixture_copies(&dir, BIG, COPIES);
    let mut h = harness(new_app(Vec::new()));
    h.run_steps(5);
    let fresh = heap();
    // One cycle with one report first, so that caches which are bounded but filled once
    // (glyphs of the font atlas, widget state of the pages, interned texts) are part of the
    // baseline.
    let one = open_and_browse(&mut h, std::slice::from_ref(&warm_up));
    let baseline = close_all(&mut h);
    let table = sightline_engine::model::intern::table_bytes();
    println!("heap, MB: fresh app: {fresh}");
    println!("heap, MB: 1 report open: {one}");
    println!("heap, MB: closed:        {baseline}");
    let mut rounds = Vec::new();
    for round in 1..=ROUNDS {
        let open = open_and_browse(&mut h, &files);
        let closed = close_all(&mut h);
        println!(
            "heap, MB: round {round}: {COPIES} reports ({} results) open: {open}",
            COPIES * RESULTS_PER_COPY
        );
        println!("heap, MB: round {round}: all closed:                      {closed}");
        rounds.push((open, closed));
    }
    // The same files again add no interned text.
    assert_eq!(
        sightline_engine::model::intern::table_bytes(),
        table,
        "interned texts grew on opening the same files again"
    );
    let per_report = (rounds[0].0.app_threads - baseline.app_threads) / COPIES as f64;
    assert!(
        per_report > 1.0,
        "{COPIES} open reports took only {:.1} MB",
        per_report * COPIES as f64
    );
    // What the app's threads hold after closing (channels, the file watcher's list) is the
    // same small amount every round: well under a tenth of one report, where a report kept
    // after closing would be a whole one (about 7 MB) more every round.
    for (round, (_, closed)) in rounds.iter().enumerate() {
        let kept = closed.app_threads - baseline.app_threads;
        assert!(
            kept.abs() < per_report / 10.0,
            "round {}: {kept:+.3} MB still held by the app's threads after closing \
             (one report is {per_report:.1} MB)",
            round + 1
        );
    }
    // The warm-up cycle freed its report too: the app's threads hold what they held when the
    // app was new, give or take a tenth of a report.
    assert!(
        (baseline.app_threads - fresh.app_threads).abs() < per_report / 10.0,
        "fresh {:.3} MB, after one report closed {:.3} MB",
        fresh.app_threads,
        baseline.app_threads
    );
    let _ = std::fs::remove_dir_all(&dir);
}
