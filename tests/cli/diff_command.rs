//! The `diff` command, run as the built binary: its exit codes (0 for the same run, 1 naming
//! a slower kernel, 2 for an input it cannot read), `--fail-on` and `--pair`, and that it
//! prints what the comparison of the reports read whole prints.

use crate::common::{
    TempFixtures, TruthResult, fixture_bytes, fixture_path, load_truth, run_diff, temp_dir,
};
use serde_json::Value as Json;
use sightline_engine::analysis::compare::fail_on::FailOn;
use sightline_engine::analysis::compare::{DiffOptions, diff_reports};
use std::collections::BTreeSet;

const FULL_TEXT: &str = "h100/kernels_full.details.txt";
const FULL_REP: &str = "h100/kernels_full.ncu-rep.xz";

/// The details text with one kernel's `Duration` row multiplied by `factor`.
fn with_scaled_duration(text: &str, kernel: &str, factor: f64) -> (String, String) {
    let mut out = String::new();
    let mut in_kernel = false;
    let mut edited = None;
    for line in text.split_inclusive('\n') {
        let is_kernel_line =
            line.starts_with("  ") && !line.starts_with("   ") && line.contains(", Context ");
        if is_kernel_line {
            in_kernel = line.trim_start().starts_with(kernel);
        }
        let trimmed = line.trim_start();
        if in_kernel && edited.is_none() && trimmed.starts_with("Duration ") {
            let value = trimmed.split_whitespace().last().unwrap();
            let scaled = format!("{:.2}", value.parse::<f64>().unwrap() * factor);
            // Keep the column width: the value is right-aligned.
            let pos = line.rfind(value).unwrap();
            let width = value.len().max(scaled.len());
            let start = pos + value.len() - width;
            let mut new_line = line[..start].to_string();
            new_line.push_str(&format!("{scaled:>width$}"));
            new_line.push_str(&line[pos + value.len()..]);
            out.push_str(&new_line);
            edited = Some(scaled);
            continue;
        }
        out.push_str(line);
    }
    (out, edited.expect("the kernel has a Duration row"))
}

