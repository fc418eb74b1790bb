//! Closing reports gives their memory back: a counting global allocator measures the live heap
//! of the real app (driven headless with egui_kittest) before opening 10 copies of the big text
//! report (4,000 results), with them open and looked at (table, Details, Raw with a search,
//! Compare with a baseline, Report vs report, the report-wide roofline), and after closing them
//! all with File > Close all reports, twice. Run with `--nocapture` to see the figures.

mod common;

use common::app_harness::{
    AppHarness, assert_loaded, fixture_copies, harness, new_app, settle_ok, show_page, type_into,
    until_compared,
};
use common::{fixture_file, temp_dir};
use egui_kittest::kittest::Queryable;
use sightline::ui::{Command, OpenRequest, PageId};
use std::alloc::{GlobalAlloc, Layout, System};
use std::path::PathBuf;
use std::sync::atomic::{AtomicIsize, Ordering};

/// The system allocator, counting the bytes it has handed out and not got back.
struct CountingAllocator;

static LIVE_BYTES: AtomicIsize = AtomicIsize::new(0);

// SAFETY: every call is passed to the system allocator unchanged; only counters are updated.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            LIVE_BYTES.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: forwarded with the caller's layout.
        let p = unsafe { System.alloc_zeroed(layout) };
        if !p.is_null() {
            LIVE_BYTES.fetch_add(layout.size() as isize, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from this allocator with this layout.
        unsafe { System.dealloc(ptr, layout) };
        LIVE_BYTES.fetch_sub(layout.size() as isize, Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: `ptr` came from this allocator with this layout.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            LIVE_BYTES.fetch_add(
                new_size as isize - layout.size() as isize,
                Ordering::Relaxed,
            );
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

const BIG: &str = "big/many_basic.details.txt.xz";
const COPIES: usize = 10;
const RESULTS_PER_COPY: usize = 400;

/// Live heap, less the process-wide table of interned names, units and string values, which is
/// kept for the whole process by design (its growth is checked on its own).
fn live_mb() -> f64 {
    (LIVE_BYTES.load(Ordering::Relaxed) as f64 - sightline::model::intern::table_bytes() as f64)
        / 1e6
}

/// The resident set of the process (what the OS counts, allocator pages kept included), Linux.
fn resident_mb() -> Option<f64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: f64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096.0 / 1e6)
}

/// Opens `files`, looks at them the way a user would (every cache the pages keep gets filled),
/// and returns the live megabytes with them open.
fn open_and_browse(h: &mut AppHarness, files: &[PathBuf]) -> f64 {
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
        .handle(Command::SetBaseline(sightline::app::workspace::ResultRef {
            index: 0,
            ..at
        }));
    // Set the last two pages directly: after the report-wide roofline of 4,000 results, a click
    // on their tabs does not always reach them in the headless harness.
    for page in [PageId::Compare, PageId::ReportDiff] {
        h.state_mut().settings_mut().page = page;
        until_compared(h);
    }
    live_mb()
}

/// Closes everything with File > Close all reports and lets a few frames pass.
fn close_all(h: &mut AppHarness) -> f64 {
    h.get_by_label("File").click();
    h.run();
    h.get_by_label("Close all reports").click();
    h.run();
    h.run_steps(5);
    assert_loaded(h, 0, 0);
    live_mb()
}

#[test]
fn closing_reports_gives_their_memory_back() {
    let dir = temp_dir("memory");
    let warm_up = fixture_file(&dir, BIG);
    let files = fixture_copies(&dir, BIG, COPIES);
    let mut h = harness(new_app(Vec::new()));
    h.run_steps(5);
    let fresh = live_mb();
    // One cycle with one report first, so that caches which are bounded but filled once
    // (glyphs of the font atlas, widget state of the pages) are part of the baseline.
    let one = open_and_browse(&mut h, std::slice::from_ref(&warm_up));
    let baseline = close_all(&mut h);
    let rss_before = resident_mb();
    let open = open_and_browse(&mut h, &files);
    let rss_open = resident_mb();
    let after = close_all(&mut h);
    let rss_after = resident_mb();
    let table = sightline::model::intern::table_bytes();
    // A second round: nothing piles up from one round to the next.
    let open_again = open_and_browse(&mut h, &files);
    let after_again = close_all(&mut h);
    // The same files again add no interned text.
    assert_eq!(
        sightline::model::intern::table_bytes(),
        table,
        "interned texts grew on opening the same files again"
    );

    println!("live heap, MB: fresh app {fresh:.1}; 1 report open {one:.1}, closed {baseline:.1}");
    println!(
        "live heap, MB: before {baseline:.1}; {COPIES} reports ({} results) open {open:.1}; \
         all closed {after:.1} (kept {:+.3})",
        COPIES * RESULTS_PER_COPY,
        after - baseline
    );
    println!("live heap, MB: again open {open_again:.1}; all closed {after_again:.1}");
    if let (Some(a), Some(b), Some(c)) = (rss_before, rss_open, rss_after) {
        println!("resident set, MB: before {a:.1}; open {b:.1}; all closed {c:.1}");
    }
    let per_report = (open - baseline) / COPIES as f64;
    assert!(
        per_report > 1.0,
        "{COPIES} open reports took only {:.1} MB",
        open - baseline
    );
    // What stays (recent files, baselines kept by path, egui's bounded state and, in debug
    // builds, its map of widget ids, below) is a small fraction of one report. (A report is
    // about 7 MB since its metrics are held compactly, so this fixed part is a fifth at most.)
    let kept = after - baseline;
    assert!(
        kept < per_report / 5.0,
        "{kept:.3} MB still live after closing (one report is {per_report:.1} MB)"
    );
    // Debug builds of egui remember a description of every widget id ever made (its
    // `id_source` map, absent from release builds), and new reports make new ids: a few
    // kilobytes per report, and the map's table now and then doubles (seen: +0.1 to +1.4 MB
    // from one round to the next, levelling off). A report left behind would be a whole
    // report's memory a round.
    assert!(
        (after_again - after).abs() < per_report / 4.0,
        "closed once {after:.3} MB, twice {after_again:.3} MB"
    );
    // The warm-up cycle freed its report too: what it leaves (the font atlas, the pages'
    // bounded state) is less than one report.
    assert!(
        baseline - fresh < per_report,
        "fresh {fresh:.1} MB, after one report closed {baseline:.1} MB"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
