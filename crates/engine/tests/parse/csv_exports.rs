//! The CSV exports (`--csv` details and `--csv --page raw`) against the oracle read from the
//! report itself, and their rule rows against the CSV text.

use sightline_engine::model::units::to_base;
use sightline_engine::model::{Format, MetricView, Report, RuleKind, SpeedupKind, Value};
use sightline_testkit::{TruthMetric, TruthResult, fixture_bytes, load_fixture, load_truth};

/// Compared values and the mismatches found.
#[derive(Default)]
struct Tally {
    compared: usize,
    mismatches: Vec<String>,
}

/// Checks one parsed metric against the oracle to the printed precision.
fn check_metric(metric: &MetricView<'_>, truth: &TruthMetric, tally: &mut Tally, at: &str) {
    let name = metric.name.as_deref().unwrap_or("?");
    let Some(printed) = &metric.printed else {
        tally
            .mismatches
            .push(format!("{at} {name}: no printed value"));
        return;
    };
    tally.compared += 1;
    let ok = match (&truth.value, &printed.value) {
        (serde_json::Value::String(t), p) => p.to_string() == *t,
        (serde_json::Value::Number(t), p) => {
            let t = t.as_f64().unwrap();
            match p.as_f64() {
                Some(p) if p.is_nan() => t.is_nan(),
                Some(p) => {
                    let factor = to_base(&printed.unit).factor;
                    let expected = t / factor;
                    let tolerance = 0.5 * 10f64.powi(-i32::from(printed.decimals))
                        + 1e-9 * expected.abs().max(1.0);
                    let base = metric.as_f64().unwrap();
                    (p - expected).abs() <= tolerance
                        && (base - p * factor).abs() <= 1e-9 * base.abs().max(1.0)
                }
                None => false,
            }
        }
        (serde_json::Value::Null, Value::Missing) => true,
        (serde_json::Value::Null, Value::Double(v)) => v.is_nan(),
        _ => false,
    };
    // Numbers are stored in the base unit the report stores.
    let ok = ok && (metric.as_f64().is_none() || metric.unit == truth.unit);
    if !ok {
        tally.mismatches.push(format!(
            "{at} {name}: printed {:?} {:?} (decimals {}), base {:?} {:?}; truth {} {}",
            printed.value,
            printed.unit,
            printed.decimals,
            metric.value,
            metric.unit,
            truth.value,
            truth.unit
        ));
    }
}

/// Compares every named metric of every result with the oracle (result i ↔ truth i).
fn compare<'a>(
    report: &'a Report,
    truth: &[TruthResult],
    metrics_of: impl Fn(usize) -> Vec<MetricView<'a>>,
) -> Tally {
    assert_eq!(report.results.len(), truth.len());
    let mut tally = Tally::default();
    for (i, t) in truth.iter().enumerate() {
        for metric in metrics_of(i) {
            let Some(name) = metric.name else { continue };
            match t.metrics.get(name.as_str()) {
                Some(tm) => check_metric(&metric, tm, &mut tally, &format!("result {i}")),
                None => tally
                    .mismatches
                    .push(format!("result {i} {name}: not in the oracle")),
            }
        }
    }
    tally
}

/// Every metric in the section rows of the details form.
fn section_metrics(report: &Report, i: usize) -> Vec<MetricView<'_>> {
    report.results[i]
        .sections()
        .iter()
        .flat_map(|s| s.rows.iter().map(|r| r.metric.view()))
        .collect()
}

/// Every metric in the metric map of the raw form.
fn map_metrics(report: &Report, i: usize) -> Vec<MetricView<'_>> {
    report.results[i].metrics().values().collect()
}

fn assert_all_equal(what: &str, tally: &Tally, at_least: usize) {
    println!("{what}: compared {} values", tally.compared);
    for m in tally.mismatches.iter().take(40) {
        println!("  mismatch: {m}");
    }
    assert!(
        tally.mismatches.is_empty(),
        "{what}: {} mismatches",
        tally.mismatches.len()
    );
    assert!(
        tally.compared >= at_least,
        "{what}: only {} values",
        tally.compared
    );
}

#[test]
fn details_csv_basic_matches_oracle() {
    let report = load_fixture("h100/kernels_basic.details.csv");
    assert_eq!(report.format, Format::CsvDetails);
    assert_eq!(report.results.len(), 13);
    let truth = load_truth("h100/kernels_basic.truth.json.xz");
    let tally = compare(&report, &truth, |i| section_metrics(&report, i));
    assert_all_equal("kernels_basic.details.csv", &tally, 13 * 40);
}

#[test]
fn details_csv_full_matches_oracle() {
    let report = load_fixture("h100/kernels_full.details.csv.xz");
    assert_eq!(report.results.len(), 13);
    let truth = load_truth("h100/kernels_full.truth.json.xz");
    let tally = compare(&report, &truth, |i| section_metrics(&report, i));
    assert_all_equal("kernels_full.details.csv", &tally, 13 * 70);
}

