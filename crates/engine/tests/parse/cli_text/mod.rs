//! The `ncu` CLI text parser against real tool output: result counts, every printed value
//! against the `ncu_report` oracle, kernel lines against the fixture text, rules, summaries,
//! raw pages, terminal captures and truncated files. One module per theme; the helpers here are
//! shared by them.

mod damaged_and_large;
mod layouts;
mod print_options;
mod rules;
mod values;

use sightline_engine::model::Report;
use sightline_engine::parse::parse_bytes;
use sightline_testkit::fixture_bytes;
use std::path::Path;

fn fixture_text(rel: &str) -> String {
    String::from_utf8(fixture_bytes(rel)).unwrap()
}

fn parse_text(text: &str) -> Report {
    parse_bytes(Path::new("test.txt"), text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

/// Lines of a fixture that name a kernel, found independently of the parser: 0–2 spaces of
/// indentation, then the fields ncu ends kernel lines with.
fn kernel_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.starts_with("   "))
        .map(str::trim)
        .filter(|l| {
            l.ends_with(|c: char| c.is_ascii_digit())
                && (l.contains(", CC ") || (l.contains(", Context ") && l.contains(", Stream ")))
                && !l.starts_with("==")
        })
        .collect()
}
