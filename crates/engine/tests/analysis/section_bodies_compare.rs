//! Section bodies of two results side by side, and the PM sampling timeline, against the
//! oracle: the before/after pair (`fixtures/pair`) gives every paired bar, table cell and
//! memory chart link the value of each side as NVIDIA's `ncu_report` module reads it, and the
//! change between them; the timeline's series are the sampled metrics' instances over time
//! (the oracle lists the first 64 instances of a metric and counts all of them). (`sections
//! --baseline` is a test of the binary: `tests/cli/sections_baseline.rs` of the root package.)

use sightline_engine::analysis::sections::bodies_of;
use sightline_engine::analysis::sections::paired::{
    PairedContent, PairedItem, PairedSection, pair,
};
use sightline_engine::analysis::sections::timeline;
use sightline_engine::model::section_body::ItemKind;
use sightline_testkit::pair_fixture::{SAXPY, close, paired_saxpy, truth_value};
use sightline_testkit::{TruthResult, load_fixture, load_truth};

fn item<'a>(sections: &'a [PairedSection], kind: ItemKind, label: &str) -> &'a PairedItem {
    sections
        .iter()
        .find_map(|s| s.item(kind, label))
        .unwrap_or_else(|| panic!("no {kind:?} item {label}"))
}

/// Checks both sides of a value against the oracle's metric, and the change.
fn check_pair(
    what: &str,
    p: sightline_engine::analysis::sections::paired::Paired,
    b: Option<f64>,
    a: Option<f64>,
) {
    match (p.base, b) {
        (Some(x), Some(y)) => assert!(close(x, y), "{what}: base {x} vs oracle {y}"),
        (x, y) => assert_eq!(x, y, "{what}: base"),
    }
    match (p.current, a) {
        (Some(x), Some(y)) => assert!(close(x, y), "{what}: current {x} vs oracle {y}"),
        (x, y) => assert_eq!(x, y, "{what}: current"),
    }
    if let (Some(b), Some(a)) = (b, a) {
        assert!(close(p.delta().unwrap(), a - b), "{what}: delta");
        if b != 0.0 {
            assert!(
                close(p.delta_pct().unwrap(), (a - b) / b.abs() * 100.0),
                "{what}: delta %"
            );
        }
    }
}

