//! Which files of a folder are reports: `.ncu-rep` and `.ncu-repz` files, also compressed
//! (`.gz`, `.xz`, `.zst`), by name; hidden files are not (an editor's or a copy's temporary
//! file). A series (`trend`, a followed folder) reads a folder's reports in name order.

use std::path::{Path, PathBuf};

/// Whether the file at `path` is named as a report.
pub fn is_report_file(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let name = [".gz", ".xz", ".zst"]
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .unwrap_or(&name);
    !name.starts_with('.') && (name.ends_with(".ncu-rep") || name.ends_with(".ncu-repz"))
}

/// The report files directly in `dir`, by name.
pub fn report_files_in(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && is_report_file(p))
        .collect();
    found.sort();
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::is_report_file;
    use std::path::Path;

    #[test]
    fn reports_are_told_by_name() {
        for yes in [
            "v1.ncu-rep",
            "A.NCU-REP",
            "run.ncu-repz",
            "run.ncu-rep.zst",
            "r.ncu-rep.gz",
        ] {
            assert!(is_report_file(Path::new(yes)), "{yes}");
        }
        for no in [".v1.ncu-rep", "v1.ncu-rep.part", "notes.txt", "v1.ncu-rep~"] {
            assert!(!is_report_file(Path::new(no)), "{no}");
        }
    }
}
