//! The occupancy calculator against ncu: block limits, theoretical warps and occupancy, and the
//! stored occupancy curves of every profiled result, through the device attributes and through
//! the per-CC table; and against the Occupancy section ncu printed in text reports.

use sightline_engine::analysis::occupancy::{
    self, CcOrigin, CurveKind, LimitsSource, OccupancyAnalysis, OccupancyOptions,
};
use sightline_engine::model::{KernelResult, Value};
use std::collections::BTreeMap;

fn truth_number(r: &KernelResult, key: &str) -> f64 {
    r.number(key)
        .unwrap_or_else(|| panic!("result {} has no {key}", r.id))
}

/// Compares the calculator with ncu's stored values for one result; returns the number of curve
/// points compared.
fn check_against_metrics(r: &KernelResult, a: &OccupancyAnalysis) -> usize {
    let o = &a.occupancy;
    let what = format!("result {} ({})", r.id, r.name.function);
    let limit = |v: Option<u32>| v.map(f64::from);
    assert_eq!(
        limit(o.limits.registers),
        Some(truth_number(r, "launch__occupancy_limit_registers")),
        "{what}: registers"
    );
    assert_eq!(
        limit(o.limits.shared_mem),
        Some(truth_number(r, "launch__occupancy_limit_shared_mem")),
        "{what}: shared mem"
    );
    assert_eq!(
        limit(o.limits.warps),
        Some(truth_number(r, "launch__occupancy_limit_warps")),
        "{what}: warps"
    );
    assert_eq!(
        f64::from(o.limits.blocks),
        truth_number(r, "launch__occupancy_limit_blocks"),
        "{what}: blocks"
    );
    assert_eq!(
        f64::from(o.limits.barriers_as_reported()),
        truth_number(r, "launch__occupancy_limit_barriers"),
        "{what}: barriers"
    );
    assert_eq!(
        f64::from(o.active_warps),
        truth_number(r, "sm__maximum_warps_avg_per_active_cycle"),
        "{what}: warps/SM"
    );
    assert_eq!(
        o.occupancy_pct,
        truth_number(r, "sm__maximum_warps_per_active_cycle_pct"),
        "{what}: occupancy"
    );
    assert_eq!(
        o.warps_per_scheduler(&a.limits),
        truth_number(r, "smsp__maximum_warps_avg_per_active_cycle"),
        "{what}: warps/scheduler"
    );
    assert_eq!(
        a.achieved_occupancy_pct,
        r.number("sm__warps_active.avg.pct_of_peak_sustained_active")
    );

    let mut compared = 0;
    for kind in CurveKind::ALL {
        let stored = r
            .metric(kind.metric())
            .unwrap_or_else(|| panic!("{what}: no {}", kind.metric()));
        assert!(
            kind.applies_to(&a.limits),
            "{what}: {kind:?} stored but not applicable"
        );
        let curve = a.curve(kind);
        let ours: BTreeMap<u64, u32> = curve.points.iter().copied().collect();
        assert_eq!(ours.len(), curve.points.len());
        assert!(
            !stored.instances.is_empty(),
            "{what}: {kind:?} has no instances"
        );
        for inst in stored.instances {
            let x = inst
                .id
                .as_ref()
                .and_then(Value::as_f64)
                .expect("correlation id") as u64;
            let y = inst.value.as_f64().expect("curve value");
            assert_eq!(
                ours.get(&x).map(|w| f64::from(*w)),
                Some(y),
                "{what}: {kind:?} at x = {x}"
            );
            compared += 1;
        }
        // The kernel's own point is on its curve.
        assert_eq!(
            curve.current.1, o.active_warps,
            "{what}: {kind:?} current point"
        );
    }
    compared
}

/// The oracle, with the bare `NaN` tokens some values have read as null.
fn load_truth(rel: &str) -> Vec<sightline_testkit::TruthResult> {
    let text = String::from_utf8(sightline_testkit::fixture_bytes(rel)).expect("utf-8");
    serde_json::from_str(&text.replace(": NaN", ": null")).expect("truth json")
}

