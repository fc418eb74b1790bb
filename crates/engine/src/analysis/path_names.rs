//! Names for open reports that tell them apart: the file name, lengthened by as many parent
//! folders as it takes to differ from every other report with the same file name
//! (`a/run/report.ncu-rep` next to `b/run/report.ncu-rep`); and the short labels of runs and
//! of a narrow column, the part of each path the others do not share (`naive` and `variant1`
//! for `Swagatam18_naive.ncu-rep` and `Swagatam18_variant1.ncu-rep`, `v1` and `v2` for two
//! `report.ncu-rep` in folders `v1/` and `v2/`).

use std::path::{Component, Path};

/// The path's components, last first, as text.
fn parts_reversed(path: &Path) -> Vec<String> {
    path.components()
        .rev()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            Component::ParentDir => Some("..".into()),
            _ => None,
        })
        .collect()
}

/// The last `n` components of a path joined with `/`.
fn suffix(parts: &[String], n: usize) -> String {
    let n = n.min(parts.len());
    parts[..n]
        .iter()
        .rev()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .join("/")
}

/// One name per path, in the same order: the shortest path suffix (whole components) that no
/// other path shares; the whole path when every suffix is shared (the same file twice, or a
/// path that ends another).
pub fn distinct_names<P: AsRef<Path>>(paths: &[P]) -> Vec<String> {
    let parts: Vec<Vec<String>> = paths.iter().map(|p| parts_reversed(p.as_ref())).collect();
    parts
        .iter()
        .enumerate()
        .map(|(i, mine)| {
            if mine.is_empty() {
                return paths[i].as_ref().display().to_string();
            }
            for n in 1..=mine.len() {
                let name = suffix(mine, n);
                let shared = parts
                    .iter()
                    .enumerate()
                    .any(|(j, other)| j != i && suffix(other, n) == name);
                if !shared {
                    return name;
                }
            }
            paths[i].as_ref().display().to_string()
        })
        .collect()
}

/// One label per path, in the same order, for runs of a series and the window's reports: the
/// part of the paths that tells them apart. The file names, without a native report's ending
/// (compressed or not, a run is the same run), lengthened by as many folders as it takes to
/// differ ([`distinct_names`]), then shortened to what differs ([`distinguishing_labels`]):
/// `gemm_v1.ncu-rep` and `gemm_v2.ncu-rep` read `v1` and `v2`; two `report.ncu-rep` in folders
/// `v1/` and `v2/` (or `report.ncu-rep.xz` in one of them) read `v1` and `v2` too. Where
/// leaving the endings out makes two paths the same (`run.ncu-rep` beside `run.ncu-rep.xz`),
/// the endings stay.
pub fn run_labels<P: AsRef<Path>>(paths: &[P]) -> Vec<String> {
    let stems: Vec<std::path::PathBuf> = paths
        .iter()
        .map(|p| {
            let p = p.as_ref();
            match p
                .file_name()
                .and_then(|n| n.to_str())
                .map(without_report_ending)
            {
                Some(stem) if !stem.is_empty() => p.with_file_name(stem),
                _ => p.to_path_buf(),
            }
        })
        .collect();
    let distinct = stems
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len()
        == stems.len();
    if !distinct {
        return distinct_names(paths);
    }
    let names = distinct_names(&stems);
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    distinguishing_labels(&refs)
}

/// A file name without a native report's ending (`report.ncu-rep.xz` → `report`); other
/// names as they are.
fn without_report_ending(name: &str) -> &str {
    REPORT_ENDINGS
        .iter()
        .find_map(|e| {
            let cut = name.len().checked_sub(e.len())?;
            name.get(cut..)?
                .eq_ignore_ascii_case(e)
                .then(|| &name[..cut])
        })
        .unwrap_or(name)
}

/// Whether `c` separates the words of a file name.
fn is_separator(c: char) -> bool {
    matches!(c, '_' | '-' | '.' | '/' | ' ' | '\\')
}

