//! Every report fixture, damaged in a bounded, deterministic set of ways: cut short, bytes
//! changed, length fields and numbers made huge, an enormous field, blocks or lines repeated,
//! dropped and shuffled. Each copy goes through `parse_any` and through its format's own parser.
//! None may panic or hang; each gives a report or an error with a message; and the bytes live
//! during a parse stay below a small multiple of the input plus a fixed floor.
//!
//! Fixtures are found by walking `fixtures/`, so a new one is covered without a change here.
//! A failure names the fixture and the mutation with its seed; the mutation is a pure function
//! of the sound fixture, so it reproduces.
//!
//! The mutations are in `text_mutations` and `report_mutations`; `run_case` runs and measures
//! each case under the counting allocator `sightline_testkit::live_bytes::LiveBytes`.

mod fixtures;
mod report_mutations;
mod run_case;
mod text_mutations;

use fixtures::{is_binary_report, report_fixtures};
use run_case::{mutate_fixtures, run, via_parse_any};
use sightline_engine::parse::session;
use std::sync::Mutex;
use std::time::Duration;

#[global_allocator]
static ALLOCATOR: sightline_testkit::live_bytes::LiveBytes =
    sightline_testkit::live_bytes::LiveBytes;

/// Tests run one at a time so that the high-water mark is their own.
static SERIAL: Mutex<()> = Mutex::new(());

/// Most bytes a parse of `input` (of fixture `rel`) may add to what was live before it, less
/// the fixed [`LIVE_FLOOR`]: a multiple of its size and room for a record per text line (a
/// line of two bytes still becomes a row with its own strings).
fn allowance(rel: &str, input: &[u8]) -> usize {
    let lines = if is_binary_report(rel) {
        0
    } else {
        input.iter().filter(|&&b| b == b'\n').count()
    };
    per_byte(rel) * input.len() + LIVE_PER_LINE * lines
}

/// Live bytes allowed per input byte, by form.
fn per_byte(rel: &str) -> usize {
    let name = rel.trim_end_matches(".xz");
    if is_binary_report(rel) {
        REPORT_LIVE_PER_INPUT_BYTE
    } else if name.contains(".raw") && name.ends_with(".csv") {
        // The wide CSV export (`.raw.csv`, `.raw_base.csv`, `.raw_instances.csv`...) stores a
        // metric or an instance in a few bytes; the model keeps its name, unit and value per
        // result, and each instance.
        RAW_CSV_LIVE_PER_INPUT_BYTE
    } else {
        LIVE_PER_INPUT_BYTE
    }
}
const LIVE_PER_INPUT_BYTE: usize = 16;
const REPORT_LIVE_PER_INPUT_BYTE: usize = 8;
const RAW_CSV_LIVE_PER_INPUT_BYTE: usize = 64;
const LIVE_PER_LINE: usize = 256;
const LIVE_FLOOR: usize = 1 << 20;

/// Most CPU time a single parse may take (a debug build), measured as the process's CPU time
/// so that a busy machine does not count: the tests run one at a time, and a parse's own
/// threads count with it. A parse that does not return within [`HANG_TIMEOUT`] of wall time
/// is a hang.
const CASE_TIME_LIMIT: Duration = Duration::from_secs(10);

/// Text fixtures are parsed whole once (sound); the mutations apply to their first bytes, cut at
/// a line end, which keeps the case count affordable in a debug build.
const TEXT_PREFIX: usize = 64 << 10;
/// Reports larger than this get a few whole-file cases; the full set runs on a prefix.
const BIG_REPORT: usize = 2 << 20;
/// Least size of the prefix of a big report (cut at a block end, after a result).
const REPORT_PREFIX: usize = 1 << 20;
/// Size of the enormous field, number and rule inserted into a text.
const ENORMOUS: usize = 256 << 10;

// ---------------------------------------------------------------------------------------------

#[test]
fn fixture_walk_finds_every_report_form() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let all = report_fixtures();
    for ext in [".txt", ".csv", ".ncu-rep.xz", ".txt.xz", ".csv.xz"] {
        assert!(
            all.iter().any(|r| r.ends_with(ext)),
            "no {ext} fixture in {all:?}"
        );
    }
    assert!(all.contains(&"h100/kernels_basic.ncu-rep.xz".to_string()));
    assert!(all.contains(&"seeds/gui_details_copy_a100.txt".to_string()));
    assert!(
        !all.iter()
            .any(|r| r.contains("truth") || r.ends_with("ncu_version.txt"))
    );
    assert!(!all.iter().any(|r| r.ends_with(".md") || r.ends_with(".cu")));
}

/// Whether a run replays a subset (then the case counts are not checked).
fn filtered() -> bool {
    std::env::var("MUTATION_FILTER").is_ok()
}

#[test]
fn damaged_text_fixtures() {
    let cases = mutate_fixtures(|rel| !is_binary_report(rel));
    assert!(cases > 300 || filtered(), "{cases}");
}

#[test]
fn damaged_report_fixtures() {
    let cases = mutate_fixtures(is_binary_report);
    assert!(cases > 150 || filtered(), "{cases}");
}

/// A session page whose dash rule is 256 KiB wide over 2,000 short rows. Each row used to be
/// padded to the rule's width (half a gigabyte in all); now a row costs its own length, and a
/// wrapped value whose trailing blank was trimmed still joins at its word break.
#[test]
fn session_text_under_a_wide_rule() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let rule = format!("----- {}\n", "-".repeat(256 << 10));
    let mut text =
        format!("Session Info\n{rule}Key   Value\n{rule}Cmd   ncu --set\n      full app\n");
    for i in 0..2000 {
        text.push_str(&format!("k{i}    v{i}\n"));
    }
    let report = session::parse(&text).unwrap();
    assert_eq!(report.session.get("Cmd"), Some("ncu --set full app"));
    assert_eq!(report.session.get("k1999"), Some("v1999"));
    assert_eq!(report.session.attributes.len(), 2001);
    drop(report);
    let rel = "session.txt";
    let limit = allowance(rel, text.as_bytes()) + LIVE_FLOOR;
    let (_, measured) = run(text.into_bytes(), via_parse_any).unwrap();
    assert_eq!(measured.outcome, Ok(Ok(0)));
    assert!(
        measured.peak < limit,
        "{} bytes live, limit {limit}",
        measured.peak
    );
}
