//! Text read in windows gives the report reading it whole gives: every form that is cut
//! (details text, summary, `--print-details all`, both CSV exports), cut into many small
//! windows so that every result boundary is tried, with bodies parsed again on demand.

use crate::common::{fixture_file, temp_dir};
use sightline::model::Report;
use sightline::parse::{self, text_windows};
use std::path::Path;

/// Reads `path` in windows of `window_bytes`.
fn windowed(path: &Path, window_bytes: usize) -> Report {
    let windows = text_windows::Windows {
        min_file_bytes: 0,
        window_bytes,
    };
    text_windows::load(path, path, &mut None, windows, &mut |_, _| {})
        .unwrap_or_else(|e| panic!("{e}"))
        .expect("read in windows")
}

/// Every field a reader fills, results with their bodies, as JSON.
fn as_json(report: &Report) -> serde_json::Value {
    serde_json::to_value(report).expect("serialise")
}

fn assert_same_in_windows(rel: &str, window_bytes: usize) -> Report {
    let dir = temp_dir(&format!("windows-{}", rel.replace('/', "-")));
    let path = fixture_file(&dir, rel);
    let whole = parse::load_path(&path).expect("whole");
    let cut = windowed(&path, window_bytes);
    assert!(
        cut.results.iter().all(|r| r.content.is_pending()),
        "{rel}: bodies are read on demand"
    );
    assert_eq!(cut.results.len(), whole.results.len(), "{rel}");
    for (a, b) in cut.results.iter().zip(&whole.results) {
        assert_eq!(a.name, b.name, "{rel}");
        assert_eq!(a.metrics(), b.metrics(), "{rel}: result {}", b.id);
    }
    assert_eq!(as_json(&cut), as_json(&whole), "{rel}");
    assert_eq!(cut.bodies, whole.bodies, "{rel}: printed section bodies");
    let _ = std::fs::remove_dir_all(dir);
    cut
}

#[test]
fn details_text_in_windows_equals_the_whole() {
    let report = assert_same_in_windows("big/many_basic.details.txt.xz", 64 << 10);
    assert_eq!(report.results.len(), 400);
    assert_same_in_windows("h100/kernels_full.details.txt", 8 << 10);
    assert_same_in_windows("h100/kernels_cli_full.txt", 8 << 10);
}

#[test]
fn summaries_and_printed_bodies_in_windows_equal_the_whole() {
    assert_same_in_windows("h100/kernels_full.summary.txt", 8 << 10);
    assert_same_in_windows("h100/kernels_full.details_all.txt.xz", 8 << 10);
}

#[test]
fn csv_exports_in_windows_equal_the_whole() {
    assert_same_in_windows("h100/kernels_basic.details.csv", 8 << 10);
    assert_same_in_windows("h100/kernels_full.details.csv.xz", 8 << 10);
    assert_same_in_windows("h100/kernels_basic.raw.csv", 8 << 10);
    let raw = assert_same_in_windows("big/many_basic.raw.csv.xz", 64 << 10);
    assert_eq!(raw.results.len(), 400);
}

#[test]
fn a_body_asked_for_again_is_parsed_again_from_its_window() {
    let dir = temp_dir("windows-again");
    let path = fixture_file(&dir, "h100/kernels_full.details.txt");
    let whole = parse::load_path(&path).expect("whole");
    let mut cut = windowed(&path, 8 << 10);
    // Out of order, released and asked again.
    for i in (0..cut.results.len()).rev() {
        assert_eq!(cut.results[i].metrics(), whole.results[i].metrics());
        cut.results[i].content.release();
        assert_eq!(cut.results[i].sections(), whole.results[i].sections());
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_text_changed_after_opening_is_said_not_misread() {
    let dir = temp_dir("windows-changed");
    let path = fixture_file(&dir, "h100/kernels_full.details.txt");
    let cut = windowed(&path, 8 << 10);
    std::fs::write(&path, b"something else\n").unwrap();
    let body = cut.results[3].body();
    assert!(body.metrics.is_empty());
    let error = cut.results[3].content.error().expect("an error");
    assert!(error.contains("changed since it was opened"), "{error}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_large_session_page_is_refused_with_its_form_and_bound() {
    let dir = temp_dir("windows-page");
    let path = dir.join("session.txt");
    let page = crate::common::fixture_bytes("h100/kernels_basic.session.txt");
    let mut big = page.clone();
    while big.len() < 70 << 20 {
        big.extend_from_slice(&page);
    }
    std::fs::write(&path, &big).unwrap();
    let error = parse::load_path(&path).expect_err("too large").to_string();
    assert!(error.contains("session.txt"), "{error}");
    assert!(error.contains("never larger than 64 MiB"), "{error}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_large_log_without_results_is_an_error_naming_the_file() {
    let dir = temp_dir("windows-none");
    let path = dir.join("run.log");
    std::fs::write(&path, "step 1 done\n".repeat(1 << 20)).unwrap();
    let error = parse::load_path(&path).expect_err("no result").to_string();
    assert!(error.contains("run.log"), "{error}");
    assert!(error.contains("not a Nsight Compute result"), "{error}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_compressed_large_text_is_read_in_windows_from_its_copy() {
    let dir = temp_dir("windows-zst");
    let text = crate::common::fixture_bytes("big/many_basic.details.txt.xz");
    let big: Vec<u8> = text.repeat(4);
    let path = dir.join("many_x4.details.txt.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut gz, &big).unwrap();
    std::fs::write(&path, gz.finish().unwrap()).unwrap();
    let report = parse::load_path(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(report.results.len(), 1_600);
    assert!(report.results.iter().all(|r| r.content.is_pending()));
    // Bodies come from the decompressed copy, which the report keeps.
    let last = report.results.last().expect("a result");
    assert!(!last.metrics().is_empty());
    assert_eq!(last.content.error(), None);
    let _ = std::fs::remove_dir_all(dir);
}
