//! Baseline against current on the Source page: per-line changes of every metric column equal
//! the difference of Nsight Compute's own exports of the two reports (`--page source --csv`),
//! lines matched by place, and by text when the code moved; and the stall reasons of each line
//! against ncu's per-reason columns. (The page's view-model against a baseline is in
//! crates/app/tests/views/source_baseline.rs; `source --baseline` in tests/cli/source_json.rs of
//! the root package.)

use sightline_engine::analysis::source::compare::{LineMatch, compare};
use sightline_engine::analysis::source::stalls::stall_reasons;
use sightline_engine::analysis::source::{self, SourceOptions};
use sightline_engine::model::source::SourceView;
use sightline_engine::parse::ncu_rep::CodeIndex;
use sightline_engine::parse::source_csv::{self, LineListing};
use sightline_testkit::source_fixture::{chain, ncu_column, ncu_lines, ncu_row};
use sightline_testkit::{fixture_bytes, fixture_path};

/// Checks every line's change against ncu's two exports; `shift` is how far the baseline's
/// lines moved down.
fn check(base: &SourceView, current: &SourceView, shift: u32, matched: LineMatch) {
    let (before, after) = (ncu_lines("inl_nosrc"), ncu_lines("inl_src"));
    let cmp = compare(base, current);
    assert_eq!(cmp.lines.len(), current.lines.len());
    assert!(cmp.removed.is_empty(), "{:?}", cmp.removed);
    let samples = current
        .column("Warp Stall Sampling (All Samples)")
        .expect("samples column");
    let mut moved_samples = 0.0;
    for (line, d) in current.lines.iter().zip(&cmp.lines) {
        assert_eq!(d.matched, matched, "line {}", line.line);
        let b = d.base.expect("baseline line");
        assert_eq!(base.lines[b].line, line.line + shift);
        let now = ncu_row(&after, line.line);
        let then = ncu_row(&before, line.line);
        for (c, name) in current.columns.iter().enumerate() {
            let theirs = ncu_column(&after, name);
            let parse = |s: &str| s.parse::<f64>().ok();
            let expected = if current.numeric[c] {
                parse(&now.cells[theirs])
                    .zip(parse(&then.cells[theirs]))
                    .map(|(a, b)| a - b)
            } else {
                None
            };
            assert_eq!(d.delta[c], expected, "line {} {name}", line.line);
        }
        moved_samples += d.delta[samples].unwrap_or(0.0).abs();
    }
    // Two runs of the same code: the sampled stalls differ, so the check compares real changes.
    assert!(moved_samples > 0.0, "no line's samples changed");
}

#[test]
fn per_line_changes_equal_the_difference_of_ncus_exports() {
    check(
        &chain("inl_nosrc"),
        &chain("inl_src"),
        0,
        LineMatch::Position,
    );
}

#[test]
fn lines_whose_code_moved_are_matched_by_their_text() {
    // The baseline as if three lines had been added above the kernel's code.
    let mut base = chain("inl_nosrc");
    for f in &mut base.files {
        if let Some(text) = &mut f.text {
            text.splice(0..0, (0..3).map(|i| format!("// added line {i}")));
        }
    }
    for l in &mut base.lines {
        l.line += 3;
    }
    check(&base, &chain("inl_src"), 3, LineMatch::Text);
}

