//! Baseline against current on the Source page: per-line changes of every metric column equal
//! the difference of Nsight Compute's own exports of the two reports (`--page source --csv`),
//! lines matched by place, and by text when the code moved; and the stall reasons of each line
//! against ncu's per-reason columns.

use crate::common;

use common::{fixture_bytes, fixture_file, fixture_path, temp_dir};
use sightline::analysis::source::compare::{LineMatch, compare};
use sightline::analysis::source::stalls::stall_reasons;
use sightline::analysis::source::{self, SourceOptions};
use sightline::model::KernelResult;
use sightline::model::source::SourceView;
use sightline::parse::ncu_rep::CodeIndex;
use sightline::parse::source_csv::{self, LineListing, LineRow};
use std::path::{Path, PathBuf};

/// The `inline_chain` view of a report of `fixtures/source/`, its text found in `fixtures/`.
fn chain(report: &str) -> SourceView {
    let options = SourceOptions {
        source_dirs: vec![PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures")],
        ..SourceOptions::default()
    };
    crate::source_page::result_and_view(
        &format!("source/{report}.ncu-rep.xz"),
        "inline_chain",
        &options,
    )
    .1
}

/// ncu's per-line listing of the kernel in one report.
fn ncu_lines(report: &str) -> LineListing {
    let rel = format!("source/{report}.inline_chain.source_cuda_sass.csv.xz");
    let mut export = source_csv::parse(&fixture_bytes(&rel)).expect("export");
    assert_eq!(export.lines.len(), 1, "{rel}: one file");
    export.lines.remove(0)
}

/// Checks every line's change against ncu's two exports; `shift` is how far the baseline's
/// lines moved down.
/// The row of ncu's listing for a CUDA line.
fn ncu_row(listing: &LineListing, line: u32) -> &LineRow {
    listing
        .lines
        .iter()
        .find(|r| r.line == line)
        .unwrap_or_else(|| panic!("line {line} not in ncu's listing"))
}

/// The position of a metric column in ncu's listing.
fn ncu_column(listing: &LineListing, name: &str) -> usize {
    listing
        .columns
        .iter()
        .position(|n| n == name)
        .unwrap_or_else(|| panic!("column {name} not in ncu's listing"))
}

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
    let parsed = sightline::parse::parse_bytes(&fixture_path(rel.trim_end_matches(".xz")), &bytes)
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

/// The two reports of the inlined-call program as files in `dir` (the one without imported
/// source as the baseline) and their `inline_chain` results.
fn inline_chain_pair(dir: &Path) -> (PathBuf, PathBuf, KernelResult, KernelResult) {
    let base = fixture_file(dir, "source/inl_nosrc.ncu-rep.xz");
    let current = fixture_file(dir, "source/inl_src.ncu-rep.xz");
    let pick = |path: &Path| {
        let report = sightline::parse::load_path(path).expect("report");
        report
            .results
            .into_iter()
            .find(|r| r.name.demangled.starts_with("inline_chain"))
            .expect("kernel")
    };
    let (base_result, current_result) = (pick(&base), pick(&current));
    (base, current, base_result, current_result)
}

#[test]
fn the_source_command_prints_each_lines_change_from_a_baseline() {
    let dir = temp_dir("source-cmp");
    let base = fixture_file(&dir, "source/inl_nosrc.ncu-rep.xz");
    let current = fixture_file(&dir, "source/inl_src.ncu-rep.xz");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["source", "--json", "--kernel", "inline_chain", "--baseline"])
        .arg(&base)
        .arg(&current)
        .output()
        .expect("run");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let result = &json["reports"][0]["results"][0];
    assert_eq!(result["baseline_kernel"], result["kernel"]);
    let (before, after) = (ncu_lines("inl_nosrc"), ncu_lines("inl_src"));
    let name = "Warp Stall Sampling (All Samples)";
    let col = ncu_column(&after, name);
    let lines = result["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), after.lines.len());
    for row in &after.lines {
        let then = before
            .lines
            .iter()
            .find(|r| r.line == row.line)
            .expect("ncu line");
        let expected: i64 =
            row.cells[col].parse::<i64>().expect("n") - then.cells[col].parse::<i64>().expect("n");
        let line = lines
            .iter()
            .find(|l| l["line"] == row.line)
            .expect("line in output");
        assert_eq!(line["match"], "position");
        let stalled: i64 = after
            .columns
            .iter()
            .zip(&row.cells)
            .filter(|(n, _)| n.starts_with("stall_") && !n.ends_with("(Not Issued)"))
            .map(|(_, v)| v.parse::<i64>().expect("n"))
            .sum();
        let listed: i64 = line["stall_reasons"]
            .as_array()
            .expect("stall reasons")
            .iter()
            .map(|s| s["samples"].as_i64().expect("integer samples"))
            .sum();
        assert_eq!(listed, stalled, "line {}", row.line);
        assert_eq!(
            line["delta"][name].as_i64(),
            Some(expected),
            "line {}",
            row.line
        );
    }
}

#[test]
fn the_app_compares_the_source_page_with_a_baseline_report() {
    let dir = temp_dir("source-app");
    let (base, current, base_result, current_result) = inline_chain_pair(&dir);
    let view = sightline::app::views::source::load(
        Some(&current),
        &current_result,
        Default::default(),
        &sightline::parse::sass::Disassembler::none(),
    )
    .expect("view");
    let (base_view, cmp) = sightline::app::views::source::compare_with(
        &view,
        Some(&base),
        &base_result,
        Default::default(),
        &sightline::parse::sass::Disassembler::none(),
    )
    .expect("comparison");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(base_view.lines.len(), view.lines.len());
    let (before, after) = (ncu_lines("inl_nosrc"), ncu_lines("inl_src"));
    let name = "Instructions Executed";
    let (c, theirs) = (view.column(name).expect("column"), ncu_column(&after, name));
    let name = "Warp Stall Sampling (All Samples)";
    let (s, theirs_s) = (view.column(name).expect("column"), ncu_column(&after, name));
    for (line, d) in view.lines.iter().zip(&cmp.lines) {
        let now = ncu_row(&after, line.line);
        let then = ncu_row(&before, line.line);
        let diff = |col: usize| {
            now.cells[col].parse::<f64>().expect("n") - then.cells[col].parse::<f64>().expect("n")
        };
        assert_eq!(d.delta[c], Some(diff(theirs)), "line {}", line.line);
        assert_eq!(d.delta[s], Some(diff(theirs_s)), "line {}", line.line);
    }
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
    let parsed = sightline::parse::parse_bytes(&fixture_path(rel.trim_end_matches(".xz")), &bytes)
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

#[test]
fn the_page_reads_its_data_on_a_background_thread() {
    let dir = temp_dir("source-bg");
    let (base, current, base_result, current_result) = inline_chain_pair(&dir);
    let expected = sightline::app::views::source::load(
        Some(&current),
        &current_result,
        Default::default(),
        &sightline::parse::sass::Disassembler::none(),
    )
    .expect("view");
    let (_, expected_cmp) = sightline::app::views::source::compare_with(
        &expected,
        Some(&base),
        &base_result,
        Default::default(),
        &sightline::parse::sass::Disassembler::none(),
    )
    .expect("comparison");

    use sightline::app::core::ids::{ReportId, ResultRef};
    use sightline::app::views::source::{SourcePageView, SourceStatus, listing};
    let at = |index| ResultRef {
        report: ReportId(1),
        index,
    };
    let mut page = SourcePageView::default();
    let (woke_tx, woke_rx) = std::sync::mpsc::channel();
    let sources = || {
        (
            (
                Some(current.clone()),
                current_result.clone(),
                Default::default(),
            ),
            Some((Some(base.clone()), base_result.clone(), Default::default())),
        )
    };
    let key = (at(1), Some(at(0)), 0, 0);
    let first = page.status(key, sources, false, move || {
        let name = std::thread::current().name().map(str::to_string);
        let _ = woke_tx.send(name);
    });
    assert!(matches!(first, SourceStatus::Reading));
    let woke_on = woke_rx.recv().expect("woken");
    assert_ne!(woke_on.as_deref(), std::thread::current().name());
    let SourceStatus::Ready {
        data,
        listing: rows,
    } = page.status(key, sources, true, || {})
    else {
        panic!("read");
    };
    let view = data.view.as_ref().expect("view");
    assert_eq!(view, &expected);
    let (_, cmp) = data
        .baseline
        .as_ref()
        .expect("baseline")
        .as_ref()
        .expect("comparison");
    assert_eq!(cmp, &expected_cmp);
    // The rows listed for the default choice: the hottest lines of its column first.
    let rows = rows.expect("rows");
    assert_eq!(rows, &listing(view, &page_choice_default()));
    assert_eq!(rows.lines, view.hottest_lines(rows.column));

    // Without a report file the page says what it needs, also from the job.
    let mut page = SourcePageView::default();
    let key = (at(2), None, 0, 0);
    let no_file = || ((None, current_result.clone(), Default::default()), None);
    let SourceStatus::Ready { data, .. } = page.status(key, no_file, true, || {}) else {
        panic!("read");
    };
    let err = data.view.as_ref().expect_err("no view");
    assert!(err.contains(".ncu-rep"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The choice the Source page starts with.
fn page_choice_default() -> sightline::app::views::source::SourceChoice {
    sightline::app::views::source::SourceChoice::default()
}
