//! `sightline summary`: the rows and the JSON document, exit codes, and errors that name the file.

mod common;

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