/// One label per name, in the same order: the name without the start and end every name
/// shares (cut at word separators: `_`, `-`, `.`, `/`, space), so that reports whose names
/// differ only in the middle can be told apart in a narrow column. Where that leaves a label
/// empty or two labels equal, or fewer than two names are given, the names stay whole.
pub fn distinguishing_labels(names: &[&str]) -> Vec<String> {
    let whole = || names.iter().map(|n| n.to_string()).collect::<Vec<_>>();
    if names.len() < 2 {
        return whole();
    }
    let chars: Vec<Vec<char>> = names.iter().map(|n| n.chars().collect()).collect();
    let shortest = chars.iter().map(Vec::len).min().unwrap_or(0);
    let same_at = |at: &dyn Fn(&Vec<char>) -> char| chars.iter().all(|c| at(c) == at(&chars[0]));
    let mut prefix = 0;
    while prefix < shortest && same_at(&|c| c[prefix]) {
        prefix += 1;
    }
    // Back to the end of the last whole word of the shared start.
    while prefix > 0 && !is_separator(chars[0][prefix - 1]) {
        prefix -= 1;
    }
    let mut suffix = 0;
    while suffix < shortest - prefix && same_at(&|c| c[c.len() - 1 - suffix]) {
        suffix += 1;
    }
    // Forward to the start of the first whole word of the shared end.
    while suffix > 0 && !is_separator(chars[0][chars[0].len() - suffix]) {
        suffix -= 1;
    }
    let labels: Vec<String> = chars
        .iter()
        .map(|c| {
            c[prefix..c.len() - suffix]
                .iter()
                .collect::<String>()
                .trim_matches(is_separator)
                .to_string()
        })
        .collect();
    let distinct = labels
        .iter()
        .collect::<std::collections::BTreeSet<_>>()
        .len()
        == labels.len();
    if labels.iter().any(String::is_empty) || !distinct {
        return whole();
    }
    labels
}

/// The endings of a native report's file name, longest first: they say the form, which a
/// label in a narrow column can do without.
const REPORT_ENDINGS: [&str; 12] = [
    ".nsight-cuprof-report.zst",
    ".nsight-cuprof-report.xz",
    ".nsight-cuprof-report.gz",
    ".nsight-cuprof-report",
    ".ncu-repz.zst",
    ".ncu-repz.xz",
    ".ncu-repz.gz",
    ".ncu-rep.zst",
    ".ncu-rep.xz",
    ".ncu-rep.gz",
    ".ncu-repz",
    ".ncu-rep",
];

#[cfg(test)]
mod tests {
    use super::{distinct_names, distinguishing_labels};

    #[test]
    fn labels_leave_out_a_native_reports_ending() {
        use super::run_labels;
        assert_eq!(run_labels(&["kernels_full.ncu-rep.xz"]), ["kernels_full"]);
        // Text forms keep their endings; labels that would be the same keep theirs too.
        assert_eq!(run_labels(&["run.details.txt"]), ["run.details.txt"]);
        assert_eq!(run_labels(&["run.ncu-rep", "run"]), ["run.ncu-rep", "run"]);
        assert_eq!(run_labels(&[".ncu-rep"]), [".ncu-rep"]);
        assert_eq!(
            run_labels(&["gemm_v1.ncu-rep", "gemm_v2.ncu-rep"]),
            ["v1", "v2"]
        );
    }

