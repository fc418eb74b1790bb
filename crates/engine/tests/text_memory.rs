//! A large text is held at a small multiple of its largest result, not of its size: the
//! details text of 400 results, repeated 10 and 40 times (30 and 120 MB, 4,000 and 16,000
//! results), is loaded under a counting allocator. The peak heap while loading and the heap
//! the loaded report keeps are measured; both must stay far below the file's size, and the
//! 40 times larger text may not take much more at its peak than the 10 times one: the windows
//! read at once are the same, only the results' heads grow with the file. Every result is
//! then read through once, as a comparison does, with the same bound. Run with `--nocapture`
//! to see the figures.
//!
//! Windows stay bounded whatever the input's lines and quotes (a stray quote early in a CSV
//! export, a line of 40 MB, 40 MB of lines that open no result), and a pipe, by name or as
//! standard input, is read as the file it is: in the same windows, at the same memory.
//!
//! A binary of its own: its global allocator counts every allocation of the process, so its
//! tests measure one at a time.

use sightline_engine::parse::text_windows;
use sightline_testkit::live_heap::{self, LiveHeap};
use sightline_testkit::{fixture_bytes, temp_dir};
use std::io::Write;

#[global_allocator]
static ALLOCATOR: LiveHeap = LiveHeap;

/// Held by each test while it measures: the heap is the whole process's.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn measuring() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

const MB: f64 = 1024.0 * 1024.0;

/// Peak and kept heap of loading `copies` copies of the details text, in MB, and the file's.
struct Figures {
    file: f64,
    peak: f64,
    kept: f64,
    peak_reading_all: f64,
    results: usize,
}

fn load_copies(copies: usize) -> Figures {
    let dir = temp_dir(&format!("text-memory-{copies}"));
    let path = dir.join(format!("many_basic_x{copies}.details.txt"));
    {
        let text = fixture_bytes("big/many_basic.details.txt.xz");
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        for _ in 0..copies {
            out.write_all(&text).unwrap();
        }
    }
    let file = std::fs::metadata(&path).unwrap().len() as f64 / MB;
    let before = live_heap::live_bytes();
    live_heap::reset_peak();
    let report = sightline_engine::parse::load_path(&path).unwrap_or_else(|e| panic!("{e}"));
    let peak = (live_heap::peak_bytes() - before) as f64 / MB;
    let kept = (live_heap::live_bytes() - before) as f64 / MB;
    // Every body read in order and let go again, as a comparison or an export reads them.
    live_heap::reset_peak();
    let mut report = report;
    let mut launches = 0;
    for result in &mut report.results {
        launches += usize::from(!result.metrics().is_empty());
        result.content.release();
    }
    assert_eq!(launches, report.results.len(), "every body reads back");
    let peak_reading_all = (live_heap::peak_bytes() - before) as f64 / MB;
    let results = report.results.len();
    drop(report);
    let _ = std::fs::remove_dir_all(dir);
    Figures {
        file,
        peak,
        kept,
        peak_reading_all,
        results,
    }
}

#[test]
fn text_memory_grows_with_results_heads_not_with_the_file() {
    let _one = measuring();
    let ten = load_copies(10);
    let forty = load_copies(40);
    for (name, f) in [("10x", &ten), ("40x", &forty)] {
        println!(
            "{name}: file {:.1} MB, {} results: peak {:.1} MB while loading, {:.1} MB kept, \
             peak {:.1} MB reading every body",
            f.file, f.results, f.peak, f.kept, f.peak_reading_all
        );
    }
    assert_eq!(ten.results, 4_000);
    assert_eq!(forty.results, 16_000);
    let window = text_windows::WINDOW_BYTES as f64 / MB;
    // A window's text, its cleaned copy and what parsing it builds: a few times its size.
    let parsing = text_windows::windows_in_flight() as f64 * window * 6.0 + 4.0;
    let cached = text_windows::source::CACHED_WINDOWS as f64 * window * 4.0;
    for f in [&ten, &forty] {
        // What a result keeps while its body is not read: names, head metrics, top rule.
        assert!(
            f.kept * MB / (f.results as f64) < 4096.0,
            "{:.1} MB kept",
            f.kept
        );
        // Beyond that, only the windows being read.
        assert!(
            f.peak - f.kept < parsing,
            "peak {:.1} MB, kept {:.1} MB, windows {parsing:.1} MB",
            f.peak,
            f.kept
        );
        assert!(f.peak_reading_all - f.kept < parsing + cached);
    }
    // Four times the file holds four times the heads, and the same windows beyond them (a
    // batch parsed while the next is read: which windows are in flight at the peak varies by
    // a batch).
    let batch = text_windows::windows_in_flight() as f64 * window * 2.0;
    assert!(
        forty.peak - forty.kept < ten.peak - ten.kept + batch,
        "beyond the heads: {:.1} MB of the {:.1} MB file, {:.1} MB of the {:.1} MB one",
        forty.peak - forty.kept,
        forty.file,
        ten.peak - ten.kept,
        ten.file
    );
}

