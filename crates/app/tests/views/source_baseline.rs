//! The Source page's view-model against a baseline report: the app compares the page with the
//! baseline's (as the engine's comparison, checked against ncu's exports in
//! crates/engine/tests/analysis/source_compare.rs, gives it), and reads the page's data on a
//! background thread.

use sightline_testkit::source_fixture::{inline_chain_pair, ncu_column, ncu_lines, ncu_row};
use sightline_testkit::temp_dir;

#[test]
fn the_app_compares_the_source_page_with_a_baseline_report() {
    let dir = temp_dir("source-app");
    let (base, current, base_result, current_result) = inline_chain_pair(&dir);
    let view = sightline_app::views::source::load(
        Some(&current),
        &current_result,
        Default::default(),
        &sightline_engine::parse::sass::Disassembler::none(),
    )
    .expect("view");
    let (base_view, cmp) = sightline_app::views::source::compare_with(
        &view,
        Some(&base),
        &base_result,
        Default::default(),
        &sightline_engine::parse::sass::Disassembler::none(),
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

#[test]
fn the_page_reads_its_data_on_a_background_thread() {
    let dir = temp_dir("source-bg");
    let (base, current, base_result, current_result) = inline_chain_pair(&dir);
    let expected = sightline_app::views::source::load(
        Some(&current),
        &current_result,
        Default::default(),
        &sightline_engine::parse::sass::Disassembler::none(),
    )
    .expect("view");
    let (_, expected_cmp) = sightline_app::views::source::compare_with(
        &expected,
        Some(&base),
        &base_result,
        Default::default(),
        &sightline_engine::parse::sass::Disassembler::none(),
    )
    .expect("comparison");

    use sightline_app::core::ids::{ReportId, ResultRef};
    use sightline_app::views::source::{SourcePageView, SourceStatus, listing};
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
fn page_choice_default() -> sightline_app::views::source::SourceChoice {
    sightline_app::views::source::SourceChoice::default()
}