fn check_truth(rel: &str, table_only: bool) -> usize {
    let truth = load_truth(rel);
    let options = OccupancyOptions {
        assumed_cc: None,
        table_only,
    };
    let mut points = 0;
    for (i, t) in truth.iter().enumerate() {
        let r = sightline_testkit::truth_to_result(t, i as u64);
        let a =
            occupancy::analyze(&r, None, &options).unwrap_or_else(|e| panic!("{rel} #{i}: {e}"));
        assert_eq!(a.cc, (9, 0));
        assert_eq!(a.cc_origin, CcOrigin::Report);
        let expected = if table_only {
            LimitsSource::Table
        } else {
            LimitsSource::Report
        };
        assert_eq!(a.source, expected);
        assert!(a.notes.is_empty(), "{rel} #{i}: {:?}", a.notes);
        points += check_against_metrics(&r, &a);
    }
    points
}

#[test]
fn basic_report_matches_ncu() {
    let n = check_truth("h100/kernels_basic.truth.json.xz", false);
    assert!(n >= 13 * 4 * 64, "{n} curve points");
}

#[test]
fn full_report_matches_ncu() {
    let n = check_truth("h100/kernels_full.truth.json.xz", false);
    assert!(n >= 13 * 4 * 64, "{n} curve points");
}

#[test]
fn many_kernels_match_ncu() {
    let n = check_truth("big/many_basic.truth.json.xz", false);
    assert!(n >= 400 * 4 * 64, "{n} curve points");
}

#[test]
fn cc90_table_agrees_with_the_device_attributes() {
    for rel in [
        "h100/kernels_basic.truth.json.xz",
        "h100/kernels_full.truth.json.xz",
        "big/many_basic.truth.json.xz",
    ] {
        check_truth(rel, true);
    }
}

/// Every curve point of a report file (the oracle keeps the first 64 of each curve).
fn check_whole_curves(rel: &str, results: usize) {
    let report = sightline_testkit::load_fixture(rel);
    assert_eq!(report.results.len(), results);
    for r in &report.results {
        let a = occupancy::analyze(r, report.device_of(r), &OccupancyOptions::default()).unwrap();
        for kind in CurveKind::ALL {
            let stored = r.metric(kind.metric()).unwrap();
            let curve = a.curve(kind);
            let expected: Vec<(u64, u32)> = stored
                .instances
                .iter()
                .map(|i| {
                    let x = i.id.as_ref().and_then(Value::as_f64).unwrap() as u64;
                    (x, i.value.as_f64().unwrap() as u32)
                })
                .collect();
            let differ: Vec<_> = curve
                .points
                .iter()
                .zip(&expected)
                .filter(|(a, b)| a != b)
                .take(8)
                .collect();
            assert!(
                differ.is_empty(),
                "result {} {kind:?}: (ours, ncu) {differ:?}",
                r.id
            );
            assert_eq!(
                curve.points.len(),
                expected.len(),
                "result {} {kind:?}",
                r.id
            );
        }
        check_against_metrics(r, &a);
    }
}

#[test]
fn whole_curves_of_the_report_file_match() {
    check_whole_curves("h100/kernels_full.ncu-rep.xz", 13);
}

#[test]
fn whole_curves_of_many_kernels_match() {
    check_whole_curves("big/many_basic.ncu-rep.xz", 400);
}

/// The value of a row of the text's Occupancy section.
fn printed(r: &KernelResult, label: &str) -> Option<(f64, u8)> {
    let section = r.section("Occupancy")?;
    let row = section.rows.iter().find(|row| row.label == label)?;
    let decimals = row.metric.printed.as_ref().map_or(0, |p| p.decimals);
    let value = row
        .metric
        .printed
        .as_ref()
        .and_then(|p| p.value.as_f64())
        .or_else(|| row.metric.as_f64())?;
    Some((value, decimals))
}

fn round_to(v: f64, decimals: u8) -> f64 {
    let scale = 10f64.powi(i32::from(decimals));
    (v * scale).round() / scale
}

