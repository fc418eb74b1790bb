//! Bad input never panics: every text fixture cut at 200 points, and 20,000 copies with random
//! byte flips, go through format detection and the parsers.

use sightline_testkit::XorShift;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

const TEXT_FIXTURES: &[&str] = &[
    "seeds/cli_details_cc86.txt",
    "seeds/cli_script_log_cutlass.txt",
    "seeds/gui_details_copy_a100.txt",
    "h100/kernels_cli_basic.txt",
    "h100/kernels_cli_full.txt",
    "h100/kernels_basic.details.txt",
    "h100/kernels_basic.details_base.txt",
    "h100/kernels_basic.details.csv",
    "h100/kernels_basic.raw.csv",
    "h100/kernels_basic.raw_base.csv",
    "h100/kernels_basic.session.txt",
    "h100/kernels_basic.session.csv",
    "h100/kernels_basic.summary.txt",
    "h100/kernels_basic.raw.txt.xz",
];

fn parse_must_not_panic(label: &str, bytes: &[u8]) {
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // Either a report (maybe with warnings) or a clear error naming the file.
        match sightline_engine::parse::parse_bytes(Path::new("case.txt"), bytes) {
            Ok(report) => {
                for r in &report.results {
                    let _ = r.metrics().len();
                }
            }
            Err(e) => assert!(
                e.to_string().starts_with("case.txt: "),
                "error does not name the file: {e}"
            ),
        }
    }));
    assert!(outcome.is_ok(), "parser panicked on {label}");
}

#[test]
fn truncated_text_never_panics() {
    let mut cases = 0;
    for rel in TEXT_FIXTURES {
        let bytes = sightline_testkit::fixture_bytes(rel);
        for i in 0..200 {
            let cut = bytes.len() * i / 200;
            parse_must_not_panic(&format!("{rel} cut at {cut}"), &bytes[..cut]);
            cases += 1;
        }
    }
    println!("{cases} truncated inputs parsed without a panic");
    assert_eq!(cases, TEXT_FIXTURES.len() * 200);
}

#[test]
fn flipped_bytes_never_panic() {
    let fixtures: Vec<(&str, Vec<u8>)> = TEXT_FIXTURES
        .iter()
        .map(|rel| (*rel, sightline_testkit::fixture_bytes(rel)))
        .collect();
    let mut rng = XorShift(0x5eed_1234_abcd_0001);
    let mut cases = 0;
    for case in 0..20_000 {
        let (rel, bytes) = &fixtures[case % fixtures.len()];
        // A window keeps each case small; it starts at the file start half of the time so that
        // format detection sees the real first line.
        let len = 1 + rng.below(12 * 1024).min(bytes.len());
        let start = if case % 2 == 0 {
            0
        } else {
            rng.below(bytes.len().saturating_sub(len))
        };
        let mut window = bytes[start..(start + len).min(bytes.len())].to_vec();
        for _ in 0..1 + rng.below(8) {
            let at = rng.below(window.len());
            let byte = match rng.below(6) {
                0 => b'\n',
                1 => b',',
                2 => b'"',
                3 => b'\t',
                4 => b'(',
                _ => rng.next_u64() as u8,
            };
            window[at] = byte;
        }
        parse_must_not_panic(&format!("{rel} case {case} window {start}+{len}"), &window);
        cases += 1;
    }
    println!("{cases} mutated inputs parsed without a panic");
    assert_eq!(cases, 20_000);
}

#[test]
fn not_a_result_is_one_clear_line() {
    for (bytes, what) in [
        (&b""[..], "empty"),
        (&b"hello world\nthis is not a profile\n"[..], "prose"),
        (&b"\x7fELF\x02\x01\x01\x00\x00\x00"[..], "binary"),
        (&b"NVR\x00\x02\x00"[..], "truncated report"),
    ] {
        let err = sightline_engine::parse::parse_bytes(Path::new("bad.file"), bytes)
            .expect_err(what)
            .to_string();
        assert!(err.starts_with("bad.file: "), "{what}: {err}");
        assert!(!err.contains('\n'), "{what}: error spans lines: {err}");
    }
}
