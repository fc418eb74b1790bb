//! Kernel lines against the fixture text, in the newer and the older layout, in a script log,
//! in a capture that starts mid-report, and in the summary page.

use super::{fixture_text, kernel_lines};
use sightline_engine::model::{KernelResult, RuleKind, Value};
use sightline_testkit::load_fixture;

/// The kernel line a result would print in the newer layout.
fn new_kernel_line(r: &KernelResult) -> String {
    let (a, b) = r.cc.unwrap();
    format!(
        "{} {}x{}, Context {}, Stream {}, Device {}, CC {a}.{b}",
        r.name.demangled,
        r.grid.unwrap(),
        r.block.unwrap(),
        r.context.unwrap(),
        r.stream.unwrap(),
        r.device.unwrap()
    )
}

#[test]
fn kernel_lines_match_the_fixture_text() {
    for rel in [
        "h100/kernels_cli_basic.txt",
        "h100/kernels_cli_full.txt",
        "h100/kernels_full.details.txt",
        "seeds/cli_details_cc86.txt",
        "big/many_basic.details.txt.xz",
    ] {
        let text = fixture_text(rel);
        let lines = kernel_lines(&text);
        let report = load_fixture(rel);
        assert_eq!(lines.len(), report.results.len(), "{rel}");
        for (line, r) in lines.iter().zip(&report.results) {
            assert_eq!(*line, new_kernel_line(r), "{rel}");
            assert!(r.timestamp.is_none());
        }
    }

    let full = load_fixture("h100/kernels_cli_full.txt");
    let r = &full.results[4];
    assert_eq!(
        r.name.demangled,
        "void matmul_tiled<32>(const float *, const float *, float *, int)"
    );
    assert_eq!(r.name.function, "matmul_tiled");
    assert_eq!(r.grid.unwrap().product(), 32 * 32);
    assert_eq!(r.block.unwrap().product(), 32 * 32);
    assert_eq!(
        (r.context, r.stream, r.device, r.cc),
        (Some(1), Some(7), Some(0), Some((9, 0)))
    );
    assert_eq!(
        (r.process_id, r.process_name.as_deref()),
        (Some(731), Some("kernels"))
    );
    assert_eq!(r.nvtx.len(), 1);
    assert_eq!(
        (r.nvtx[0].domain.as_str(), r.nvtx[0].name.as_str()),
        ("<default domain>", "gemm")
    );
    assert_eq!(full.devices.len(), 1);
    assert_eq!(full.devices[0].cc, Some((9, 0)));
}

#[test]
fn older_layout_in_a_script_log() {
    let rel = "seeds/cli_script_log_cutlass.txt";
    let text = fixture_text(rel);
    let lines = kernel_lines(&text);
    let report = load_fixture(rel);
    assert_eq!(lines.len(), 21);
    assert_eq!(report.results.len(), 21);
    for (line, r) in lines.iter().zip(&report.results) {
        let rebuilt = format!(
            "{}, {}, Context {}, Stream {}",
            r.name.demangled,
            r.timestamp.as_deref().unwrap(),
            r.context.unwrap(),
            r.stream.unwrap()
        );
        assert_eq!(*line, rebuilt);
        assert_eq!((r.grid, r.block, r.cc), (None, None, None));
        assert_eq!(r.process_id, Some(27316));
        assert_eq!(r.process_name.as_deref(), Some("program"));
        assert_eq!(r.name.function, "Kernel");
    }
    let r = &report.results[0];
    assert_eq!(r.timestamp.as_deref(), Some("2025-May-15 09:00:25"));
    // Long unit names convert to base units.
    let sol = &r.sections()[0];
    assert_eq!(sol.name, "GPU Speed Of Light Throughput");
    let dram = r.metric("dram__cycles_elapsed.avg.per_second").unwrap();
    assert_eq!(dram.unit, "hz");
    assert!((dram.as_f64().unwrap() - 7.05e9).abs() < 1.0);
    let duration = r.metric("gpu__time_duration.sum").unwrap();
    assert_eq!(duration.unit, "ns");
    assert!((duration.as_f64().unwrap() - 36_290.0).abs() < 1e-6);
    let memory = r
        .metric("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")
        .unwrap();
    assert!((memory.as_f64().unwrap() - 9.05).abs() < 1e-9);
    let launch = r.section("Launch Statistics").unwrap();
    let cache = launch.row("Function Cache Configuration").unwrap();
    assert_eq!(
        cache.metric.value,
        Value::Str("cudaFuncCachePreferNone".into())
    );
    let mws = launch.row("Memory Throughput");
    assert!(mws.is_none());
    let mem = r.section("Memory Workload Analysis").unwrap();
    let bw = mem.row("Memory Throughput").unwrap();
    assert_eq!(bw.metric.unit, "byte/s");
    assert!((bw.metric.as_f64().unwrap() - 2.32e9).abs() < 1.0);
    // Rules follow the closing rule directly and are separated by `----- ---` lines.
    let sched = r.section("Scheduler Statistics").unwrap();
    assert_eq!(sched.rules.len(), 2);
    assert!(
        sched
            .rules
            .iter()
            .all(|x| x.kind == RuleKind::Wrn && x.speedup.is_none())
    );
    assert!(
        sched.rules[1]
            .message
            .starts_with("The 1.00 theoretical warps per scheduler")
    );
    assert!(sched.rules[1].message.ends_with("theoretical occupancy."));
}

