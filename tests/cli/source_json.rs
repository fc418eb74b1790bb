//! `sightline source --json`, run as the built binary: SASS from the real nvdisasm (pip's and
//! the one the Triton wheel carries) equals ncu's export for every kernel and reads every public
//! report with a cubin, live registers and producers come with it, the inlined functions are
//! those of the Source page the engine builds, and `--baseline` gives each line's change as
//! the difference of ncu's exports of the two reports.

use sightline_engine::analysis::source::SourceOptions;
use sightline_engine::parse::ncu_rep::CodeIndex;
use sightline_testkit::source_fixture::{KERNELS_FULL, export, ncu_column, ncu_lines, views};
use sightline_testkit::{fixture_file, temp_dir};
use std::path::PathBuf;

/// `sightline source --json FILE` run the way a user with nvdisasm from pip runs it: the
/// environment active (`VIRTUAL_ENV`), nvdisasm not on PATH, no cache of earlier runs.
fn source_json_with_pip_nvdisasm(
    file: &std::path::Path,
    venv: &std::path::Path,
) -> serde_json::Value {
    let cache = temp_dir("nvdisasm_cache");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["source", "--json"])
        .arg(file)
        .env_clear()
        .env("PATH", "/usr/bin:/bin")
        .env("VIRTUAL_ENV", venv)
        .env("HOME", &cache)
        .env("XDG_CACHE_HOME", &cache)
        .output()
        .expect("sightline runs");
    let _ = std::fs::remove_dir_all(&cache);
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; stderr: {}",
            file.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The results of a `source --json` document that have a Source page.
fn source_pages(doc: &serde_json::Value) -> Vec<&serde_json::Value> {
    doc["reports"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|r| r["results"].as_array().into_iter().flatten())
        .filter(|r| r.get("error").is_none())
        .collect()
}

