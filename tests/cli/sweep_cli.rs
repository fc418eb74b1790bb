//! `sightline trend --by-size` on `fixtures/sweep/` (a GEMM in versions v1, v3, v5 at four
//! sizes in folders `N=SIZE/`): every output form with NVIDIA's values in the right cells, a
//! size pattern given on the command line, and reports left out, refused and misasked.

use crate::common;

use common::sweep_fixture::{SIZES, VERSIONS, function, truth_figures};
use common::{fixture_path, oracle, temp_dir};
use serde_json::Value as Json;
use sightline_engine::model::format::{measured_text, value_text};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `sightline trend --by-size ARGS INPUTS`: exit code, stdout, stderr.
pub fn sweep(args: &[&str], inputs: &[PathBuf]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["trend", "--by-size"])
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

/// The fixture folder, read where it lies (its reports compressed, beside their oracles).
fn fixture_folder() -> PathBuf {
    fixture_path("sweep")
}

/// The sweep's reports decompressed into `dir` as `layout(size, version)` names them.
pub fn copy_sweep(dir: &Path, layout: impl Fn(u64, &str) -> String) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for size in SIZES {
        for version in VERSIONS {
            let path = dir.join(layout(size, version));
            if let Some(folder) = path.parent() {
                std::fs::create_dir_all(folder).unwrap();
            }
            std::fs::write(
                &path,
                common::fixture_bytes(&format!("sweep/N={size}/{version}.ncu-rep.xz")),
            )
            .unwrap();
            files.push(path);
        }
    }
    files
}

/// A JSON document read with exact numbers (serde_json's own reading of a double may be one
/// unit in the last place off): each number a marked string, read by [`num`].
pub fn exact(text: &str) -> Json {
    serde_json::from_str(&oracle::quote_numbers(text)).expect("json")
}

/// A number of an [`exact`] document.
pub fn num(v: &Json) -> Option<f64> {
    oracle::num_f64(v)
}

