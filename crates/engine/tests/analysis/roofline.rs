//! Rooflines against the formulas of ncu's roofline sections, evaluated here straight from the
//! oracle's metric values; the worked H100 example; and estimates from text forms and the basic
//! set against the exact values of the same kernels.

use sightline_engine::analysis::roofline::{
    self, Bound, ChartKind, MemoryLevel, Precision, Roofline, RooflineContext, RooflineOptions,
};
use sightline_engine::model::{KernelResult, Value};

/// A raw metric value of the oracle.
fn v(t: &sightline_testkit::TruthResult, key: &str) -> f64 {
    t.number(key)
}

fn assert_close(ours: Option<f64>, expected: f64, what: &str) {
    let ours = ours.unwrap_or_else(|| panic!("{what}: missing"));
    if expected == 0.0 {
        assert_eq!(ours, 0.0, "{what}");
    } else {
        let rel = ((ours - expected) / expected).abs();
        assert!(
            rel < 1e-9,
            "{what}: {ours} vs {expected} (relative error {rel:e})"
        );
    }
}

fn analyze_alone(r: &KernelResult) -> Roofline {
    roofline::analyze(
        r,
        None,
        &RooflineContext::default(),
        &RooflineOptions::default(),
    )
}

#[test]
fn exact_rooflines_follow_the_section_formulas() {
    let truth = sightline_testkit::load_truth("h100/kernels_full.truth.json.xz");
    assert_eq!(truth.len(), 13);
    for (i, t) in truth.iter().enumerate() {
        let r = sightline_testkit::truth_to_result(t, i as u64);
        let roof = analyze_alone(&r);
        let what = |q: &str| format!("result {i} ({}): {q}", t.function);
        assert!(!roof.estimated, "{}", what("estimated"));
        assert!(roof.assumptions.is_empty());

        let sm_hz = v(t, "sm__cycles_elapsed.avg.per_second");
        let smsp_hz = v(t, "smsp__cycles_elapsed.avg.per_second");
        let inst = |op: &str, suffix: &str| {
            let scope = if suffix == "peak_sustained" {
                "sm"
            } else {
                "smsp"
            };
            v(
                t,
                &format!("{scope}__sass_thread_inst_executed_op_{op}_pred_on.sum.{suffix}"),
            )
        };
        // Peak work: FMA instructions per cycle × FLOP per instruction × SM frequency.
        assert_close(
            roof.peak_work.fp32,
            inst("ffma", "peak_sustained") * 2.0 * sm_hz,
            &what("peak fp32"),
        );
        assert_close(
            roof.peak_work.fp64,
            inst("dfma", "peak_sustained") * 2.0 * sm_hz,
            &what("peak fp64"),
        );
        assert_close(
            roof.peak_work.fp16,
            inst("hfma", "peak_sustained") * 4.0 * sm_hz,
            &what("peak fp16"),
        );
        // Achieved work: add + mul + 2 × fma (FP16: 2 × hadd + 2 × hmul + 4 × hfma).
        let e = "per_cycle_elapsed";
        let fp32 = (inst("fadd", e) + inst("fmul", e) + 2.0 * inst("ffma", e)) * smsp_hz;
        let fp64 = (inst("dadd", e) + inst("dmul", e) + 2.0 * inst("dfma", e)) * smsp_hz;
        let fp16 =
            (2.0 * inst("hadd", e) + 2.0 * inst("hmul", e) + 4.0 * inst("hfma", e)) * smsp_hz;
        assert_close(roof.achieved_work.fp32, fp32, &what("achieved fp32"));
        assert_close(roof.achieved_work.fp64, fp64, &what("achieved fp64"));
        assert_close(roof.achieved_work.fp16, fp16, &what("achieved fp16"));
        // Traffic: DRAM bytes; L2 at 32 bytes per lts2xbar cycle; L1 at 128 bytes per writeback
        // cycle, global/local/distributed shared on CC 9.0.
        let dram_peak =
            v(t, "dram__bytes.sum.peak_sustained") * v(t, "dram__cycles_elapsed.avg.per_second");
        let l2_peak = v(t, "lts__lts2xbar_cycles_active.sum.peak_sustained")
            * 32.0
            * v(t, "lts__cycles_elapsed.avg.per_second");
        let l1_peak = v(t, "l1tex__lsu_writeback_active_mem_lgds.sum.peak_sustained")
            * 128.0
            * v(t, "l1tex__cycles_elapsed.avg.per_second");
        assert_close(roof.peak_traffic.dram, dram_peak, &what("peak dram"));
        assert_close(roof.peak_traffic.l2, l2_peak, &what("peak l2"));
        assert_close(roof.peak_traffic.l1, l1_peak, &what("peak l1"));
        let dram = v(t, "dram__bytes.sum.per_second");
        let l2 = v(t, "lts__lts2xbar_cycles_active.sum.per_second") * 32.0;
        let l1 = v(t, "l1tex__lsu_writeback_active_mem_lgds.sum.per_second") * 128.0;
        assert_close(roof.achieved_traffic.dram, dram, &what("dram traffic"));
        assert_close(roof.achieved_traffic.l2, l2, &what("l2 traffic"));
        assert_close(roof.achieved_traffic.l1, l1, &what("l1 traffic"));
        // ncu's own derived values of the same sections agree.
        assert_close(
            roof.achieved_traffic.l2,
            v(t, "derived__lts__lts2xbar_bytes.sum.per_second"),
            &what("derived l2"),
        );
        assert_close(
            roof.achieved_traffic.l1,
            v(
                t,
                "derived__l1tex__lsu_writeback_bytes_mem_lgds.sum.per_second",
            ),
            &what("derived l1"),
        );
        assert_close(
            roof.peak_work.fp32,
            v(
                t,
                "derived__sm__sass_thread_inst_executed_op_ffma_pred_on_x2",
            ) * sm_hz,
            &what("derived peak fp32"),
        );
        // Intensities.
        if dram > 0.0 {
            assert_close(
                roof.intensity(Precision::Fp32, MemoryLevel::Dram),
                fp32 / dram,
                &what("AI fp32/dram"),
            );
        }
        if l1 > 0.0 {
            assert_close(
                roof.intensity(Precision::Fp64, MemoryLevel::L1),
                fp64 / l1,
                &what("AI fp64/l1"),
            );
        }
        // Tensor datapaths: only those with nonzero achieved work have points; none of these
        // kernels uses tensor cores.
        let active = t
            .metrics
            .iter()
            .filter(|(k, m)| {
                k.starts_with("sm__ops_path_tensor_op_")
                    && k.ends_with(".sum.per_cycle_elapsed")
                    && m.value.as_f64().is_some_and(|x| x > 0.0)
            })
            .count();
        assert_eq!(roof.tensor.len(), active, "{}", what("tensor paths"));
        // Without tensor work the chart still has the datapaths' ceilings, as ncu draws them.
        let stored = t
            .metrics
            .keys()
            .any(|k| k.starts_with("sm__ops_path_tensor_op_") && k.ends_with(".peak_sustained"));
        let tensor = roof.chart(ChartKind::Tensor);
        assert_eq!(
            !tensor.ceilings.is_empty(),
            stored,
            "{}",
            what("tensor ceilings")
        );
        if active == 0 {
            assert!(tensor.points.is_empty(), "{}", what("tensor points"));
        }
        // Points never lie above their roofs when the inputs are exact.
        for chart in roof.charts() {
            for p in &chart.points {
                assert!(
                    !p.above_roof,
                    "{}: {} above its roof",
                    what(&chart.title),
                    p.label
                );
            }
        }
    }
}

