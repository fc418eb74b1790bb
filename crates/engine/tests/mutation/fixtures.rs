//! The report fixtures, found by walking `fixtures/`, and the seed of each case.

use std::path::Path;

/// Every fixture that holds a report in some form, relative to `fixtures/`, sorted.
pub(crate) fn report_fixtures() -> Vec<String> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
                continue;
            }
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            if is_report_fixture(&rel) {
                out.push(rel);
            }
        }
    }
    let root = sightline_testkit::fixture_path("");
    let mut out = Vec::new();
    walk(&root, &root, &mut out);
    out.sort();
    out
}

/// Reports: `.txt`, `.csv`, `.ncu-rep`, each maybe xz-compressed; not the truth oracles, notes,
/// sources, scripts or the tool version note, nor the files kept beside reports that hold none:
/// a profiling run's own messages (`*.cli_log.txt`), the recorded tool help and versions
/// (`tools/`), disassembly (`*.nvdisasm*`, `*.life_ranges*`) and Source page exports
/// (`*.source_*.csv`).
fn is_report_fixture(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let base = name.strip_suffix(".xz").unwrap_or(name);
    if base.ends_with(".truth.json") || base == "ncu_version.txt" {
        return false;
    }
    if rel.starts_with("tools/")
        || base.ends_with(".cli_log.txt")
        || base.contains(".nvdisasm")
        || base.contains(".life_ranges")
        || base.contains(".source_")
    {
        return false;
    }
    [".txt", ".csv", ".ncu-rep"]
        .iter()
        .any(|ext| base.ends_with(ext))
}

pub(crate) fn is_binary_report(rel: &str) -> bool {
    rel.trim_end_matches(".xz").ends_with(".ncu-rep")
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness.

/// A seed for the `index`-th case of a fixture (FNV-1a of the path, mixed with the index).
pub(crate) fn seed_for(rel: &str, index: usize) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in rel.bytes() {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h ^ (index as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}