/// Every body of a large text read at once by 2 and by 16 worker threads, whole and for its
/// values only (as `summary --json` reads them): however many threads ask, the windows parsed
/// at once and those kept are bounded by the cores, so the heap stays within the same bound of
/// windows.
#[test]
fn reading_every_body_on_2_or_16_threads_stays_within_the_windows_bound() {
    use rayon::prelude::*;
    let _one = measuring();
    let dir = temp_dir("text-memory-threads");
    let path = dir.join("many_basic_x10.details.txt");
    {
        let text = fixture_bytes("big/many_basic.details.txt.xz");
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        for _ in 0..10 {
            out.write_all(&text).unwrap();
        }
    }
    let mut report = sightline_engine::parse::load_path(&path).unwrap_or_else(|e| panic!("{e}"));
    let window = text_windows::WINDOW_BYTES as f64 / MB;
    let bound = text_windows::windows_in_flight() as f64 * window * 6.0
        + text_windows::source::CACHED_WINDOWS as f64 * window * 4.0
        + 4.0;
    for (threads, values) in [(2, false), (16, false), (2, true), (16, true)] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let before = live_heap::live_bytes();
        live_heap::reset_peak();
        let read: usize = pool.install(|| {
            report
                .results
                .par_iter_mut()
                .map(|r| {
                    if values {
                        r.decode_values();
                    }
                    let read = usize::from(!r.metrics().is_empty());
                    r.content.release();
                    read
                })
                .sum()
        });
        let peak = (live_heap::peak_bytes() - before) as f64 / MB;
        let what = if values { "values" } else { "whole" };
        println!(
            "{threads} threads: peak {peak:.1} MB reading every body, {what} (bound {bound:.1} MB)"
        );
        assert_eq!(
            read, 4_000,
            "every body reads back on {threads} threads, {what}"
        );
        assert!(
            peak < bound,
            "{threads} threads, {what}: peak {peak:.1} MB, bound {bound:.1} MB"
        );
    }
    drop(report);
    let _ = std::fs::remove_dir_all(dir);
}

/// Peak heap (beyond what was live before) and heap kept of loading `path`, in MB, with the
/// report.
fn measure_load(path: &std::path::Path) -> (f64, f64, sightline_engine::model::Report) {
    let before = live_heap::live_bytes();
    live_heap::reset_peak();
    let report = sightline_engine::parse::load_path(path).unwrap_or_else(|e| panic!("{e}"));
    let peak = (live_heap::peak_bytes() - before) as f64 / MB;
    let kept = (live_heap::live_bytes() - before) as f64 / MB;
    (peak, kept, report)
}

/// What reading windows may hold at once beyond the results' heads, in MB: a batch of
/// windows being parsed (each a few times its size), plus one window at its bound and the
/// line buffer where a test says so.
fn windows_bound(bounded_windows: usize) -> f64 {
    let window = text_windows::WINDOW_BYTES as f64 / MB;
    let max = text_windows::MAX_WINDOW_BYTES as f64 / MB;
    text_windows::windows_in_flight() as f64 * window * 6.0
        + bounded_windows as f64 * max * 6.0
        + 4.0
}

/// One stray quote early in a 29 MB CSV export costs its row: every result after it is read,
/// in windows of the usual size (before, the rest of the file was one cell of one window).
#[test]
fn a_stray_quote_in_a_large_csv_costs_its_row_not_the_windows() {
    let _one = measuring();
    let dir = temp_dir("text-memory-stray-quote");
    let csv = String::from_utf8(fixture_bytes("h100/kernels_full.details.csv.xz")).unwrap();
    let once =
        sightline_engine::parse::parse_bytes(std::path::Path::new("once.csv"), csv.as_bytes())
            .unwrap()
            .results
            .len();
    let (header, rows) = csv.split_at(csv.find('\n').unwrap() + 1);
    let third_row = rows.match_indices('\n').nth(2).unwrap().0;
    let path = dir.join("stray.details.csv");
    {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        out.write_all(header.as_bytes()).unwrap();
        // The first copy's rows, the third with a stray quote after its last cell.
        out.write_all(&rows.as_bytes()[..third_row]).unwrap();
        out.write_all(b"\"").unwrap();
        out.write_all(&rows.as_bytes()[third_row..]).unwrap();
        for _ in 1..80 {
            out.write_all(rows.as_bytes()).unwrap();
        }
    }
    let file = std::fs::metadata(&path).unwrap().len() as f64 / MB;
    let (peak, kept, report) = measure_load(&path);
    println!("stray quote: file {file:.1} MB, peak {peak:.1} MB, kept {kept:.1} MB");
    assert_eq!(report.results.len(), 80 * once);
    assert!(
        report.warnings.iter().any(|w| w
            .as_str()
            .starts_with("1 row with a quote that is never closed skipped")),
        "{:?}",
        report.warnings
    );
    assert!(
        peak - kept < windows_bound(0),
        "peak {peak:.1} MB, kept {kept:.1} MB"
    );
    drop(report);
    let _ = std::fs::remove_dir_all(dir);
}

