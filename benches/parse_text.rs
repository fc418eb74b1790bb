//! Throughput of the `ncu` CLI text parser on the 400-result details page
//! (`fixtures/big/many_basic.details.txt.xz`) and on a 100 MB concatenation of it.
//!
//! Run with `cargo bench --bench parse_text`; prints the median MB/s of several runs.

use sightline::parse::{cli_text, parse_bytes};
use std::hint::black_box;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn fixture(rel: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel);
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = String::new();
    xz2::read::XzDecoder::new(&raw[..])
        .read_to_string(&mut out)
        .expect("xz");
    out
}

/// Runs `f` `runs` times and returns the median wall time. The result of each run is dropped
/// outside the timed region.
fn median_time<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let start = Instant::now();
        let out = black_box(f());
        times.push(start.elapsed());
        drop(out);
    }
    times.sort();
    times[runs / 2]
}

fn report(what: &str, bytes: usize, results: usize, t: Duration) {
    let mb = bytes as f64 / 1e6;
    println!(
        "{what:<44} {mb:>8.1} MB {results:>6} results  median {:>8.1} ms  {:>7.1} MB/s",
        t.as_secs_f64() * 1e3,
        mb / t.as_secs_f64()
    );
}

fn main() {
    let text = fixture("big/many_basic.details.txt.xz");
    let n = cli_text::parse(&text).expect("parses").results.len();
    let t = median_time(15, || cli_text::parse(&text).expect("parses"));
    report("many_basic.details.txt (cli_text::parse)", text.len(), n, t);
    let t = median_time(15, || {
        parse_bytes(Path::new("many_basic.details.txt"), text.as_bytes()).expect("parses")
    });
    report("many_basic.details.txt (parse_bytes)", text.len(), n, t);

    let copies = 100_000_000usize.div_ceil(text.len());
    let mut big = String::with_capacity(text.len() * copies);
    for _ in 0..copies {
        big.push_str(&text);
    }
    let n = cli_text::parse(&big).expect("parses").results.len();
    let t = median_time(5, || cli_text::parse(&big).expect("parses"));
    report("100 MB concatenation (cli_text::parse)", big.len(), n, t);
    let t = median_time(5, || {
        parse_bytes(Path::new("big.txt"), big.as_bytes()).expect("parses")
    });
    report("100 MB concatenation (parse_bytes)", big.len(), n, t);
    println!(
        "machine: {} logical CPUs",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
}