#[test]
fn worked_example_vector_add() {
    let truth = sightline_testkit::load_truth("h100/kernels_full.truth.json.xz");
    let t = &truth[0];
    assert_eq!(t.function, "vector_add");
    let roof = analyze_alone(&sightline_testkit::truth_to_result(t, 0));
    let fmt = |v: Option<f64>, scale: f64, decimals: usize| {
        format!("{:.*}", decimals, v.unwrap() / scale)
    };
    assert_eq!(fmt(roof.peak_work.fp32, 1e12, 1), "66.9");
    assert_eq!(fmt(roof.peak_work.fp64, 1e12, 1), "33.5");
    // The reference computes FP16 and L2 from the printed (rounded) 1.98 and 1.71 GHz.
    assert_eq!(fmt(roof.peak_work.fp16, 1e12, 0), "134");
    assert_eq!(fmt(roof.peak_traffic.dram, 1e12, 2), "3.35");
    assert!(rel_err(roof.peak_traffic.l2.unwrap(), 8.76e12) < 0.005);
    assert_eq!(fmt(roof.peak_traffic.l1, 1e12, 1), "33.5");
    assert_eq!(fmt(roof.achieved_work.fp32, 1e9, 0), "234");
    assert_eq!(fmt(roof.achieved_traffic.dram, 1e12, 2), "2.67");
    assert_eq!(
        fmt(roof.intensity(Precision::Fp32, MemoryLevel::Dram), 1.0, 3),
        "0.088"
    );

    let chart = roof.chart(ChartKind::FloatingPoint);
    assert_eq!(chart.ceilings.len(), 2);
    assert_eq!(chart.ceilings[0].label, "Single Precision Roofline");
    assert_eq!(format!("{:.0}", chart.ceilings[0].ridge()), "20");
    // FP64 did no work: no point for it on log axes.
    assert_eq!(chart.points.len(), 1);
    let p = &chart.points[0];
    assert_eq!(p.label, "Single Precision Achieved Value");
    assert_eq!(p.bound, Bound::Memory);
    assert_eq!(p.ceiling, 0);
    assert!(!p.above_roof);
    assert_close(
        Some(p.roof),
        roof.peak_traffic.dram.unwrap() * p.intensity,
        "roof under the point",
    );
    let hier = roof.chart(ChartKind::Hierarchical(Precision::Fp32));
    let labels: Vec<&str> = hier.ceilings.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(
        labels,
        ["DRAM Roofline", "L2 Roofline", "L1 Roofline (Global/Local)"]
    );
    assert_eq!(hier.points.len(), 3);
}

