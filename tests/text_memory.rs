//! A large text is held at a small multiple of its largest result, not of its size: the
//! details text of 400 results, repeated 10 and 40 times (30 and 120 MB, 4,000 and 16,000
//! results), is loaded under a counting allocator. The peak heap while loading and the heap
//! the loaded report keeps are measured; both must stay far below the file's size, and the
//! 40 times larger text may not take much more at its peak than the 10 times one: the windows
//! read at once are the same, only the results' heads grow with the file. Every result is
//! then read through once, as a comparison does, with the same bound. Run with `--nocapture`
//! to see the figures.
//!
//! A binary of its own: its global allocator counts every allocation of the process.

mod common;

#[path = "common/live_heap.rs"]
mod live_heap;

use common::{fixture_bytes, temp_dir};
use live_heap::LiveHeap;
use sightline::parse::text_windows;
use std::io::Write;

#[global_allocator]
static ALLOCATOR: LiveHeap = LiveHeap;

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
    let report = sightline::parse::load_path(&path).unwrap_or_else(|e| panic!("{e}"));
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
    assert!(
        forty.peak < forty.file / 2.0,
        "peak {:.1} MB of a {:.1} MB file",
        forty.peak,
        forty.file
    );
}
