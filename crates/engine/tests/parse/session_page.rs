//! The `--page session` export, text and CSV, against the values the files show.

use sightline_engine::model::{Format, Report};
use sightline_testkit::load_fixture;

fn check_common(report: &Report) {
    assert_eq!(report.format, Format::Session);
    assert!(report.results.is_empty());
    assert_eq!(report.tool_version.as_deref(), Some("2025.3.1.0"));
    let s = &report.session;
    assert_eq!(s.get("Host Name"), Some("vm"));
    assert_eq!(
        s.get("Target IP Addresses"),
        Some("192.0.2.2, fd00::2, fe80::fc:ff:fe00:1%eth0")
    );
    assert_eq!(s.get("Host OS"), Some("Linux - #1 SMP PREEMPT_DYNAMIC @0"));
    assert_eq!(s.get("CUDA Version"), Some("13.0"));
    assert_eq!(
        s.get("Nsight Compute Target"),
        Some("2025.3.1.0 (build 36398880) (public-release)")
    );
    // Launch Settings first, then Session Info, in file order.
    let keys: Vec<&str> = s.attributes.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "Profiler Command Line",
            "Created",
            "Host Name",
            "Host OS",
            "Host Architecture",
            "Host Processor",
            "Target Name",
            "Target IP Addresses",
            "Target OS",
            "Target Architecture",
            "Target Processor",
            "CUDA Version",
            "PerfWorks",
            "Nsight Compute Target",
        ]
    );
    assert_eq!(report.devices.len(), 1);
    let d = &report.devices[0];
    assert_eq!(d.index, 0);
    assert_eq!(d.name.as_deref(), Some("NVIDIA H100 80GB HBM3"));
    assert_eq!(d.sm_count, Some(132));
    assert_eq!(d.cc, Some((9, 0)));
    let attrs: Vec<(&str, &str)> = d
        .attributes
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(
        attrs,
        [
            ("confidential_computing_mode", "No-CC"),
            ("multiprocessor_count", "132"),
            ("display_name", "NVIDIA H100 80GB HBM3"),
            ("compute_capability_major", "9"),
            ("compute_capability_minor", "0"),
            ("total_memory", "85017493504"),
        ]
    );
}

#[test]
fn session_text_full() {
    let report = load_fixture("h100/kernels_full.session.txt");
    check_common(&report);
    // The command line wraps mid-word ("--import-s" / "ource") and is joined back.
    assert_eq!(
        report.session.get("Profiler Command Line"),
        Some(
            "/opt/nvidia/nsight-compute/2025.3.1/target/linux-desktop-glibc_2_11_3-x64/ncu \
             --clock-control none --set full --import-source yes --nvtx -f -o \
             /tmp/corpus/reports/kernels_full /tmp/corpus/kernels"
        )
    );
    assert_eq!(report.session.get("Created"), Some("2026-Nov-21 19:05:57"));
    assert_eq!(
        report.session.processes,
        [(1287, "/tmp/corpus/kernels".to_string())]
    );
}

#[test]
fn session_csv_full() {
    let report = load_fixture("h100/kernels_full.session.csv");
    check_common(&report);
    assert_eq!(
        report.session.processes,
        [(1287, "/tmp/corpus/kernels".to_string())]
    );
}

#[test]
fn session_basic_text_and_csv_agree() {
    let text = load_fixture("h100/kernels_basic.session.txt");
    let csv = load_fixture("h100/kernels_basic.session.csv");
    check_common(&text);
    check_common(&csv);
    assert_eq!(text.session, csv.session);
    assert_eq!(text.devices, csv.devices);
    assert_eq!(
        text.session.processes,
        [(1842, "/tmp/corpus/kernels".to_string())]
    );
    assert_eq!(
        text.session.get("Profiler Command Line"),
        Some(
            "/opt/nvidia/nsight-compute/2025.3.1/target/linux-desktop-glibc_2_11_3-x64/ncu \
             --clock-control none --set basic -f -o /tmp/corpus/reports/kernels_basic \
             /tmp/corpus/kernels"
        )
    );
    assert_eq!(text.session.get("Created"), Some("2026-Nov-21 19:06:23"));
}
