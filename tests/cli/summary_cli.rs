//! `sightline summary`: the rows and the JSON document, exit codes, and errors that name the file.

use crate::common;

use std::process::Command;

fn run_summary(args: &[&std::path::Path], json: bool) -> (i32, String) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sightline"));
    cmd.arg("summary");
    if json {
        cmd.arg("--json");
    }
    let out = cmd.args(args).output().expect("run sightline");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn json_rows_carry_the_oracle_values_and_a_bad_file_gives_exit_2() {
    let dir = std::env::temp_dir().join(format!("sightline-summary-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let rep = dir.join("kernels_basic.ncu-rep");
    std::fs::write(&rep, common::fixture_bytes("h100/kernels_basic.ncu-rep.xz")).unwrap();
    let bad = dir.join("notes.txt");
    std::fs::write(&bad, "just some notes\n").unwrap();
    let text = common::fixture_path("h100/kernels_basic.details.txt");

    let (code, out) = run_summary(&[&rep, &text, &bad], true);
    assert_eq!(code, 2, "a file that is no result gives exit code 2");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let reports = doc["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 2, "the readable files are still printed");
    assert_eq!(reports[0]["format"], "ncu-rep");
    assert_eq!(reports[1]["format"], "cli-text");
    assert_eq!(reports[0]["device"]["name"], "NVIDIA H100 80GB HBM3");

    let truth = common::load_truth("h100/kernels_basic.truth.json.xz");
    for report in reports {
        let results = report["results"].as_array().unwrap();
        assert_eq!(results.len(), truth.len());
        for (r, t) in results.iter().zip(&truth) {
            assert_eq!(r["function"], t.function.as_str());
            let expected = t.metrics["gpu__time_duration.sum"].value.as_f64().unwrap();
            let got = r["duration_ns"].as_f64().unwrap();
            // The report stores it exactly; the text prints it to 0.01 us.
            assert!(
                (got - expected).abs() <= 5.0,
                "{}: {got} vs {expected}",
                t.function
            );
            assert_eq!(r["metrics"]["gpu__time_duration.sum"]["unit"], "ns");
        }
    }
    let errors = doc["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1);
    assert!(errors[0]["message"].as_str().unwrap().contains("notes.txt"));

    let (code, table) = run_summary(&[&text], false);
    assert_eq!(code, 0);
    assert_eq!(
        table.lines().count(),
        1 + truth.len(),
        "a header and one row per result"
    );
    assert!(table.contains("matmul_naive"));
    std::fs::remove_dir_all(&dir).ok();
}

/// Runs `sightline summary ARGS...`: (exit code, stdout, stderr).
fn run_with(args: &[&str], files: &[&std::path::Path]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .arg("summary")
        .args(args)
        .args(files)
        .output()
        .expect("run sightline");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_file_without_results_exits_2_saying_why() {
    let session = common::fixture_path("h100/kernels_basic.session.txt");
    let (code, _, err) = run_with(&[], &[&session]);
    assert_eq!(code, 2);
    assert!(
        err.contains("kernels_basic.session.txt") && err.contains("session page"),
        "{err}"
    );
}

#[test]
fn warnings_go_to_stderr_and_strict_makes_them_errors() {
    let dir = std::env::temp_dir().join(format!("sightline-strict-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // A details page cut in the middle of its last result.
    let text = common::fixture_bytes("h100/kernels_basic.details.txt");
    let cut = dir.join("cut.txt");
    std::fs::write(&cut, &text[..text.len() * 2 / 3]).unwrap();
    let (code, out, err) = run_with(&[], &[&cut]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.is_empty());
    assert!(
        err.starts_with("warning: ") && err.contains("cut.txt"),
        "{err}"
    );
    let (code, _, err) = run_with(&["--strict"], &[&cut]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: "), "{err}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn ranges_and_graphs_are_rows_with_their_kind_and_same_named_files_differ() {
    let dir = std::env::temp_dir().join(format!("sightline-kinds-{}", std::process::id()));
    for (sub, fixture) in [
        ("a", "range/range_nvtx.ncu-rep.xz"),
        ("b", "graph/graph_graph.ncu-rep.xz"),
    ] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
        std::fs::write(
            dir.join(sub).join("report.ncu-rep"),
            common::fixture_bytes(fixture),
        )
        .unwrap();
    }
    let a = dir.join("a/report.ncu-rep");
    let b = dir.join("b/report.ncu-rep");
    let (code, table, err) = run_with(&[], &[&a, &b]);
    assert_eq!(code, 0, "{err}");
    assert!(table.contains("a/report.ncu-rep") && table.contains("b/report.ncu-rep"));
    assert!(table.contains("region (range)"), "{table}");
    assert_eq!(table.matches("graph (graph)").count(), 2, "{table}");
    let (_, json, _) = run_with(&["--json"], &[&a, &b]);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let kinds: Vec<&str> = doc["reports"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["results"].as_array().unwrap())
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["range", "kernel", "graph", "graph"]);
    std::fs::remove_dir_all(&dir).ok();
}

/// The oracle's number of `key` in result `t`, read from its exact text; `None` when absent.
fn truth_number(t: &serde_json::Value, key: &str) -> Option<f64> {
    common::oracle::num_f64(&t["metrics"][key]["value"]).filter(|v| !v.is_nan())
}

/// `summary --csv` gives one row per result with the oracle's exact values, and writes it
/// without keeping the results' bodies decoded.
#[test]
fn csv_rows_carry_the_exact_oracle_values() {
    let dir = std::env::temp_dir().join(format!("sightline-summary-csv-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cases = [
        (
            "h100/kernels_full.ncu-rep.xz",
            "h100/kernels_full.truth.json.xz",
        ),
        ("big/many_basic.ncu-rep.xz", "big/many_basic.truth.json.xz"),
    ];
    for (rel, truth_rel) in cases {
        let path = dir.join(rel.replace('/', "-").trim_end_matches(".xz"));
        std::fs::write(&path, common::fixture_bytes(rel)).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_sightline"))
            .args(["summary", "--csv"])
            .arg(&path)
            .output()
            .expect("run sightline");
        assert_eq!(out.status.code(), Some(0), "{rel}");

        // The command writes what the library writes for the report opened on demand, and the
        // library leaves no body decoded.
        let mut reports = vec![sightline_engine::parse::load_path(&path).unwrap()];
        let mut written = Vec::new();
        sightline_engine::output::summary_csv::write_csv(&mut written, &mut reports).unwrap();
        assert_eq!(reports[0].decoded_bodies(), 0, "{rel}");
        assert_eq!(written, out.stdout, "{rel}");

        let mut csv = csv::Reader::from_reader(&out.stdout[..]);
        let header: Vec<String> = csv.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(
            header,
            sightline_engine::output::summary_csv::COLUMNS,
            "{rel}"
        );
        let col = |name: &str| header.iter().position(|h| h == name).unwrap();
        let rows: Vec<csv::StringRecord> = csv.records().map(Result::unwrap).collect();
        let truth = common::oracle::truth(truth_rel);
        assert_eq!(rows.len(), truth.len(), "{rel}");
        for (row, t) in rows.iter().zip(&truth) {
            let cell = |name: &str| row.get(col(name)).unwrap();
            let num = |name: &str| {
                let c = cell(name);
                (!c.is_empty()).then(|| c.parse::<f64>().unwrap())
            };
            assert_eq!(cell("report"), path.display().to_string());
            let function = t["function"].as_str().unwrap();
            assert_eq!(cell("function"), function, "{rel}");
            for (column, key) in [
                ("duration_ns", "gpu__time_duration.sum"),
                (
                    "sol_compute_pct",
                    "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                ),
                (
                    "sol_memory_pct",
                    "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
                ),
                (
                    "achieved_occupancy_pct",
                    "sm__warps_active.avg.pct_of_peak_sustained_active",
                ),
            ] {
                // Bit-equal: the CSV number reads back as the stored double.
                assert_eq!(
                    num(column),
                    truth_number(t, key),
                    "{rel} {function} {column}"
                );
            }
            let number = |key: &str| truth_number(t, key).unwrap();
            let dim = |what: &str| {
                ["x", "y", "z"]
                    .map(|a| number(&format!("launch__{what}_dim_{a}")).to_string())
                    .join("x")
            };
            assert_eq!(cell("grid"), dim("grid"), "{rel} {function}");
            assert_eq!(cell("block"), dim("block"), "{rel} {function}");
            let cc = format!(
                "{}.{}",
                number("device__attribute_compute_capability_major"),
                number("device__attribute_compute_capability_minor")
            );
            assert_eq!(cell("cc"), cc, "{rel} {function}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_rules_carry_the_guidance_of_each_key_performance_indicator() {
    let path = common::fixture_path("range/range_profiler.rule_details.txt");
    let (code, out) = run_summary(&[&path], true);
    assert_eq!(code, 0, "{out}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let results = doc["reports"][0]["results"].as_array().unwrap();
    let truth = common::load_truth("range/range_profiler.truth.json.xz");
    assert_eq!(results.len(), truth.len());
    let mut pairs = 0;
    for (r, t) in results.iter().zip(&truth) {
        let mut got: Vec<(String, String)> = r["rules"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|rule| rule["guidance"].as_array().unwrap().clone())
            .map(|g| {
                let field = |k: &str| g[k].as_str().unwrap().to_string();
                (field("metric"), field("text"))
            })
            .collect();
        got.sort();
        let expected = t.guidance();
        pairs += expected.len();
        assert_eq!(got, expected);
    }
    assert!(pairs >= 5, "only {pairs} indicators with guidance");
}