/// Checks a sweep document (read by [`exact`]) against NVIDIA's values: one kernel through
/// the rename, one line per version, each size's mean duration and FLOP/s.
pub fn assert_document(doc: &Json, parameter: &str, versions: &[&str]) {
    assert_eq!(doc["parameter"], parameter);
    let sizes: Vec<f64> = doc["sizes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(num)
        .collect();
    assert_eq!(sizes, SIZES.map(|s| s as f64));
    assert_eq!(doc["versions"], serde_json::json!(versions));
    let kernels = doc["kernels"].as_array().expect("kernels");
    assert_eq!(
        kernels.len(),
        1,
        "the rename v3 → v5 is one line: {kernels:?}"
    );
    assert_eq!(
        kernels[0]["names"],
        serde_json::json!(["gemm_step", "gemm_tiled_2d"])
    );
    let lines = kernels[0]["lines"].as_array().unwrap();
    assert_eq!(lines.len(), 3);
    for (line, (version, label)) in lines.iter().zip(VERSIONS.iter().zip(versions)) {
        assert_eq!(line["version"], *label);
        let points = line["points"].as_array().unwrap();
        assert_eq!(points.len(), SIZES.len());
        for (p, size) in points.iter().zip(SIZES) {
            let (mean, rate) = truth_figures(version, size);
            assert_eq!(p["name"], function(version));
            assert_eq!(num(&p["launches"]), Some(1.0));
            assert_eq!(num(&p["mean_ns"]), Some(mean), "{version} {size}");
            assert_eq!(num(&p["flop_per_s"]), Some(rate), "{version} {size}");
        }
    }
    assert_eq!(doc["left_out"], serde_json::json!([]));
}

#[test]
fn every_form_of_a_sweep_has_nvidias_values_in_its_cells() {
    let folder = fixture_folder();
    let (code, json, err) = sweep(&["--format", "json"], std::slice::from_ref(&folder));
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "{err}");
    let doc = exact(&json);
    assert_document(&doc, "N", &VERSIONS);
    assert_eq!(doc["reports"].as_array().unwrap().len(), 12);
    assert_eq!(doc["size_pattern"], Json::Null);

    // CSV: a row per version and size, numbers in base units.
    let (code, csv, _) = sweep(&["--format", "csv"], std::slice::from_ref(&folder));
    assert_eq!(code, 0);
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(
        rows[0],
        "kernel,version,size,name,launches,total_ns,mean_ns,min_ns,max_ns,flop_per_s,metric"
    );
    assert_eq!(rows.len(), 1 + 12);
    for version in VERSIONS {
        for size in SIZES {
            let (mean, rate) = truth_figures(version, size);
            let f = function(version);
            let row =
                format!("gemm_tiled_2d,{version},{size},{f},1,{mean},{mean},{mean},{mean},{rate},");
            assert!(rows.contains(&row.as_str()), "{row} not in\n{csv}");
        }
    }

    // Text and Markdown: a table per figure, a row per version, a column per size.
    let cells = |version: &str, duration: bool| -> Vec<String> {
        SIZES
            .iter()
            .map(|&size| {
                let (mean, rate) = truth_figures(version, size);
                if duration {
                    measured_text(mean, "ns")
                } else {
                    value_text(rate, "FLOP/s")
                }
            })
            .collect()
    };
    let (code, text, _) = sweep(&[], std::slice::from_ref(&folder));
    assert_eq!(code, 0);
    assert!(
        text.starts_with("Sweep over N: 4 sizes (256, 512, 1024, 2048), 3 versions (v1, v3, v5)\n")
    );
    assert!(
        text.contains("\ngemm_step \u{2192} gemm_tiled_2d\n"),
        "{text}"
    );
    let row_of = |title: &str, version: &str| -> Vec<String> {
        let table: Vec<&str> = text
            .lines()
            .skip_while(|l| !l.starts_with(title))
            .take(4)
            .collect();
        let line = table
            .iter()
            .find(|l| l.split_whitespace().next() == Some(version))
            .unwrap_or_else(|| panic!("{title} {version} in {text}"));
        // Cells are two spaces apart; a value and its unit one.
        line.split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .skip(1)
            .map(str::to_string)
            .collect()
    };
    let (code, md, _) = sweep(&["--format", "md"], std::slice::from_ref(&folder));
    assert_eq!(code, 0);
    assert!(
        md.contains("| Duration | N=256 | N=512 | N=1024 | N=2048 |\n|---|---:|---:|---:|---:|\n"),
        "{md}"
    );
    assert!(md.contains("| Achieved FLOP/s | N=256 | N=512 | N=1024 | N=2048 |"));
    for version in VERSIONS {
        assert_eq!(row_of("Duration", version), cells(version, true));
        assert_eq!(row_of("Achieved FLOP/s", version), cells(version, false));
        for duration in [true, false] {
            let row = format!("| {version} | {} |", cells(version, duration).join(" | "));
            assert!(md.contains(&row), "{row} not in\n{md}");
        }
    }

    // HTML: a chart of each figure against N with a line per version, and the table behind it.
    let (code, html, _) = sweep(&["--format", "html"], std::slice::from_ref(&folder));
    assert_eq!(code, 0);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.contains("<script"), "self-contained and inert");
    assert_eq!(html.matches("<svg class=\"line-chart\"").count(), 2);
    assert_eq!(html.matches("<table>").count(), 2);
    assert_eq!(
        html.matches("<polyline").count(),
        6,
        "a line per version and figure"
    );
    assert!(
        html.contains(">log scale<"),
        "both figures span more than tenfold"
    );
    for version in VERSIONS {
        for (i, size) in SIZES.iter().enumerate() {
            let (mean, _) = truth_figures(version, *size);
            let point = format!(
                "<title>{version} · {size}: {}</title>",
                value_text(mean, "ns")
            );
            assert!(html.contains(&point), "{point}");
            let cell = format!("<td class=\"num\">{}</td>", cells(version, true)[i]);
            assert!(html.contains(&cell), "{cell}");
        }
    }
}

