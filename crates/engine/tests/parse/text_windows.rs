//! Text read in windows gives the report reading it whole gives: every form that is cut
//! (details text, summary, `--print-details all`, both CSV exports), cut into many small
//! windows so that every result boundary is tried, with bodies parsed again on demand; and
//! every text form is cut, or read whole, as its format's layout says.

use sightline_engine::analysis::sections;
use sightline_engine::model::section_body::ReportBodies;
use sightline_engine::model::{BodyHead, Report, TextLayout};
use sightline_engine::parse::{self, text_windows};
use sightline_testkit::{fixture_file, temp_dir};
use std::path::Path;

/// Reads `path` in windows of `window_bytes`.
fn windowed(path: &Path, window_bytes: usize) -> Report {
    let windows = text_windows::Windows {
        min_file_bytes: 0,
        window_bytes,
        ..text_windows::Windows::default()
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
    assert_same_heads(&cut, &whole, rel);
    for (a, b) in cut.results.iter().zip(&whole.results) {
        assert_eq!(a.name, b.name, "{rel}");
        assert_eq!(a.metrics(), b.metrics(), "{rel}: result {}", b.id);
    }
    assert_eq!(as_json(&cut), as_json(&whole), "{rel}");
    // The printed section bodies are the same, read on demand with each result's body: the
    // report holds none of them itself.
    for i in 0..whole.results.len() {
        assert_eq!(
            sections::bodies_of(&cut, i),
            sections::bodies_of(&whole, i),
            "{rel}: printed section bodies of result {i}"
        );
    }
    if whole.bodies != ReportBodies::None {
        assert_eq!(cut.bodies, ReportBodies::InResults, "{rel}");
    }
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

/// Every text form is read in windows where its format says its results can be told apart in
/// the text (`Format::text_layout`), and whole where it is one page: a fixture of each form,
/// with windows allowed at any size.
#[test]
fn each_text_form_is_read_as_its_format_lays_it_out() {
    let forms = [
        ("h100/kernels_basic.details.txt", "cli-text"),
        ("h100/kernels_basic.summary.txt", "summary"),
        ("h100/kernels_basic.details.csv", "csv-details"),
        ("h100/kernels_basic.raw.csv", "csv-raw"),
        ("h100/kernels_basic.session.txt", "session"),
        ("h100/kernels_basic.session.csv", "session"),
        ("seeds/gui_details_copy_a100.txt", "gui-copy"),
    ];
    let dir = temp_dir("windows-forms");
    for (rel, name) in forms {
        let path = fixture_file(&dir, rel);
        let whole = parse::load_path(&path).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(whole.format.name(), name, "{rel}");
        let windows = text_windows::Windows {
            min_file_bytes: 0,
            window_bytes: 8 << 10,
            ..text_windows::Windows::default()
        };
        let read = text_windows::load(&path, &path, &mut None, windows, &mut |_, _| {})
            .unwrap_or_else(|e| panic!("{rel}: {e}"));
        let cut = match whole.format.text_layout() {
            TextLayout::ResultLines | TextLayout::RowsPerResult | TextLayout::RowPerResult => true,
            TextLayout::OnePage | TextLayout::Binary => false,
        };
        assert_eq!(read.is_some(), cut, "{rel}: {name} read in windows");
        if let Some(report) = read {
            assert_eq!(report.format, whole.format, "{rel}");
            assert_eq!(report.results.len(), whole.results.len(), "{rel}");
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_large_session_page_is_refused_with_its_form_and_bound() {
    let dir = temp_dir("windows-page");
    let path = dir.join("session.txt");
    let page = sightline_testkit::fixture_bytes("h100/kernels_basic.session.txt");
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
    let text = sightline_testkit::fixture_bytes("big/many_basic.details.txt.xz");
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

/// Reads `path` whole and in windows of `window_bytes`; both must give the same report.
/// The heads a listing reads of the windowed report `cut` (read for their heads alone, before
/// any body) are those of the bodies of the report read whole.
fn assert_same_heads(cut: &Report, whole: &Report, name: &str) {
    for (a, b) in cut.results.iter().zip(&whole.results) {
        assert!(
            a.content.is_pending(),
            "{name}: result {} listed from its head",
            b.id
        );
        assert_eq!(
            a.content.head(),
            Some(&BodyHead::of(b.body())),
            "{name}: the head of result {}",
            b.id
        );
    }
}

fn assert_same_whole_and_windowed(path: &Path, window_bytes: usize) -> Report {
    let bytes = std::fs::read(path).unwrap();
    let whole = parse::parse_bytes(path, &bytes).unwrap_or_else(|e| panic!("{e}"));
    let cut = windowed(path, window_bytes);
    let name = path.display();
    assert_same_heads(&cut, &whole, &name.to_string());
    assert_eq!(
        cut.results.len(),
        whole.results.len(),
        "{name}: {:?} / {:?}",
        cut.warnings,
        whole.warnings
    );
    assert_eq!(cut.warnings, whole.warnings, "{name}");
    assert_eq!(as_json(&cut), as_json(&whole));
    whole
}

/// A number cell written with a decimal comma and dot groups.
fn to_comma(cell: &str) -> String {
    cell.chars()
        .map(|c| match c {
            '.' => ',',
            ',' => '.',
            c => c,
        })
        .collect()
}

/// Each table row's value (the last cell, made of digits and separators) passed through `f`.
fn values_rewritten(text: &str, f: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        match line.rsplit_once(' ') {
            Some((before, value))
                if line.starts_with("    ")
                    && before.ends_with(' ')
                    && !value.is_empty()
                    && value
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b == b'.' || b == b',') =>
            {
                out.push_str(before);
                out.push(' ');
                out.push_str(&f(value));
            }
            _ => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

/// A details page in a decimal-comma locale whose later results print only numbers that read
/// either way (`1.234`): the file's numbers decide them, as reading it whole does, however
/// the file is cut into windows.
#[test]
fn the_number_format_is_the_files_in_every_window() {
    let dir = temp_dir("windows-comma");
    let text = String::from_utf8(sightline_testkit::fixture_bytes(
        "h100/kernels_full.details.txt",
    ))
    .unwrap();
    let comma = values_rewritten(&text, to_comma);
    let ambiguous = values_rewritten(&text, |_| "1.234".to_string());
    let path = dir.join("comma.details.txt");
    std::fs::write(&path, format!("{comma}{ambiguous}")).unwrap();
    let whole = assert_same_whole_and_windowed(&path, 8 << 10);
    // In the file's decimal comma, `1.234 us` is 1,234 us.
    let last = whole.results.last().unwrap();
    assert_eq!(
        last.number("gpu__time_duration.sum"),
        Some(1_234_000.0),
        "{:?}",
        last.metric("gpu__time_duration.sum")
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A `--print-details all` text with damaged values (text where a number belongs) in its
/// sections' and bodies' tables: a listing reads each window for its results' heads only, yet
/// counts the damaged rows as reading it whole does, and the heads are the same.
#[test]
fn damaged_rows_are_counted_when_windows_are_read_for_their_heads() {
    let dir = temp_dir("windows-damaged");
    let text = String::from_utf8(sightline_testkit::fixture_bytes(
        "h100/kernels_full.details_all.txt.xz",
    ))
    .unwrap();
    let seen = std::cell::Cell::new(0usize);
    let damaged = values_rewritten(&text, |value| {
        seen.set(seen.get() + 1);
        if seen.get().is_multiple_of(7) {
            "bad".to_string()
        } else {
            value.to_string()
        }
    });
    let path = dir.join("damaged.details_all.txt");
    std::fs::write(&path, damaged).unwrap();
    let whole = assert_same_whole_and_windowed(&path, 8 << 10);
    let skipped: Vec<_> = whole
        .warnings
        .iter()
        .filter(|w| w.message.contains("whose value is not a number"))
        .collect();
    assert_eq!(skipped.len(), 1, "{:?}", whole.warnings);
    let _ = std::fs::remove_dir_all(dir);
}

/// A details CSV export written twice into one file (two runs appended): each run's results
/// are results of their own, whole and in windows, and a warning says that IDs repeat.
#[test]
fn repeated_result_ids_are_results_of_their_own_at_any_size() {
    let dir = temp_dir("windows-repeated-ids");
    let csv = sightline_testkit::fixture_bytes("h100/kernels_basic.details.csv");
    let once = parse::parse_bytes(Path::new("once.csv"), &csv).unwrap();
    let path = dir.join("appended.csv");
    std::fs::write(&path, csv.repeat(6)).unwrap();
    let whole = assert_same_whole_and_windowed(&path, 8 << 10);
    assert_eq!(whole.results.len(), 6 * once.results.len());
    let n = 5 * once.results.len();
    let repeated = whole
        .warnings
        .iter()
        .find(|w| w.as_str().contains("repeat the IDs of earlier results"))
        .unwrap_or_else(|| panic!("{:?}", whole.warnings));
    assert!(
        repeated.as_str().starts_with(&format!("{n} results")),
        "{repeated}"
    );
    assert_eq!(
        repeated.kind,
        sightline_engine::model::WarningKind::BadValue
    );
    // Each copy reads as the export alone.
    for (i, r) in whole.results.iter().enumerate() {
        assert_eq!(r.metrics(), once.results[i % once.results.len()].metrics());
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// One stray quote in a CSV export costs its own row, named in a warning, whole and in
/// windows; the rows after it are read as they are.
#[test]
fn a_stray_quote_costs_its_row_at_any_size() {
    let dir = temp_dir("windows-stray-quote");
    for rel in [
        "h100/kernels_basic.details.csv",
        "h100/kernels_basic.raw.csv",
    ] {
        let csv = String::from_utf8(sightline_testkit::fixture_bytes(rel)).unwrap();
        let once = parse::parse_bytes(Path::new("once.csv"), csv.as_bytes()).unwrap();
        // A row of the second copy with a stray quote after its last cell, which leaves a
        // cell open past the end of the line.
        // The export's rows four times over, behind one header.
        let header_rows = if rel.contains("raw") { 2 } else { 1 };
        let all: Vec<&str> = csv.lines().collect();
        let (header, rows) = all.split_at(header_rows);
        let mut lines: Vec<String> = header.iter().map(|l| l.to_string()).collect();
        for _ in 0..4 {
            lines.extend(rows.iter().map(|l| l.to_string()));
        }
        let at = header_rows + rows.len() + 2;
        lines[at].push('"');
        let path = dir.join(format!("stray.{}", rel.replace('/', "_")));
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let whole = assert_same_whole_and_windowed(&path, 4 << 10);
        let expected = format!(
            "1 row with a quote that is never closed skipped (line {})",
            at + 1
        );
        assert!(
            whole.warnings.iter().any(|w| w.as_str() == expected),
            "{rel}: {:?}",
            whole.warnings
        );
        let results = 4 * once.results.len();
        let lost = usize::from(rel.contains("raw"));
        assert_eq!(whole.results.len(), results - lost, "{rel}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A metric's value and unit, which a body read for its values keeps.
fn value_of(m: &sightline_engine::model::Metric) -> String {
    format!("{:?} {:?} {}", m.name, m.value, m.unit)
}

/// Bodies read for their values only (as `summary --json` reads them) hold the sections, rules
/// and metric values of the whole bodies, without instances, printed forms or printed section
/// bodies; the JSON written from them is the JSON of the text read whole.
#[test]
fn bodies_read_for_their_values_hold_the_whole_bodies_values() {
    let dir = temp_dir("windows-values");
    for (rel, window_bytes, lists_instances) in [
        ("h100/kernels_full.details_all.txt.xz", 8 << 10, true),
        ("big/many_basic.details.txt.xz", 64 << 10, false),
    ] {
        let path = fixture_file(&dir, rel);
        let mut cut = windowed(&path, window_bytes);
        let mut instances = 0;
        for (i, r) in cut.results.iter().enumerate() {
            let source = r.content.source().expect("read on demand");
            let whole = source.load(i).expect("whole body");
            let values = source.load_values(i).expect("values");
            assert_eq!(values.rules, whole.rules, "{rel}: result {i}");
            assert!(values.printed.is_empty(), "{rel}: result {i}");
            let keys = |b: &sightline_engine::model::ResultBody| -> Vec<String> {
                b.metrics
                    .iter()
                    .map(|(k, m)| format!("{k} {}", value_of(&m.to_metric())))
                    .collect()
            };
            assert_eq!(keys(&values), keys(&whole), "{rel}: result {i}");
            assert_eq!(values.sections.len(), whole.sections.len(), "{rel}");
            for (a, b) in values.sections.iter().zip(&whole.sections) {
                assert_eq!((&a.name, &a.rules), (&b.name, &b.rules), "{rel}");
                let rows = |s: &sightline_engine::model::Section| -> Vec<String> {
                    s.rows
                        .iter()
                        .map(|row| format!("{} {}", row.label, value_of(&row.metric)))
                        .collect()
                };
                assert_eq!(rows(a), rows(b), "{rel}: {}", a.name);
            }
            assert!(
                values
                    .metrics
                    .iter()
                    .all(|(_, m)| m.instances.is_empty() && m.printed.is_none()),
                "{rel}: result {i}"
            );
            instances += whole
                .metrics
                .iter()
                .filter(|(_, m)| !m.instances.is_empty())
                .count();
        }
        assert_eq!(
            instances > 0,
            lists_instances,
            "{rel}: the whole bodies list instances"
        );
        let mut whole = vec![parse::load_path(&path).expect("whole")];
        let json = |reports: &mut [Report]| {
            let mut out = Vec::new();
            sightline_engine::output::summary_json::write_json(&mut out, reports, &[])
                .expect("written");
            String::from_utf8(out).expect("UTF-8")
        };
        assert_eq!(
            json(std::slice::from_mut(&mut cut)),
            json(&mut whole),
            "{rel}"
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
