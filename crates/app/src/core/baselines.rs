//! Baselines: results kept to compare others with, each with its own colour, shown or hidden
//! one by one. They are saved with the settings by file path and result ID and attach again
//! when that file is open; a baseline from pasted text or the demo lasts until its report
//! closes.

use crate::core::ids::ResultRef;
use crate::core::workspace::Workspace;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The colours given to new baselines, in order (the first one no baseline uses yet).
pub const BASELINE_COLORS: [[u8; 3]; 8] = [
    [232, 121, 52],
    [171, 112, 232],
    [46, 178, 166],
    [222, 82, 140],
    [128, 184, 58],
    [214, 176, 36],
    [84, 150, 240],
    [150, 150, 150],
];

/// One baseline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Baseline {
    /// The report's file (absolute); `None` for text pasted or the demo, which cannot be
    /// opened again.
    pub path: Option<PathBuf>,
    /// The report's name in lists (its file name), shown also while it is not open.
    pub report_name: String,
    /// The result ID the source gives.
    pub result_id: u64,
    /// The kernel's function name.
    pub kernel: String,
    pub color: [u8; 3],
    pub visible: bool,
    /// The open result it stands for; `None` while its file is not open.
    #[serde(skip)]
    pub attached: Option<ResultRef>,
}

impl Default for Baseline {
    fn default() -> Self {
        Baseline {
            path: None,
            report_name: String::new(),
            result_id: 0,
            kernel: String::new(),
            color: BASELINE_COLORS[0],
            visible: true,
            attached: None,
        }
    }
}

impl Baseline {
    /// `matmul_naive · ID 3`.
    pub fn title(&self) -> String {
        format!("{} · ID {}", self.kernel, self.result_id)
    }
}

/// A baseline that is open and shown.
#[derive(Debug, Clone, PartialEq)]
pub struct VisibleBaseline {
    /// Position in the baseline list.
    pub index: usize,
    pub at: ResultRef,
    /// Red, green, blue.
    pub color: [u8; 3],
    /// `matmul_naive · ID 3`.
    pub title: String,
    pub report_name: String,
}

/// The absolute form of a path, for comparing paths given in different forms.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// The name of a result for titles: its function name with the template arguments shortened
/// in the middle (the demangled name, shortened, when it has no function name).
pub fn kernel_name(result: &crate::model::KernelResult) -> String {
    crate::output::kernel_names::short_kernel_name(
        &result.name.function,
        &result.name.demangled,
        crate::output::kernel_names::TITLE_NAME_CHARS,
    )
}

/// The position of the baseline that stands for `at`.
pub fn index_of(list: &[Baseline], at: ResultRef) -> Option<usize> {
    list.iter().position(|b| b.attached == Some(at))
}

/// The first colour of the palette no baseline uses (cycling when all are used).
fn next_color(list: &[Baseline]) -> [u8; 3] {
    BASELINE_COLORS
        .iter()
        .copied()
        .find(|c| !list.iter().any(|b| b.color == *c))
        .unwrap_or(BASELINE_COLORS[list.len() % BASELINE_COLORS.len()])
}

/// Makes `at` a baseline (shown); returns false when it already is one or does not exist.
pub fn add(list: &mut Vec<Baseline>, workspace: &Workspace, at: ResultRef) -> bool {
    if index_of(list, at).is_some() {
        return false;
    }
    let Some((open, result)) = workspace.result(at) else {
        return false;
    };
    let path = open.path.as_deref().map(absolute);
    // A saved baseline of the same file and result that is not attached (yet) is this one.
    if let Some(b) = list.iter_mut().find(|b| {
        b.attached.is_none() && b.result_id == result.id && path.is_some() && b.path == path
    }) {
        b.attached = Some(at);
        b.visible = true;
        return true;
    }
    let color = next_color(list);
    list.push(Baseline {
        path,
        report_name: open.name.clone(),
        result_id: result.id,
        kernel: kernel_name(result),
        color,
        visible: true,
        attached: Some(at),
    });
    true
}

/// Removes the baseline at `index`.
pub fn remove(list: &mut Vec<Baseline>, index: usize) -> Option<Baseline> {
    (index < list.len()).then(|| list.remove(index))
}

/// Follows the open reports: drops attachments to results that closed, attaches saved
/// baselines to their file when it is open, and forgets baselines that can never attach again
/// (no file) once their report closed.
pub fn sync(list: &mut Vec<Baseline>, workspace: &Workspace) {
    for b in list.iter_mut() {
        let still_open = b
            .attached
            .and_then(|at| workspace.result(at))
            .is_some_and(|(_, r)| r.id == b.result_id);
        if !still_open {
            b.attached = None;
        }
    }
    list.retain(|b| b.attached.is_some() || b.path.is_some());
    for i in 0..list.len() {
        if list[i].attached.is_some() {
            continue;
        }
        let Some(path) = list[i].path.clone() else {
            continue;
        };
        let found = workspace.reports().iter().find_map(|open| {
            let same_file = open.path.as_deref().is_some_and(|p| absolute(p) == path);
            if !same_file {
                return None;
            }
            let index = open
                .report
                .results
                .iter()
                .position(|r| r.id == list[i].result_id)?;
            Some(ResultRef {
                report: open.id,
                index,
            })
        });
        // One result is one baseline, also when a file is listed twice.
        if let Some(at) = found.filter(|at| index_of(list, *at).is_none()) {
            list[i].attached = Some(at);
        }
    }
}

/// The baselines that are open and shown, in list order.
pub fn visible(list: &[Baseline]) -> Vec<VisibleBaseline> {
    list.iter()
        .enumerate()
        .filter(|(_, b)| b.visible)
        .filter_map(|(index, b)| {
            Some(VisibleBaseline {
                index,
                at: b.attached?,
                color: b.color,
                title: b.title(),
                report_name: b.report_name.clone(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_distinct_until_the_palette_is_used_up() {
        let mut list = Vec::new();
        for expected in BASELINE_COLORS {
            let color = next_color(&list);
            assert_eq!(color, expected);
            list.push(Baseline {
                color,
                ..Baseline::default()
            });
        }
        list.remove(2);
        assert_eq!(next_color(&list), BASELINE_COLORS[2]);
    }

    #[test]
    fn saved_form_keeps_path_id_colour_and_visibility() {
        let b = Baseline {
            path: Some(PathBuf::from("/tmp/a.ncu-rep")),
            report_name: "a.ncu-rep".into(),
            result_id: 7,
            kernel: "k".into(),
            color: BASELINE_COLORS[3],
            visible: false,
            attached: Some(ResultRef {
                report: crate::core::ids::ReportId(1),
                index: 7,
            }),
        };
        let text = serde_json::to_string(&b).unwrap();
        let back: Baseline = serde_json::from_str(&text).unwrap();
        assert_eq!(back.attached, None);
        assert_eq!(
            back,
            Baseline {
                attached: None,
                ..b
            }
        );
    }
}
