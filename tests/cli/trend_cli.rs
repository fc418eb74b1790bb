//! `sightline trend`: five versions of a GEMM profiled in the order v1, v2, v3, v5, v4, its
//! kernel renamed at v4 (`fixtures/series/`): matched through the rename, ordered as given or
//! by capture time, launches aggregated to NVIDIA's values, the history rule quiet on noise and
//! firing on a real regression, every output form, a folder as input, exit codes.

use crate::common;

use common::{fixture_file, load_truth, temp_dir};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The five reports in a folder of their own, named v1 … v5.
fn series(dir: &Path) -> Vec<PathBuf> {
    (1..=5)
        .map(|v| fixture_file(dir, &format!("series/v{v}.ncu-rep.xz")))
        .collect()
}

fn trend(args: &[&str], inputs: &[PathBuf]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .arg("trend")
        .args(args)
        .args(inputs)
        .output()
        .expect("run sightline");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The labels of a trend document's runs, in order.
fn run_labels(doc: &serde_json::Value) -> Vec<&str> {
    doc["runs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["label"].as_str().unwrap())
        .collect()
}

/// NVIDIA's mean duration of a kernel's launches in one version, ns.
fn truth_mean(version: usize, function: &str) -> f64 {
    let truth = load_truth(&format!("series/v{version}.truth.json.xz"));
    let durations: Vec<f64> = truth
        .iter()
        .filter(|t| t.function == function)
        .map(|t| t.number("gpu__time_duration.sum"))
        .collect();
    assert!(!durations.is_empty(), "v{version} {function}");
    durations.iter().sum::<f64>() / durations.len() as f64
}

#[test]
fn a_kernel_renamed_on_the_way_is_one_line_with_nvidias_values() {
    let dir = temp_dir("trend-json");
    let files = series(&dir);
    let (code, out, err) = trend(&["--format", "json"], &files);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    let labels = run_labels(&doc);
    assert_eq!(labels, ["v1", "v2", "v3", "v4", "v5"]);
    let kernels = doc["kernels"].as_array().unwrap();
    assert_eq!(kernels.len(), 3, "gemm, init and bias_add");
    let gemm = kernels
        .iter()
        .find(|k| k["name"] == "gemm_tiled_2d")
        .expect("the GEMM");
    assert_eq!(
        gemm["names"],
        serde_json::json!(["gemm_step", "gemm_tiled_2d"])
    );
    let points = gemm["points"].as_array().unwrap();
    assert_eq!(points.len(), 5);
    for (v, p) in (1..=5).zip(points) {
        let function = if v < 4 { "gemm_step" } else { "gemm_tiled_2d" };
        assert_eq!(p["name"], function);
        assert_eq!(p["launches"], 1);
        assert_eq!(p["mean_ns"].as_f64().unwrap(), truth_mean(v, function));
    }
    // `init` runs twice a version: count, mean and range of both launches.
    let init = kernels.iter().find(|k| k["name"] == "init").unwrap();
    for (v, p) in (1..=5).zip(init["points"].as_array().unwrap()) {
        assert_eq!(p["launches"], 2);
        let mean = p["mean_ns"].as_f64().unwrap();
        assert!((mean - truth_mean(v, "init")).abs() < 1e-6, "v{v}");
        assert!(p["min_ns"].as_f64().unwrap() <= mean && mean <= p["max_ns"].as_f64().unwrap());
    }
    // The longest kernel of the latest run first; the biggest step is the naive GEMM's.
    assert_eq!(kernels[0]["name"], "gemm_tiled_2d");
    let step = &doc["steps"][0];
    assert_eq!(
        (step["from"].as_u64(), step["to"].as_u64()),
        (Some(0), Some(1))
    );
    assert!(step["change_pct"].as_f64().unwrap() < -50.0);
    assert_eq!(doc["regressions"], serde_json::json!([]));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn runs_follow_capture_time_when_asked_and_a_folder_is_read_by_name() {
    let dir = temp_dir("trend-order");
    series(&dir);
    let (code, out, err) = trend(
        &["--format", "json", "--order", "captured"],
        std::slice::from_ref(&dir),
    );
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).expect("json");
    let labels = run_labels(&doc);
    // v5 was profiled before v4.
    assert_eq!(labels, ["v1", "v2", "v3", "v5", "v4"]);
    assert_eq!(doc["order_note"], "by capture time");
    let (_, text, _) = trend(&[], std::slice::from_ref(&dir));
    assert!(text.starts_with("5 runs, in the order given"), "{text}");
    assert!(text.contains("gemm_step \u{2192} gemm_tiled_2d"), "{text}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn the_history_rule_ignores_noise_and_fires_on_a_regression() {
    let dir = temp_dir("trend-rules");
    let files = series(&dir);
    // bias_add moves by up to 7 % from version to version: noise for the history rule.
    let (code, out, err) = trend(&[], &files[..4]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("No regression in the latest run."));
    // A step rule of 5 % does fire on it (v3 → v4: +6.8 %).
    let (code, out, _) = trend(&["--fail-on", "duration>5%"], &files[..4]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("REGRESSION bias_add:"), "{out}");
    // The naive GEMM profiled last: far beyond the median of the four before it.
    let order = [&files[1], &files[2], &files[3], &files[4], &files[0]].map(|p| p.to_path_buf());
    let (code, out, _) = trend(&["--format", "json"], &order);
    assert_eq!(code, 1);
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    let found = doc["regressions"].as_array().unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["kernel"], "gemm_step");
    assert_eq!(found[0]["rule"], "duration>median5+3spread");
    assert!(found[0]["change_pct"].as_f64().unwrap() > 300.0);
    // A rule that cannot be read is an error.
    let (code, _, err) = trend(&["--fail-on", "duration>fast"], &files);
    assert_eq!(code, 2);
    assert!(err.contains("duration>medianN+Kspread"), "{err}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn every_output_form_lists_every_kernel_and_run() {
    let dir = temp_dir("trend-forms");
    let files = series(&dir);
    let (code, csv, _) = trend(&["--format", "csv"], &files);
    assert_eq!(code, 0);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "kernel,run,label,name,launches,total_ns,mean_ns,min_ns,max_ns,metric"
    );
    assert_eq!(rows.len(), 1 + 3 * 5);
    assert!(
        rows.iter()
            .any(|r| r.starts_with("gemm_tiled_2d,1,v1,gemm_step,1,"))
    );
    let (_, md, _) = trend(&["--format", "md"], &files);
    assert!(
        md.contains("| Kernel | v1 | v2 | v3 | v4 | v5 | Trend |"),
        "{md}"
    );
    assert!(md.contains("**Biggest steps**"));
    let (_, html, _) = trend(&["--format", "html"], &files);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(html.matches("<svg").count(), 3, "one chart per kernel");
    assert!(!html.contains("<script"), "self-contained and inert");
    let metric = "sm__throughput.avg.pct_of_peak_sustained_elapsed";
    let (_, json, _) = trend(&["--format", "json", "--metric", metric], &files);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let truth = load_truth("series/v1.truth.json.xz");
    let gemm = truth.iter().find(|t| t.function == "gemm_step").unwrap();
    let first = &doc["kernels"][0]["points"][0];
    assert_eq!(first["metric"].as_f64().unwrap(), gemm.number(metric));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_unreadable_input_is_exit_2_naming_it() {
    let dir = temp_dir("trend-bad");
    let mut files = series(&dir);
    let bad = dir.join("notes.ncu-rep");
    std::fs::write(&bad, "not a report\n").unwrap();
    files.push(bad);
    let (code, _, err) = trend(&[], &files);
    assert_eq!(code, 2);
    assert!(err.contains("notes.ncu-rep"), "{err}");
    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (code, _, err) = trend(&[], &[empty]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no .ncu-rep or .ncu-repz report in the folder"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// Three public reports of one program (bwd29's self-join, three datasets): its kernels
/// through the runs, launches aggregated to NVIDIA's values.
#[test]
fn a_series_of_public_reports_aggregates_each_runs_launches() {
    let dir = temp_dir("trend-public");
    let public = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/public");
    let names = [
        "bwd29__self-join-MiSTIC__profile",
        "bwd29__self-join-MiSTIC__profileHiggs.out",
        "bwd29__self-join-MiSTIC__profileSUSYNODE.out",
    ];
    let files: Vec<PathBuf> = names
        .iter()
        .map(|n| {
            let raw = std::fs::read(public.join(format!("{n}.ncu-rep.xz"))).expect("public report");
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut xz2::read::XzDecoder::new(&raw[..]), &mut bytes)
                .expect("xz");
            let path = dir.join(format!("{n}.ncu-rep"));
            std::fs::write(&path, bytes).unwrap();
            path
        })
        .collect();
    let (code, out, err) = trend(&["--format", "json"], &files);
    assert_eq!(code, 0, "{err}");
    let doc: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["runs"].as_array().unwrap().len(), 3);
    let node = doc["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "nodeByPoint5")
        .expect("nodeByPoint5");
    let points = node["points"].as_array().unwrap();
    assert!(points[0].is_null(), "the first run does not launch it");
    for (i, n) in [(1, names[1]), (2, names[2])] {
        let raw = std::fs::read(public.join(format!("{n}.truth.json.xz"))).expect("truth");
        let mut text = String::new();
        std::io::Read::read_to_string(&mut xz2::read::XzDecoder::new(&raw[..]), &mut text)
            .expect("xz");
        let truth: Vec<common::TruthResult> =
            serde_json::from_str(&common::nan_to_null(&text)).expect("truth json");
        let durations: Vec<f64> = truth
            .iter()
            .filter(|t| t.function == "nodeByPoint5")
            .map(|t| t.number("gpu__time_duration.sum"))
            .collect();
        assert_eq!(points[i]["launches"], durations.len());
        let mean = durations.iter().sum::<f64>() / durations.len() as f64;
        assert!((points[i]["mean_ns"].as_f64().unwrap() - mean).abs() <= 1e-9 * mean);
    }
    // The first run's kernels are lines of their own, with one point.
    let sort = doc["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "DeviceRadixSortOnesweepKernel")
        .expect("a kernel of the first run only");
    assert!(sort["points"][0].is_object() && sort["points"][1].is_null());
    let _ = std::fs::remove_dir_all(dir);
}

/// File names with a terminal escape and bidirectional controls: the CSV names its runs and
/// the errors name the files with those characters shown by code point, never raw.
#[test]
fn file_names_stay_inert_in_csv_and_in_errors() {
    let dir = temp_dir("trend-hostile");
    let hostile = "v\u{1b}[31m\u{202E}x\u{2066}";
    let files: Vec<PathBuf> = (1..=3)
        .map(|v| {
            let from = fixture_file(&dir, &format!("series/v{v}.ncu-rep.xz"));
            let to = dir.join(format!("{hostile}{v}.ncu-rep"));
            std::fs::rename(&from, &to).unwrap();
            to
        })
        .collect();
    let (code, csv, err) = trend(&["--format", "csv"], &files);
    assert_eq!(code, 0, "{err}");
    let bad = dir.join(format!("{hostile}9.ncu-rep"));
    std::fs::write(&bad, "not a report\n").unwrap();
    let (code, _, unreadable) = trend(&[], &[files[0].clone(), bad]);
    assert_eq!(code, 2);
    for (what, text) in [("csv", &csv), ("stderr", &unreadable)] {
        for raw in ['\u{1b}', '\u{202E}', '\u{2066}'] {
            assert!(!text.contains(raw), "{what}: raw {raw:?} in {text}");
        }
        assert!(text.contains("<U+202E>"), "{what}: {text}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A launch whose duration is no number (`nan`, as ncu prints a failed value): the run's mean
/// of that kernel is damage, shown as such (never `0 ns`, never the mean of the other
/// launches), every rule that reads it fails, the report's warning names it, and `summary
/// --strict` refuses it.
#[test]
fn a_duration_that_is_no_number_is_damage_in_the_trend() {
    let dir = temp_dir("trend-nan");
    let before = dir.join("before.txt");
    std::fs::write(&before, common::fixture_bytes("pair/before.details.txt.xz")).unwrap();
    // The second of `scale`'s three launches.
    let text = String::from_utf8(common::fixture_bytes("pair/after.details.txt.xz")).unwrap();
    let line = "    Duration                         us        12.74";
    assert_eq!(text.matches(line).count(), 1);
    let after = dir.join("after.txt");
    std::fs::write(
        &after,
        text.replace(line, "    Duration                         us          nan"),
    )
    .unwrap();
    let files = [before, after.clone()];
    for rule in ["duration>median5+3spread", "duration>5%"] {
        let (code, out, err) = trend(&["--fail-on", rule], &files);
        assert_eq!(code, 1, "{rule}: {out}{err}");
        let scale = out
            .lines()
            .find(|l| l.starts_with("scale"))
            .unwrap_or_else(|| panic!("{out}"));
        assert!(scale.contains("damaged (NaN)"), "{scale}");
        assert!(out.contains("REGRESSION scale: damaged"), "{rule}: {out}");
        assert!(
            err.contains("1 result's duration is not a number (NaN), damaged: result 5 (scale)"),
            "{err}"
        );
    }
    let (_, json, _) = trend(&["--format", "json"], &files);
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let scale = doc["kernels"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["name"] == "scale")
        .expect("scale");
    assert_eq!(scale["points"][1]["launches"], 3);
    assert_eq!(scale["points"][1]["damaged"], 1);
    assert!(scale["points"][1]["mean_ns"].is_null(), "{scale}");
    // `summary --strict` fails on the warning; without it the table says damaged.
    let summary = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sightline"))
            .arg("summary")
            .args(args)
            .arg(&after)
            .output()
            .expect("run sightline")
    };
    let strict = summary(&["--strict"]);
    assert_eq!(strict.status.code(), Some(2));
    let table = summary(&[]);
    assert_eq!(table.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&table.stdout).contains("damaged (NaN)"));
    let _ = std::fs::remove_dir_all(dir);
}

/// A folder read as a series is read as it was listed: a report that disappears, and one that
/// is replaced, after the listing and before it is read are left out, each named in a
/// warning, and the others make the series. A file given by name that cannot be read stays an
/// error.
#[test]
fn a_folder_file_that_changes_or_disappears_is_left_out_with_a_warning() {
    use sightline_cli::trend::{load_series, series_files};
    let dir = temp_dir("trend-changing");
    let files = series(&dir);
    let listed = series_files(std::slice::from_ref(&dir)).unwrap();
    assert_eq!(listed.len(), 5);
    std::fs::remove_file(&files[1]).unwrap();
    std::fs::write(
        &files[3],
        common::fixture_bytes("h100/kernels_basic.ncu-rep.xz"),
    )
    .unwrap();
    let loaded = load_series(&listed, None);
    assert!(loaded.errors.is_empty());
    let names = |paths: &[PathBuf]| {
        paths
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        names(&loaded.files),
        ["v1.ncu-rep", "v3.ncu-rep", "v5.ncu-rep"]
    );
    assert_eq!(loaded.reports.len(), 3);
    assert_eq!(loaded.left_out.len(), 2, "{:?}", loaded.left_out);
    assert!(loaded.left_out[0].contains("v2.ncu-rep: left out of the series: it disappeared"));
    assert!(loaded.left_out[1].contains("v4.ncu-rep: left out of the series: it changed"));
    // Given by name, a missing file is an error.
    let given = series_files(std::slice::from_ref(&files[1])).unwrap();
    let loaded = load_series(&given, None);
    assert_eq!(loaded.errors.len(), 1);
    assert!(loaded.left_out.is_empty());
    // Listed again, the folder holds four reports, all read.
    let (code, out, err) = trend(&[], std::slice::from_ref(&dir));
    assert_ne!(code, 2, "{err}");
    assert!(out.starts_with("4 runs"), "{out}");
    let _ = std::fs::remove_dir_all(dir);
}

/// The page a CI job keeps (`trend --format html`), on a long series: 36 nightly runs of the
/// sweep's GEMM at several sizes, long file names, its mean duration spanning more than
/// tenfold. The chart reads on a log scale with its decades marked; the run labels are turned,
/// cut, each whole in a tooltip, and those shown keep apart; the chart takes the page's width
/// and the wide table scrolls in its own box. The five-run series spans less than tenfold: a
/// linear scale from zero, labels side by side.
#[test]
fn the_trend_page_reads_a_wide_span_on_a_log_scale_with_its_labels_apart() {
    let dir = temp_dir("trend-long-page");
    let mut day = 0;
    for _round in 0..3 {
        for size in [256, 512, 1024, 2048] {
            for v in [1, 3, 5] {
                day += 1;
                let path = dir.join(format!(
                    "nightly-2026-11-{day:02}-build-gemm-variant-{v}.ncu-rep"
                ));
                let rel = format!("sweep/N={size}/v{v}.ncu-rep.xz");
                std::fs::write(&path, common::fixture_bytes(&rel)).unwrap();
            }
        }
    }
    let (code, html, err) = trend(&["--format", "html"], std::slice::from_ref(&dir));
    assert_eq!(code, 0, "{err}");
    assert!(html.contains("Trend of 36 runs"));
    let chart = &html[html.find("<svg class=\"line-chart\"").expect("a chart")..];
    let chart = &chart[..chart.find("</svg>").unwrap()];
    assert!(
        chart.contains("width=\"100%\""),
        "the chart takes the page's width"
    );
    assert!(chart.contains(">log scale<"));
    for tick in [">10 us<", ">100 us<", ">1 ms<", ">10 ms<"] {
        assert!(chart.contains(tick), "{tick}");
    }
    // Every run is named whole in its point's tooltip.
    for day in 1..=36 {
        let v = [1, 3, 5][(day - 1) % 3];
        let label = format!("{day:02}-build-gemm-variant-{v}");
        assert!(chart.contains(&format!("<title>{label}: ")), "{label}");
    }
    // The labels shown are turned, cut and keep apart.
    let turned: Vec<f64> = chart
        .split("transform=\"rotate(-45 ")
        .skip(1)
        .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(turned.len() >= 18, "{}", turned.len());
    assert!(turned.windows(2).all(|x| x[1] - x[0] >= 16.0), "{turned:?}");
    assert!(chart.contains("01-build-gemm-var\u{2026}</text>"));
    assert!(html.contains("<div class=\"wide\"><table>"));
    // Five runs, less than tenfold: linear, from zero, labels side by side.
    let five = dir.join("five");
    std::fs::create_dir_all(&five).unwrap();
    let (code, html, err) = trend(&["--format", "html"], &series(&five));
    assert_eq!(code, 0, "{err}");
    let chart = &html[html.find("<svg class=\"line-chart\"").expect("a chart")..];
    let chart = &chart[..chart.find("</svg>").unwrap()];
    assert!(!chart.contains("log scale") && !chart.contains("rotate("));
    assert!(chart.contains(">0</text>") && chart.contains(">2 ms</text>"));
    for v in 1..=5 {
        assert!(chart.contains(&format!(
            "text-anchor=\"middle\"><title>v{v}</title>v{v}</text>"
        )));
    }
    let _ = std::fs::remove_dir_all(dir);
}
