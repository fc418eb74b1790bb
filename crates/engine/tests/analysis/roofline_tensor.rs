//! Tensor-core rooflines of a WMMA half-precision kernel (`fixtures/tensor/`, H100, `--set
//! full`): the HMMA datapath ncu shows as active gets one roofline per memory level, with its
//! peak and achieved work equal to the section formulas applied to the oracle, from the oracle
//! itself, the `.ncu-rep` and the raw CSV.

use sightline_engine::analysis::roofline::{
    self, ChartKind, MemoryLevel, Roofline, RooflineContext, RooflineOptions,
};
use sightline_engine::model::{KernelResult, Report};

const TRUTH: &str = "tensor/tensor_full.truth.json.xz";
/// The datapath of `wmma::mma_sync` on half inputs with FP32 accumulators.
const HMMA: &str = "op_hmma_src_fp16_dst_fp32_sparsity_off";
const TENSOR_PREFIX: &str = "sm__ops_path_tensor_";

/// A raw metric value of the oracle.
fn v(t: &sightline_testkit::TruthResult, key: &str) -> f64 {
    t.number(key)
}

fn assert_close(ours: f64, expected: f64, tolerance: f64, what: &str) {
    let rel = ((ours - expected) / expected).abs();
    assert!(
        rel < tolerance,
        "{what}: {ours} vs {expected} (relative error {rel:e})"
    );
}

/// The §1.6 tensor formulas on the oracle: (peak, achieved) OP/s of a datapath, and the peak
/// and achieved traffic of each level.
struct Expected {
    peak: f64,
    achieved: f64,
    peak_traffic: [f64; 3],
    traffic: [f64; 3],
}

fn expected(t: &sightline_testkit::TruthResult, path: &str) -> Expected {
    let hz = v(t, "sm__cycles_elapsed.avg.per_second");
    Expected {
        peak: v(t, &format!("{TENSOR_PREFIX}{path}.sum.peak_sustained")) * hz,
        achieved: v(t, &format!("{TENSOR_PREFIX}{path}.sum.per_cycle_elapsed")) * hz,
        peak_traffic: [
            v(t, "dram__bytes.sum.peak_sustained") * v(t, "dram__cycles_elapsed.avg.per_second"),
            v(t, "lts__lts2xbar_cycles_active.sum.peak_sustained")
                * 32.0
                * v(t, "lts__cycles_elapsed.avg.per_second"),
            v(t, "l1tex__lsu_writeback_active_mem_lgds.sum.peak_sustained")
                * 128.0
                * v(t, "l1tex__cycles_elapsed.avg.per_second"),
        ],
        traffic: [
            v(t, "dram__bytes.sum.per_second"),
            v(t, "lts__lts2xbar_cycles_active.sum.per_second") * 32.0,
            v(t, "l1tex__lsu_writeback_active_mem_lgds.sum.per_second") * 128.0,
        ],
    }
}

fn analyze(r: &KernelResult, report: Option<&Report>) -> Roofline {
    let context = report.map_or_else(RooflineContext::default, |rep| {
        RooflineContext::from_results(&rep.results)
    });
    let device = report.and_then(|rep| rep.device_of(r));
    roofline::analyze(r, device, &context, &RooflineOptions::default())
}

/// Checks the tensor roofline of the WMMA kernel against the oracle within `tolerance`.
fn check_wmma(roof: &Roofline, t: &sightline_testkit::TruthResult, tolerance: f64, source: &str) {
    assert!(!roof.estimated, "{source}: exact metrics, no estimate");
    // ncu draws only the datapaths with nonzero achieved work: here HMMA alone.
    let active: Vec<&str> = t
        .metrics
        .iter()
        .filter(|(k, m)| {
            k.starts_with("sm__ops_path_tensor_op_")
                && k.ends_with(".sum.per_cycle_elapsed")
                && m.value.as_f64().is_some_and(|x| x > 0.0)
        })
        .map(|(k, _)| k.as_str())
        .collect();
    assert_eq!(
        active,
        vec![format!("{TENSOR_PREFIX}{HMMA}.sum.per_cycle_elapsed")],
        "the oracle's active tensor datapaths"
    );
    assert_eq!(
        roof.tensor.len(),
        1,
        "{source}: tensor paths {:?}",
        roof.tensor
    );
    let path = &roof.tensor[0];
    assert_eq!(path.name, HMMA);
    assert_eq!(path.label, "Op:hmma Src:fp16 Dst:fp32 Sparsity:off");
    let e = expected(t, HMMA);
    assert_close(path.peak, e.peak, tolerance, &format!("{source}: peak"));
    assert_close(
        path.achieved,
        e.achieved,
        tolerance,
        &format!("{source}: achieved"),
    );

    let chart = roof.chart(ChartKind::Tensor);
    assert_eq!(chart.title, "Tensor Core Operations Roofline");
    assert_eq!(chart.work_unit, "OP");
    let levels = ["DRAM", "L2 Cache", "L1/TEX Cache"];
    assert_eq!(chart.ceilings.len(), 3, "{source}: one roofline per level");
    assert_eq!(
        chart.points.len(),
        3,
        "{source}: one achieved value per level"
    );
    for (i, level) in MemoryLevel::ALL.into_iter().enumerate() {
        let what = format!("{source}: {}", levels[i]);
        let c = &chart.ceilings[i];
        assert_eq!(c.label, format!("{} Roofline ({})", levels[i], path.label));
        assert_close(c.peak_work, e.peak, tolerance, &format!("{what} peak work"));
        assert_close(
            c.peak_traffic,
            e.peak_traffic[i],
            tolerance,
            &format!("{what} peak traffic"),
        );
        assert_close(
            roof.achieved_traffic.get(level).unwrap(),
            e.traffic[i],
            tolerance,
            &format!("{what} traffic"),
        );
        let p = &chart.points[i];
        assert_eq!(
            p.label,
            format!("{} Achieved Value ({})", levels[i], path.label)
        );
        assert_eq!(p.ceiling, i);
        assert_close(p.work, e.achieved, tolerance, &format!("{what} achieved"));
        assert_close(
            p.intensity,
            e.achieved / e.traffic[i],
            tolerance,
            &format!("{what} intensity"),
        );
        let roof_height = e.peak.min(e.peak_traffic[i] * e.achieved / e.traffic[i]);
        assert_close(p.roof, roof_height, tolerance, &format!("{what} roof"));
        assert!(!p.above_roof, "{what}: below its roof");
    }
}