#[test]
fn diff_command_exits_0_for_the_same_run() {
    let dir = temp_dir("same-run");
    let rep = dir.join("kernels_full.ncu-rep");
    std::fs::write(&rep, fixture_bytes(FULL_REP)).unwrap();
    let out = run_diff(&["--format", "json"], &rep, &fixture_path(FULL_TEXT));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let doc: Json = serde_json::from_slice(&out.stdout).unwrap();
    let matched = doc["matched"].as_array().unwrap();
    assert_eq!(matched.len(), 13);
    for m in matched {
        assert_eq!(m["duration_ns"]["verdict"], "unchanged", "{}", m["name"]);
        for metric in m["metrics"].as_array().unwrap() {
            assert_eq!(
                metric["verdict"], "unchanged",
                "{} {}",
                m["name"], metric["key"]
            );
        }
    }
    assert_eq!(doc["only_in_base"].as_array().unwrap().len(), 0);
    assert_eq!(doc["only_in_current"].as_array().unwrap().len(), 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_command_exits_1_and_names_the_slower_kernel() {
    let dir = temp_dir("slower");
    let text = String::from_utf8(fixture_bytes(FULL_TEXT)).unwrap();
    let (edited, new_value) = with_scaled_duration(&text, "matmul_naive(", 1.2);
    assert_eq!(new_value, "501.05");
    let current = dir.join("kernels_full_slower.details.txt");
    std::fs::write(&current, edited).unwrap();
    let base = fixture_path(FULL_TEXT);

    let out = run_diff(&["--format", "json"], &base, &current);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["regressed"], true);
    let worse: Vec<&Json> = doc["matched"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["duration_ns"]["verdict"] == "worse")
        .collect();
    assert_eq!(worse.len(), 1);
    assert!(
        worse[0]["name"]
            .as_str()
            .unwrap()
            .starts_with("matmul_naive(")
    );
    let pct = worse[0]["duration_ns"]["delta_pct"].as_f64().unwrap();
    // 417.54 us → 501.05 us.
    assert!(
        (pct - (501.05 - 417.54) / 417.54 * 100.0).abs() < 1e-6,
        "{pct}"
    );

    // The text form names the kernel too.
    let out = run_diff(&[], &base, &current);
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let result = stdout.split("Result:").nth(1).unwrap();
    assert!(result.contains("matmul_naive("), "{stdout}");

    // A threshold above the change lets it pass.
    let out = run_diff(&["--threshold", "25%"], &base, &current);
    assert_eq!(out.status.code(), Some(0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn diff_command_exits_2_for_an_unreadable_input() {
    let dir = temp_dir("unreadable");
    let missing = dir.join("missing.ncu-rep");
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, "hello, this is not a profile\n").unwrap();
    let out = run_diff(&[], &missing, &junk);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("missing.ncu-rep"), "{stderr}");
    assert!(stderr.contains("junk.txt"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `sightline diff` of a report against itself prints what the comparison of the report read
/// whole prints.
#[test]
fn diff_command_prints_the_whole_comparison() {
    let dir = TempFixtures::new("diff-whole");
    let f = dir.add("many_basic.ncu-rep", "big/many_basic.ncu-rep.xz");
    let whole = sightline_engine::parse::parse_bytes(&f, &std::fs::read(&f).unwrap()).unwrap();
    let diff = diff_reports(&whole, &whole, &DiffOptions::default());
    assert_eq!(diff.matched.len(), whole.results.len());
    let failures = FailOn::default().check(&diff);
    let expected =
        sightline_engine::output::compare::text::render_text(&diff, &whole, &whole, &failures);
    let out = run_diff(&[], &f, &f);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), expected);
}

#[test]
fn fail_on_and_pair_exit_codes() {
    let dir = temp_dir("fail-on");
    let write = |rel: &str| {
        let path = dir.join(rel.trim_end_matches(".xz").replace('/', "_"));
        std::fs::write(&path, fixture_bytes(rel)).unwrap();
        path
    };
    let before = write("pair/before.ncu-rep.xz");
    let after = write("pair/after.ncu-rep.xz");
    let before_truth = load_truth("pair/before.truth.json.xz");
    let after_truth = load_truth("pair/after.truth.json.xz");
    let d = |t: &TruthResult| t.number("gpu__time_duration.sum");
    let blur_pct = (d(&after_truth[6]) - d(&before_truth[6])) / d(&before_truth[6]) * 100.0;
    assert!(blur_pct > 5.0);
    let code = |args: &[&str]| run_diff(args, &before, &after).status.code();

    // Default: blur is slower beyond 5 % and histogram_old is only in base.
    let out = run_diff(&["--format", "json"], &before, &after);
    assert_eq!(out.status.code(), Some(1));
    let doc: Json = serde_json::from_slice(&out.stdout).unwrap();
    let failures = doc["fail_on"]["failures"].as_array().unwrap();
    let kernels: BTreeSet<(String, String)> = failures
        .iter()
        .map(|f| {
            (
                f["rule"].as_str().unwrap().to_string(),
                f["kernel"].as_str().unwrap().to_string(),
            )
        })
        .filter(|(_, k)| !k.is_empty())
        .map(|(r, k)| (r, k.split('(').next().unwrap().to_string()))
        .collect();
    assert!(
        kernels.contains(&("duration>5%".into(), "blur".into())),
        "{kernels:?}"
    );
    assert!(kernels.contains(&("only-in-base".into(), before_truth[4].function.clone())));
    // normalize → normalize_rows is paired as renamed: no failure.
    assert!(
        !kernels.iter().any(|(_, k)| *k == before_truth[7].function),
        "{kernels:?}"
    );
    assert_eq!(doc["renamed"][0]["base_function"], "normalize");
    assert!(
        doc["matched"][2]["changes"][0]
            .as_str()
            .unwrap()
            .starts_with("template args")
    );
    assert!(!doc["matched"][1]["why"].as_array().unwrap().is_empty());

    // Thresholds either side of blur's change; only-in-base alone; nothing.
    let above = format!("duration>{}%", blur_pct.ceil());
    let below = format!("duration>{}%", blur_pct.floor());
    assert_eq!(code(&["--fail-on", &above]), Some(0));
    assert_eq!(code(&["--fail-on", &below]), Some(1));
    assert_eq!(code(&["--fail-on", "only-in-base"]), Some(1));
    assert_eq!(code(&["--fail-on", "only-in-current"]), Some(1));
    assert_eq!(code(&["--fail-on", "none"]), Some(0));
    // Bad input: a rule or a pair that cannot be read, a result that does not exist.
    assert_eq!(code(&["--fail-on", "duration>5"]), Some(2));
    assert_eq!(code(&["--pair", "7-7"]), Some(2));
    assert_eq!(code(&["--pair", "99=7"]), Some(2));
    // Paired by hand (with renames only suggested), the rename leaves only-in-base;
    // histogram_old stays there.
    let out = run_diff(
        &[
            "--fail-on",
            "only-in-base",
            "--pair",
            "7=7",
            "--no-auto-pair",
            "--format",
            "json",
        ],
        &before,
        &after,
    );
    assert_eq!(out.status.code(), Some(1));
    let doc: Json = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["only_in_base"].as_array().unwrap().len(), 1);
    assert!(
        doc["matched"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["match"] == "manual")
    );

    // The same run in two forms passes the default rules.
    let rep = write("h100/kernels_full.ncu-rep.xz");
    let csv = write("h100/kernels_full.raw.csv.xz");
    let out = run_diff(&[], &rep, &csv);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("no change"), "{stdout}");

    // Markdown carries the why list.
    let out = run_diff(&["--format", "md"], &before, &after);
    let md = String::from_utf8_lossy(&out.stdout);
    assert!(md.contains("#### Why it changed"), "{md}");
    assert!(md.contains("UncoalescedGlobalAccess"), "{md}");
    // (Markdown writes `<` and `>` as entities: they render as the text.)
    assert!(
        md.contains("template args changed: &lt;16&gt; → &lt;32&gt;"),
        "{md}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
