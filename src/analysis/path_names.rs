//! Names for open reports that tell them apart: the file name, lengthened by as many parent
//! folders as it takes to differ from every other report with the same file name
//! (`a/run/report.ncu-rep` next to `b/run/report.ncu-rep`).

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

#[cfg(test)]
mod tests {
    use super::distinct_names;

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
