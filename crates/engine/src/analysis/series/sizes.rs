//! Where a report of a sweep sits: its size, read from its path below the folder the reports
//! share (a folder named `1024` or `N=1024`, a `N=1024` part of the file name, or a pattern the
//! user gives, such as `N=(\d+)`), and its version, the rest of that path (`v1` for
//! `N=1024/v1.ncu-rep`, also for `v1/1024.ncu-rep` and `v1_N=1024.ncu-rep`).

use regex_lite::Regex;
use std::path::{Component, Path, PathBuf};

/// How the sizes are read from the paths.
#[derive(Debug, Clone, Default)]
pub enum SizePattern {
    /// A folder named `1024` or `NAME=1024` (a file named so too), or a `NAME=1024` part of
    /// the file name between `_`, `-`, `.` or spaces.
    #[default]
    Named,
    /// A regular expression searched in the path: the group named `size`, else the first
    /// group, is the size.
    Given(Regex),
}

impl SizePattern {
    /// A pattern the user wrote; it must have a group for the size.
    pub fn parse(text: &str) -> Result<Self, SizeError> {
        let re = Regex::new(text).map_err(|e| SizeError::BadPattern {
            pattern: text.to_string(),
            why: e
                .to_string()
                .lines()
                .last()
                .unwrap_or_default()
                .trim()
                .to_string(),
        })?;
        if re.captures_len() < 2 {
            return Err(SizeError::NoGroup {
                pattern: text.to_string(),
            });
        }
        Ok(SizePattern::Given(re))
    }

    /// The pattern as the user wrote it, `None` for the default rule.
    pub fn text(&self) -> Option<&str> {
        match self {
            SizePattern::Named => None,
            SizePattern::Given(re) => Some(re.as_str()),
        }
    }
}

/// Where one report sits in the sweep.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    pub size: u64,
    /// What the size is called: `N` for `N=1024` (the text before the size in the match of a
    /// pattern, `N` for `N=(\d+)`), `size` where nothing names it.
    pub parameter: String,
    /// The path below the shared folder without the size and the file's extension (`v1`).
    pub version: String,
}

/// Why a report has no place in a sweep, or a pattern cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    #[error("`{pattern}`: not a pattern the sweep can read: {why}")]
    BadPattern { pattern: String, why: String },
    #[error(
        "`{pattern}`: the pattern has no group for the size; put the size's digits in one, as in `N=(\\d+)`"
    )]
    NoGroup { pattern: String },
    #[error(
        "{path}: left out of the sweep: no size in its path (a folder named like `1024` or `N=1024`, or a `N=1024` part of its name; --size-pattern reads other names)"
    )]
    Missing { path: String },
    #[error(
        "{path}: left out of the sweep: its path names several sizes ({found}); --size-pattern says which to read"
    )]
    Ambiguous { path: String, found: String },
    #[error("{path}: left out of the sweep: its size `{text}` is no whole number")]
    NotANumber { path: String, text: String },
}

/// A size found in a path: where its text lies (byte range in the path below the shared
/// folder), the number, and what names it.
struct Found {
    range: std::ops::Range<usize>,
    size: Result<u64, String>,
    parameter: String,
}

/// The folder every path lies in (the longest shared folder), from which sizes and versions
/// are read.
pub fn shared_folder<P: AsRef<Path>>(paths: &[P]) -> PathBuf {
    let mut shared: Option<Vec<Component<'_>>> = None;
    for p in paths {
        let folder: Vec<Component<'_>> = p
            .as_ref()
            .parent()
            .map(|f| f.components().collect())
            .unwrap_or_default();
        shared = Some(match shared {
            None => folder,
            Some(s) => s
                .into_iter()
                .zip(folder)
                .take_while(|(a, b)| a == b)
                .map(|(a, _)| a)
                .collect(),
        });
    }
    shared.unwrap_or_default().iter().collect()
}

