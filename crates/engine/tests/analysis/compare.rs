//! Comparison on real fixtures: matching, metric diffs, context warnings, several baselines,
//! exports. (The `diff` command's output and exit codes are tests of the binary:
//! `tests/cli/diff_command.rs` of the root package.)

use sightline_engine::analysis::compare::export::{self};
use sightline_engine::analysis::compare::fail_on::FailOn;
use sightline_engine::analysis::compare::{
    CompareRequest, ContextKind, DiffOptions, DiffWarning, Keep, KernelIdentity, MatchKind,
    Verdict, against_baselines, diff_reports, diff_results, match_baselines, match_results,
    metric_against_baselines, normalize_kernel_name,
};
use sightline_engine::model::{Format, KernelResult, Report, Value, names};
use sightline_engine::output::compare::MarkdownOptions;
use sightline_testkit::{TruthResult, fixture_bytes, load_fixture, load_truth, truth_to_result};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

const FULL_TRUTH: &str = "h100/kernels_full.truth.json.xz";
const BASIC_TRUTH: &str = "h100/kernels_basic.truth.json.xz";
const FULL_TEXT: &str = "h100/kernels_full.details.txt";
const BASIC_TEXT: &str = "h100/kernels_basic.details.txt";
const FULL_REP: &str = "h100/kernels_full.ncu-rep.xz";

/// A report built straight from the oracle.
fn truth_report(rel: &str) -> Report {
    let mut report = Report::new(rel, Format::NcuRep);
    report.results = load_truth(rel)
        .iter()
        .enumerate()
        .map(|(i, t)| truth_to_result(t, i as u64))
        .collect();
    report
}

/// Metric keys with a value, straight from the oracle.
fn valued_keys(rel: &str, index: usize) -> BTreeSet<String> {
    load_truth(rel)[index]
        .metrics
        .iter()
        .filter(|(_, m)| !m.value.is_null())
        .map(|(k, _)| k.clone())
        .collect()
}

fn all_keys(rel: &str, index: usize) -> BTreeSet<String> {
    load_truth(rel)[index].metrics.keys().cloned().collect()
}

// ---- name normalisation and baseline arithmetic ----

#[test]
fn kernel_name_spellings_normalise_alike() {
    let ncu = "void matmul_tiled<32>(const float *, const float *, float *, int)";
    assert_eq!(
        normalize_kernel_name(ncu),
        normalize_kernel_name("matmul_tiled<(int)32>(float const*, float const*, float*, int)")
    );
    assert_eq!(
        normalize_kernel_name("matmul_tiled<32>"),
        normalize_kernel_name("void matmul_tiled<(int)32>")
    );
    assert_ne!(
        normalize_kernel_name("matmul_tiled<32>"),
        normalize_kernel_name("matmul_tiled<64>")
    );
    // The oracle keeps only the function name and the mangled name; the identity demangles
    // it and agrees with the name the details text prints (fixture line 889).
    let truth = load_truth(FULL_TRUTH);
    assert_eq!(truth[4].name, "matmul_tiled");
    let from_truth = KernelIdentity::of(&truth_to_result(&truth[4], 4));
    assert_eq!(from_truth.full, normalize_kernel_name(ncu));
    assert_eq!(from_truth.function, "matmul_tiled");
}

#[test]
fn z_score_of_the_reference_example() {
    // ncu-reference §1.13: 5.73 against baselines 82.73 and 1.57.
    let s = against_baselines(5.73, &[Some(82.73), Some(1.57)]).unwrap();
    assert_eq!(format!("{:.2}", s.delta_pct.unwrap()), "-86.41");
    assert_eq!(format!("{:.2}", s.z_score.unwrap()), "-0.65");
    let one = against_baselines(1.57, &[Some(82.73)]).unwrap();
    assert_eq!(format!("{:.2}", one.delta_pct.unwrap()), "-98.10");
    assert_eq!(one.z_score, None);
}

// ---- matmul_naive against matmul_tiled<32>, one report ----