/// Applies the calculator to every result of a text report and compares it with the printed
/// Occupancy section. Returns how many values were compared.
fn check_text(rel: &str, options: OccupancyOptions, cc: (u32, u32), origin: CcOrigin) -> usize {
    let report = sightline_testkit::load_fixture(rel);
    assert!(!report.results.is_empty(), "{rel}: no results");
    let mut compared = 0;
    for r in &report.results {
        let what = format!("{rel} result {} ({})", r.id, r.name.function);
        let a = occupancy::analyze(r, report.device_of(r), &options)
            .unwrap_or_else(|e| panic!("{what}: {e}"));
        assert_eq!(a.cc, cc, "{what}");
        assert_eq!(a.cc_origin, origin, "{what}");
        assert_eq!(a.source, LimitsSource::Table, "{what}");
        let o = &a.occupancy;
        let mut expect = vec![
            ("Block Limit SM", Some(f64::from(o.limits.blocks))),
            ("Block Limit Registers", o.limits.registers.map(f64::from)),
            ("Block Limit Shared Mem", o.limits.shared_mem.map(f64::from)),
            ("Block Limit Warps", o.limits.warps.map(f64::from)),
            (
                "Theoretical Active Warps per SM",
                Some(f64::from(o.active_warps)),
            ),
            ("Theoretical Occupancy", Some(o.occupancy_pct)),
        ];
        if a.limits.enforces_barriers() {
            expect.push((
                "Block Limit Barriers",
                Some(f64::from(o.limits.barriers_as_reported())),
            ));
        }
        for (label, ours) in expect {
            let (value, decimals) =
                printed(r, label).unwrap_or_else(|| panic!("{what}: no row {label}"));
            let ours = ours.unwrap_or_else(|| panic!("{what}: no limit for {label}"));
            assert_eq!(round_to(ours, decimals), value, "{what}: {label}");
            compared += 1;
        }
    }
    compared
}

#[test]
fn hopper_text_matches_its_occupancy_section() {
    let n = check_text(
        "h100/kernels_full.details.txt",
        OccupancyOptions::default(),
        (9, 0),
        CcOrigin::Report,
    );
    assert_eq!(n, 13 * 7);
}

#[test]
fn ampere_text_matches_its_occupancy_section() {
    let n = check_text(
        "seeds/cli_details_cc86.txt",
        OccupancyOptions::default(),
        (8, 6),
        CcOrigin::Report,
    );
    assert_eq!(n, 5 * 6);
}

#[test]
fn older_layout_with_an_assumed_architecture() {
    // The older CLI layout prints no compute capability: the user names it.
    let options = OccupancyOptions {
        assumed_cc: Some((8, 6)),
        table_only: false,
    };
    let n = check_text(
        "seeds/cli_script_log_cutlass.txt",
        options,
        (8, 6),
        CcOrigin::Assumed,
    );
    assert_eq!(n, 21 * 6);
    let report = sightline_testkit::load_fixture("seeds/cli_script_log_cutlass.txt");
    let r = &report.results[0];
    assert!(matches!(
        occupancy::analyze(r, report.device_of(r), &OccupancyOptions::default()),
        Err(occupancy::OccupancyError::UnknownCc)
    ));
}

/// A GTX 1080 (CC 6.1, Pascal) report of ncu 2019, from `../shared/corpus/public`: the
/// calculator's own block limits, theoretical warps and occupancy equal the ones ncu stored.
#[test]
fn pascal_occupancy_equals_the_stored_limits() {
    let path =
        sightline_testkit::corpus_path("public/jhiems__PMKID_Brute-Force__FinalProfile.ncu-rep.xz");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let report = sightline_engine::parse::parse_bytes(&path, &bytes).unwrap();
    let r = &report.results[0];
    let a = occupancy::analyze(r, report.device_of(r), &OccupancyOptions::default())
        .expect("occupancy for CC 6.1");
    assert_eq!(a.cc, (6, 1));
    let o = &a.occupancy;
    let limit = |v: Option<u32>| v.map(f64::from);
    assert_eq!(
        limit(o.limits.registers),
        Some(truth_number(r, "launch__occupancy_limit_registers"))
    );
    assert_eq!(
        limit(o.limits.shared_mem),
        Some(truth_number(r, "launch__occupancy_limit_shared_mem"))
    );
    assert_eq!(
        limit(o.limits.warps),
        Some(truth_number(r, "launch__occupancy_limit_warps"))
    );
    assert_eq!(
        f64::from(o.limits.blocks),
        truth_number(r, "launch__occupancy_limit_blocks")
    );
    // And the table alone, without the report's device attributes, gives the same.
    let table = occupancy::analyze(
        r,
        report.device_of(r),
        &OccupancyOptions {
            assumed_cc: None,
            table_only: true,
        },
    )
    .unwrap();
    assert_eq!(table.occupancy.limits, o.limits);
}