#[test]
fn active_tensor_datapath_gets_a_roofline_per_level() {
    // One tensor datapath made active on a real result: its roofline uses the path's own peak
    // and the SM frequency, and the chart gets a DRAM, L2 and L1/TEX ceiling for it.
    let truth = sightline_testkit::load_truth("h100/kernels_full.truth.json.xz");
    let mut r = sightline_testkit::truth_to_result(&truth[3], 3);
    let path = "sm__ops_path_tensor_op_hgmma_src_fp16_sparsity_off";
    let achieved_key = format!("{path}.sum.per_cycle_elapsed");
    assert!(
        r.metrics_mut()
            .set_value(&achieved_key, Value::Double(1000.0))
    );
    let roof = analyze_alone(&r);
    assert_eq!(roof.tensor.len(), 1);
    let tp = &roof.tensor[0];
    assert_eq!(tp.label, "Op:hgmma Src:fp16 Sparsity:off");
    let hz = v(&truth[3], "sm__cycles_elapsed.avg.per_second");
    assert_close(
        Some(tp.peak),
        v(&truth[3], &format!("{path}.sum.peak_sustained")) * hz,
        "tensor peak",
    );
    assert_close(Some(tp.achieved), 1000.0 * hz, "tensor achieved");
    let chart = roof.chart(ChartKind::Tensor);
    assert_eq!(chart.work_unit, "OP");
    assert_eq!(chart.ceilings.len(), 3);
    assert_eq!(
        chart.ceilings[2].label,
        "L1/TEX Cache Roofline (Op:hgmma Src:fp16 Sparsity:off)"
    );
    assert_eq!(chart.points.len(), 3);
}

fn rel_err(a: f64, b: f64) -> f64 {
    ((a - b) / b).abs()
}