#[test]
fn raw_csv_basic_matches_oracle() {
    for file in [
        "h100/kernels_basic.raw.csv",
        "h100/kernels_basic.raw_base.csv",
    ] {
        let report = load_fixture(file);
        assert_eq!(report.format, Format::CsvRaw);
        assert_eq!(report.results.len(), 13);
        let truth = load_truth("h100/kernels_basic.truth.json.xz");
        let tally = compare(&report, &truth, |i| map_metrics(&report, i));
        assert_all_equal(file, &tally, 13 * 500);
    }
}

#[test]
fn raw_csv_full_matches_oracle() {
    for file in [
        "h100/kernels_full.raw.csv.xz",
        "h100/kernels_full.raw_base.csv.xz",
    ] {
        let report = load_fixture(file);
        assert_eq!(report.results.len(), 13);
        let truth = load_truth("h100/kernels_full.truth.json.xz");
        let tally = compare(&report, &truth, |i| map_metrics(&report, i));
        assert_all_equal(file, &tally, 13 * 1500);
    }
}

#[test]
fn raw_csv_many_basic_matches_oracle() {
    let report = load_fixture("big/many_basic.raw.csv.xz");
    assert_eq!(report.results.len(), 400);
    let truth = load_truth("big/many_basic.truth.json.xz");
    let tally = compare(&report, &truth, |i| map_metrics(&report, i));
    assert_all_equal("many_basic.raw.csv", &tally, 400 * 500);
}

/// A rule of a result: (section identifier, rule identifier, kind, speedup).
type RuleSummary = (String, String, RuleKind, Option<(SpeedupKind, f64)>);

fn rules_of(report: &Report, i: usize) -> Vec<RuleSummary> {
    report.results[i]
        .sections()
        .iter()
        .flat_map(|s| {
            s.rules.iter().map(move |r| {
                (
                    s.identifier.clone().unwrap_or_default(),
                    r.identifier.clone().unwrap_or_default(),
                    r.kind,
                    r.speedup,
                )
            })
        })
        .collect()
}

fn rule(
    section: &str,
    id: &str,
    kind: RuleKind,
    speedup: Option<(SpeedupKind, f64)>,
) -> RuleSummary {
    (section.into(), id.into(), kind, speedup)
}

/// The number of rule rows of a details CSV: rows naming a rule and no metric.
fn rule_row_count(rel: &str) -> usize {
    let bytes = fixture_bytes(rel);
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .from_reader(&bytes[..]);
    let header = reader.headers().unwrap().clone();
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let (metric, rule) = (col("Metric Name"), col("Rule Name"));
    reader
        .records()
        .map(Result::unwrap)
        .filter(|r| r.get(metric) == Some("") && r.get(rule).is_some_and(|v| !v.is_empty()))
        .count()
}

#[test]
fn details_csv_basic_rules_match_the_csv_text() {
    use RuleKind::{Inf, Opt};
    use SpeedupKind::{Global, Local};
    let report = load_fixture("h100/kernels_basic.details.csv");
    let total: usize = report.results.iter().map(|r| r.all_rules().count()).sum();
    assert_eq!(total, rule_row_count("h100/kernels_basic.details.csv"));
    assert_eq!(
        rules_of(&report, 0),
        [
            rule("SpeedOfLight", "SOLBottleneck", Opt, None),
            rule("Occupancy", "AchievedOccupancy", Opt, Some((Local, 23.72))),
        ]
    );
    assert_eq!(
        rules_of(&report, 3),
        [
            rule("SpeedOfLight", "SOLBottleneck", Inf, None),
            rule(
                "LaunchStats",
                "LaunchConfiguration",
                Opt,
                Some((Global, 25.0))
            ),
        ]
    );
    assert_eq!(
        rules_of(&report, 12),
        [
            rule("SpeedOfLight", "SOLBottleneck", Opt, None),
            rule(
                "LaunchStats",
                "LaunchConfiguration",
                Opt,
                Some((Global, 99.24))
            ),
            rule("Occupancy", "AchievedOccupancy", Opt, Some((Local, 96.87))),
            rule(
                "Occupancy",
                "TheoreticalOccupancy",
                Opt,
                Some((Local, 50.0))
            ),
            rule(
                "WorkloadDistribution",
                "WorkloadImbalance",
                Opt,
                Some((Global, 10.65))
            ),
        ]
    );
    // Rules land in the section of the same result that shows the metrics, by display name.
    let sol = &report.results[0].sections()[0];
    assert_eq!(sol.name, "GPU Speed Of Light Throughput");
    assert_eq!(sol.identifier.as_deref(), Some("SpeedOfLight"));
    assert_eq!(sol.rows.len(), 10);
    assert!(
        sol.rules[0]
            .message
            .starts_with("Memory is more heavily utilized than Compute")
    );
}