fn check_naive_vs_tiled(naive: &KernelResult, tiled: &KernelResult) {
    // Different kernels match on their own only as the one rename of their parameter list
    // (each side has one kernel here)...
    let m = match_results(std::slice::from_ref(naive), std::slice::from_ref(tiled));
    assert_eq!(m.pairs.len(), 1);
    assert_eq!(m.pairs[0].kind, MatchKind::Renamed);
    // ...and not at all when renames are only suggested...
    let suggest_only = sightline_engine::analysis::compare::RenamePolicy {
        auto_pair: false,
        unpaired: Vec::new(),
    };
    let m = sightline_engine::analysis::compare::match_results_with(
        std::slice::from_ref(naive),
        std::slice::from_ref(tiled),
        &[],
        &suggest_only,
    );
    assert!(m.pairs.is_empty());
    assert_eq!((m.only_in_base.len(), m.only_in_current.len()), (1, 1));
    // ...but compared as a pair they are diffed.
    let d = diff_results(naive, tiled, &DiffOptions::default());
    let dur = d.duration.as_ref().expect("both have a duration");
    assert_eq!(dur.verdict, Verdict::Better);
    assert!(dur.delta_pct.unwrap() < -40.0, "{:?}", dur.delta_pct);
    assert!(!d.metrics.is_empty());
}

#[test]
fn naive_against_tiled_from_the_oracle() {
    let truth = load_truth(FULL_TRUTH);
    let naive = truth_to_result(&truth[3], 3);
    let tiled = truth_to_result(&truth[4], 4);
    check_naive_vs_tiled(&naive, &tiled);
    let d = diff_results(&naive, &tiled, &DiffOptions::default());
    let dur = d.duration.as_ref().unwrap();
    assert_eq!(dur.base, Value::Double(417536.0));
    assert_eq!(dur.current, Value::Double(246112.0));
    let expected = (246112.0 - 417536.0) / 417536.0 * 100.0;
    assert!((dur.delta_pct.unwrap() - expected).abs() < 1e-9);
    // Every metric with a value on both sides is compared.
    let shared: BTreeSet<String> = valued_keys(FULL_TRUTH, 3)
        .intersection(&valued_keys(FULL_TRUTH, 4))
        .cloned()
        .collect();
    let compared: BTreeSet<String> = d.metrics.iter().map(|m| m.key.to_string()).collect();
    assert_eq!(compared, shared);
    // The launch configuration changed, but it has no direction.
    let block = d.get(names::BLOCK_SIZE).unwrap();
    assert_eq!(
        (block.base.as_f64(), block.current.as_f64()),
        (Some(256.0), Some(1024.0))
    );
    assert_eq!(block.verdict, Verdict::Neutral);
}

#[test]
fn naive_against_tiled_from_the_details_text() {
    let report = load_fixture(FULL_TEXT);
    let naive = &report.results[3];
    let tiled = &report.results[4];
    assert!(naive.name.demangled.starts_with("matmul_naive("));
    assert!(tiled.name.demangled.starts_with("void matmul_tiled<32>("));
    check_naive_vs_tiled(naive, tiled);
    let d = diff_results(naive, tiled, &DiffOptions::default());
    let dur = d.duration.unwrap();
    // Fixture lines 675 and 904: 417.54 us and 246.11 us.
    assert!((dur.base.as_f64().unwrap() - 417_540.0).abs() < 1e-6);
    assert!((dur.current.as_f64().unwrap() - 246_110.0).abs() < 1e-6);
}

// ---- kernels_basic against kernels_full: same program, two section sets ----

#[test]
fn basic_against_full_from_the_oracle() {
    let base = truth_report(BASIC_TRUTH);
    let current = truth_report(FULL_TRUTH);
    let diff = diff_reports(&base, &current, &DiffOptions::default());
    assert_eq!(diff.matched.len(), 13);
    for (i, m) in diff.matched.iter().enumerate() {
        assert_eq!((m.base_index, m.current_index), (i, i), "matched in order");
        assert_eq!(m.kind, MatchKind::Exact);
        assert!(!m.shape_differs);
    }
    assert!(diff.only_in_base.is_empty() && diff.only_in_current.is_empty());
    // Metrics on both sides are compared; the rest is listed as one-sided.
    for (i, m) in diff.matched.iter().enumerate() {
        let shared: BTreeSet<String> = valued_keys(BASIC_TRUTH, i)
            .intersection(&valued_keys(FULL_TRUTH, i))
            .cloned()
            .collect();
        let compared: BTreeSet<String> = m.diff.metrics.iter().map(|d| d.key.to_string()).collect();
        assert_eq!(compared, shared, "kernel {i}");
        let only_full: Vec<String> = all_keys(FULL_TRUTH, i)
            .difference(&all_keys(BASIC_TRUTH, i))
            .cloned()
            .collect();
        assert!(!only_full.is_empty());
        assert_eq!(m.diff.only_in_current, only_full, "kernel {i}");
        assert!(m.diff.only_in_base.is_empty());
    }
    assert!(
        diff.context
            .iter()
            .any(|w| w.kind == ContextKind::SectionSet),
        "{:?}",
        diff.warnings
    );
    assert!(diff.warnings.iter().any(
        |w| matches!(w, DiffWarning::Context(c) if c.kind == ContextKind::SectionSet)
            && w.to_string().contains("section sets differ")
    ));
    // Same GPU on both sides: no GPU warning.
    assert!(!diff.context.iter().any(|w| w.kind == ContextKind::Gpu));
}