#[test]
fn text_estimates_are_close_to_the_exact_values() {
    let truth = sightline_testkit::load_truth("h100/kernels_full.truth.json.xz");
    let report = sightline_testkit::load_fixture("h100/kernels_full.details.txt");
    assert_eq!(report.results.len(), truth.len());
    let roofs = roofline::analyze_report(&report, &RooflineOptions::default());
    let mut compared = 0;
    for (i, (t, est)) in truth.iter().zip(&roofs).enumerate() {
        assert_eq!(report.results[i].name.function, t.function);
        let exact = analyze_alone(&sightline_testkit::truth_to_result(t, i as u64));
        let what = format!("result {i} ({})", t.function);
        assert!(est.estimated, "{what}");
        assert!(!est.assumptions.is_empty(), "{what}");
        for p in [Precision::Fp32, Precision::Fp64] {
            let (peak, achieved) = (
                exact.peak_work.get(p).unwrap(),
                exact.achieved_work.get(p).unwrap(),
            );
            if achieved < 0.05 * peak {
                continue;
            }
            compared += 1;
            let est_peak = est.peak_work.get(p).unwrap();
            assert!(
                rel_err(est_peak, peak) < 0.05,
                "{what}: peak {p:?} {est_peak} vs {peak}"
            );
            let est_dram = est.peak_traffic.dram.unwrap();
            let dram = exact.peak_traffic.dram.unwrap();
            assert!(
                rel_err(est_dram, dram) < 0.05,
                "{what}: peak DRAM {est_dram} vs {dram}"
            );
            let traffic = est.achieved_traffic.dram.unwrap();
            assert!(
                rel_err(traffic, exact.achieved_traffic.dram.unwrap()) < 0.05,
                "{what}: DRAM traffic"
            );
            // The rule prints a rounded whole percentage: the estimate is within 5 % where that
            // rounding allows (10 % of peak and more), and the exact value always lies inside the
            // printed percentage's bounds (allowing the 2 % the estimated peak may be off).
            let est_achieved = est.achieved_work.get(p).unwrap();
            let (lo, hi) = est.achieved_bounds.get(p).unwrap();
            assert!(
                lo * 0.98 <= achieved && achieved <= hi * 1.02,
                "{what}: {p:?} {achieved} outside [{lo}, {hi}]"
            );
            let rel = rel_err(est_achieved, achieved);
            if achieved >= 0.10 * peak {
                assert!(
                    rel < 0.05,
                    "{what}: achieved {p:?} {est_achieved} vs {achieved} ({rel})"
                );
            }
            println!(
                "{what} {p:?}: achieved estimate off by {:.1} %",
                100.0 * rel
            );
        }
    }
    // matmul_naive, matmul_tiled, dgemm_naive, conv2d_naive, register_hog, divergent_branches.
    assert_eq!(compared, 6);
}

#[test]
fn basic_set_estimates_peaks_from_lanes_and_bus_width() {
    // The basic set has no roofline metrics: peaks come from the SM count, the CC 9.0 lanes and
    // the DRAM bus width; the full set's exact values of the same GPU agree within 2 %.
    let truth = sightline_testkit::load_truth("h100/kernels_full.truth.json.xz");
    let exact = analyze_alone(&sightline_testkit::truth_to_result(&truth[0], 0));
    let report = sightline_testkit::load_fixture("h100/kernels_basic.ncu-rep.xz");
    let roofs = roofline::analyze_report(&report, &RooflineOptions::default());
    assert_eq!(roofs.len(), 13);
    for roof in &roofs {
        assert!(roof.estimated);
        assert!(rel_err(roof.peak_work.fp32.unwrap(), exact.peak_work.fp32.unwrap()) < 0.02);
        assert!(rel_err(roof.peak_work.fp64.unwrap(), exact.peak_work.fp64.unwrap()) < 0.02);
        assert!(
            rel_err(
                roof.peak_traffic.dram.unwrap(),
                exact.peak_traffic.dram.unwrap()
            ) < 0.02
        );
        assert_eq!(roof.achieved_work.fp32, None);
        assert_eq!(roof.peak_traffic.l2, None);
    }
}