/// A 40 MB line inside a details text is never held: read past as an empty line and named;
/// 40 MB of lines that open no result end their window at the bound and are skipped and
/// named. Every result is read either way.
#[test]
fn a_long_line_and_a_long_stretch_without_results_stay_in_bounds() {
    let _one = measuring();
    let dir = temp_dir("text-memory-long");
    let text = fixture_bytes("big/many_basic.details.txt.xz");
    let lines_before = text.iter().filter(|&&b| b == b'\n').count();
    for (name, filler) in [
        ("line", {
            let mut line = vec![b'x'; 40 << 20];
            line.push(b'\n');
            line
        }),
        (
            "stretch",
            b"    iteration 12: residual 0.25 after the step\n".repeat(900_000),
        ),
    ] {
        let path = dir.join(format!("{name}.details.txt"));
        {
            let mut out = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
            out.write_all(&text).unwrap();
            out.write_all(&filler).unwrap();
            out.write_all(&text).unwrap();
        }
        let file = std::fs::metadata(&path).unwrap().len() as f64 / MB;
        let (peak, kept, report) = measure_load(&path);
        println!("{name}: file {file:.1} MB, peak {peak:.1} MB, kept {kept:.1} MB");
        assert_eq!(report.results.len(), 800, "{name}");
        let said = report.warnings.iter().any(|w| {
            let w = w.as_str();
            match name {
                "line" => {
                    w == format!(
                        "1 line longer than 8 MiB skipped (line {})",
                        lines_before + 1
                    )
                }
                _ => {
                    w.contains("skipped (lines") && w.contains("without a line that opens a result")
                }
            }
        });
        assert!(said, "{name}: {:?}", report.warnings);
        assert!(
            peak - kept < windows_bound(1),
            "{name}: peak {peak:.1} MB, kept {kept:.1} MB"
        );
        drop(report);
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A named pipe is read as the file it is: the same results, bodies read again on demand, and
/// no more memory than reading the file by name (before, the pipe was held whole).
#[cfg(unix)]
#[test]
fn a_named_pipe_is_read_in_the_same_windows_as_its_file() {
    let _one = measuring();
    let dir = temp_dir("text-memory-fifo");
    let text = fixture_bytes("big/many_basic.details.txt.xz").repeat(10);
    let file = dir.join("file.details.txt");
    std::fs::write(&file, &text).unwrap();
    let (file_peak, file_kept, from_file) = measure_load(&file);
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    drop(text);
    // The file streamed into the pipe a buffer at a time, as `cat` would.
    let writer = {
        let (fifo, file) = (fifo.clone(), file.clone());
        std::thread::spawn(move || {
            let mut to = std::fs::OpenOptions::new().write(true).open(&fifo).unwrap();
            std::io::copy(&mut std::fs::File::open(&file).unwrap(), &mut to).unwrap();
        })
    };
    let (peak, kept, mut from_pipe) = measure_load(&fifo);
    writer.join().unwrap();
    println!(
        "fifo: {:.1} MB: peak {peak:.1} MB, kept {kept:.1} MB (by name: peak {file_peak:.1} \
         MB, kept {file_kept:.1} MB)",
        text_len_mb(&file)
    );
    assert_eq!(from_pipe.results.len(), 4_000);
    assert!(from_pipe.results.iter().all(|r| r.content.is_pending()));
    let last = from_pipe.results.len() - 1;
    assert_eq!(
        from_pipe.results[last].metrics(),
        from_file.results[last].metrics()
    );
    from_pipe.results[last].content.release();
    assert!(
        peak < file_peak + 4.0,
        "pipe {peak:.1} MB, file {file_peak:.1} MB"
    );
    drop(from_pipe);
    drop(from_file);
    let _ = std::fs::remove_dir_all(dir);
}

fn text_len_mb(path: &std::path::Path) -> f64 {
    std::fs::metadata(path).unwrap().len() as f64 / MB
}
