//! Which two open reports the Report vs report page compares, and which of them is the
//! baseline. The pair is the selected result's report and the report holding the user's
//! baselines (else the first other open report). Its order, first rule that decides:
//! the user's own choice (a pick, a swap or a confirmation on the page, remembered for that
//! pair of files), then the report holding the baselines the user set, then the order the user
//! gave (the command line's, File > Open's, a drop's: the order the reports were opened), and
//! only where that says nothing the older capture. When the captures (an `.ncu-rep`'s
//! creation time, a text file's modification time) are in the other order than the one given,
//! the sides say so ([`CaptureConflict`]): people re-profile the "before" build after the
//! "after" one, and the page asks before it calls anything won or lost.

use crate::core::baselines::Baseline;
use crate::core::ids::ReportId;
use crate::core::workspace::{OpenReport, Workspace};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// How far apart two file modification times must be to say which capture came first.
pub const FILE_TIME_MARGIN: Duration = Duration::from_secs(60);

/// How many remembered orders [`remember_order`] keeps (the most recent).
pub const MAX_REMEMBERED_ORDERS: usize = 50;

/// The order the user chose for a pair of report files: `base` is the baseline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportOrder {
    pub base: PathBuf,
    pub current: PathBuf,
}

/// What decided which report is the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SidesRule {
    /// Picked or swapped on the page.
    Chosen,
    /// Picked or swapped earlier for the same two files.
    Remembered,
    /// The baseline report holds the baselines the user set.
    Baselines,
    /// The baseline report was opened first (the order the user gave).
    OpenedFirst,
    /// The order they were opened says nothing: the baseline report was captured first.
    OlderCapture,
}

impl SidesRule {
    /// Why the baseline report is the baseline, as the page says it.
    pub fn reason(self) -> &'static str {
        match self {
            SidesRule::Chosen => "as chosen",
            SidesRule::Remembered => "as chosen before for these two files",
            SidesRule::Baselines => "it holds the baselines you set",
            SidesRule::OpenedFirst => "it was opened first",
            SidesRule::OlderCapture => "it was captured first",
        }
    }
}

/// The baseline report was captured after the current one, although the order the user gave
/// makes it the baseline: the page says so and asks to swap or keep the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaptureConflict {
    pub base_captured: SystemTime,
    pub current_captured: SystemTime,
}

/// The two reports compared and why the first is the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReportSides {
    pub base: ReportId,
    pub current: ReportId,
    pub rule: SidesRule,
    /// Set when the order given decided against the capture times (never for an order the
    /// user chose, remembered or set through baselines).
    pub conflict: Option<CaptureConflict>,
}

/// The sides of the comparison: `chosen` (the page's pick, kept while both are open) when it
/// holds, else the selected report and its partner in the order of the rules above.
pub fn report_sides(
    workspace: &Workspace,
    selected: ReportId,
    chosen: Option<(ReportId, ReportId)>,
    baselines: &[Baseline],
    remembered: &[ReportOrder],
) -> Option<ReportSides> {
    // A report still being written is compared once it has settled.
    let open = |id: ReportId| workspace.report(id).filter(|r| !r.is_growing());
    if let Some((base, current)) = chosen
        && base != current
        && open(base).is_some()
        && open(current).is_some()
    {
        return Some(ReportSides {
            base,
            current,
            rule: SidesRule::Chosen,
            conflict: None,
        });
    }
    let holds_baselines = |id: ReportId| {
        baselines
            .iter()
            .any(|b| b.attached.is_some_and(|at| at.report == id))
    };
    let selected_report = open(selected)?;
    let partner = workspace
        .reports()
        .iter()
        .filter(|r| r.id != selected && !r.is_growing())
        .find(|r| holds_baselines(r.id))
        .or_else(|| {
            workspace
                .reports()
                .iter()
                .find(|r| r.id != selected && !r.is_growing())
        })?;
    let (a, b) = (selected_report, partner);
    let ordered = |base: &OpenReport, current: &OpenReport, rule| ReportSides {
        base: base.id,
        current: current.id,
        rule,
        conflict: None,
    };
    if let (Some(pa), Some(pb)) = (a.path.as_deref(), b.path.as_deref())
        && let Some(order) = remembered_order(remembered, pa, pb)
    {
        return Some(if order {
            ordered(a, b, SidesRule::Remembered)
        } else {
            ordered(b, a, SidesRule::Remembered)
        });
    }
    match (holds_baselines(a.id), holds_baselines(b.id)) {
        (true, false) => return Some(ordered(a, b, SidesRule::Baselines)),
        (false, true) => return Some(ordered(b, a, SidesRule::Baselines)),
        _ => {}
    }
    let first = |r: &OpenReport| workspace.reports().iter().position(|o| o.id == r.id);
    let (older, newer) = match captured_order(a, b) {
        Some(true) => (Some(a), Some(b)),
        Some(false) => (Some(b), Some(a)),
        None => (None, None),
    };
    let (base, current) = match (first(a), first(b)) {
        (Some(x), Some(y)) if x < y => (a, b),
        (Some(x), Some(y)) if y < x => (b, a),
        _ => {
            return Some(match (older, newer) {
                (Some(o), Some(n)) => ordered(o, n, SidesRule::OlderCapture),
                _ => ordered(a, b, SidesRule::OpenedFirst),
            });
        }
    };
    let mut sides = ordered(base, current, SidesRule::OpenedFirst);
    if older.is_some_and(|o| o.id == current.id)
        && let (Some(bc), Some(cc)) = (base.captured, current.captured)
    {
        sides.conflict = Some(CaptureConflict {
            base_captured: bc.at,
            current_captured: cc.at,
        });
    }
    Some(sides)
}

