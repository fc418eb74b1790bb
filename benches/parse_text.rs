//! Throughput of the `ncu` CLI text parser on the 400-result details page
//! (`fixtures/big/many_basic.details.txt.xz`) and on a 100 MB concatenation of it.
//!
//! Run with `cargo bench --bench parse_text`. For each text it times, in turn within each round
//! (so that a change of machine load hits all three alike, and in alternating order): the steps
//! `parse_bytes` adds before the parser (terminal clean-up and form detection),
//! `cli_text::parse` alone, and the whole `parse_bytes`. Prints the median MB/s of the rounds and the median ratio of `parse_bytes` to
//! `cli_text::parse` time within a round.

use sightline_engine::parse::{cli_text, detect, parse_bytes, text_clean};
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

/// The wall time of one call of `f`; its result is dropped outside the timed region.
fn time<T>(f: impl FnOnce() -> T) -> Duration {
    let start = Instant::now();
    let out = black_box(f());
    let elapsed = start.elapsed();
    drop(out);
    elapsed
}

fn median<T: PartialOrd + Copy>(mut values: Vec<T>) -> T {
    values.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    values[values.len() / 2]
}

fn report(text: &str, step: &str, bytes: usize, results: Option<usize>, t: Duration) {
    let what = format!("{text} ({step})");
    let mb = bytes as f64 / 1e6;
    let results = results.map_or_else(|| "-".into(), |n| n.to_string());
    println!(
        "{what:<44} {mb:>8.1} MB {results:>6} results  median {:>8.1} ms  {:>7.1} MB/s",
        t.as_secs_f64() * 1e3,
        mb / t.as_secs_f64()
    );
}

/// The steps before the parser: clean-up (UTF-8 check, terminal noise) and form detection.
fn prepare(bytes: &[u8]) -> Option<detect::Detected> {
    detect::detect_text(&text_clean::clean(bytes))
}

/// Times the three steps on `text` in `rounds` rounds and prints their medians.
fn bench(name: &str, text: &str, rounds: usize) {
    let n = cli_text::parse(text).expect("parses").results.len();
    let whole = parse_bytes(Path::new(name), text.as_bytes()).expect("parses");
    assert_eq!(whole.results.len(), n, "{name}: parse_bytes and the parser");
    drop(whole);
    let (mut prep, mut parser, mut all, mut ratio) = (vec![], vec![], vec![], vec![]);
    let parse = || time(|| cli_text::parse(text).expect("parses"));
    let parse_all = || time(|| parse_bytes(Path::new(name), text.as_bytes()).expect("parses"));
    for round in 0..rounds {
        prep.push(time(|| prepare(text.as_bytes())));
        // Every other round the other order: the run after a large drop can be slower.
        let (p, a) = if round % 2 == 0 {
            (parse(), parse_all())
        } else {
            let a = parse_all();
            (parse(), a)
        };
        parser.push(p);
        all.push(a);
        ratio.push(a.as_secs_f64() / p.as_secs_f64());
    }
    let len = text.len();
    report(name, "clean + detect", len, None, median(prep));
    report(name, "cli_text::parse", len, Some(n), median(parser));
    report(name, "parse_bytes", len, Some(n), median(all));
    println!(
        "{:<44} parse_bytes / cli_text::parse time, median of rounds: {:.3}",
        "",
        median(ratio)
    );
}

/// The 1, 5 and 15 minute load averages (Linux).
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map_or_else(
        |_| "unknown".into(),
        |l| l.split(' ').take(3).collect::<Vec<_>>().join(" "),
    )
}

fn main() {
    println!("load average before: {}", load_average());
    let text = fixture("big/many_basic.details.txt.xz");
    bench("many_basic.details.txt", &text, 15);

    let copies = 100_000_000usize.div_ceil(text.len());
    let mut big = String::with_capacity(text.len() * copies);
    for _ in 0..copies {
        big.push_str(&text);
    }
    bench("100 MB concatenation", &big, 5);
    println!(
        "machine: {} logical CPUs, load average after: {}",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_average()
    );
}