/// The path below `folder`, with `/` between its parts.
pub fn path_below(path: &Path, folder: &Path) -> String {
    let below = path.strip_prefix(folder).unwrap_or(path);
    below
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Where the report at `below` (its path below the shared folder, `N=1024/v1.ncu-rep`) sits;
/// `shown` is how errors name it, `folder_name` (the shared folder's name) names the version
/// where nothing but the size is left of the path (`1024.ncu-rep`). Where the path below has
/// no size, the shared folder's own name is read too (the reports of `N=1024/` alone).
pub fn place(
    below: &str,
    shown: &str,
    folder_name: &str,
    pattern: &SizePattern,
) -> Result<Placed, SizeError> {
    match place_in(below, shown, folder_name, pattern) {
        Err(SizeError::Missing { .. }) if !folder_name.is_empty() => {
            let mut p = place_in(
                &format!("{folder_name}/{below}"),
                shown,
                folder_name,
                pattern,
            )?;
            if let Some(v) = p.version.strip_prefix(&format!("{folder_name}/")) {
                p.version = v.to_string();
            }
            Ok(p)
        }
        other => other,
    }
}

fn place_in(
    below: &str,
    shown: &str,
    folder_name: &str,
    pattern: &SizePattern,
) -> Result<Placed, SizeError> {
    let found = match pattern {
        SizePattern::Named => named_sizes(below),
        SizePattern::Given(re) => given_sizes(re, below),
    };
    let mut sizes: Vec<&Result<u64, String>> = found.iter().map(|f| &f.size).collect();
    sizes.dedup();
    let size = match sizes.as_slice() {
        [] => {
            return Err(SizeError::Missing {
                path: shown.to_string(),
            });
        }
        [Ok(size)] => *size,
        [Err(text)] => {
            return Err(SizeError::NotANumber {
                path: shown.to_string(),
                text: text.clone(),
            });
        }
        _ => {
            return Err(SizeError::Ambiguous {
                path: shown.to_string(),
                found: found
                    .iter()
                    .map(|f| format!("`{}`", &below[f.range.clone()]))
                    .collect::<Vec<_>>()
                    .join(", "),
            });
        }
    };
    let parameter = found
        .iter()
        .map(|f| f.parameter.clone())
        .find(|p| !p.is_empty())
        .unwrap_or_else(|| "size".into());
    let mut rest = below.to_string();
    for f in found.iter().rev() {
        rest.replace_range(f.range.clone(), "");
    }
    let version = version_of(&rest);
    Ok(Placed {
        size,
        parameter,
        version: if version.is_empty() {
            folder_name.to_string()
        } else {
            version
        },
    })
}

/// `NAME=` before a size, or a name alone.
const NAME: &str = "[A-Za-z_][A-Za-z0-9_]*";

/// The sizes of the default rule: whole parts of the path (`1024`, `N=1024`, a file named
/// `1024.ncu-rep`) and `NAME=NUMBER` parts of the file name.
fn named_sizes(below: &str) -> Vec<Found> {
    let mut found = Vec::new();
    let folder = Regex::new(&format!("^(?:({NAME})=)?([0-9]+)$")).ok();
    // A file named by its size alone (`1024.ncu-rep`); `N=1024` in a file name is a part.
    let file = Regex::new("^()([0-9]+)$").ok();
    // In a file name `_` separates words: the name before `=` is one word (`v1_N=256`).
    let part = Regex::new("(?:^|[_. -])(([A-Za-z][A-Za-z0-9]*)=([0-9]+))(?:$|[_. -])").ok();
    let mut start = 0;
    let parts: Vec<&str> = below.split('/').collect();
    for (i, text) in parts.iter().enumerate() {
        let is_file = i + 1 == parts.len();
        let shown = if is_file { file_stem(text) } else { text };
        let whole = if is_file { &file } else { &folder };
        if let Some(c) = whole.as_ref().and_then(|re| re.captures(shown)) {
            found.push(Found {
                range: start..start + shown.len(),
                size: number(c.get(2).map_or("", |m| m.as_str())),
                parameter: c.get(1).map_or("", |m| m.as_str()).to_string(),
            });
        } else if is_file && let Some(re) = part.as_ref() {
            for c in re.captures_iter(shown) {
                let Some(all) = c.get(1) else { continue };
                found.push(Found {
                    range: start + all.start()..start + all.end(),
                    size: number(c.get(3).map_or("", |m| m.as_str())),
                    parameter: c.get(2).map_or("", |m| m.as_str()).to_string(),
                });
            }
        }
        start += text.len() + 1;
    }
    found
}

/// The sizes a pattern finds: every match, its `size` group (else its first).
fn given_sizes(re: &Regex, below: &str) -> Vec<Found> {
    let group = re
        .capture_names()
        .position(|n| n == Some("size"))
        .unwrap_or(1);
    re.captures_iter(below)
        .filter_map(|c| {
            let all = c.get(0)?;
            let size = c.get(group)?;
            // What stands before the size in the match names it (`N=` → `N`).
            let before = &below[all.start()..size.start()];
            let name: String = before
                .trim_end_matches(|c: char| !c.is_ascii_alphanumeric())
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let name = name.trim_start_matches('_').to_string();
            let named = name.chars().next().is_some_and(|c| !c.is_ascii_digit());
            Some(Found {
                range: all.range(),
                size: number(size.as_str()),
                parameter: if named { name } else { String::new() },
            })
        })
        .collect()
}

fn number(text: &str) -> Result<u64, String> {
    text.trim().parse().map_err(|_| text.to_string())
}

/// A file name without the report's extension (`v1` for `v1.ncu-rep.xz`, `v1.txt`).
pub fn file_stem(name: &str) -> &str {
    let lower = name.to_ascii_lowercase();
    let mut end = name.len();
    for ext in [".gz", ".xz", ".zst"] {
        if lower[..end].ends_with(ext) {
            end -= ext.len();
            break;
        }
    }
    for ext in [".ncu-rep", ".ncu-repz"] {
        if lower[..end].ends_with(ext) {
            return &name[..end - ext.len()];
        }
    }
    match name[..end].rfind('.') {
        Some(dot) if dot > 0 => &name[..dot],
        _ => &name[..end],
    }
}

/// Whether `c` separates the words of a name.
fn is_separator(c: char) -> bool {
    matches!(c, '_' | '-' | '.' | ' ' | '=')
}

/// The version: what is left of the path once the size is taken out, without the file's
/// extension, each part's loose separators trimmed and empty parts left out.
fn version_of(rest: &str) -> String {
    let parts: Vec<&str> = rest.split('/').collect();
    parts
        .iter()
        .enumerate()
        .map(|(i, part)| {
            let part = if i + 1 == parts.len() {
                file_stem(part)
            } else {
                part
            };
            tidy(part)
        })
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join("/")
}

/// A part with its separators trimmed at both ends and runs of them kept to the first.
fn tidy(part: &str) -> String {
    let mut out = String::with_capacity(part.len());
    let mut last_separator = false;
    for c in part.trim_matches(is_separator).chars() {
        if is_separator(c) {
            if !last_separator {
                out.push(c);
            }
            last_separator = true;
        } else {
            out.push(c);
            last_separator = false;
        }
    }
    out
}

/// The order of versions: by their text, numbers by value (`v2` before `v10`).
pub fn natural_order(a: &str, b: &str) -> std::cmp::Ordering {
    fn chunks(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        let bytes = s.as_bytes();
        for i in 1..=bytes.len() {
            if i == bytes.len() || bytes[i].is_ascii_digit() != bytes[start].is_ascii_digit() {
                out.push((bytes[start].is_ascii_digit(), &s[start..i]));
                start = i;
            }
        }
        out
    }
    let (x, y) = (chunks(a), chunks(b));
    for ((dx, cx), (dy, cy)) in x.iter().zip(&y) {
        let order = if *dx && *dy {
            let (tx, ty) = (cx.trim_start_matches('0'), cy.trim_start_matches('0'));
            tx.len().cmp(&ty.len()).then(tx.cmp(ty))
        } else {
            cx.cmp(cy)
        };
        if order.is_ne() {
            return order;
        }
    }
    x.len().cmp(&y.len()).then(a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(below: &str, pattern: &SizePattern) -> Result<Placed, SizeError> {
        place(below, below, "sweep", pattern)
    }

    fn placed(size: u64, parameter: &str, version: &str) -> Result<Placed, SizeError> {
        Ok(Placed {
            size,
            parameter: parameter.into(),
            version: version.into(),
        })
    }

    #[test]
    fn sizes_are_read_from_folders_and_file_names() {
        let named = SizePattern::Named;
        assert_eq!(at("N=1024/v1.ncu-rep.xz", &named), placed(1024, "N", "v1"));
        assert_eq!(at("2048/v3.ncu-rep", &named), placed(2048, "size", "v3"));
        assert_eq!(at("v5/512.ncu-rep", &named), placed(512, "size", "v5"));
        assert_eq!(at("v1_N=256.ncu-rep", &named), placed(256, "N", "v1"));
        assert_eq!(
            at("gemm-n=64-v2.ncu-rep", &named),
            placed(64, "n", "gemm-v2")
        );
        // The same size twice is one size.
        assert_eq!(at("N=64/v1_N=64.ncu-rep", &named), placed(64, "N", "v1"));
        // Only the file is named by size: the folder names the version.
        assert_eq!(at("1024.ncu-rep", &named), placed(1024, "size", "sweep"));
        // The folder the reports share names the size.
        assert_eq!(
            place("v3.ncu-rep", "v3.ncu-rep", "N=256", &named),
            placed(256, "N", "v3")
        );
        assert_eq!(
            at("v1.ncu-rep", &named),
            Err(SizeError::Missing {
                path: "v1.ncu-rep".into()
            })
        );
        // `v1` is no size: a name followed by digits is a version.
        assert!(matches!(
            at("N=256/M=512/v1.ncu-rep", &named),
            Err(SizeError::Ambiguous { found, .. }) if found == "`N=256`, `M=512`"
        ));
    }

    #[test]
    fn a_pattern_reads_its_group_and_names_the_parameter() {
        let p = SizePattern::parse(r"size-(\d+)").unwrap();
        assert_eq!(
            at("runs/size-128/v1.ncu-rep", &p),
            placed(128, "size", "runs/v1")
        );
        let p = SizePattern::parse(r"_n(\d+)").unwrap();
        assert_eq!(
            at("gemm_v3_n4096.ncu-rep", &p),
            placed(4096, "n", "gemm_v3")
        );
        let p = SizePattern::parse(r"(?P<size>\d+)x\d+").unwrap();
        assert_eq!(at("v1/64x64.ncu-rep", &p), placed(64, "size", "v1"));
        let p = SizePattern::parse(r"N=(\w+)").unwrap();
        assert!(matches!(
            at("N=big/v1.ncu-rep", &p),
            Err(SizeError::NotANumber { text, .. }) if text == "big"
        ));
        assert!(matches!(
            SizePattern::parse(r"N=\d+"),
            Err(SizeError::NoGroup { .. })
        ));
        assert!(matches!(
            SizePattern::parse(r"N=(\d+"),
            Err(SizeError::BadPattern { .. })
        ));
    }

    #[test]
    fn the_shared_folder_and_the_order_of_versions() {
        let paths = ["a/sweep/N=256/v1.ncu-rep", "a/sweep/N=512/v1.ncu-rep"];
        let folder = shared_folder(&paths);
        assert_eq!(folder, PathBuf::from("a/sweep"));
        assert_eq!(path_below(Path::new(paths[0]), &folder), "N=256/v1.ncu-rep");
        let mut versions = vec!["v10", "v2", "v1", "base"];
        versions.sort_by(|a, b| natural_order(a, b));
        assert_eq!(versions, ["base", "v1", "v2", "v10"]);
        assert_eq!(file_stem("v1.NCU-REP.xz"), "v1");
        assert_eq!(file_stem("v1.txt"), "v1");
    }
}