#[test]
fn a_kernel_against_another_reports_added_and_removed_lines() {
    // The two kernels of inl.cu share the file but not their lines.
    let rel = "source/inl_src.ncu-rep.xz";
    let bytes = fixture_bytes(rel);
    let parsed =
        sightline_engine::parse::parse_bytes(&fixture_path(rel.trim_end_matches(".xz")), &bytes)
            .expect("report");
    let index = CodeIndex::new(&bytes).expect("code index");
    let view = |prefix: &str| {
        let r = parsed
            .results
            .iter()
            .find(|r| r.name.demangled.starts_with(prefix))
            .expect("kernel");
        let code = index
            .kernel_code(
                &bytes,
                r.name.mangled.as_deref().expect("mangled"),
                source::function_address(r),
            )
            .expect("module");
        source::build(r, Some(&code), &SourceOptions::default()).expect("view")
    };
    let (copy, chain) = (view("plain_copy"), view("inline_chain"));
    let cmp = compare(&copy, &chain);
    let theirs = ncu_lines("inl_src");
    let samples = chain
        .column("Warp Stall Sampling (All Samples)")
        .expect("column");
    let col = theirs
        .columns
        .iter()
        .position(|n| n == "Warp Stall Sampling (All Samples)")
        .expect("column");
    for (line, d) in chain.lines.iter().zip(&cmp.lines) {
        if d.matched == LineMatch::Added {
            let row = ncu_row(&theirs, line.line);
            assert_eq!(
                d.delta[samples],
                row.cells[col].parse::<f64>().ok(),
                "line {}",
                line.line
            );
        }
    }
    assert!(cmp.lines.iter().any(|d| d.matched == LineMatch::Added));
    assert!(!cmp.removed.is_empty(), "plain_copy's own lines are gone");
}

/// Checks the stall reasons of every line of a view against ncu's per-line listing.
fn check_stall_reasons(view: &SourceView, listing: &LineListing, what: &str) -> usize {
    let mut reasons = 0;
    for row in &listing.lines {
        let line = view
            .lines
            .iter()
            .find(|l| view.files[l.file].path == listing.file && l.line == row.line)
            .unwrap_or_else(|| panic!("{what}: line {}", row.line));
        let ours = stall_reasons(view, &line.cells);
        let theirs = |name: &str| {
            let c = ncu_column(listing, name);
            row.cells[c].parse::<f64>().expect("number")
        };
        for s in &ours {
            assert_eq!(
                s.samples,
                theirs(s.reason),
                "{what}: line {} {}",
                row.line,
                s.reason
            );
            assert_eq!(
                s.not_issued,
                theirs(s.not_issued_column),
                "{what}: line {}",
                row.line
            );
        }
        // Every reason ncu shows with samples is listed, and nothing else adds samples.
        let mut total = 0.0;
        for name in listing
            .columns
            .iter()
            .filter(|n| n.starts_with("stall_") && !n.ends_with("(Not Issued)"))
        {
            let v = theirs(name);
            total += v;
            if v != 0.0 {
                assert!(
                    ours.iter().any(|s| s.reason == name),
                    "{what}: line {} {name}",
                    row.line
                );
            }
        }
        assert_eq!(
            ours.iter().map(|s| s.samples).sum::<f64>(),
            total,
            "{what}: line {}",
            row.line
        );
        assert!(
            ours.windows(2).all(|w| w[0].samples >= w[1].samples),
            "{what}: order"
        );
        reasons += ours.len();
    }
    reasons
}

#[test]
fn stall_reasons_per_line_equal_ncus_per_reason_columns() {
    let mut reasons = check_stall_reasons(&chain("inl_src"), &ncu_lines("inl_src"), "inline_chain");
    let rel = "h100/kernels_full.ncu-rep.xz";
    let bytes = fixture_bytes(rel);
    let parsed =
        sightline_engine::parse::parse_bytes(&fixture_path(rel.trim_end_matches(".xz")), &bytes)
            .expect("report");
    let index = CodeIndex::new(&bytes).expect("code index");
    // Launch 3 (naive matmul) and 6 (reduction with bank conflicts) of kernels_full.
    for (i, name) in [(3, "k03_matmul_naive"), (6, "k06_reduce_bank_conflicts")] {
        let r = &parsed.results[i];
        let code = index
            .kernel_code(
                &bytes,
                r.name.mangled.as_deref().expect("mangled"),
                source::function_address(r),
            )
            .expect("module");
        let view = source::build(r, Some(&code), &SourceOptions::default()).expect("view");
        let rel = format!("source/kernels_full/{name}.source_cuda_sass.csv.xz");
        let export = source_csv::parse(&fixture_bytes(&rel)).expect("export");
        for listing in &export.lines {
            reasons += check_stall_reasons(&view, listing, name);
        }
    }
    assert!(reasons > 10, "only {reasons} reasons compared");
}