/// Text with runs of whitespace as one space.
fn squeezed(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn sass_from_pip_nvdisasm_equals_ncus_export_for_every_kernel() {
    let (venv, _) = sightline_testkit::pip_nvdisasm();
    let dir = temp_dir("pip_nvdisasm");
    let mut cases: Vec<(String, String)> = KERNELS_FULL
        .iter()
        .map(|k| {
            (
                "h100/kernels_full.ncu-rep.xz".into(),
                format!("source/kernels_full/{k}.source_sass.csv"),
            )
        })
        .collect();
    for report in ["inl_src", "inl_nosrc"] {
        for kernel in ["inline_chain", "plain_copy"] {
            cases.push((
                format!("source/{report}.ncu-rep.xz"),
                format!("source/{report}.{kernel}.source_sass.csv"),
            ));
        }
    }
    let mut docs = std::collections::HashMap::new();
    let mut checked = 0;
    for (report, sass_export) in &cases {
        let doc = docs
            .entry(report.clone())
            .or_insert_with(|| source_json_with_pip_nvdisasm(&fixture_file(&dir, report), &venv));
        let listing = &export(sass_export).sass[0];
        let page = source_pages(doc)
            .into_iter()
            .find(|p| p["kernel"] == listing.kernel.as_str())
            .unwrap_or_else(|| panic!("{report}: no Source page of {}", listing.kernel));
        let ours: std::collections::HashMap<&str, &str> = page["instructions"]
            .as_array()
            .expect("instructions")
            .iter()
            .map(|i| {
                (
                    i["address"].as_str().unwrap_or(""),
                    i["sass"].as_str().unwrap_or(""),
                )
            })
            .collect();
        assert_eq!(ours.len(), listing.rows.len(), "{sass_export}");
        for row in &listing.rows {
            let address = format!("0x{:x}", row.address);
            assert_eq!(
                ours.get(address.as_str()).map(|s| squeezed(s)),
                Some(squeezed(&row.sass)),
                "{sass_export} at {address}"
            );
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked} instructions");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sass_from_pip_nvdisasm_and_tritons_for_every_public_report_with_a_cubin() {
    let (venv, _) = sightline_testkit::pip_nvdisasm();
    let public = sightline_testkit::corpus_path("public");
    let mut reports: Vec<PathBuf> = std::fs::read_dir(&public)
        .unwrap_or_else(|e| panic!("{}: {e}", public.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".ncu-rep.xz"))
        .collect();
    reports.sort();
    let dir = temp_dir("pip_nvdisasm_public");
    let (mut with_pages, mut instructions) = (0, 0);
    // Reports of ncu 2020.2 to 2021.3 store their modules as loaded, without relocation data:
    // each must have its pages, with SASS.
    let as_loaded = [
        "bautista-garcia__heat_sim__profile",
        "iamcoleman__monte-carlo-pi__profile",
        "thedavidchu__speedy_scan__profile",
        "SkeletonSkelettron__Yanni__prof",
        "bwd29__self-join-MiSTIC__profileSUSYNODE.out",
        "wtzhang23__gpu-ray-tracer__report",
    ];
    let mut as_loaded_pages = std::collections::BTreeMap::new();
    for xz in &reports {
        let raw = std::fs::read(xz).expect("read");
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut xz2::read::XzDecoder::new(&raw[..]), &mut bytes)
            .expect("xz");
        let file = dir.join(
            xz.file_name()
                .expect("name")
                .to_string_lossy()
                .trim_end_matches(".xz"),
        );
        std::fs::write(&file, &bytes).expect("write");
        // Only reports that carry the module's cubin can be disassembled.
        if CodeIndex::new(&bytes).map_or(true, |c| c.modules.iter().all(|m| m.cubin.is_none())) {
            continue;
        }
        let doc = source_json_with_pip_nvdisasm(&file, &venv);
        for page in source_pages(&doc) {
            let kernel = page["kernel"].as_str().unwrap_or("");
            let notes = page["notes"].to_string();
            // A function whose module the report does not carry has no code to disassemble.
            // Pascal and Volta cubins, which pip's nvdisasm (CUDA 13) refuses, are read by the
            // CUDA 12 nvdisasm of the environment's Triton.
            let name = xz
                .file_name()
                .unwrap()
                .to_string_lossy()
                .replace(".ncu-rep.xz", "");
            if as_loaded.contains(&name.as_str()) {
                assert!(
                    !notes.contains("holds no module"),
                    "{name}: {kernel}: {notes}"
                );
                *as_loaded_pages.entry(name.clone()).or_insert(0) += 1;
            }
            if notes.contains("holds no module for this function") {
                continue;
            }
            // NVIDIA's module gives the first instruction of speedy_scan's kernel as this.
            if name == "thedavidchu__speedy_scan__profile" {
                let first = page["instructions"][0]["sass"].as_str().unwrap_or("");
                assert_eq!(first.trim(), "IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]");
            }
            assert!(
                !notes.contains("No SASS"),
                "{}: {kernel}: {notes}",
                xz.display()
            );
            for i in page["instructions"].as_array().into_iter().flatten() {
                let sass = i["sass"].as_str().unwrap_or("");
                assert!(
                    !sass.trim().is_empty(),
                    "{}: {kernel} at {}: no SASS",
                    xz.display(),
                    i["address"]
                );
                instructions += 1;
            }
            with_pages += 1;
        }
    }
    assert_eq!(
        as_loaded_pages.len(),
        as_loaded.len(),
        "every report stored as loaded has Source pages: {as_loaded_pages:?}"
    );
    println!("{with_pages} Source pages, {instructions} instructions with SASS");
    assert!(with_pages > 0 && instructions > 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn source_json_carries_live_registers_and_producers_from_pip_nvdisasm() {
    let (venv, _) = sightline_testkit::pip_nvdisasm();
    let dir = temp_dir("life_ranges_json");
    let doc =
        source_json_with_pip_nvdisasm(&fixture_file(&dir, "source_files/reduce.ncu-rep.xz"), &venv);
    let results = doc["reports"][0]["results"].as_array().expect("results");
    let shfl = results
        .iter()
        .find(|r| {
            r["kernel"]
                .as_str()
                .is_some_and(|k| k.starts_with("reduce_shfl"))
        })
        .expect("reduce_shfl");
    assert!(
        shfl["kernel_file"]
            .as_str()
            .unwrap()
            .ends_with("/reduce.cu")
    );
    assert_eq!(shfl["registers_per_thread"], 16);
    let ins = shfl["instructions"].as_array().unwrap();
    let start = u64::from_str_radix(
        shfl["function_address"]
            .as_str()
            .unwrap()
            .trim_start_matches("0x"),
        16,
    )
    .unwrap();
    let at = |offset: u64| {
        let address = format!("0x{:x}", start + offset);
        ins.iter()
            .find(|i| i["address"] == address.as_str())
            .unwrap()
    };
    // `IMAD R2, R3, UR5, R0` with 5 registers live (R0 to R3 and R6; nvdisasm 13 with `-c`);
    // R3 came from `S2R R3, SR_CTAID.X` at 0x10, R0 from `S2R R0, SR_TID.X` at 0x50.
    let imad = at(0x80);
    assert_eq!(imad["live_registers"], 5);
    assert_eq!(imad["writes"], serde_json::json!(["R2"]));
    let from: Vec<(String, String)> = imad["reads_from"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["register"].as_str().unwrap().into(),
                r["address"].as_str().unwrap().into(),
            )
        })
        .collect();
    assert!(
        from.contains(&("R3".into(), format!("0x{:x}", start + 0x10))),
        "{from:?}"
    );
    assert!(
        from.contains(&("R0".into(), format!("0x{:x}", start + 0x50))),
        "{from:?}"
    );
    // The padding after the last branch has no life range, and no live registers.
    let last = ins.last().unwrap();
    assert_eq!(last["sass"].as_str().map(str::trim), Some("NOP"));
    assert!(last.get("live_registers").is_none());
    let _ = std::fs::remove_dir_all(dir);
}

/// `source --json` names the inlined functions of the Source page the engine builds (checked
/// against nvdisasm's inline info and ncu's values in
/// crates/engine/tests/analysis/source_page.rs).
#[test]
fn source_json_names_the_inline_functions_of_the_source_page() {
    for report in ["inl_src", "inl_nosrc"] {
        let views = views(
            &format!("source/{report}.ncu-rep.xz"),
            &SourceOptions::default(),
        );
        let view = views
            .iter()
            .find(|v| v.kernel.starts_with("inline_chain"))
            .expect("kernel");
        // `source --json` names the same rows.
        let dir = temp_dir(&format!("inline_json_{report}"));
        let file = fixture_file(&dir, &format!("source/{report}.ncu-rep.xz"));
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
            .args(["source", "--json", "--kernel", "inline_chain"])
            .arg(&file)
            .output()
            .expect("sightline runs");
        let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let rows = doc["reports"][0]["results"][0]["inline_functions"]
            .as_array()
            .expect("inline_functions")
            .iter()
            .map(|f| {
                (
                    f["function"].as_str().unwrap_or("").to_string(),
                    f["call_line"].as_u64().unwrap_or(0) as u32,
                    f["instructions"].as_u64().unwrap_or(0) as usize,
                )
            })
            .collect::<Vec<_>>();
        let want: Vec<_> = view
            .inline_functions
            .iter()
            .map(|f| (f.name.clone(), f.call_line, f.instructions.len()))
            .collect();
        assert_eq!(rows, want, "{report}: source --json");
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// `source --json --baseline`: each line's change of the stall samples equals the difference
/// of ncu's exports of the two reports.
#[test]
fn the_source_command_prints_each_lines_change_from_a_baseline() {
    let dir = temp_dir("source-cmp");
    let base = fixture_file(&dir, "source/inl_nosrc.ncu-rep.xz");
    let current = fixture_file(&dir, "source/inl_src.ncu-rep.xz");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["source", "--json", "--kernel", "inline_chain", "--baseline"])
        .arg(&base)
        .arg(&current)
        .output()
        .expect("run");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let result = &json["reports"][0]["results"][0];
    assert_eq!(result["baseline_kernel"], result["kernel"]);
    let (before, after) = (ncu_lines("inl_nosrc"), ncu_lines("inl_src"));
    let name = "Warp Stall Sampling (All Samples)";
    let col = ncu_column(&after, name);
    let lines = result["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), after.lines.len());
    for row in &after.lines {
        let then = before
            .lines
            .iter()
            .find(|r| r.line == row.line)
            .expect("ncu line");
        let expected: i64 =
            row.cells[col].parse::<i64>().expect("n") - then.cells[col].parse::<i64>().expect("n");
        let line = lines
            .iter()
            .find(|l| l["line"] == row.line)
            .expect("line in output");
        assert_eq!(line["match"], "position");
        let stalled: i64 = after
            .columns
            .iter()
            .zip(&row.cells)
            .filter(|(n, _)| n.starts_with("stall_") && !n.ends_with("(Not Issued)"))
            .map(|(_, v)| v.parse::<i64>().expect("n"))
            .sum();
        let listed: i64 = line["stall_reasons"]
            .as_array()
            .expect("stall reasons")
            .iter()
            .map(|s| s["samples"].as_i64().expect("integer samples"))
            .sum();
        assert_eq!(listed, stalled, "line {}", row.line);
        assert_eq!(
            line["delta"][name].as_i64(),
            Some(expected),
            "line {}",
            row.line
        );
    }
}
