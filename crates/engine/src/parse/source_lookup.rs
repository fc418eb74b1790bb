//! Finding a CUDA source file on disk, as Nsight Compute's source lookup does: the path the
//! line table records, else under each source folder the file of the same name whose path
//! shares the longest tail with the recorded one.

use std::path::{Path, PathBuf};

/// Most directory entries looked at under one source folder.
const MAX_ENTRIES: usize = 200_000;
/// Deepest folder level searched below a source folder.
const MAX_DEPTH: usize = 16;

/// The file to read for a recorded source path, if any.
pub fn find(recorded: &str, dirs: &[PathBuf]) -> Option<PathBuf> {
    let path = Path::new(recorded);
    if path.is_file() {
        return Some(path.to_path_buf());
    }
    let wanted: Vec<&str> = recorded
        .split(['/', '\\'])
        .filter(|c| !c.is_empty())
        .collect();
    let name = *wanted.last()?;
    for dir in dirs {
        let mut candidates = Vec::new();
        collect(dir, name, 0, &mut 0, &mut candidates);
        if candidates.is_empty() {
            continue;
        }
        // The longest shared tail wins; among equals, the shallowest path.
        return candidates.into_iter().max_by_key(|c| {
            (
                shared_tail(c, &wanted),
                std::cmp::Reverse(c.components().count()),
            )
        });
    }
    None
}

/// How many trailing path components `candidate` shares with `wanted`.
fn shared_tail(candidate: &Path, wanted: &[&str]) -> usize {
    let have: Vec<String> = candidate
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    have.iter()
        .rev()
        .zip(wanted.iter().rev())
        .take_while(|(a, b)| a.as_str() == **b)
        .count()
}

/// Every file named `name` below `dir` (bounded in depth and entries; symlinked folders are not
/// followed).
fn collect(dir: &Path, name: &str, depth: usize, seen: &mut usize, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        *seen += 1;
        if *seen > MAX_ENTRIES {
            return;
        }
        let Ok(kind) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if kind.is_dir() && depth < MAX_DEPTH {
            collect(&path, name, depth + 1, seen, out);
        } else if kind.is_file() && entry.file_name().to_string_lossy() == name {
            out.push(path);
        }
    }
}
