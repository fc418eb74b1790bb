//! The results table's rows, made on several threads with each kernel name's cells made once
//! per thread: a real report's rows carry ncu's values in the report's order, and a report
//! too large for one thread gets the rows its results give one by one.

use sightline_app::core::ids::ReportId;
use sightline_app::core::rows::{RowSummary, summarize_report};
use sightline_engine::model::names;
use sightline_testkit::{load_fixture, load_truth};

const REPORT: &str = "big/many_basic.ncu-rep.xz";
const TRUTH: &str = "big/many_basic.truth.json.xz";

#[test]
fn each_row_is_its_results_with_ncus_values_in_the_reports_order() {
    let report = load_fixture(REPORT);
    let truth = load_truth(TRUTH);
    let rows = summarize_report(ReportId(0), "many_basic", &report);
    assert_eq!(rows.len(), truth.len());
    let mut names_seen = std::collections::BTreeSet::new();
    for (i, (row, t)) in rows.iter().zip(&truth).enumerate() {
        assert_eq!(row.result.index, i);
        assert_eq!(row.id, t.action, "row {i}");
        assert_eq!(report.results[i].name.mangled.as_deref(), Some(&*t.mangled));
        assert_eq!(row.kernel_full, report.results[i].name.demangled, "row {i}");
        assert!(row.kernel.contains(&t.function), "row {i}: {}", row.kernel);
        assert!(
            row.filter_key.contains(&t.function.to_lowercase()),
            "row {i}: {}",
            row.filter_key
        );
        assert_eq!(row.duration_ns, Some(t.number(names::DURATION)), "row {i}");
        for (ours, key) in [
            (row.sol_compute_pct, names::SOL_COMPUTE),
            (row.sol_memory_pct, names::SOL_MEMORY),
        ] {
            // A throughput is a ratio ncu computes; ours may differ in the last bit.
            let want = t.number(key);
            let ours = ours.unwrap_or_else(|| panic!("row {i}: no {key}"));
            assert!(
                (ours - want).abs() <= want.abs() * 1e-12,
                "row {i} {key}: {ours} {want}"
            );
        }
        names_seen.insert(row.kernel.clone());
    }
    // Names repeat: the cells made once per name are each name's own.
    assert!(names_seen.len() > 1 && names_seen.len() < rows.len() / 4);
}

#[test]
fn a_report_too_large_for_one_thread_gets_the_rows_of_its_results_one_by_one() {
    let report = load_fixture(REPORT);
    let alone = summarize_report(ReportId(0), "many_basic", &report);
    let n = report.results.len();
    // The results four times over, each copy a result of its own, interleaved so that the
    // threads' parts start at different names.
    let mut large = report.clone();
    large.results = (0..4 * n)
        .map(|i| report.results[(i * 7) % n].clone())
        .collect();
    let rows = summarize_report(ReportId(0), "many_basic", &large);
    assert_eq!(rows.len(), 4 * n);
    for (i, row) in rows.iter().enumerate() {
        let mut expected: RowSummary = alone[(i * 7) % n].clone();
        expected.result.index = i;
        assert_eq!(*row, expected, "row {i}");
    }
}
