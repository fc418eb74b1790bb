//! Which files of a folder are reports: `.ncu-rep` and `.ncu-repz` files, also compressed
//! (`.gz`, `.xz`, `.zst`), by name; hidden files are not (an editor's or a copy's temporary
//! file). A series (`trend`, a followed folder) reads a folder's reports in name order; a sweep
//! (`trend --by-size`) reads them in its folders too.

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

/// The report files in `dir` and in its folders (a sweep's `N=1024/v1.ncu-rep`), by path;
/// hidden folders and folders reached through a link are not entered (so there is no cycle).
pub fn report_files_below(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut found = report_files_in(dir)?;
    let mut folders: Vec<PathBuf> = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = match std::fs::read_dir(&folder) {
            Ok(entries) => entries,
            // A folder inside that cannot be read is an error naming it, not a gap.
            Err(e) => {
                return Err(std::io::Error::new(
                    e.kind(),
                    format!("{}: {e}", folder.display()),
                ));
            }
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let hidden = entry.file_name().to_string_lossy().starts_with('.');
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            // `file_type` does not follow links: a linked folder is not entered.
            if is_dir && !hidden {
                found.extend(report_files_in(&path)?);
                folders.push(path);
            }
        }
    }
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