#[test]
fn capture_starting_mid_report() {
    let report = load_fixture("seeds/cli_details_cc86.txt");
    let names: Vec<&str> = report
        .results
        .iter()
        .map(|r| r.name.function.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "conv2d_forward_kernel",
            "evaluate_loss_kernel",
            "compute_loss_error_kernel",
            "conv2d_compute_hidden_error_kernel",
            "conv2d_backward_kernel"
        ]
    );
    assert!(
        report
            .results
            .iter()
            .all(|r| r.process_id.is_none() && r.cc == Some((8, 6)))
    );
    let r = &report.results[0];
    assert_eq!(r.grid.map(|g| (g.x, g.y, g.z)), Some((2, 2, 256)));
    let d = r.metric("gpu__time_duration.sum").unwrap();
    assert!((d.as_f64().unwrap() - 278_340.0).abs() < 1e-6);
    let p = d.printed.as_ref().unwrap();
    assert_eq!((p.unit.as_str(), p.decimals), ("us", 2));
}

#[test]
fn summary_keeps_minimum_maximum_average() {
    let rel = "h100/kernels_basic.summary.txt";
    let report = load_fixture(rel);
    let text = fixture_text(rel);
    for (line, r) in kernel_lines(&text).iter().zip(&report.results) {
        let n: u64 = line.rsplit_once("Invocations ").unwrap().1.parse().unwrap();
        assert_eq!(r.invocations, Some(n));
        assert!(line.starts_with(&r.name.demangled));
    }
    let va = report
        .results
        .iter()
        .find(|r| r.name.function == "vector_add")
        .unwrap();
    assert_eq!(va.invocations, Some(2));
    let d = va.metric("gpu__time_duration.sum").unwrap();
    let ids: Vec<_> = d.instances.iter().map(|i| i.id.unwrap()).collect();
    assert_eq!(
        ids,
        ["Minimum", "Maximum", "Average"].map(|s| Value::Str(s.into()))
    );
    assert_eq!(d.value, d.instances[2].value);
    assert_eq!(d.unit, "ns");
    // Values are read from the fixture row itself.
    let row = text
        .lines()
        .skip_while(|l| !l.contains("vector_add"))
        .find(|l| l.trim_start().starts_with("Duration "))
        .unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[1], "us");
    for (i, cell) in cells[2..5].iter().enumerate() {
        let v: f64 = cell.replace(',', "").parse().unwrap();
        assert!((d.instances[i].value.as_f64().unwrap() - v * 1e3).abs() < 1e-6);
    }
}
