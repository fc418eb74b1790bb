//! Nothing skipped silently: every ncu text and raw CSV export under `fixtures/` reads without
//! a warning, and the same exports with lines damaged or inserted name what was skipped, with
//! the right count and lines.

use sightline_engine::model::{Format, WarningKind};
use sightline_testkit::{fixture_bytes, fixture_files, fixture_path};
use std::path::Path;

/// Every `.txt`/`.csv` fixture (plain or xz), relative to `fixtures/`.
fn text_fixtures() -> Vec<String> {
    fixture_files()
        .into_iter()
        .filter(|rel| {
            let plain = rel.trim_end_matches(".xz");
            plain.ends_with(".txt") || plain.ends_with(".csv")
        })
        .collect()
}

fn parse(name: &str, text: &str) -> sightline_engine::model::Report {
    sightline_engine::parse::parse_bytes(Path::new(name), text.as_bytes()).unwrap()
}

#[test]
fn undamaged_text_and_raw_csv_exports_give_no_warning() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for rel in text_fixtures() {
        let bytes = fixture_bytes(&rel);
        let name = fixture_path(rel.trim_end_matches(".xz"));
        let Ok(report) = sightline_engine::parse::parse_bytes(&name, &bytes) else {
            continue;
        };
        if !matches!(
            report.format,
            Format::CliText | Format::Summary | Format::CsvRaw
        ) {
            continue;
        }
        checked += 1;
        if !report.warnings.is_empty() {
            failures.push(format!("{rel}: {:?}", report.warnings));
        }
    }
    assert!(checked >= 100, "only {checked} text and raw CSV fixtures");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Inserts `line` before each of the 0-based `at` positions of `text` (in the sound text's
/// numbering); gives the damaged text and the 1-based line numbers the inserted lines have.
fn insert_lines(text: &str, at: &[usize], line: &str) -> (String, Vec<usize>) {
    let mut lines: Vec<&str> = text.lines().collect();
    let mut numbers = Vec::new();
    for (k, &i) in at.iter().enumerate() {
        lines.insert(i + k, line);
        numbers.push(i + k + 1);
    }
    (lines.join("\n") + "\n", numbers)
}

fn metric_count(report: &sightline_engine::model::Report) -> usize {
    report.results.iter().map(|r| r.metrics().len()).sum()
}

#[test]
fn lines_inserted_into_a_details_text_are_counted_and_named() {
    let text = String::from_utf8(fixture_bytes("range/range_profiler.details.txt")).unwrap();
    let sound = parse("range_profiler.details.txt", &text);
    assert!(sound.warnings.is_empty(), "{:?}", sound.warnings);
    // Before the first section, inside a section and between two results' sections.
    let all: Vec<&str> = text.lines().collect();
    let last_section = all.iter().rposition(|l| l.contains("Section: ")).unwrap();
    let (damaged, numbers) = insert_lines(&text, &[3, 3, 20, last_section], "  ?? damaged ??");
    let report = parse("range_profiler.details.txt", &damaged);
    let named: Vec<String> = numbers.iter().map(usize::to_string).collect();
    assert!(
        report
            .warnings
            .iter()
            .all(|w| w.kind == WarningKind::Skipped)
    );
    assert_eq!(
        report.warnings,
        [format!(
            "4 lines inside a result that fit no shape skipped (lines {})",
            named.join(", ")
        )]
    );
    assert_eq!(report.results.len(), sound.results.len());
    assert_eq!(metric_count(&report), metric_count(&sound));
}

#[test]
fn an_indented_line_before_the_first_section_is_counted_unless_it_is_ncus_own_note() {
    let text = String::from_utf8(fixture_bytes("range/range_profiler.details.txt")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // ncu's own note before the first section reads without a warning.
    let note = lines
        .iter()
        .position(|l| l.starts_with("    Warning: Data collection happened"))
        .unwrap();
    let first_section = lines.iter().position(|l| l.contains("Section: ")).unwrap();
    assert!(note < first_section);
    assert!(parse("r.details.txt", &text).warnings.is_empty());
    // Any other line indented like it is counted and named.
    let (damaged, numbers) = insert_lines(&text, &[note + 1], "    Unexpected preface line");
    let report = parse("r.details.txt", &damaged);
    assert_eq!(
        report.warnings,
        [format!(
            "1 line inside a result that fit no shape skipped (line {})",
            numbers[0]
        )]
    );
}

#[test]
fn a_metric_row_whose_unit_says_number_but_whose_value_is_damaged_is_skipped_and_named() {
    let text = String::from_utf8(fixture_bytes("range/range_profiler.details.txt")).unwrap();
    let sound = parse("r.details.txt", &text);
    assert!(sound.warnings.is_empty(), "{:?}", sound.warnings);
    let lines: Vec<&str> = text.lines().collect();
    let row = lines
        .iter()
        .position(|l| l.trim_start().starts_with("DRAM Frequency "))
        .unwrap();
    let cells: Vec<&str> = lines[row].split_whitespace().collect();
    assert_eq!(cells[cells.len() - 2], "Ghz");
    let value = cells[cells.len() - 1];
    assert!(value.parse::<f64>().is_ok(), "{}", lines[row]);
    let garbled = format!("{:<1$}", "#?", value.len());
    let mut damaged: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    damaged[row] = lines[row].replacen(value, &garbled, 1);
    let report = parse("r.details.txt", &(damaged.join("\n") + "\n"));
    assert_eq!(
        report.warnings,
        [format!(
            "1 line in a metric table whose value is not a number skipped (line {})",
            row + 1
        )]
    );
    // Only that row is gone: no metric with a text value stands in for it.
    assert_eq!(metric_count(&report), metric_count(&sound) - 1);
    let first = |r: &sightline_engine::model::Report| {
        r.results[0].sections()[0]
            .rows
            .iter()
            .map(|m| m.label.clone())
            .collect::<Vec<_>>()
    };
    let (before, after) = (first(&sound), first(&report));
    assert!(before.contains(&"DRAM Frequency".to_string()));
    assert!(!after.contains(&"DRAM Frequency".to_string()));
    assert_eq!(after.len(), before.len() - 1);
}

#[test]
fn a_key_performance_indicator_that_is_not_a_number_is_named() {
    let text = String::from_utf8(fixture_bytes("range/range_profiler.rule_details.txt")).unwrap();
    assert!(parse("r.rule_details.txt", &text).warnings.is_empty());
    let lines: Vec<&str> = text.lines().collect();
    let kpi = lines
        .iter()
        .position(|l| l.trim_start().starts_with("> Key Performance Indicators"))
        .unwrap();
    // The first row after the header's closing rule.
    let row = kpi + 4;
    let value = lines[row].split_whitespace().nth(1).unwrap();
    assert!(value.parse::<f64>().is_ok(), "{}", lines[row]);
    let damaged_row = lines[row].replacen(value, &format!("{:<1$}", "high", value.len()), 1);
    let mut damaged: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    damaged[row] = damaged_row;
    let report = parse("r.rule_details.txt", &(damaged.join("\n") + "\n"));
    assert_eq!(
        report.warnings,
        [format!(
            "1 line with a key performance indicator that is not a number skipped (line {})",
            row + 1
        )]
    );
}

#[test]
fn lines_inserted_into_a_text_read_in_parts_keep_their_numbers() {
    let text = String::from_utf8(fixture_bytes("big/many_basic.details.txt.xz")).unwrap();
    assert!(text.len() >= sightline_engine::parse::cli_text::PARALLEL_MIN_BYTES);
    let count = text.lines().count();
    let (damaged, numbers) = insert_lines(&text, &[10, count / 2, count - 5], "   ## junk");
    let report = parse("many_basic.details.txt", &damaged);
    let named: Vec<String> = numbers.iter().map(usize::to_string).collect();
    assert_eq!(
        report.warnings,
        [format!(
            "3 lines inside a result that fit no shape skipped (lines {})",
            named.join(", ")
        )]
    );
}

#[test]
fn raw_csv_cells_outside_the_named_columns_and_short_rows_are_named() {
    let text = String::from_utf8(fixture_bytes("range/range_profiler.raw.csv.xz")).unwrap();
    let sound = parse("range_profiler.raw.csv", &text);
    assert_eq!(sound.format, Format::CsvRaw);
    assert!(sound.warnings.is_empty(), "{:?}", sound.warnings);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // A metric column loses its name; every result that has a value there loses it.
    let header: Vec<String> = lines[0].split(',').map(str::to_string).collect();
    let column = header
        .iter()
        .position(|h| *h == "\"launch__block_size\"")
        .unwrap();
    // The last row is cut short below, before this column.
    let with_value = sound.results[..sound.results.len() - 1]
        .iter()
        .filter(|r| r.metric("launch__block_size").is_some())
        .count();
    assert!(with_value > 0);
    lines[0] = lines[0].replacen("\"launch__block_size\"", "\"\"", 1);
    // Two cells past the last column on the first result's row.
    lines[2].push_str(",\"7\",\"8\"");
    // The last row loses its tail.
    let last = lines.len() - 1;
    let cut: Vec<&str> = lines[last].split("\",\"").take(20).collect();
    lines[last] = cut.join("\",\"") + "\"";
    let report = parse("range_profiler.raw.csv", &(lines.join("\n") + "\n"));
    let width = header.len();
    assert_eq!(
        report.warnings,
        [
            format!(
                "{with_value} cell{} under a column without a name skipped (column {})",
                if with_value == 1 { "" } else { "s" },
                column + 1
            ),
            format!(
                "2 cells beyond the last named column skipped (columns {}, {})",
                width + 1,
                width + 2
            ),
            format!(
                "1 row shorter than the header read in part (line {})",
                last + 1
            ),
        ]
    );
    assert_eq!(report.results.len(), sound.results.len());
}

#[test]
fn rows_of_a_table_of_no_known_shape_are_counted_and_named() {
    let text = String::from_utf8(fixture_bytes("range/range_profiler.rule_details.txt")).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let kpi = lines
        .iter()
        .position(|l| l.trim_start().starts_with("> Key Performance Indicators"))
        .unwrap();
    // The header row names a column ncu does not print: the table is not read.
    let header = kpi + 2;
    assert!(lines[header].contains(" Value "), "{}", lines[header]);
    lines[header] = lines[header].replacen(" Value ", " Worth ", 1);
    let rows: Vec<String> = (kpi + 4..)
        .take_while(|&i| {
            let l = lines[i].trim();
            !l.is_empty() && !l.starts_with("---")
        })
        .map(|i| (i + 1).to_string())
        .collect();
    assert!(rows.len() >= 2);
    let report = parse("r.rule_details.txt", &(lines.join("\n") + "\n"));
    let named: Vec<&str> = rows.iter().take(5).map(String::as_str).collect();
    let more = rows.len().saturating_sub(5);
    assert_eq!(
        report.warnings,
        [format!(
            "{} lines in a table of no known shape skipped (lines {}{})",
            rows.len(),
            named.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        )]
    );
}
