//! Where an explained change happened: each stall, memory-traffic, bank-conflict or
//! instruction change of a compared pair tied to the CUDA lines that carry most of it, from the
//! two results' Source views and their per-line comparison (`stall barrier +1,209 samples:
//! 81 % at transpose.cu:22`).

use super::columns::STALLS;
use super::compare::SourceComparison;
use super::file_name;
use crate::analysis::compare::why::{Explanation, LineLink, WhyKind};
use crate::model::format::value_text;
use crate::model::source::{Cell, SourceView};

/// Lines listed per explanation at most.
const MAX_LINES: usize = 3;
/// Smallest share of the change a line must carry to be named, in percent.
const MIN_SHARE_PCT: f64 = 10.0;

/// The Source page column that measures an explanation's subject per line (ncu's name:
/// `stall_long_sb` for the reason `long_scoreboard`); `None` for what no column measures
/// (rules, registers, occupancy).
pub fn column_for(e: &Explanation) -> Option<String> {
    measure(e).map(|(column, _, _)| column)
}

/// [`column_for`], with what the change is called and the unit of its count.
fn measure(e: &Explanation) -> Option<(String, String, &'static str)> {
    match e.kind {
        WhyKind::StallMoved => STALLS
            .iter()
            .find(|(_, reason, _)| *reason == e.subject)
            .map(|(column, _, _)| {
                (
                    column.to_string(),
                    format!("stall {}", e.subject),
                    "samples",
                )
            }),
        WhyKind::Instructions => Some((
            "Instructions Executed".into(),
            "instructions executed".into(),
            "warp instructions",
        )),
        WhyKind::BankConflicts => Some((
            "L1 Wavefronts Shared Excessive".into(),
            "shared memory bank conflicts".into(),
            "excessive wavefronts",
        )),
        WhyKind::MemoryTraffic if e.subject == "L1" => Some((
            "L1 Tag Requests Global".into(),
            "L1 traffic".into(),
            "global requests",
        )),
        WhyKind::MemoryTraffic => Some((
            "L2 Theoretical Sectors Global".into(),
            format!("{} traffic", e.subject),
            "global sectors",
        )),
        _ => None,
    }
}

/// A signed count as the why-list prints it: `+1,209`, `-40`.
fn signed(v: f64) -> String {
    let text = value_text(v, "");
    if v > 0.0 { format!("+{text}") } else { text }
}

/// The recorded path of a view's file.
fn path(v: &SourceView, file: usize) -> &str {
    v.files.get(file).map_or("", |f| f.path.as_str())
}

fn number(cells: &[Cell], column: usize) -> f64 {
    cells.get(column).and_then(Cell::number).unwrap_or(0.0)
}

/// Fills each explanation's [`Explanation::lines`] whose measure both views have: the lines
/// whose change goes the way of the function's whole change, largest first, each carrying at
/// least a tenth of it, at most three. A line only the baseline has (code that went away) is
/// marked so ([`LineLink::baseline_only`]) and its place says `(baseline)`.
pub fn link_lines(
    why: &mut [Explanation],
    base: &SourceView,
    current: &SourceView,
    comparison: &SourceComparison,
) {
    for e in why.iter_mut() {
        let Some((column, what, unit)) = measure(e) else {
            continue;
        };
        let (Some(c), Some(b)) = (current.column(&column), base.column(&column)) else {
            continue;
        };
        let total = |v: &SourceView, col: usize| -> f64 {
            v.instructions.iter().map(|i| number(&i.cells, col)).sum()
        };
        let change = total(current, c) - total(base, b);
        if change == 0.0 || !change.is_finite() {
            continue;
        }
        // Current lines with their change; baseline lines that went away lose all they had.
        let mut lines: Vec<(&str, u32, f64, bool)> = current
            .lines
            .iter()
            .zip(&comparison.lines)
            .map(|(l, d)| {
                let delta = match d.base {
                    Some(i) => number(&l.cells, c) - number(&base.lines[i].cells, b),
                    None => number(&l.cells, c),
                };
                (path(current, l.file), l.line, delta, false)
            })
            .chain(comparison.removed.iter().filter_map(|&i| {
                let l = base.lines.get(i)?;
                Some((path(base, l.file), l.line, -number(&l.cells, b), true))
            }))
            .filter(|&(_, _, d, _)| d * change > 0.0 && d / change * 100.0 >= MIN_SHARE_PCT)
            .collect();
        lines.sort_by(|x, y| {
            y.2.abs()
                .total_cmp(&x.2.abs())
                .then(x.0.cmp(y.0))
                .then(x.1.cmp(&y.1))
        });
        e.lines = lines
            .into_iter()
            .take(MAX_LINES)
            .map(|(file, line, delta, baseline_only)| {
                let share_pct = delta / change * 100.0;
                let place = format!(
                    "{} {unit}: {share_pct:.0} % at {}:{line}{}",
                    signed(delta),
                    file_name(file),
                    if baseline_only { " (baseline)" } else { "" }
                );
                LineLink {
                    file: file.to_string(),
                    line,
                    change: delta,
                    share_pct,
                    text: format!("{what} {place}"),
                    place,
                    baseline_only,
                }
            })
            .collect();
    }
}
