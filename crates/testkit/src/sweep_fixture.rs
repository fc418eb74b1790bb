//! The sweep fixtures (`fixtures/sweep/`: one GEMM in versions v1, v3 and v5, renamed
//! `gemm_step` → `gemm_tiled_2d` in v5, each profiled at four sizes in folders `N=SIZE/`) and
//! NVIDIA's figures of them, read from their oracles with exact numbers.

use crate::oracle;
use serde_json::Value as Json;

pub const SIZES: [u64; 4] = [256, 512, 1024, 2048];
pub const VERSIONS: [&str; 3] = ["v1", "v3", "v5"];

/// The GEMM's name in a version.
pub fn function(version: &str) -> &'static str {
    if version == "v5" {
        "gemm_tiled_2d"
    } else {
        "gemm_step"
    }
}

/// NVIDIA's figures of the GEMM in one version at one size, from the oracle read with exact
/// numbers: the mean duration of its launches (ns) and their achieved FLOP/s (the FP work of
/// every precision whose metrics the report has, by the formulas of ncu's roofline sections:
/// add + mul + 2 × fma per cycle, FP16 at twice that, times the SM sub-partitions' cycles per
/// second; the launches weighted by their share of the time).
pub fn truth_figures(version: &str, size: u64) -> (f64, f64) {
    let truth = oracle::truth(&format!("sweep/N={size}/{version}.truth.json.xz"));
    let launches: Vec<&Json> = truth
        .iter()
        .filter(|t| t["function"] == function(version))
        .collect();
    assert!(!launches.is_empty(), "{version} N={size}");
    let durations: Vec<f64> = launches
        .iter()
        .map(|t| metric(t, "gpu__time_duration.sum").expect("a duration"))
        .collect();
    let time: f64 = durations.iter().sum();
    let mean = time / durations.len() as f64;
    let mut rate = 0.0;
    for (t, d) in launches.iter().zip(&durations) {
        rate += work(t) * (d / time);
    }
    (mean, rate)
}

/// A metric's value in one result of the oracle.
fn metric(t: &Json, key: &str) -> Option<f64> {
    oracle::num_f64(&t["metrics"].get(key)?["value"])
}

/// The achieved FP work of one launch, FLOP/s, from the oracle's metric values.
fn work(t: &Json) -> f64 {
    let inst = |op: &str| {
        metric(
            t,
            &format!("smsp__sass_thread_inst_executed_op_{op}_pred_on.sum.per_cycle_elapsed"),
        )
    };
    let hz = metric(t, "smsp__cycles_elapsed.avg.per_second").expect("a clock");
    let mut total = 0.0;
    for [(a, x), (m, y), (f, z)] in [
        [("fadd", 1.0), ("fmul", 1.0), ("ffma", 2.0)],
        [("dadd", 1.0), ("dmul", 1.0), ("dfma", 2.0)],
        [("hadd", 2.0), ("hmul", 2.0), ("hfma", 4.0)],
    ] {
        if let (Some(a), Some(m), Some(f)) = (inst(a), inst(m), inst(f)) {
            total += (0.0 + x * a + y * m + z * f) * hz;
        }
    }
    total
}

/// The fixture reports, read as they lie (compressed), with their paths.
pub fn fixture_reports() -> (
    Vec<sightline_engine::model::Report>,
    Vec<std::path::PathBuf>,
) {
    let mut reports = Vec::new();
    let mut paths = Vec::new();
    for size in SIZES {
        for version in VERSIONS {
            let path = crate::fixture_path(&format!("sweep/N={size}/{version}.ncu-rep.xz"));
            reports.push(sightline_engine::parse::load_path(&path).expect("a fixture report"));
            paths.push(path);
        }
    }
    (reports, paths)
}

/// Every version's duration and FLOP/s at every size, NVIDIA's values to the bit.
pub fn assert_nvidias_figures(s: &sightline_engine::analysis::series::sweep::Sweep) {
    assert_eq!(s.sizes, SIZES);
    assert_eq!(s.versions, VERSIONS);
    assert_eq!(s.kernels.len(), 1, "the rename v3 → v5 is one kernel");
    let gemm = &s.kernels[0];
    assert_eq!(gemm.names, ["gemm_step", "gemm_tiled_2d"]);
    assert_eq!(gemm.name, "gemm_tiled_2d");
    assert_eq!(
        gemm.lines
            .iter()
            .map(|l| l.version.as_str())
            .collect::<Vec<_>>(),
        VERSIONS
    );
    for line in &gemm.lines {
        for (size, point) in SIZES.iter().zip(&line.points) {
            let p = point.as_ref().expect("a point at every size");
            let (mean, rate) = truth_figures(&line.version, *size);
            let at = format!("{} N={size}", line.version);
            assert_eq!(p.launches.name, function(&line.version), "{at}");
            assert_eq!(p.launches.launches, 1, "{at}");
            assert_eq!(p.launches.mean_ns, mean, "{at}: duration");
            assert_eq!(p.flop_per_s, Some(rate), "{at}: FLOP/s");
            assert_eq!(
                sightline_engine::analysis::series::sweep::SweepFigure::FlopRate.value(p),
                Some(rate)
            );
            // What the figure means: a GEMM does 2·N³ floating-point operations, so the
            // achieved rate over the kernel's time is that work, within what the cycle
            // counters and the timer disagree by.
            let flop = rate * mean * 1e-9;
            let expected = 2.0 * (*size as f64).powi(3);
            assert!(
                (flop / expected - 1.0).abs() < 0.02,
                "{at}: {flop} FLOP against 2·N³ = {expected}"
            );
        }
    }
}