#[test]
fn hmma_datapath_from_the_oracle_values() {
    let truth = sightline_testkit::load_truth(TRUTH);
    assert_eq!(truth.len(), 2);
    let t = &truth[0];
    assert_eq!(t.function, "wmma_gemm");
    let roof = analyze(&sightline_testkit::truth_to_result(t, 0), None);
    check_wmma(&roof, t, 1e-9, "oracle");
}

#[test]
fn hmma_datapath_from_the_report_file() {
    let truth = sightline_testkit::load_truth(TRUTH);
    let report = sightline_testkit::load_fixture("tensor/tensor_full.ncu-rep.xz");
    assert_eq!(report.results.len(), 2);
    let r = &report.results[0];
    assert_eq!(r.name.function, "wmma_gemm");
    check_wmma(&analyze(r, Some(&report)), &truth[0], 1e-9, ".ncu-rep");
}

#[test]
fn hmma_datapath_from_the_raw_csv() {
    let truth = sightline_testkit::load_truth(TRUTH);
    let report = sightline_testkit::load_fixture("tensor/tensor_full.raw.csv.xz");
    let r = &report.results[0];
    assert_eq!(r.name.function, "wmma_gemm");
    // The CSV prints values rounded (`1.813344` GHz, DRAM traffic `0.037306` Tbyte/s: five
    // significant digits), so it agrees with the oracle to its printed precision only.
    check_wmma(&analyze(r, Some(&report)), &truth[0], 1e-4, "raw CSV");
}

/// A kernel without tensor work has no point on the tensor chart, but the chart is drawn all
/// the same: one ceiling per memory level for each distinct peak the report stores for the
/// per-instruction datapaths, as ncu draws them, each with the oracle's peak.
fn check_idle_tensor_ceilings(roof: &Roofline, t: &sightline_testkit::TruthResult, source: &str) {
    assert!(roof.tensor.is_empty(), "{source}: no datapath at work");
    let chart = roof.chart(ChartKind::Tensor);
    assert!(chart.points.is_empty(), "{source}: no achieved value");
    let hz = v(t, "sm__cycles_elapsed.avg.per_second");
    let mut peaks: Vec<f64> = Vec::new();
    for (key, m) in &t.metrics {
        if let Some(path) = key
            .strip_prefix(TENSOR_PREFIX)
            .and_then(|k| k.strip_suffix(".sum.peak_sustained"))
            && path.starts_with("op_")
            && let Some(peak) = m.value.as_f64().filter(|p| *p > 0.0)
            && !peaks.iter().any(|p| ((p - peak * hz) / p).abs() < 1e-6)
        {
            peaks.push(peak * hz);
        }
    }
    assert!(
        peaks.len() > 1,
        "{source}: the report stores the datapaths' peaks"
    );
    assert_eq!(chart.ceilings.len(), 3 * peaks.len(), "{source}");
    let e = expected(t, HMMA);
    for (i, c) in chart.ceilings.iter().enumerate() {
        assert!(
            peaks.iter().any(|p| ((p - c.peak_work) / p).abs() < 1e-9),
            "{source}: {} at {}",
            c.label,
            c.peak_work
        );
        assert_close(c.peak_traffic, e.peak_traffic[i % 3], 1e-9, source);
        assert!(c.label.contains(" Roofline (Op:"), "{source}: {}", c.label);
    }
}

#[test]
fn saxpy_draws_the_tensor_ceilings_without_points() {
    let truth = sightline_testkit::load_truth(TRUTH);
    let t = &truth[1];
    assert_eq!(t.function, "saxpy");
    let roof = analyze(&sightline_testkit::truth_to_result(t, 1), None);
    check_idle_tensor_ceilings(&roof, t, "oracle");
    // Its FP32 work has the single-precision charts.
    assert!(!roof.chart(ChartKind::FloatingPoint).points.is_empty());
    let report = sightline_testkit::load_fixture("tensor/tensor_full.ncu-rep.xz");
    let r = &report.results[1];
    assert_eq!(r.name.function, "saxpy");
    check_idle_tensor_ceilings(&analyze(r, Some(&report)), t, ".ncu-rep");
}
