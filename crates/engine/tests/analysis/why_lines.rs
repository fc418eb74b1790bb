//! The why-list's line links against Nsight Compute's own Source page exports of a real
//! before/after pair (`fixtures/pair_lines`: `pair.cu` built twice with `-lineinfo`): each
//! linked line's change and share equal the difference of ncu's two exports, the first link
//! of each change is the line ncu's exports say moved most that way, and a line only the
//! baseline's export lists (code that went away) is marked as the baseline's.

use sightline_engine::analysis::compare::{DiffOptions, WhyKind, diff_results, explain};
use sightline_engine::analysis::source::SourceOptions;
use sightline_engine::analysis::source::compare::compare;
use sightline_engine::analysis::source::why_lines::{column_for, link_lines};
use sightline_engine::model::source::SourceView;
use sightline_engine::parse::source_csv::{self, LineListing};
use sightline_testkit::fixture_bytes;
use std::collections::BTreeMap;

/// A kernel's result and Source view in one side of the pair.
fn side(version: &str, kernel: &str) -> (sightline_engine::model::KernelResult, SourceView) {
    sightline_testkit::source_fixture::result_and_view(
        &format!("pair_lines/{version}.ncu-rep.xz"),
        kernel,
        &SourceOptions::default(),
    )
}

/// ncu's per-line listing of a kernel in one side.
fn ncu_lines(version: &str, kernel: &str) -> LineListing {
    let rel = format!("pair_lines/{version}.{kernel}.source_cuda_sass.csv.xz");
    let mut export = source_csv::parse(&fixture_bytes(&rel)).expect("export");
    assert_eq!(export.lines.len(), 1, "{rel}: one file");
    export.lines.remove(0)
}

/// A column of ncu's listing: each line's value, and the sum over the instructions.
fn ncu_column(listing: &LineListing, column: &str) -> Option<(BTreeMap<u32, f64>, f64)> {
    let c = listing.columns.iter().position(|n| n == column)?;
    let value = |cells: &[String]| {
        cells
            .get(c)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    let lines = listing
        .lines
        .iter()
        .map(|r| (r.line, value(&r.cells)))
        .collect();
    // The export repeats instructions around each line: each address counts once.
    let by_address: BTreeMap<u64, f64> = listing
        .instructions
        .iter()
        .map(|r| (r.address, value(&r.cells)))
        .collect();
    let total = by_address.values().sum();
    Some((lines, total))
}

#[test]
fn why_list_links_each_change_to_the_lines_ncu_says_carry_it() {
    let mut stall_links = 0;
    let mut checked = 0;
    let mut baseline_only = 0;
    for kernel in ["saxpy_strided", "blur", "matmul"] {
        let (b, base_view) = side("before", kernel);
        let (c, current_view) = side("after", kernel);
        let speed = diff_results(&b, &c, &DiffOptions::default()).speed();
        let mut why = explain(&b, &c, speed);
        let comparison = compare(&base_view, &current_view);
        link_lines(&mut why, &base_view, &current_view, &comparison);
        let (before, after) = (ncu_lines("before", kernel), ncu_lines("after", kernel));
        for e in &why {
            let Some(column) = column_for(e) else {
                assert!(
                    e.lines.is_empty(),
                    "{kernel} {}: linked without a column",
                    e.text
                );
                continue;
            };
            let (Some((xb, tb)), Some((xa, ta))) =
                (ncu_column(&before, &column), ncu_column(&after, &column))
            else {
                // Every stall reason is a column of ncu's export.
                assert_ne!(
                    e.kind,
                    WhyKind::StallMoved,
                    "{kernel}: ncu has no column {column}"
                );
                assert!(
                    e.lines.is_empty(),
                    "{kernel} {}: linked without a column",
                    e.text
                );
                continue;
            };
            let whole = ta - tb;
            // ncu's lines with their change, by line number (both builds are of one file).
            let numbers: std::collections::BTreeSet<u32> =
                xb.keys().chain(xa.keys()).copied().collect();
            let mut moved: Vec<(u32, f64)> = numbers
                .into_iter()
                .map(|n| {
                    (
                        n,
                        xa.get(&n).copied().unwrap_or(0.0) - xb.get(&n).copied().unwrap_or(0.0),
                    )
                })
                .filter(|&(_, d)| d * whole > 0.0 && d / whole >= 0.1)
                .collect();
            moved.sort_by(|x, y| y.1.abs().total_cmp(&x.1.abs()).then(x.0.cmp(&y.0)));
            let want: Vec<(u32, f64)> = moved.into_iter().take(3).collect();
            let got: Vec<(u32, f64)> = e.lines.iter().map(|l| (l.line, l.change)).collect();
            assert_eq!(got, want, "{kernel} {}", e.text);
            for l in &e.lines {
                assert!(l.file.ends_with("/pair.cu"), "{}", l.file);
                let share = l.change / whole * 100.0;
                assert!(
                    (l.share_pct - share).abs() < 1e-9,
                    "{kernel}: {} (ncu: {share} of {whole} = {ta} - {tb})",
                    l.text
                );
                // A line ncu lists in the baseline's export only is code that went away:
                // the link says so and leads to the baseline's source.
                let gone = xb.contains_key(&l.line) && !xa.contains_key(&l.line);
                assert_eq!(l.baseline_only, gone, "{kernel}: {}", l.text);
                baseline_only += usize::from(gone);
                let suffix = if gone { " (baseline)" } else { "" };
                assert!(
                    l.text
                        .ends_with(&format!(" % at pair.cu:{}{suffix}", l.line)),
                    "{}",
                    l.text
                );
                checked += 1;
                if e.kind == WhyKind::StallMoved {
                    stall_links += 1;
                    assert!(
                        l.text.starts_with(&format!("stall {} ", e.subject)),
                        "{}",
                        l.text
                    );
                }
            }
        }
    }
    assert!(stall_links > 0, "no stall change was tied to a line");
    // saxpy_strided's scattered index (pair.cu:29) went away in the faster build.
    assert!(baseline_only > 0, "no link to a line only the baseline has");
    assert!(checked >= 3, "only {checked} links checked");
}