/// Sizes in the file names of one folder, read with `--size-pattern`: the same figures, the
/// versions what is left of the names; without the pattern nothing has a size, and each
/// report is named in a warning before the error.
#[test]
fn a_size_pattern_on_the_command_line_reads_sizes_from_file_names() {
    let dir = temp_dir("sweep-pattern");
    copy_sweep(&dir, |n, v| format!("gemm-{v}-n{n}.ncu-rep"));
    let (code, json, err) = sweep(
        &["--format", "json", "--size-pattern", r"-n(\d+)"],
        std::slice::from_ref(&dir),
    );
    assert_eq!(code, 0, "{err}");
    let doc = exact(&json);
    assert_document(&doc, "n", &["gemm-v1", "gemm-v3", "gemm-v5"]);
    assert_eq!(doc["size_pattern"], r"-n(\d+)");
    let (code, _, err) = sweep(&[], std::slice::from_ref(&dir));
    assert_eq!(code, 2);
    assert_eq!(
        err.matches("left out of the sweep: no size in its path")
            .count(),
        12,
        "{err}"
    );
    assert!(err.contains("gemm-v3-n512.ncu-rep"), "{err}");
    assert!(
        err.contains(
            "error: a sweep needs reports at two sizes or more: no report has a size in its path"
        ),
        "{err}"
    );
    let (code, _, err) = sweep(&["--size-pattern", r"-n\d+"], std::slice::from_ref(&dir));
    assert_eq!(code, 2);
    assert!(
        err.contains("the pattern has no group for the size"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

/// A stray report without a size is left out with a warning (an error under `--strict`) and
/// the others make the sweep; two reports of one version at one size are refused, naming
/// both; the options of a series of runs are refused beside `--by-size`.
#[test]
fn reports_left_out_are_said_and_duplicates_refused() {
    let dir = temp_dir("sweep-left-out");
    copy_sweep(&dir, |n, v| format!("N={n}/{v}.ncu-rep"));
    std::fs::write(
        dir.join("baseline.ncu-rep"),
        common::fixture_bytes("sweep/N=256/v1.ncu-rep.xz"),
    )
    .unwrap();
    let (code, json, err) = sweep(&["--format", "json"], std::slice::from_ref(&dir));
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains("warning: ")
            && err.contains("baseline.ncu-rep: left out of the sweep: no size in its path"),
        "{err}"
    );
    let doc: Json = serde_json::from_str(&json).unwrap();
    let left_out = doc["left_out"].as_array().unwrap();
    assert_eq!(left_out.len(), 1);
    assert!(left_out[0].as_str().unwrap().contains("baseline.ncu-rep"));
    assert_eq!(doc["kernels"][0]["lines"].as_array().unwrap().len(), 3);
    let (code, _, err) = sweep(&["--strict"], std::slice::from_ref(&dir));
    assert_eq!(code, 2);
    assert!(
        err.contains("error: ") && err.contains("baseline.ncu-rep"),
        "{err}"
    );
    std::fs::rename(dir.join("baseline.ncu-rep"), dir.join("v1_N=256.ncu-rep")).unwrap();
    let (code, _, err) = sweep(&[], std::slice::from_ref(&dir));
    assert_eq!(code, 2);
    assert!(
        err.contains("N=256/v1.ncu-rep and ")
            && err.contains("v1_N=256.ncu-rep are both version `v1` at N=256"),
        "{err}"
    );
    for misasked in [["--order", "captured"], ["--fail-on", "duration>5%"]] {
        let (code, _, err) = sweep(&misasked, std::slice::from_ref(&dir));
        assert_eq!(code, 2, "{misasked:?}");
        assert!(err.contains("cannot be used with"), "{err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
