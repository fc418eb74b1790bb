//! The `.ncu-rep` reader against NVIDIA's own readings of the same reports: the truth oracle
//! (`*.truth.json.xz`, every stored value as NVIDIA's report module reads it), the details
//! page text, the session page, and the text and CSV exports read by the other parsers.

use sightline_engine::parse::ncu_rep;
use sightline_testkit::oracle::{
    compare_printed, compare_report_with_truth, compare_with_details, compare_with_truth,
    parse_fixture,
};
use sightline_testkit::{fixture_bytes, load_fixture};

const BASIC: &str = "h100/kernels_basic.ncu-rep.xz";
const FULL: &str = "h100/kernels_full.ncu-rep.xz";
const MANY: &str = "big/many_basic.ncu-rep.xz";

// ---------------------------------------------------------------------------------------------
// The truth oracle, read with exact numbers.

#[test]
fn kernels_basic_matches_the_oracle() {
    assert!(compare_with_truth(BASIC, "h100/kernels_basic.truth.json.xz") > 7_000);
}

#[test]
fn kernels_full_matches_the_oracle() {
    assert!(compare_with_truth(FULL, "h100/kernels_full.truth.json.xz") > 29_000);
}

#[test]
fn many_basic_matches_the_oracle() {
    assert!(compare_with_truth(MANY, "big/many_basic.truth.json.xz") > 225_000);
}

/// Opened from a file, a report decodes each result when it is asked for; every value still
/// equals the oracle, and results walked one after the other do not stay decoded.
#[test]
fn many_basic_read_on_demand_matches_the_oracle() {
    let path =
        std::env::temp_dir().join(format!("sightline-oracle-{}.ncu-rep", std::process::id()));
    std::fs::write(&path, sightline_testkit::fixture_bytes(MANY)).unwrap();
    let mut report = sightline_engine::parse::load_path(&path).unwrap();
    assert_eq!(report.decoded_bodies(), 0);
    let compared = compare_report_with_truth(&mut report, MANY, "big/many_basic.truth.json.xz");
    let _ = std::fs::remove_file(&path);
    assert!(compared > 225_000);
    assert_eq!(report.decoded_bodies(), 0);
}

// ---------------------------------------------------------------------------------------------
// The details page text: sections, labels, printed values, rule kinds and speedups.

#[test]
fn kernels_basic_sections_match_the_details_page() {
    assert!(compare_with_details(BASIC, "h100/kernels_basic.details.txt") > 500);
}

#[test]
fn kernels_full_sections_match_the_details_page() {
    assert!(compare_with_details(FULL, "h100/kernels_full.details.txt") > 1_000);
}

#[test]
fn many_basic_sections_match_the_details_page() {
    assert!(compare_with_details(MANY, "big/many_basic.details.txt.xz") > 20_000);
}

// ---------------------------------------------------------------------------------------------
// The session page.

#[test]
fn session_matches_the_session_page() {
    for (rep, page) in [
        (BASIC, "h100/kernels_basic.session.csv"),
        (FULL, "h100/kernels_full.session.csv"),
    ] {
        let report = parse_fixture(rep);
        let text = String::from_utf8(fixture_bytes(page)).unwrap();
        let mut block = "";
        let mut checked = 0;
        for line in text.lines() {
            if !line.starts_with('"') {
                block = line;
                continue;
            }
            let cells: Vec<&str> = line.trim_matches('"').split("\",\"").collect();
            if cells.len() != 2
                || matches!(
                    cells[0],
                    "Launch Attribute" | "Session Attribute" | "Process Id" | "Device Attribute"
                )
            {
                continue;
            }
            let (k, v) = (cells[0], cells[1]);
            match block {
                "Launch Settings" | "Session Info" => {
                    assert_eq!(report.session.get(k), Some(v), "{page}: {k}");
                }
                "Processes" => {
                    assert!(
                        report
                            .session
                            .processes
                            .contains(&(k.parse().unwrap(), v.to_string())),
                        "{page}: {k}"
                    );
                }
                "Device Attributes" => {
                    let dev = &report.devices[0];
                    let mine = dev
                        .attributes
                        .iter()
                        .find(|(n, _)| n == k)
                        .map(|(_, x)| x.as_str());
                    assert_eq!(mine, Some(v), "{page}: {k}");
                }
                _ => continue,
            }
            checked += 1;
        }
        assert!(checked >= 20, "{page}: {checked}");
        assert_eq!(report.tool_version.as_deref(), Some("2025.3.1.0"));
        let dev = &report.devices[0];
        assert_eq!(dev.name.as_deref(), Some("NVIDIA H100 80GB HBM3"));
        assert_eq!((dev.cc, dev.sm_count), (Some((9, 0)), Some(132)));
        assert_eq!(dev.attributes.len(), 166);
        // Collected with `--clock-control none`: the details page warns for every result.
        assert_eq!(report.session.get("Clocks Locked"), Some("no"));
    }
}