    #[test]
    fn labels_keep_what_tells_names_apart() {
        assert_eq!(
            distinguishing_labels(&["Swagatam18_naive.ncu-rep", "Swagatam18_variant1.ncu-rep"]),
            ["naive", "variant1"]
        );
        assert_eq!(
            distinguishing_labels(&["before.ncu-rep", "after.ncu-rep", "after.details.txt"]),
            ["before.ncu-rep", "after.ncu-rep", "after.details.txt"]
        );
        assert_eq!(
            distinguishing_labels(&["gemm_v1.ncu-rep", "gemm_v2.ncu-rep", "gemm_v10.ncu-rep"]),
            ["v1", "v2", "v10"]
        );
        // One name, or names one of which is the shared part: whole.
        assert_eq!(distinguishing_labels(&["a.ncu-rep"]), ["a.ncu-rep"]);
        assert_eq!(
            distinguishing_labels(&["run.ncu-rep", "run.ncu-rep"]),
            ["run.ncu-rep", "run.ncu-rep"]
        );
        // Shared ends are cut at whole words only.
        assert_eq!(
            distinguishing_labels(&["profile.ncu-rep", "profile_2.ncu-rep"]),
            ["profile", "profile_2"]
        );
        assert_eq!(
            distinguishing_labels(&["run1.txt", "run2.txt"]),
            ["run1", "run2"]
        );
    }

    #[test]
    fn run_labels_are_the_part_of_the_paths_that_differs() {
        use super::run_labels;
        // Files that share a name: their folders.
        assert_eq!(
            run_labels(&["/runs/v1/report.ncu-rep", "/runs/v2/report.ncu-rep"]),
            ["v1", "v2"]
        );
        // Compressed or not, a report is named by its folder and stem.
        assert_eq!(
            run_labels(&["/runs/v1/report.ncu-rep", "/runs/v2/report.ncu-rep.xz"]),
            ["v1", "v2"]
        );
        assert_eq!(
            run_labels(&["a/run/report.ncu-rep", "b/run/report.ncu-rep.zst"]),
            ["a", "b"]
        );
        // Names that differ: what differs in them.
        assert_eq!(
            run_labels(&[
                "/x/gemm_v1.ncu-rep",
                "/x/gemm_v2.ncu-rep.xz",
                "/x/gemm_v10.ncu-rep"
            ]),
            ["v1", "v2", "v10"]
        );
        // Shared names and others: as much of the path as tells them apart.
        assert_eq!(
            run_labels(&[
                "/r/v1/report.ncu-rep",
                "/r/v2/report.ncu-rep",
                "/r/baseline.ncu-rep"
            ]),
            ["v1/report", "v2/report", "baseline"]
        );
        // One report: its stem; the same stem twice keeps the endings.
        assert_eq!(
            run_labels(&["/r/kernels_full.ncu-rep.xz"]),
            ["kernels_full"]
        );
        assert_eq!(
            run_labels(&["/r/run.ncu-rep", "/r/run.ncu-rep.xz"]),
            ["run.ncu-rep", "run.ncu-rep.xz"]
        );
        // Text forms keep their endings where they tell reports apart.
        assert_eq!(
            run_labels(&["before.ncu-rep", "after.ncu-rep", "after.details.txt"]),
            ["before", "after", "after.details.txt"]
        );
        assert_eq!(run_labels(&["Pasted text 1", "Pasted text 2"]), ["1", "2"]);
    }

    #[test]
    fn names_grow_only_as_far_as_needed() {
        let paths = [
            "/runs/a/run/report.ncu-rep",
            "/runs/b/run/report.ncu-rep",
            "/runs/b/other.txt",
            "/x/y/other.csv",
        ];
        assert_eq!(
            distinct_names(&paths),
            [
                "a/run/report.ncu-rep",
                "b/run/report.ncu-rep",
                "other.txt",
                "other.csv"
            ]
        );
    }

    #[test]
    fn unrelated_names_and_duplicates() {
        assert_eq!(distinct_names(&["k.txt"]), ["k.txt"]);
        assert_eq!(
            distinct_names(&["/a/k.txt", "/a/k.txt"]),
            ["/a/k.txt", "/a/k.txt"]
        );
        assert_eq!(
            distinct_names(&["/a/k.txt", "/b/a/k.txt"]),
            ["/a/k.txt", "b/a/k.txt"]
        );
        assert!(distinct_names::<&str>(&[]).is_empty());
    }
}
