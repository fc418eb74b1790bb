//! ncu text and CSV as people save it: the public corpus in `../shared/corpus/text-public`
//! (read in place, xz-compressed). Every file gives the result count of its `EXPECTED.tsv` row
//! and a duration for every result where the row says its text has one; a file with no result
//! is refused with a reason that names the `.ncu-rep` its `==PROF==` lines sent the results to;
//! each file compared with itself changes nothing.

use sightline_engine::analysis::compare::{DiffOptions, Verdict, diff_reports};
use sightline_engine::model::{Report, names};
use sightline_testkit::text_public::{Expected, corpus_bytes, expected, named_reports};
use std::ops::Not;
use std::path::Path;

/// What is wrong with one file's outcome, if anything.
fn check(e: &Expected) -> Result<String, String> {
    let bytes = corpus_bytes(&e.file);
    let loaded = sightline_engine::parse::parse_bytes(Path::new(&e.file), &bytes);
    match (e.results, loaded) {
        (0, Ok(r)) => Err(format!("{} results, expected a refusal", r.results.len())),
        (0, Err(err)) => {
            let message = err.to_string();
            let text = String::from_utf8_lossy(&bytes);
            for rep in named_reports(&text) {
                if !message.contains(rep) {
                    return Err(format!("the refusal does not name {rep}: {message}"));
                }
            }
            Ok(format!("refused: {message}"))
        }
        (_, Err(err)) => Err(err.to_string()),
        (n, Ok(r)) if r.results.len() != n => Err(format!(
            "{} results, expected {n} (warnings: {:?})",
            r.results.len(),
            r.warnings
        )),
        (n, Ok(r)) => {
            if e.duration_needed {
                let without: Vec<u64> = r
                    .results
                    .iter()
                    .filter(|k| k.number(names::DURATION).is_none())
                    .map(|k| k.id)
                    .collect();
                if !without.is_empty() {
                    return Err(format!("results without a duration: {without:?}"));
                }
            }
            Ok(format!(
                "{n} results ({:?}); warnings {:?}; notes {:?}",
                r.format, r.warnings, r.notes
            ))
        }
    }
}