#[test]
fn basic_against_full_from_the_details_texts() {
    let base = load_fixture(BASIC_TEXT);
    let current = load_fixture(FULL_TEXT);
    assert_eq!((base.results.len(), current.results.len()), (13, 13));
    let diff = diff_reports(&base, &current, &DiffOptions::default());
    assert_eq!(diff.matched.len(), 13);
    for (i, m) in diff.matched.iter().enumerate() {
        assert_eq!((m.base_index, m.current_index), (i, i));
        assert!(!m.diff.metrics.is_empty());
        assert!(
            !m.diff.only_in_current.is_empty(),
            "full shows more sections"
        );
    }
    assert!(
        diff.context
            .iter()
            .any(|w| w.kind == ContextKind::SectionSet)
    );
}

// ---- the same run as .ncu-rep and as CLI text ----

#[test]
fn report_and_export_spellings_of_one_kernel_match() {
    // The report stores `matmul_tiled<(int)32>` and shows it as the details text prints it,
    // `matmul_tiled<32>`.
    let rep = load_fixture(FULL_REP);
    let text = load_fixture(FULL_TEXT);
    assert!(rep.results[4].name.demangled.contains("matmul_tiled<32>"));
    assert!(text.results[4].name.demangled.contains("matmul_tiled<32>"));
    let m = match_results(&rep.results, &text.results);
    assert_eq!(m.pairs.len(), 13);
    assert!(
        m.pairs
            .iter()
            .all(|p| p.base == p.current && p.kind == MatchKind::Exact)
    );
    assert!(m.notes.is_empty(), "{:?}", m.notes);
}

#[test]
fn many_results_match_across_report_and_raw_csv() {
    // 400 PyTorch launches: the report qualifies names (`at::native::...<(int)4, ...>`), the
    // raw CSV prints them without namespaces (`vectorized_elementwise_kernel<4, ...>`).
    let rep = load_fixture("big/many_basic.ncu-rep.xz");
    let csv = load_fixture("big/many_basic.raw.csv.xz");
    assert_eq!((rep.results.len(), csv.results.len()), (400, 400));
    assert!(rep.results[1].name.demangled.contains("at::native::"));
    assert!(!csv.results[1].name.demangled.contains("at::native::"));
    let diff = diff_reports(&rep, &csv, &DiffOptions::default());
    assert_eq!(diff.matched.len(), 400);
    for (i, m) in diff.matched.iter().enumerate() {
        assert_eq!((m.base_index, m.current_index), (i, i));
        assert_eq!(m.kind, MatchKind::Exact);
        let d = m.diff.duration.as_ref().unwrap();
        assert_eq!(d.verdict, Verdict::Unchanged, "{i}");
    }
    assert!(diff.only_in_base.is_empty() && diff.only_in_current.is_empty());
    // The raw CSV lays out stock sections itself: not a different section set.
    assert!(diff.context.is_empty(), "{:?}", diff.warnings);
    assert!(!diff.has_regression());
}

#[test]
fn same_run_as_report_and_text_is_unchanged() {
    let rep = load_fixture(FULL_REP);
    let text = load_fixture(FULL_TEXT);
    let diff = diff_reports(&rep, &text, &DiffOptions::default());
    assert_eq!(diff.matched.len(), 13);
    assert!(diff.only_in_base.is_empty() && diff.only_in_current.is_empty());
    for m in &diff.matched {
        assert_eq!(m.kind, MatchKind::Exact, "{}", m.name);
        assert!(
            m.diff.metrics.len() >= 30,
            "{}: {} metrics",
            m.name,
            m.diff.metrics.len()
        );
        assert!(m.diff.get(names::DURATION).is_some());
        let changed: Vec<String> = m
            .diff
            .metrics
            .iter()
            .filter(|d| d.verdict != Verdict::Unchanged)
            .map(|d| format!("{} {} → {}", d.key, d.base, d.current))
            .collect();
        assert!(changed.is_empty(), "{}: {changed:?}", m.name);
    }
    assert!(!diff.has_regression());
}

// ---- one kernel 20 % slower ----

