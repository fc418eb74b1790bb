//! ncu text edited the way people save it, made from the fixtures: a decimal-comma locale, kernel
//! lines wrapped or indented by hand, program output between results, a CSV export after
//! `==PROF==` lines, program output and a byte-order mark. Each reads as the original does.

use sightline_engine::model::Report;
use sightline_testkit::fixture_bytes;
use std::path::Path;

const DETAILS: &str = "h100/kernels_full.details.txt";
const CSV: &str = "h100/kernels_basic.details.csv";

fn fixture_text(rel: &str) -> String {
    String::from_utf8(fixture_bytes(rel)).unwrap()
}

fn parse(text: &str) -> Report {
    sightline_engine::parse::parse_bytes(Path::new("saved.txt"), text.as_bytes())
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Whether a line is a kernel line of the fixture.
fn is_kernel_line(line: &str) -> bool {
    line.starts_with("  ") && !line.starts_with("   ") && line.contains(")x(")
}

/// The same results, read from two texts.
fn assert_same_results(edited: &Report, original: &Report) {
    assert_eq!(edited.results.len(), original.results.len());
    for (e, o) in edited.results.iter().zip(&original.results) {
        assert_eq!(e, o, "{}", o.name.demangled);
    }
}

/// A number cell written with a decimal comma and dot groups, as wide as before.
fn to_comma(cell: &str) -> String {
    cell.chars()
        .map(|c| match c {
            '.' => ',',
            ',' => '.',
            c => c,
        })
        .collect()
}

#[test]
fn a_decimal_comma_locale_reads_the_same_values() {
    let text = fixture_text(DETAILS);
    let mut changed = 0;
    let edited: Vec<String> = text
        .lines()
        .map(|line| {
            // A table row's value: the last cell, made of digits.
            match line.rsplit_once(' ') {
                Some((before, value))
                    if line.starts_with("    ")
                        && before.contains("  ")
                        && value
                            .bytes()
                            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
                        && value.contains(['.', ',']) =>
                {
                    changed += 1;
                    format!("{before} {}", to_comma(value))
                }
                _ => line.to_string(),
            }
        })
        .collect();
    assert!(changed > 100, "{changed}");
    let original = parse(&text);
    let edited = parse(&(edited.join("\n") + "\n"));
    assert!(edited.warnings.is_empty(), "{:?}", edited.warnings);
    assert_same_results(&edited, &original);
}

#[test]
fn wrapped_and_indented_kernel_lines_open_their_results() {
    let text = fixture_text(DETAILS);
    let original = parse(&text);
    let mut wrapped = String::new();
    let mut indented = String::new();
    for line in text.lines() {
        if is_kernel_line(line) {
            // Wrapped at the space before the launch shape; indented like a section.
            let at = line.rfind(" (").unwrap();
            wrapped.push_str(&format!("{}\n  {}\n", &line[..at], &line[at + 1..]));
            indented.push_str(&format!("  {line}\n"));
        } else {
            wrapped.push_str(line);
            wrapped.push('\n');
            indented.push_str(line);
            indented.push('\n');
        }
    }
    for edited in [wrapped, indented] {
        let report = parse(&edited);
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
        assert_same_results(&report, &original);
    }
}

#[test]
fn program_output_between_results_is_a_note_not_a_warning() {
    let text = fixture_text(DETAILS);
    let original = parse(&text);
    let mut edited = String::from("Starting the benchmark (3 sizes)\n  size 1024: 0.35 ms\n");
    for line in text.lines() {
        if is_kernel_line(line) {
            edited.push_str("iteration done: 12.5 GB/s\n");
        }
        edited.push_str(line);
        edited.push('\n');
    }
    let report = parse(&edited);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert_eq!(report.notes.len(), 1, "{:?}", report.notes);
    assert!(
        report.notes[0].contains("not ncu output"),
        "{:?}",
        report.notes
    );
    assert_same_results(&report, &original);
}

#[test]
fn a_csv_export_after_a_preamble_reads_as_the_export_alone() {
    let csv = fixture_text(CSV);
    let original = parse(&csv);
    let preamble = "==PROF== Connected to process 1842 (/work/kernels)\n\
                    device: NVIDIA H100, 132 SMs\n\
                    ==PROF== Disconnected from process 1842\n";
    let mut bytes = b"\xef\xbb\xbf".to_vec();
    bytes.extend_from_slice(preamble.as_bytes());
    bytes.extend_from_slice(csv.as_bytes());
    bytes.extend_from_slice(b"all done\n");
    let report = sightline_engine::parse::parse_bytes(Path::new("out.csv"), &bytes).unwrap();
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert_eq!(report.format, original.format);
    assert_same_results(&report, &original);
    let lines = csv.lines().count();
    assert_eq!(
        report.notes,
        [format!(
            "2 lines passed over that are not ncu output (the program's own output or other \
             text; no result data): lines 2, {}",
            lines + 4
        )]
    );
}

#[test]
fn a_csv_export_in_a_decimal_comma_locale_reads_the_same_values() {
    let csv = fixture_text(CSV);
    let original = parse(&csv);
    // Every quoted cell that is a number with separators, written the other way.
    let edited: String = csv
        .split_inclusive('"')
        .map(|piece| {
            let cell = piece.strip_suffix('"').unwrap_or(piece);
            let numeric = !cell.is_empty()
                && cell
                    .bytes()
                    .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
                && cell.as_bytes()[0].is_ascii_digit();
            if numeric {
                format!("{}{}", to_comma(cell), &piece[cell.len()..])
            } else {
                piece.to_string()
            }
        })
        .collect();
    assert_ne!(edited, csv);
    let report = parse(&edited);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert_same_results(&report, &original);
}