/// Whether `a` was captured before `b` (`Some(false)`: after), where both capture times are
/// known and far enough apart to tell.
fn captured_order(a: &OpenReport, b: &OpenReport) -> Option<bool> {
    let (ta, tb) = (a.captured?, b.captured?);
    // File times (text forms) count only when far apart: copying or checking out files gives
    // them times a few seconds apart in any order.
    let margin = if ta.from_file_time || tb.from_file_time {
        FILE_TIME_MARGIN
    } else {
        Duration::ZERO
    };
    let apart = |x: SystemTime, y: SystemTime| y.duration_since(x).is_ok_and(|d| d > margin);
    if apart(ta.at, tb.at) {
        Some(true)
    } else if apart(tb.at, ta.at) {
        Some(false)
    } else {
        None
    }
}

/// Whether `a` is the remembered baseline of the pair `a`, `b` (`Some(false)`: `b` is).
fn remembered_order(remembered: &[ReportOrder], a: &Path, b: &Path) -> Option<bool> {
    remembered.iter().find_map(|o| {
        if o.base == a && o.current == b {
            Some(true)
        } else if o.base == b && o.current == a {
            Some(false)
        } else {
            None
        }
    })
}

/// Remembers that `base` is the baseline of `current` (most recent first, bounded), replacing
/// an earlier order of the same two files.
pub fn remember_order(remembered: &mut Vec<ReportOrder>, base: &Path, current: &Path) {
    let (base, current) = (absolute(base), absolute(current));
    remembered.retain(|o| {
        !((o.base == base && o.current == current) || (o.base == current && o.current == base))
    });
    remembered.insert(0, ReportOrder { base, current });
    remembered.truncate(MAX_REMEMBERED_ORDERS);
}

fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf())
}

