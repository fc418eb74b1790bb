//! Terminal captures (colours, CRLF), truncated and mangled texts, and large texts read in
//! parallel parts: the same results as the clean whole, never a panic.

use super::print_options::DETAILS_ALL;
use super::{fixture_text, parse_text};
use sightline_engine::model::WarningKind;
use sightline_engine::parse::cli_text;
use sightline_testkit::load_fixture;

#[test]
fn terminal_colours_and_crlf_give_the_same_results() {
    for rel in ["seeds/cli_details_cc86.txt", "h100/kernels_cli_full.txt"] {
        let plain = load_fixture(rel);
        let text = fixture_text(rel);
        let mut coloured = String::new();
        for line in text.lines() {
            if let Some(name) = line.strip_prefix("    Section: ") {
                coloured.push_str(&format!("    \x1b[1mSection: \x1b[36m{name}\x1b[0m\r\n"));
            } else if let Some(rest) = line.strip_prefix("    OPT") {
                coloured.push_str(&format!("    \x1b[1;33mOPT\x1b[0m{rest}\r\n"));
            } else {
                coloured.push_str(line);
                coloured.push_str("\r\n");
            }
        }
        assert_ne!(coloured.len(), text.len());
        let report = parse_text(&coloured);
        assert_eq!(report.results, plain.results, "{rel}");
        assert_eq!(report.warnings, plain.warnings);
    }
}

#[test]
fn truncated_text_keeps_earlier_results() {
    let text = fixture_text("h100/kernels_full.details.txt");
    let full = parse_text(&text);
    // Cut after the `Block Size` row of the 8th result's Launch Statistics table.
    let eighth = text
        .match_indices("\n  ")
        .filter(|(i, _)| !text[i + 3..].starts_with(' '))
        .nth(7)
        .unwrap()
        .0;
    let row = eighth + text[eighth..].find("    Block Size").unwrap();
    let line_end = row + text[row..].find('\n').unwrap() + 1;
    for (cut, what) in [(line_end, "at a line end"), (line_end - 3, "inside a row")] {
        let report = parse_text(&text[..cut]);
        assert_eq!(report.results.len(), 8, "{what}");
        assert_eq!(report.results[..7], full.results[..7], "{what}");
        assert_eq!(report.warnings.len(), 1, "{what}: {:?}", report.warnings);
        assert_eq!(report.warnings[0].kind, WarningKind::Truncated, "{what}");
        let last = &report.results[7];
        let launch = last.section("Launch Statistics").unwrap();
        let labels: Vec<&str> = launch.rows.iter().map(|r| r.label.as_str()).collect();
        let expected: &[&str] = if cut == line_end {
            &["Block Size"]
        } else {
            &[]
        };
        assert_eq!(labels, expected, "{what}");
    }
    // Cut right after a section title.
    let section = eighth + text[eighth..].find("    Section: Occupancy\n").unwrap();
    let report = parse_text(&text[..section + "    Section: Occupancy\n".len()]);
    assert_eq!(report.results.len(), 8);
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert_eq!(report.warnings[0].kind, WarningKind::Truncated);
}

#[test]
fn metric_map_equals_index_section_metrics() {
    for rel in [
        "h100/kernels_full.details.txt",
        "h100/kernels_basic.summary.txt",
        "h100/kernels_basic.raw.txt.xz",
        "seeds/cli_script_log_cutlass.txt",
        "big/many_basic.details.txt.xz",
    ] {
        for r in &load_fixture(rel).results {
            let mut rebuilt = r.clone();
            rebuilt.metrics_mut().clear();
            rebuilt.index_section_metrics();
            assert_eq!(rebuilt.metrics(), r.metrics(), "{rel} result {}", r.id);
        }
    }
    // With body tables, the header rows' entries are those of `index_section_metrics`.
    let r = &cli_text::parse(DETAILS_ALL).unwrap().results[0];
    let mut rebuilt = r.clone();
    rebuilt.metrics_mut().clear();
    rebuilt.index_section_metrics();
    for (key, metric) in rebuilt.metrics() {
        assert_eq!(r.metrics().get(&key), Some(metric), "{key}");
    }
    assert!(r.metrics().len() > rebuilt.metrics().len());
}

#[test]
fn large_texts_read_in_parts_give_the_same_results() {
    // Texts of a megabyte or more are read in parallel parts; a prefix under a megabyte is
    // read in one go. The results they share must be equal, processes included.
    let text = fixture_text("big/many_basic.details.txt.xz");
    assert!(text.len() > 2 << 20);
    let whole = cli_text::parse(&text).unwrap();
    assert!(whole.results.iter().all(|r| r.process_id == Some(3264)));
    assert!(
        whole
            .results
            .iter()
            .all(|r| r.process_name.as_deref() == Some("python3.12"))
    );
    let mut cut = (1 << 20) - 1;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let prefix = cli_text::parse(&text[..cut]).unwrap();
    let n = prefix.results.len() - 1;
    assert!(n > 100);
    assert_eq!(prefix.results[..n], whole.results[..n]);
    // A copy of the text twice over splits mid-way and numbers results across the parts.
    let twice = text.repeat(2);
    let report = cli_text::parse(&twice).unwrap();
    assert_eq!(report.results.len(), 2 * whole.results.len());
    assert_eq!(
        report.results[whole.results.len()..],
        whole
            .results
            .iter()
            .map(|r| {
                let mut r = r.clone();
                r.id += whole.results.len() as u64;
                r
            })
            .collect::<Vec<_>>()[..]
    );
}

#[test]
fn mangled_text_never_panics() {
    // Deterministic pseudo-random damage: dropped, repeated and cut lines, stray bytes.
    let text = fixture_text("seeds/cli_details_cc86.txt");
    let lines: Vec<&str> = text.lines().collect();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..200 {
        let mut out = String::new();
        for line in &lines {
            match next(40) {
                0 => continue,
                1 => out.push_str(&format!("{line}\n{line}\n")),
                2 => {
                    let cut = next(line.len() + 1);
                    out.push_str(line.get(..cut).unwrap_or(line));
                    out.push('\n');
                }
                3 => out.push_str("    ----- --- -\n  (1, 1)x(, Context , CC 9.\n\u{fffd}>  ;(\n"),
                _ => {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
        let cut = next(out.len() + 1);
        let cut = (0..=cut)
            .rev()
            .find(|&i| out.is_char_boundary(i))
            .unwrap_or(0);
        // Work done, not wall time: CPU time does not grow when the machine is busy.
        let started = sightline_testkit::cpu_time::thread_cpu_time();
        if let Ok(report) = cli_text::parse(&out[..cut]) {
            assert!(report.results.len() <= lines.len(), "round {round}");
        }
        let spent = sightline_testkit::cpu_time::thread_cpu_time().saturating_sub(started);
        assert!(
            spent.as_secs() < 5,
            "round {round} took {spent:?} of CPU time"
        );
    }
}

#[test]
fn no_result_is_an_error() {
    let err = cli_text::parse("hello\n    Section: nothing\n").unwrap_err();
    let message = err.to_string();
    assert!(message.contains("kernel line"), "{message}");
    assert!(!message.contains('\n'));
    assert!(cli_text::parse("").is_err());
}
