//! Baseline against current, per CUDA line: lines matched by file name and line number (when
//! their texts, where known, agree), then the rest by the line's text (code that moved), with the change of every numeric column, so an
//! optimisation shows where its stall samples went.

use super::file_name;
use crate::model::source::{Cell, SourceView};
use std::collections::HashMap;

/// How a current line found its baseline line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LineMatch {
    /// Same file name and line number.
    Position,
    /// Same file name and the same (trimmed) source text; the line number moved.
    Text,
    /// No baseline line: the baseline counts as zero.
    Added,
}

/// The change of one current line.
#[derive(Debug, Clone, PartialEq)]
pub struct LineDelta {
    /// Index into the baseline's [`SourceView::lines`].
    pub base: Option<usize>,
    pub matched: LineMatch,
    /// Current minus baseline, one per column of the current view (`None` for text columns
    /// and columns the baseline lacks).
    pub delta: Vec<Option<f64>>,
}

/// Per-line changes from a baseline view to a current one.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceComparison {
    /// One per current line, in the current view's order.
    pub lines: Vec<LineDelta>,
    /// Baseline lines no current line matched (code that went away), by baseline index.
    pub removed: Vec<usize>,
}

fn number(cells: &[Cell], column: Option<usize>) -> Option<f64> {
    column.and_then(|c| cells.get(c)).and_then(Cell::number)
}

/// Compares `current` with `base`, line by line.
pub fn compare(base: &SourceView, current: &SourceView) -> SourceComparison {
    let key = |v: &SourceView, i: usize| {
        let l = &v.lines[i];
        let file = v.files.get(l.file).map_or("", |f| file_name(&f.path));
        (file.to_string(), l.line)
    };
    let text = |v: &SourceView, i: usize| {
        let l = &v.lines[i];
        v.text_of(l)
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| (file_name(&v.files[l.file].path).to_string(), t.to_string()))
    };
    let by_position: HashMap<(String, u32), usize> =
        (0..base.lines.len()).map(|i| (key(base, i), i)).collect();
    let mut used = vec![false; base.lines.len()];
    let mut matches: Vec<(Option<usize>, LineMatch)> = (0..current.lines.len())
        .map(|i| match by_position.get(&key(current, i)) {
            // Same place, unless both texts are known and differ (other code moved there).
            Some(&b)
                if text(base, b)
                    .zip(text(current, i))
                    .is_none_or(|(x, y)| x == y) =>
            {
                used[b] = true;
                (Some(b), LineMatch::Position)
            }
            _ => (None, LineMatch::Added),
        })
        .collect();
    // The rest by text: each baseline line taken once, in order.
    let mut by_text: HashMap<(String, String), Vec<usize>> = HashMap::new();
    for b in (0..base.lines.len()).rev().filter(|&b| !used[b]) {
        if let Some(t) = text(base, b) {
            by_text.entry(t).or_default().push(b);
        }
    }
    for (i, m) in matches.iter_mut().enumerate() {
        if m.0.is_none()
            && let Some(b) = text(current, i).and_then(|t| by_text.get_mut(&t)?.pop())
        {
            used[b] = true;
            *m = (Some(b), LineMatch::Text);
        }
    }
    let base_column: Vec<Option<usize>> = current
        .columns
        .iter()
        .zip(&current.numeric)
        .map(|(name, &numeric)| {
            base.column(name)
                .filter(|&c| numeric && base.numeric.get(c) == Some(&true))
        })
        .collect();
    let lines = matches
        .into_iter()
        .zip(&current.lines)
        .map(|((b, matched), line)| {
            let delta = base_column
                .iter()
                .enumerate()
                .map(|(c, &bc)| {
                    let now = number(&line.cells, Some(c))?;
                    bc?;
                    let before = match b {
                        Some(b) => number(&base.lines[b].cells, bc)?,
                        None => 0.0,
                    };
                    Some(now - before)
                })
                .collect();
            LineDelta {
                base: b,
                matched,
                delta,
            }
        })
        .collect();
    SourceComparison {
        lines,
        removed: (0..base.lines.len()).filter(|&b| !used[b]).collect(),
    }
}