/// A capture time as the page shows it: `2026-Nov-21 19:06:23 UTC`.
pub fn capture_text(t: SystemTime) -> String {
    let secs = t
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    format!("{} UTC", crate::parse::ncu_rep::session::format_utc(secs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::ids::ResultRef;
    use crate::core::workspace::CaptureTime;
    use crate::model::{Format, KernelResult, Report};

    fn report(created: Option<u64>) -> Report {
        let mut r = Report::new("", Format::NcuRep);
        r.created = created;
        r.results = vec![KernelResult::default()];
        r
    }

    /// A workspace with reports created at these times, opened in this order, named `a`, `b`...
    fn workspace(created: &[Option<u64>]) -> (Workspace, Vec<ReportId>) {
        let mut ws = Workspace::default();
        let ids = created
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let name = ((b'a' + i as u8) as char).to_string();
                let path = PathBuf::from(format!("/runs/{name}.ncu-rep"));
                ws.add_report(name, Some(path), report(*c), Duration::ZERO)
            })
            .collect();
        (ws, ids)
    }

    fn baseline_in(report: ReportId) -> Baseline {
        Baseline {
            attached: Some(ResultRef { report, index: 0 }),
            ..Baseline::default()
        }
    }

    #[test]
    fn the_order_given_decides_and_a_later_capture_of_the_baseline_is_flagged() {
        // The "before" run opened first but captured later (re-profiled).
        let (ws, ids) = workspace(&[Some(2_000), Some(1_000)]);
        for selected in [ids[0], ids[1]] {
            let s = report_sides(&ws, selected, None, &[], &[]).unwrap();
            assert_eq!((s.base, s.current), (ids[0], ids[1]));
            assert_eq!(s.rule, SidesRule::OpenedFirst);
            let c = s.conflict.expect("the captures are in the other order");
            assert!(c.base_captured > c.current_captured);
        }
        // Opened in capture order: nothing to flag.
        let (ws, ids) = workspace(&[Some(1_000), Some(2_000)]);
        let s = report_sides(&ws, ids[1], None, &[], &[]).unwrap();
        assert_eq!((s.base, s.current, s.conflict), (ids[0], ids[1], None));
        // A choice the user made (or remembered) is never flagged.
        let s = report_sides(&ws, ids[1], Some((ids[1], ids[0])), &[], &[]).unwrap();
        assert_eq!((s.rule, s.conflict), (SidesRule::Chosen, None));
    }

    #[test]
    fn the_report_holding_the_baselines_comes_before_capture_times() {
        let (ws, ids) = workspace(&[Some(1_000), Some(2_000), Some(3_000)]);
        // The baselines sit in the newest report: it is the baseline of the selected one.
        let baselines = [baseline_in(ids[2])];
        let s = report_sides(&ws, ids[0], None, &baselines, &[]).unwrap();
        assert_eq!(
            (s.base, s.current, s.rule),
            (ids[2], ids[0], SidesRule::Baselines)
        );
    }

    #[test]
    fn a_remembered_order_comes_first_and_a_choice_before_it() {
        let (ws, ids) = workspace(&[Some(1_000), Some(2_000)]);
        let mut remembered = Vec::new();
        remember_order(
            &mut remembered,
            Path::new("/runs/b.ncu-rep"),
            Path::new("/runs/a.ncu-rep"),
        );
        let s = report_sides(&ws, ids[0], None, &[baseline_in(ids[0])], &remembered).unwrap();
        assert_eq!(
            (s.base, s.current, s.rule),
            (ids[1], ids[0], SidesRule::Remembered)
        );
        // Swapping again replaces the remembered order of the pair.
        remember_order(
            &mut remembered,
            Path::new("/runs/a.ncu-rep"),
            Path::new("/runs/b.ncu-rep"),
        );
        assert_eq!(remembered.len(), 1);
        let s = report_sides(&ws, ids[1], None, &[], &remembered).unwrap();
        assert_eq!((s.base, s.current), (ids[0], ids[1]));
        let s = report_sides(&ws, ids[1], Some((ids[1], ids[0])), &[], &remembered).unwrap();
        assert_eq!(
            (s.base, s.current, s.rule),
            (ids[1], ids[0], SidesRule::Chosen)
        );
    }

    #[test]
    fn close_file_times_say_nothing_far_ones_are_flagged() {
        let (mut ws, ids) = workspace(&[None, None]);
        let s = report_sides(&ws, ids[1], None, &[], &[]).unwrap();
        assert_eq!(
            (s.base, s.current, s.rule),
            (ids[0], ids[1], SidesRule::OpenedFirst)
        );
        // Modification times (text forms) a few seconds apart say nothing.
        let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000);
        let file_time = |at| {
            Some(CaptureTime {
                at,
                from_file_time: true,
            })
        };
        ws.set_captured(ids[0], file_time(t + Duration::from_secs(5)));
        ws.set_captured(ids[1], file_time(t));
        let s = report_sides(&ws, ids[1], None, &[], &[]).unwrap();
        assert_eq!(s.rule, SidesRule::OpenedFirst);
        assert_eq!(s.conflict, None);
        // An hour apart they do: the order given still decides, and the page is told.
        ws.set_captured(ids[0], file_time(t + Duration::from_secs(3_600)));
        let s = report_sides(&ws, ids[0], None, &[], &[]).unwrap();
        assert_eq!(
            (s.base, s.current, s.rule),
            (ids[0], ids[1], SidesRule::OpenedFirst)
        );
        assert!(s.conflict.is_some());
    }
}
