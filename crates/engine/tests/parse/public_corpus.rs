//! The public corpus (`../shared/corpus/public`: reports of ncu 2019 to 2026 written by other
//! people, each with NVIDIA's own values in `NAME.truth.json.xz`) read as ncu reads it: every
//! result's grid in blocks against its `launch__grid_size`, every block limit shown against
//! the one the report stores, and every stored value against NVIDIA's module.

use serde_json::Value as Json;
use sightline_engine::analysis::occupancy::{self, Limiter, OccupancyOptions, stored};
use sightline_engine::model::{Report, Value};
use sightline_testkit::oracle::{num_f64, quote_numbers, same_value};
use std::io::Read;
use std::path::{Path, PathBuf};

/// The corpus folder; missing is a failure, not a skip.
fn corpus() -> Vec<PathBuf> {
    let dir = sightline_testkit::corpus_path("public");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".ncu-rep.xz"))
        .collect();
    out.sort();
    assert!(out.len() >= 30, "{} reports", out.len());
    out
}

fn xz(path: &Path) -> Vec<u8> {
    let raw = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    xz2::read::XzDecoder::new(&raw[..])
        .read_to_end(&mut out)
        .expect("xz");
    out
}

/// The report (read from its compressed bytes, as sightline opens an `.xz`) and its truth.
fn load(path: &Path) -> (Report, Vec<Json>) {
    let report = sightline_engine::parse::parse_bytes(path, &std::fs::read(path).unwrap())
        .unwrap_or_else(|e| panic!("{e}"));
    let truth_path = PathBuf::from(
        path.to_string_lossy()
            .replace(".ncu-rep.xz", ".truth.json.xz"),
    );
    let text = String::from_utf8(xz(&truth_path)).expect("utf-8");
    let truth = match serde_json::from_str(&quote_numbers(&text)).expect("truth") {
        Json::Array(a) => a,
        _ => panic!("truth is not a list"),
    };
    assert_eq!(report.results.len(), truth.len(), "{}", path.display());
    (report, truth)
}

fn name(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().to_string()
}

#[test]
fn every_grid_is_in_blocks() {
    let mut checked = 0;
    for path in corpus() {
        let (report, truth) = load(&path);
        for (r, t) in report.results.iter().zip(&truth) {
            let Some(blocks) = num_f64(&t["metrics"]["launch__grid_size"]["value"]) else {
                continue;
            };
            if !r.kind.is_kernel() || blocks.is_nan() {
                continue;
            }
            let g = r
                .grid
                .unwrap_or_else(|| panic!("{} {}: no grid", name(&path), r.id));
            assert_eq!(
                (g.x * g.y * g.z) as f64,
                blocks,
                "{} result {}: grid {g:?}",
                name(&path),
                r.id
            );
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked} grids");
}

#[test]
fn every_stored_block_limit_is_the_one_shown() {
    let mut checked = 0;
    for path in corpus() {
        let (report, truth) = load(&path);
        for (r, t) in report.results.iter().zip(&truth) {
            let Ok(a) = occupancy::analyze(r, report.device_of(r), &OccupancyOptions::default())
            else {
                continue;
            };
            for limiter in Limiter::ALL {
                let stored = num_f64(&t["metrics"][stored::metric(limiter)]["value"]);
                let shown = a.shown(limiter);
                match stored.filter(|v| !v.is_nan()) {
                    Some(v) => {
                        assert_eq!(
                            shown.value.map(f64::from),
                            Some(v),
                            "{} result {}: {limiter:?}",
                            name(&path),
                            r.id
                        );
                        assert!(!shown.computed);
                        checked += 1;
                    }
                    None => assert!(shown.computed),
                }
            }
        }
    }
    assert!(checked > 2000, "{checked} limits");
}

/// Every stored value of every result equals NVIDIA's; the differences are listed together.
#[test]
fn every_value_is_nvidias() {
    let mut wrong = Vec::new();
    let mut checked = 0usize;
    for path in corpus() {
        let (mut report, truth) = load(&path);
        for (r, t) in report.results.iter_mut().zip(&truth) {
            for (metric, tm) in t["metrics"].as_object().unwrap() {
                let value = &tm["value"];
                let mine = r.metrics().get(metric.as_str()).map(|m| m.value);
                let kind = tm["kind"].as_str().unwrap_or("");
                let ok = match mine {
                    None => false,
                    Some(v) if value.is_null() || kind == "0" => v == Value::Missing,
                    Some(v) => same_value(&v, value),
                };
                if !ok {
                    wrong.push(format!(
                        "{} result {}: {metric}: {mine:?} vs {value}",
                        name(&path),
                        r.id
                    ));
                }
                checked += 1;
            }
            r.release_body();
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {checked}:\n{}",
        wrong.len(),
        wrong[..wrong.len().min(40)].join("\n")
    );
}

/// The 2019 Pascal report stores duration, memory throughput and achieved occupancy under
/// older names: the table's figures come from them, opened and with the body decoded.
#[test]
fn legacy_names_give_the_table_its_figures() {
    use sightline_engine::model::names;
    let path = corpus()
        .into_iter()
        .find(|p| name(p).starts_with("jhiems__PMKID"))
        .expect("the Pascal report");
    let (mut report, truth) = load(&path);
    let m = &truth[0]["metrics"];
    let want = [
        (names::DURATION, num_f64(&m["gpu__time_duration"]["value"])),
        (
            names::SOL_MEMORY,
            num_f64(&m["gpu__compute_memory_sol_pct"]["value"]),
        ),
        (
            names::ACHIEVED_OCCUPANCY,
            num_f64(&m["sm__active_warps_avg_per_active_cycle_pct"]["value"]),
        ),
    ];
    for decoded in [false, true] {
        let r = &mut report.results[0];
        if decoded {
            assert!(r.metrics().len() > 100);
        }
        for (key, value) in want {
            assert!(value.is_some_and(f64::is_finite), "{key}");
            assert_eq!(r.number(key), value, "{key} (body decoded: {decoded})");
        }
    }
    let h = sightline_engine::analysis::headline::headline(&report.results[0]);
    assert_eq!(h.duration_ns, want[0].1);
    assert_eq!(h.sol_memory_pct, want[1].1);
    assert_eq!(h.achieved_occupancy_pct, want[2].1);
}