#[test]
fn slower_kernel_is_a_regression_in_the_oracle() {
    let base = truth_report(FULL_TRUTH);
    let mut current = truth_report(FULL_TRUTH);
    assert!(
        current.results[3]
            .metrics_mut()
            .set_value(names::DURATION, Value::Double(417536.0 * 1.2))
    );
    let diff = diff_reports(&base, &current, &DiffOptions::default());
    let worse: Vec<&str> = diff.regressions().map(|m| m.name.as_str()).collect();
    assert_eq!(worse, vec!["matmul_naive"]);
    let d = diff.matched[3].diff.duration.as_ref().unwrap();
    assert!((d.delta_pct.unwrap() - 20.0).abs() < 1e-9);
    assert_eq!(d.verdict, Verdict::Worse);
    // With a threshold above the change, nothing got worse.
    let lenient = DiffOptions {
        threshold_pct: 25.0,
        ..DiffOptions::default()
    };
    assert!(!diff_reports(&base, &current, &lenient).has_regression());
    // Sorted by impact, the slower kernel comes first.
    assert_eq!(diff.by_impact()[0].current_index, 3);
}

// ---- exports ----

#[test]
fn csv_markdown_and_json_exports() {
    let base = truth_report(BASIC_TRUTH);
    let current = truth_report(FULL_TRUTH);
    let diff = diff_reports(&base, &current, &DiffOptions::default());

    let csv = sightline_engine::output::compare::to_csv(&diff);
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    assert_eq!(header, sightline_engine::output::compare::CSV_HEADER);
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    let expected: usize = diff.matched.iter().map(|m| m.diff.metrics.len()).sum();
    assert_eq!(rows.len(), expected, "one row per kernel and metric");
    // The first row of each kernel is its duration, with the oracle's values.
    assert_eq!(&rows[0][4], names::DURATION);
    let truth = load_truth(BASIC_TRUTH);
    assert_eq!(
        rows[0][8].parse::<f64>().unwrap(),
        truth[0].metrics[names::DURATION].value.as_f64().unwrap()
    );

    let md = sightline_engine::output::compare::to_markdown(&diff, &MarkdownOptions::default());
    let kernel_rows = md
        .lines()
        .filter(|l| l.starts_with("| `") && l.contains(" → "))
        .count();
    assert_eq!(kernel_rows, 13, "{md}");
    assert!(md.contains("section sets differ"));

    let json = sightline_engine::output::compare::to_json(&diff);
    let first = &json["matched"][0];
    for key in ["base_id", "current_id", "name", "duration_ns", "metrics"] {
        assert!(!first[key].is_null(), "{key}");
    }
    for key in ["base", "current", "delta_pct", "verdict"] {
        assert!(first["duration_ns"].get(key).is_some(), "{key}");
    }
    let metric = &first["metrics"][0];
    for key in ["key", "base", "current", "delta_pct", "verdict"] {
        assert!(metric.get(key).is_some(), "{key}");
    }
    assert!(!json["warnings"].as_array().unwrap().is_empty());
}

#[test]
fn metrics_option_restricts_and_gates() {
    let base = truth_report(FULL_TRUTH);
    let mut current = truth_report(FULL_TRUTH);
    // A lower L2 hit rate in one kernel whose duration did not move: context, not a verdict.
    let key = "lts__t_sector_hit_rate.pct";
    let v = current.results[6].number(key).unwrap();
    assert!(
        current.results[6]
            .metrics_mut()
            .set_value(key, Value::Double(v * 0.5))
    );
    let all = diff_reports(&base, &current, &DiffOptions::default());
    let hit = all.matched[6].diff.get(key).unwrap();
    assert_eq!(hit.verdict, Verdict::Neutral);
    // A percentage changes by percentage points.
    assert_eq!(
        export::delta_text(Some(hit)),
        format!("{:+.2} pp", -v * 0.5)
    );
    assert!(!all.has_regression(), "by default only the duration gates");
    assert!(FailOn::default().check(&all).is_empty());
    let chosen = DiffOptions {
        metrics: Some(vec!["Duration".into(), "L2 Hit Rate".into()]),
        ..DiffOptions::default()
    };
    let restricted = diff_reports(&base, &current, &chosen);
    let keys: BTreeSet<&str> = restricted.matched[6]
        .diff
        .metrics
        .iter()
        .map(|m| m.key.as_str())
        .collect();
    assert_eq!(keys, BTreeSet::from([names::DURATION, key]));
    // Chosen metrics decide the exit code: a hit rate that fell fails them.
    let failures =
        FailOn::from_metrics(&["Duration".into(), "L2 Hit Rate".into()]).check(&restricted);
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert_eq!(
        failures[0].current_id,
        Some(restricted.matched[6].current_id)
    );
    assert!(
        failures[0].detail.starts_with(key),
        "{}",
        failures[0].detail
    );
}