#[test]
fn every_paired_chart_and_table_row_has_both_sides_of_the_oracle() {
    let (sections, tb, ta) = paired_saxpy();
    let mut checked = 0;
    for s in &sections {
        for body in &s.bodies {
            for it in &body.items {
                if it.kind == ItemKind::SourceMetricTable {
                    continue; // per-PC instances, not values of the result
                }
                for row in it.rows() {
                    let Some(name) = &row.metric else { continue };
                    let (b, a) = (truth_value(&tb, name), truth_value(&ta, name));
                    if b.is_none() && a.is_none() {
                        continue; // a roofline constant or a metric neither side collected
                    }
                    check_pair(
                        &format!("{} / {} / {}", s.name, it.label, row.label),
                        row.value,
                        b,
                        a,
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 300, "only {checked} rows checked");

    // The warp-state chart: the scattered loads stalled on long scoreboard before.
    let stalls = item(&sections, ItemKind::BarChart, "Warp State (All Cycles)");
    let long = stalls.row("Stall Long Scoreboard").unwrap();
    let name = "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio";
    assert_eq!(long.metric.as_deref(), Some(name));
    check_pair(
        "long scoreboard",
        long.value,
        truth_value(&tb, name),
        truth_value(&ta, name),
    );
    assert!(long.value.delta().unwrap() < 0.0);
}

#[test]
fn memory_tables_pair_cell_by_cell() {
    let (sections, tb, ta) = paired_saxpy();
    let l1 = item(&sections, ItemKind::L1TexTable, "L1/TEX Cache");
    let PairedContent::MemoryTable(grid) = &l1.content else {
        panic!("not a memory table");
    };
    let col = |c: &str| grid.columns.iter().position(|x| x == c).unwrap();
    let row = |r: &str| grid.rows.iter().find(|x| x.label == r).unwrap();
    let mut checked = 0;
    for r in &grid.rows {
        // Cells of one metric; derived cells (formulas) are checked below.
        for cell in r.cells.iter().flatten().filter(|c| !c.metric.contains(' ')) {
            check_pair(
                &cell.metric,
                cell.value,
                truth_value(&tb, &cell.metric),
                truth_value(&ta, &cell.metric),
            );
            checked += 1;
        }
    }
    assert!(checked > 40, "{checked}");
    // Coalescing: the same requests of global loads, far fewer sectors.
    let loads = row("Global Loads");
    let requests = loads.cells[col("Requests")].as_ref().unwrap();
    assert_eq!(
        requests.metric,
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
    );
    assert_eq!(requests.value.delta(), Some(0.0));
    let sectors = loads.cells[col("Sectors")].as_ref().unwrap();
    assert_eq!(
        sectors.metric,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"
    );
    let (b, a) = (
        tb.number("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
        ta.number("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    );
    check_pair("global load sectors", sectors.value, Some(b), Some(a));
    let per_request = loads.cells[col("Sectors/Req")].as_ref().unwrap();
    let req = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum";
    check_pair(
        "sectors per request",
        per_request.value,
        Some(b / tb.number(req)),
        Some(a / ta.number(req)),
    );
    assert!(a < b / 2.0);
}

#[test]
fn memory_chart_links_carry_both_sides() {
    let (sections, tb, ta) = paired_saxpy();
    let chart = item(&sections, ItemKind::MemoryChart, "Memory Chart");
    let PairedContent::MemoryChart(chart) = &chart.content else {
        panic!("not a memory chart");
    };
    let link = |from: &str, to: &str| {
        chart
            .links
            .iter()
            .find(|l| l.from.name() == from && l.to.name() == to)
            .unwrap_or_else(|| panic!("no link {from} → {to}"))
    };
    let both = |name: &str| (truth_value(&tb, name), truth_value(&ta, name));
    let l = link("Device Memory", "L2 Cache");
    let (b, a) = both("dram__bytes_read.sum");
    check_pair("dram read", l.amount, b, a);
    let (b, a) = both("dram__bytes_read.sum.per_second");
    check_pair("dram read/s", l.per_second, b, a);
    let (b, a) = both("dram__bytes_read.sum.pct_of_peak_sustained_elapsed");
    check_pair("dram read % peak", l.pct_of_peak, b, a);
    let l = link("L2 Cache", "L1/TEX Cache");
    let (b, a) = both("l1tex__m_xbar2l1tex_read_bytes.sum");
    check_pair("L2 to L1 bytes", l.amount, b, a);
    assert!(l.amount.delta_pct().unwrap() < -50.0);
    // Global load and store requests, summed as the chart labels the link.
    let l = link("Global", "L1/TEX Cache");
    let sum = |t: &TruthResult| {
        ["ld", "st", "atom", "red"]
            .iter()
            .filter_map(|op| {
                truth_value(
                    t,
                    &format!("l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum"),
                )
            })
            .sum::<f64>()
    };
    check_pair("global requests", l.amount, Some(sum(&tb)), Some(sum(&ta)));
    let l2 = chart
        .nodes
        .iter()
        .find(|n| n.unit.name() == "L2 Cache")
        .unwrap();
    let (_, hit, metric) = l2.figure.as_ref().unwrap();
    assert_eq!(metric, "lts__t_sector_hit_rate.pct");
    let (b, a) = both(metric);
    check_pair("L2 hit rate", *hit, b, a);
}

#[test]
fn an_item_of_one_side_only_keeps_the_other_side_empty() {
    let before = load_fixture("pair/before.ncu-rep.xz");
    let bodies = bodies_of(&before, SAXPY);
    let paired = pair(&bodies, &[]);
    assert_eq!(paired.len(), bodies.len());
    let stalls = item(&paired, ItemKind::BarChart, "Warp State (All Cycles)");
    assert_eq!(stalls.only_current, Some(false));
    assert!(
        stalls
            .rows()
            .iter()
            .all(|r| r.value.current.is_none() && r.value.base.is_some())
    );
}

/// The sample timestamps and values of an oracle metric, without the untimed sample (id 0).
fn truth_samples(t: &TruthResult, name: &str) -> Vec<(u64, f64)> {
    let m = t
        .metrics
        .get(name)
        .unwrap_or_else(|| panic!("no {name} in the oracle"));
    let mut out: Vec<(u64, f64)> = m
        .instances
        .iter()
        .filter_map(|(id, v)| Some((id.as_u64()?, v.as_f64()?)))
        .filter(|(id, _)| *id > 0)
        .collect();
    out.sort_by_key(|s| s.0);
    out
}

#[test]
fn pm_sampling_timeline_is_the_sampled_instances_over_time() {
    let report = load_fixture("h100/kernels_full.ncu-rep.xz");
    let truth = load_truth("h100/kernels_full.truth.json.xz");
    let mut series_checked = 0;
    for (index, t) in truth.iter().enumerate() {
        let bodies = bodies_of(&report, index);
        let pm = bodies
            .iter()
            .find(|s| s.identifier.as_deref() == Some("PmSampling"))
            .expect("PM sampling section");
        let item = pm
            .bodies
            .iter()
            .flat_map(|b| &b.items)
            .find(|i| i.kind == ItemKind::Timeline)
            .expect("timeline");
        let tl = timeline::build(item);
        let groups: Vec<&str> = tl.groups.iter().map(|g| g.label.as_str()).collect();
        assert_eq!(
            groups,
            ["Overview", "SM", "Tensor", "DRAM", "L2 Cache", "L1 Cache"]
        );
        // Time runs from the first sample of any series.
        let names: Vec<&str> = tl
            .groups
            .iter()
            .flat_map(|g| &g.series)
            .filter_map(|s| s.metric.as_deref())
            .collect();
        let start = names
            .iter()
            .filter_map(|n| truth_samples(t, n).first().map(|s| s.0))
            .min()
            .unwrap();
        for s in tl.groups.iter().flat_map(|g| &g.series) {
            let name = s.metric.as_deref().unwrap();
            let samples = truth_samples(t, name);
            // The oracle lists the first 64 instances and counts them all.
            let listed = &t.metrics[name];
            let all = listed.n_instances.unwrap();
            assert_eq!(s.points.len() + s.untimed, all, "{name}");
            assert_eq!(s.untimed, listed.instances.len() - samples.len(), "{name}");
            assert!(samples.len() >= 60.min(all - 1), "{name}");
            for (p, (id, v)) in s.points.iter().zip(&samples) {
                assert_eq!(p.0, (id - start) as f64, "{name}: time");
                assert!(close(p.1, *v), "{name}: {} vs {v}", p.1);
            }
            series_checked += 1;
        }
        // The workload's execution, on the samples' clock.
        let stamp = |n: &str| truth_samples(t, n).first().map(|s| s.0).unwrap();
        let (ws, we) = (
            stamp("profiler__timestamp_workload_start_0"),
            stamp("profiler__timestamp_workload_end_0"),
        );
        let at = |id: u64| (i128::from(id) - i128::from(start)) as f64;
        assert_eq!(tl.workload, Some((at(ws), at(we))), "result {index}");
        assert!(we > ws, "result {index}");
        assert!(tl.end_ns >= at(we));
        let dram = tl.series("DRAM Throughput").unwrap();
        assert_eq!(
            dram.metric.as_deref(),
            Some("FBSP.TriageCompute.dramc__throughput.avg.pct_of_peak_sustained_elapsed")
        );
    }
    assert!(series_checked >= 13 * 30, "{series_checked}");
}
