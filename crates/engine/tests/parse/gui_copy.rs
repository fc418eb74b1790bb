//! Text copied from the GUI Details page (A100) against the pairs and values the file shows.

use sightline_engine::model::names::{DURATION, ELAPSED_CYCLES, SM_FREQUENCY};
use sightline_engine::model::{Format, KernelResult, RuleKind, SpeedupKind, Value};
use sightline_testkit::{fixture_bytes, load_fixture};

const FILE: &str = "seeds/gui_details_copy_a100.txt";

/// Every `Label<TAB>value` pair of the file's tables (the report header rows excluded).
fn pairs_in_file() -> Vec<(String, String)> {
    let text = String::from_utf8(fixture_bytes(FILE)).unwrap();
    let mut pairs = Vec::new();
    for line in text.lines() {
        if !line.contains('\t') || line.starts_with("Result\t") || line.starts_with("Current\t") {
            continue;
        }
        let cells: Vec<&str> = line.split('\t').collect();
        for pair in cells.chunks(2) {
            if pair.len() == 2 && !pair[0].is_empty() {
                pairs.push((pair[0].to_string(), pair[1].to_string()));
            }
        }
    }
    pairs
}

/// The rows of the parsed result as the file prints them: `Label [unit]` and value.
fn rows_as_printed(result: &KernelResult) -> Vec<(String, Value)> {
    result
        .sections()
        .iter()
        .flat_map(|s| s.rows.iter())
        .map(|row| {
            let printed = row.metric.printed.as_ref().unwrap();
            let label = if printed.unit.is_empty() {
                row.label.clone()
            } else {
                format!("{} [{}]", row.label, printed.unit)
            };
            (label, printed.value)
        })
        .collect()
}

#[test]
fn gui_copy_keeps_every_pair() {
    let report = load_fixture(FILE);
    assert_eq!(report.format, Format::GuiCopy);
    assert_eq!(report.results.len(), 1);
    let pairs = pairs_in_file();
    assert_eq!(pairs.len(), 70);
    let rows = rows_as_printed(&report.results[0]);
    assert_eq!(rows.len(), pairs.len());
    for ((label, text), (row_label, value)) in pairs.iter().zip(&rows) {
        assert_eq!(label, row_label);
        match value {
            Value::Str(s) => assert_eq!(s, text),
            v => assert_eq!(v.as_f64(), Some(text.parse::<f64>().unwrap()), "{label}"),
        }
    }
    println!("gui copy: compared {} pairs", pairs.len());
}

#[test]
fn gui_copy_header_row() {
    let report = load_fixture(FILE);
    let r = &report.results[0];
    assert_eq!(r.id, 535);
    assert_eq!(r.name.function, "convolutionConstantKernel");
    assert_eq!(r.grid.map(|d| (d.x, d.y, d.z)), Some((32, 32, 1024)));
    assert_eq!(r.block.map(|d| (d.x, d.y, d.z)), Some((8, 8, 1)));
    assert!((r.number(DURATION).unwrap() - 1_270_000.0).abs() < 1e-6);
    assert_eq!(
        r.metric(ELAPSED_CYCLES).unwrap().value,
        Value::U64(1_391_144)
    );
    assert!((r.number(SM_FREQUENCY).unwrap() - 1.09e9).abs() < 1.0);
    assert_eq!(r.process_id, Some(3_874_072));
    assert_eq!(r.process_name.as_deref(), Some("xray_cnn"));
    assert_eq!(r.device, Some(0));
    assert_eq!(report.devices.len(), 1);
    assert_eq!(
        report.devices[0].name.as_deref(),
        Some("NVIDIA A100-SXM4-40GB")
    );
    assert_eq!(report.device_of(r).map(|d| d.index), Some(0));
}

#[test]
fn gui_copy_sections_and_metrics() {
    let report = load_fixture(FILE);
    let r = &report.results[0];
    let names: Vec<&str> = r.sections().iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "GPU Speed Of Light Throughput",
            "PM Sampling",
            "Compute Workload Analysis",
            "Memory Workload Analysis",
            "Scheduler Statistics",
            "Warp State Statistics",
            "Instruction Statistics",
            "NVLink Topology",
            "NVLink Tables",
            "NUMA Affinity",
            "Launch Statistics",
            "Occupancy",
            "GPU and Memory Workload Distribution",
            "Source Counters",
        ]
    );
    assert_eq!(r.sections()[0].identifier.as_deref(), Some("SpeedOfLight"));
    // Values by metric name, in base units.
    let close = |key: &str, want: f64| {
        let got = r.number(key).unwrap_or_else(|| panic!("{key} missing"));
        assert!(
            (got - want).abs() <= 1e-9 * want.abs().max(1.0),
            "{key}: {got} vs {want}"
        );
    };
    close("sm__throughput.avg.pct_of_peak_sustained_elapsed", 87.60);
    close("sm__cycles_active.avg", 1_387_877.61);
    close("launch__grid_size", 1_048_576.0);
    close("launch__shared_mem_per_block_driver", 1020.0);
    close("dram__bytes.sum.per_second", 212.05e9);
    close("smsp__inst_executed.sum", 526_385_152.0);
    assert_eq!(
        r.metric("launch__func_cache_config").map(|m| m.value),
        Some(Value::Str("CachePreferNone".into()))
    );
    // A label the catalog does not know is kept under `Section/Label`.
    assert_eq!(r.number("PM Sampling/Dropped Samples"), Some(0.0));
}

/// A rule as shown: section name, title, kind, speedup.
type ShownRule<'a> = (&'a str, &'a str, RuleKind, Option<(SpeedupKind, f64)>);

#[test]
fn gui_copy_rules() {
    let report = load_fixture(FILE);
    let r = &report.results[0];
    let rules: Vec<ShownRule> = r
        .sections()
        .iter()
        .flat_map(|s| {
            s.rules
                .iter()
                .map(move |x| (s.name.as_str(), x.title.as_str(), x.kind, x.speedup))
        })
        .collect();
    use RuleKind::{Inf, Opt};
    assert_eq!(
        rules,
        [
            (
                "GPU Speed Of Light Throughput",
                "High Throughput",
                Inf,
                None
            ),
            (
                "GPU Speed Of Light Throughput",
                "Roofline Analysis",
                Inf,
                None
            ),
            ("Compute Workload Analysis", "High Utilization", Inf, None),
            (
                "Memory Workload Analysis",
                "L1TEX Global Load Access Pattern",
                Inf,
                None
            ),
            (
                "Memory Workload Analysis",
                "Shared Load Bank Conflicts",
                Opt,
                Some((SpeedupKind::Global, 34.42))
            ),
            (
                "Memory Workload Analysis",
                "Shared Store Bank Conflicts",
                Opt,
                Some((SpeedupKind::Global, 17.48))
            ),
        ]
    );
    let sol = &r.sections()[0];
    assert!(
        sol.rules[0]
            .message
            .starts_with("The kernel is utilizing greater than 80.0%")
    );
    assert!(
        sol.rules[1]
            .message
            .contains("See the Kernel Profiling Guide for more details")
    );
    let bank = &r.sections()[3].rules[1];
    assert!(
        bank.message
            .starts_with("The memory access pattern for shared loads")
    );
}