#[test]
fn launch_fields_match_the_raw_page() {
    // `--page raw --csv`: fixed columns of every result.
    let report = parse_fixture(BASIC);
    let text = String::from_utf8(fixture_bytes("h100/kernels_basic.raw.csv")).unwrap();
    let mut rows = csv_rows(&text);
    let header = rows.remove(0);
    rows.remove(0); // units
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    assert_eq!(rows.len(), report.results.len());
    for (r, row) in report.results.iter().zip(&rows) {
        assert_eq!(row[col("ID")], r.id.to_string());
        assert_eq!(row[col("Process ID")], r.process_id.unwrap().to_string());
        assert_eq!(row[col("Process Name")], r.process_name.clone().unwrap());
        assert_eq!(row[col("Context")], r.context.unwrap().to_string());
        assert_eq!(row[col("Stream")], r.stream.unwrap().to_string());
        assert_eq!(row[col("Device")], r.device.unwrap().to_string());
        let (a, b) = r.cc.unwrap();
        assert_eq!(row[col("CC")], format!("{a}.{b}"));
        assert_eq!(row[col("Grid Size")], r.grid.unwrap().to_string());
        assert_eq!(row[col("Block Size")], r.block.unwrap().to_string());
    }
    // NVTX push/pop stacks, as the details page of the full report prints them.
    let full = parse_fixture(FULL);
    let text = String::from_utf8(fixture_bytes("h100/kernels_full.details.txt")).unwrap();
    let mut printed: Vec<Vec<(String, String)>> = Vec::new();
    let mut domain = String::new();
    for line in text.lines() {
        if line.starts_with("  ") && !line.starts_with("   ") {
            printed.push(Vec::new());
        } else if let Some(d) = line
            .strip_prefix("      <")
            .filter(|_| !line.starts_with("       "))
        {
            domain = format!("<{d}");
        } else if let Some(range) = line
            .strip_prefix("        <")
            .and_then(|r| r.strip_suffix('>'))
        {
            let name = range.split_once(',').unwrap().1;
            printed
                .last_mut()
                .unwrap()
                .push((domain.clone(), name.to_string()));
        }
    }
    assert_eq!(printed.len(), full.results.len());
    for (r, p) in full.results.iter().zip(&printed) {
        let mine: Vec<(String, String)> = r
            .nvtx
            .iter()
            .map(|x| (x.domain.clone(), x.name.clone()))
            .collect();
        assert_eq!(&mine, p, "result {}", r.id);
    }
    assert!(printed.iter().filter(|p| !p.is_empty()).count() >= 10);
}

fn csv_rows(text: &str) -> Vec<Vec<String>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes());
    reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Sources and cubins, on request.

#[test]
fn modules_and_sources_are_located() {
    let bytes = fixture_bytes(FULL);
    let modules = ncu_rep::modules(&bytes).unwrap();
    assert_eq!(modules.len(), 1);
    let cubin = modules[0].cubin.clone().unwrap();
    assert_eq!(&bytes[cubin.start..cubin.start + 4], b"\x7fELF");
    assert_eq!(modules[0].cuda_sm_version, Some(0x90000));
    assert!(
        modules[0]
            .functions
            .iter()
            .any(|(n, _)| n == "_Z10vector_addPKfS0_Pfi")
    );
    let files = ncu_rep::source_files(&bytes).unwrap();
    let cu = String::from_utf8(fixture_bytes("h100/kernels.cu")).unwrap();
    assert!(
        files
            .iter()
            .any(|f| f.name.ends_with("kernels.cu") && f.content == cu)
    );
    assert!(
        ncu_rep::source_files(&fixture_bytes(BASIC))
            .unwrap()
            .is_empty()
    );
}

// ---------------------------------------------------------------------------------------------
// The same report read as .ncu-rep, as details text and as raw CSV.

/// Compares every metric two readings share, to the precision the text printed.
#[test]
fn native_text_and_csv_readings_agree() {
    let native = load_fixture(FULL);
    let details = load_fixture("h100/kernels_full.details.txt");
    let raw = load_fixture("h100/kernels_full.raw.csv.xz");
    let a = compare_printed(&native, &details, "details text");
    let b = compare_printed(&native, &raw, "raw CSV");
    println!("kernels_full: {a} metrics compared with the details text, {b} with the raw CSV");
    assert!(a > 1_000, "{a}");
    assert!(b > 25_000, "{b}");
}