#[test]
fn every_file_gives_its_expected_results() {
    let rows = expected();
    assert!(rows.len() >= 32, "{} rows", rows.len());
    let mut failed = Vec::new();
    for e in &rows {
        match check(e) {
            Ok(line) => eprintln!("ok   {}: {line}", e.file),
            Err(why) => {
                eprintln!("FAIL {}: {why}", e.file);
                failed.push(format!("{}: {why}", e.file));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "{} files failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}

/// A loaded corpus file.
fn load(file: &str) -> Report {
    sightline_engine::parse::parse_bytes(Path::new(file), &corpus_bytes(file))
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn every_file_compared_with_itself_changes_nothing() {
    let rows = expected();
    for e in rows.iter().filter(|e| e.results > 0) {
        let report = load(&e.file);
        let diff = diff_reports(&report, &report, &DiffOptions::default());
        assert_eq!(diff.matched.len(), e.results, "{}", e.file);
        assert!(
            diff.only_in_base.is_empty() && diff.only_in_current.is_empty(),
            "{}",
            e.file
        );
        for m in &diff.matched {
            let changed: Vec<String> = m
                .diff
                .metrics
                .iter()
                .filter(|d| d.verdict != Verdict::Unchanged)
                .map(|d| d.key.to_string())
                .collect();
            assert!(changed.is_empty(), "{}: {}: {changed:?}", e.file, m.name);
        }
        assert!(!diff.has_regression(), "{}", e.file);
    }
}

#[test]
fn strict_passes_files_whose_only_extra_text_is_the_programs() {
    let rows = expected();
    // Complete files with program output around ncu's blocks: nothing of ncu's is lost.
    let complete = [
        "AndrewXu22__optimal_unified_memory__bfs_adapt.default.profile.result.csv",
        "YukeWang96__TC-GNN_ATC23__prof_cora.csv",
        "Olajide-Badejo__GPU-Roofline-Profiler__saxpy.csv",
        "Lashi0812__CudaProgramming__ncu_reduceInteger.csv",
        "SSSalvan__PFAC-Motif-Detection-for-Biological-Constraints__ncu_pfac.txt",
        "SSSalvan__PFAC-Motif-Detection-for-Biological-Constraints__ncu_report.txt",
        "YukeWang96__TC-GNN_ATC23__profile.log",
        "YukeWang96__TC-GNN_ATC23__profile_amazon.log",
    ];
    for file in complete {
        assert!(
            rows.iter().any(|e| e.file == file),
            "{file} not in EXPECTED.tsv"
        );
        let report = load(file);
        assert!(report.warnings.is_empty(), "{file}: {:?}", report.warnings);
    }
}

/// A result's number, or a panic naming what is missing.
fn number(report: &Report, index: usize, metric: &str) -> f64 {
    report.results[index]
        .number(metric)
        .unwrap_or_else(|| panic!("result {index}: no {metric}"))
}

#[test]
fn a_decimal_comma_page_and_an_older_summary_read_their_values() {
    let file = "garsanca__GPUs__lab1_README.md.txt";
    let r = load(file);
    // `6,72`, `13.490.336`, `9.420.231,80`, `9,97 msecond`: the details page of a European
    // locale.
    assert!((number(&r, 0, names::DRAM_FREQUENCY) - 6.72e9).abs() < 1.0);
    assert_eq!(number(&r, 0, names::ELAPSED_CYCLES), 13_490_336.0);
    assert!((number(&r, 0, "sm__cycles_active.avg") - 9_420_231.80).abs() < 1e-6);
    assert!((number(&r, 0, names::DURATION) - 9.97e6).abs() < 1e-3);
    assert!((number(&r, 0, names::SOL_COMPUTE) - 4.17).abs() < 1e-9);
    // The summary of the same machine prints C numbers: `Block Size 256, Grid Size 32`.
    let summary = &r.results[1];
    assert_eq!(summary.invocations, Some(1));
    assert_eq!(number(&r, 1, names::BLOCK_SIZE), 256.0);
    assert_eq!(number(&r, 1, names::GRID_SIZE), 32.0);
    assert!((number(&r, 1, names::DURATION) - 9_989_888.0).abs() < 1e-3);
}

#[test]
fn speed_of_light_of_every_version_gives_duration_and_throughputs() {
    for file in [
        // 2019.5-2020.1: `SOL FB`, `SM [%]`, `Memory [%]`, text and CSV.
        "AndrewXu22__optimal_unified_memory__bfs_adapt.default.profile.result.txt",
        "AndrewXu22__optimal_unified_memory__bfs_adapt.default.profile.result.csv",
        // 2020.2-2021.1: `SOL DRAM`, `SOL L1/TEX Cache`, text and CSV.
        "YukeWang96__TC-GNN_ATC23__profile_amazon.log",
        "YukeWang96__TC-GNN_ATC23__prof_cora.csv",
        // 2021.2-2022.1: `Compute (SM) [%]`.
        "YukeWang96__TC-GNN_ATC23__profile.log",
        "liqiangxl__playground__ncu.log",
    ] {
        let r = load(file);
        for (i, result) in r.results.iter().enumerate() {
            let Some(sol) = result.section("GPU Speed Of Light Throughput") else {
                continue;
            };
            assert!(!sol.rows.is_empty(), "{file}: {i}");
            for metric in [
                names::DURATION,
                names::SOL_COMPUTE,
                names::SOL_MEMORY,
                names::SOL_DRAM,
            ] {
                assert!(result.number(metric).is_some(), "{file}: {i}: {metric}");
            }
        }
        assert!(
            r.results
                .iter()
                .any(|x| x.section("GPU Speed Of Light").is_some())
                .not(),
            "{file}: a section under its old name"
        );
    }
}

#[test]
fn rules_of_type_ok_are_read() {
    for file in [
        "YukeWang96__TC-GNN_ATC23__profile_amazon.log",
        "YukeWang96__TC-GNN_ATC23__prof_cora.csv",
    ] {
        let r = load(file);
        let rules = r.results[0].all_rules().count();
        let sol_rules = r.results[0]
            .all_rules()
            .filter(|rule| rule.message.contains("fp64 peak performance"))
            .count();
        assert!(rules >= 2, "{file}: {rules}");
        assert_eq!(sol_rules, 1, "{file}");
    }
}