// ---- several baselines ----

#[test]
fn several_baselines_on_real_results() {
    let current = truth_report(FULL_TRUTH);
    let basic = truth_report(BASIC_TRUTH);
    let partners = match_baselines(&current.results, &[&basic.results, &current.results]);
    assert_eq!(partners.len(), 13);
    for (i, row) in partners.iter().enumerate() {
        assert_eq!(row, &vec![Some(i), Some(i)]);
    }
    let tb = load_truth(BASIC_TRUTH);
    let tf = load_truth(FULL_TRUTH);
    let dur = |t: &TruthResult| t.metrics[names::DURATION].value.as_f64().unwrap();
    let (c, b1, b2) = (dur(&tf[3]), dur(&tb[3]), dur(&tf[3]));
    let s = metric_against_baselines(
        &current.results[3],
        &[&basic.results[3], &current.results[3]],
        names::DURATION,
    )
    .unwrap();
    let mean = (b1 + b2) / 2.0;
    assert!((s.delta_pct.unwrap() - (c - mean) / mean * 100.0).abs() < 1e-9);
    let all_mean = (c + b1 + b2) / 3.0;
    let sd =
        (((c - all_mean).powi(2) + (b1 - all_mean).powi(2) + (b2 - all_mean).powi(2)) / 3.0).sqrt();
    assert!((s.z_score.unwrap() - (c - all_mean) / sd).abs() < 1e-9);
    assert_eq!((s.present, s.total), (3, 3));
}

/// A fixture written out (decompressed) to a file of its own, removed when dropped.
struct FixtureFile(PathBuf);

impl FixtureFile {
    fn new(rel: &str, tag: &str) -> FixtureFile {
        let name = Path::new(rel.trim_end_matches(".xz"))
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("fixture");
        let path = std::env::temp_dir().join(format!(
            "sightline-compare-{}-{tag}-{name}",
            std::process::id()
        ));
        std::fs::write(&path, fixture_bytes(rel)).unwrap();
        FixtureFile(path)
    }
}

impl Drop for FixtureFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// Reports opened from their files are compared on copies of their results' bodies, a window of
/// pairs at a time: the reports themselves never hold a decoded body, each result is read once
/// (the pairs, then the results of no pair for the context), and the comparison equals the one
/// of the reports read whole.
#[test]
fn streamed_diff_decodes_a_pair_at_a_time_and_equals_the_whole_diff() {
    let cases = [
        ("big/many_basic.ncu-rep.xz", "big/many_basic.ncu-rep.xz"),
        (FULL_REP, "h100/kernels_basic.ncu-rep.xz"),
    ];
    for (base_rel, current_rel) in cases {
        let (bf, cf) = (
            FixtureFile::new(base_rel, "base"),
            FixtureFile::new(current_rel, "current"),
        );
        let whole = |f: &FixtureFile| {
            sightline_engine::parse::parse_bytes(&f.0, &std::fs::read(&f.0).unwrap()).unwrap()
        };
        let (wb, wc) = (whole(&bf), whole(&cf));
        let opts = DiffOptions::default();
        let expected = diff_reports(&wb, &wc, &opts);
        let mut base = sightline_engine::parse::load_path(&bf.0).unwrap();
        let mut current = sightline_engine::parse::load_path(&cf.0).unwrap();
        assert_eq!(base.decoded_bodies() + current.decoded_bodies(), 0);
        let (mut peak, mut calls) = ((0, 0), 0);
        let request = CompareRequest {
            options: &opts,
            manual: &[],
            keep: Keep::All,
        };
        let diff = request.run_streamed(&mut base, &mut current, &mut |b, c| {
            calls += 1;
            peak = (
                peak.0.max(b.decoded_bodies()),
                peak.1.max(c.decoded_bodies()),
            );
        });
        let what = format!("{base_rel} → {current_rel}");
        assert_eq!(
            calls,
            diff.matched.len() + diff.only_in_base.len() + diff.only_in_current.len(),
            "{what}"
        );
        assert_eq!(peak, (0, 0), "{what}: bodies held by the reports");
        assert_eq!(
            base.decoded_bodies() + current.decoded_bodies(),
            0,
            "{what}"
        );
        // Debug text: NaN values compare equal as text.
        assert_eq!(format!("{diff:?}"), format!("{expected:?}"), "{what}");
    }
}