#[test]
fn details_csv_full_rules_match_the_csv_text() {
    use RuleKind::{Inf, Opt, Wrn};
    use SpeedupKind::{Global, Local};
    let report = load_fixture("h100/kernels_full.details.csv.xz");
    let total: usize = report.results.iter().map(|r| r.all_rules().count()).sum();
    assert_eq!(total, rule_row_count("h100/kernels_full.details.csv.xz"));
    let r12 = rules_of(&report, 12);
    assert_eq!(r12.len(), 15);
    assert_eq!(r12[2], rule("PmSampling", "PMSamplingData", Wrn, None));
    assert_eq!(
        r12[3],
        rule(
            "ComputeWorkloadAnalysis",
            "HighPipeUtilization",
            Opt,
            Some((Local, 100.0))
        )
    );
    assert!(r12.contains(&rule(
        "InstructionStats",
        "FPInstructions",
        Opt,
        Some((Global, 5.205e-05))
    )));
    assert!(r12.contains(&rule("SourceCounters", "PCSamplingData", Wrn, None)));
    let r3 = rules_of(&report, 3);
    assert!(r3.contains(&rule(
        "MemoryWorkloadAnalysis_Tables",
        "MemoryCacheAccessPattern",
        Opt,
        Some((Global, 40.61))
    )));
    assert!(r3.contains(&rule(
        "SpeedOfLight_RooflineChart",
        "SOLFPRoofline",
        Inf,
        None
    )));
    // A section with rules only gets its display name from the identifier.
    let roofline = report.results[0]
        .sections()
        .iter()
        .find(|s| s.identifier.as_deref() == Some("SpeedOfLight_RooflineChart"))
        .unwrap();
    assert_eq!(roofline.name, "GPU Speed Of Light Roofline Chart");
    assert!(roofline.rows.is_empty());
    // NVTX push/pop ranges of the first result.
    let nvtx = &report.results[0].nvtx;
    assert_eq!(nvtx.len(), 1);
    assert_eq!(
        (nvtx[0].domain.as_str(), nvtx[0].name.as_str()),
        ("<default domain>", "elementwise")
    );
    assert!(report.results[12].nvtx.is_empty());
}

#[test]
fn csv_identity_columns() {
    for file in [
        "h100/kernels_basic.details.csv",
        "h100/kernels_basic.raw.csv",
    ] {
        let report = load_fixture(file);
        let r = &report.results[0];
        assert_eq!(r.id, 0);
        assert_eq!(r.process_id, Some(1842));
        assert_eq!(r.process_name.as_deref(), Some("kernels"));
        assert_eq!(
            r.name.demangled,
            "vector_add(const float *, const float *, float *, int)"
        );
        assert_eq!(r.name.function, "vector_add");
        assert_eq!(
            (r.context, r.stream, r.device, r.cc),
            (Some(1), Some(7), Some(0), Some((9, 0)))
        );
        assert_eq!(r.block.map(|b| (b.x, b.y, b.z)), Some((256, 1, 1)));
        assert_eq!(r.grid.map(|g| (g.x, g.y, g.z)), Some((65536, 1, 1)));
        let ids: Vec<u64> = report.results.iter().map(|r| r.id).collect();
        assert_eq!(ids, (0..13).collect::<Vec<u64>>());
    }
}

#[test]
fn raw_csv_devices_and_sections() {
    let report = load_fixture("h100/kernels_basic.raw.csv");
    assert_eq!(report.devices.len(), 1);
    let d = &report.devices[0];
    assert_eq!(d.name.as_deref(), Some("NVIDIA H100 80GB HBM3"));
    assert_eq!(d.cc, Some((9, 0)));
    assert_eq!(d.sm_count, Some(132));
    assert!(
        d.attributes
            .contains(&("clock_rate".to_string(), "1,980,000".to_string()))
    );
    assert!(d.attributes.len() > 50);
    // Sections from the stock layout, rows in the order the details text prints them.
    let sol = &report.results[0].sections()[0];
    assert_eq!(sol.name, "GPU Speed Of Light Throughput");
    let labels: Vec<&str> = sol.rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "DRAM Frequency",
            "SM Frequency",
            "Elapsed Cycles",
            "Memory Throughput",
            "DRAM Throughput",
            "Duration",
            "L1/TEX Cache Throughput",
            "L2 Cache Throughput",
            "SM Active Cycles",
            "Compute (SM) Throughput",
        ]
    );
    // Not-collected cells leave the metric out; nan stays a number.
    let full = load_fixture("h100/kernels_full.raw.csv.xz");
    let r = &full.results[0];
    assert!(
        r.metric("FBSP.TriageCompute.dramc__read_throughput.avg.pct_of_peak_sustained_elapsed")
            .is_none()
    );
    assert!((r.number("gpu__time_duration.sum").unwrap() - 71_616.0).abs() < 1e-6);
    assert!(r.number("derived_tempMetric4").unwrap().is_nan());
}
