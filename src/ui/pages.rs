//! The pages of the selected result, as tabs. To add a page: add a variant to [`Page`], list it
//! in [`Page::ALL`], name it in [`Page::label`], and call its `show` function in [`show`].

use super::baselines::VisibleBaseline;
use super::commands::Command;
use super::settings::Settings;
use super::workspace::{OpenReport, ResultRef, Workspace};
use super::{
    compare_view, details, occupancy_view, raw_page, report_compare, roofline_view, session_page,
};
use crate::model::KernelResult;
use serde::{Deserialize, Serialize};

/// A page of the selected result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Page {
    /// Speed-of-light bars, then every section with its metrics and rule results.
    #[default]
    Details,
    /// Every metric of the result, searchable.
    Raw,
    /// Session, device and launch information.
    Session,
    /// Rooflines of the result, or of every result of the report.
    Roofline,
    /// Occupancy limits, graphs and what-if.
    Occupancy,
    /// The result side by side with the visible baselines.
    Compare,
    /// Two open reports compared kernel by kernel.
    ReportDiff,
}

impl Page {
    /// The tabs, left to right.
    pub const ALL: &'static [Page] = &[
        Page::Details,
        Page::Raw,
        Page::Session,
        Page::Roofline,
        Page::Occupancy,
        Page::Compare,
        Page::ReportDiff,
    ];

    /// The tab label.
    pub fn label(self) -> &'static str {
        match self {
            Page::Details => "Details",
            Page::Raw => "Raw",
            Page::Session => "Session",
            Page::Roofline => "Roofline",
            Page::Occupancy => "Occupancy",
            Page::Compare => "Compare",
            Page::ReportDiff => "Report vs report",
        }
    }
}

/// What a page is about: the selected result, its report, and everything else open (for
/// pages that compare).
pub struct PageContext<'a> {
    pub workspace: &'a Workspace,
    pub open: &'a OpenReport,
    pub result: &'a KernelResult,
    pub at: ResultRef,
    /// The baselines that are open and shown.
    pub baselines: &'a [VisibleBaseline],
}

/// View state of the pages that need some (search text, caches); not persisted.
#[derive(Default)]
pub struct PageStates {
    pub raw: raw_page::RawPageState,
    pub roofline: roofline_view::RooflineViewState,
    pub occupancy: occupancy_view::OccupancyViewState,
    pub compare: compare_view::CompareViewState,
    pub reports: report_compare::ReportCompareState,
    /// The architecture chosen for sources that name no compute capability.
    pub assumed_cc: Option<(u32, u32)>,
    /// What the last export did (copied, saved, no dialog), shown by the comparison pages.
    pub export_status: Option<String>,
}

impl PageStates {
    /// A result a page asked to select (a click in the report-wide roofline), taken once.
    pub fn take_selection_request(&mut self) -> Option<ResultRef> {
        self.roofline.take_selection_request()
    }

    /// Drops every cache derived from open reports (after reports closed or were replaced), so
    /// that nothing of a closed report stays in memory; the pages build what they show again.
    pub fn release_caches(&mut self) {
        self.raw.release();
        self.roofline.release();
        self.compare.release();
        self.reports.release();
    }
}

/// The tab strip.
pub fn tabs(ui: &mut egui::Ui, current: &mut Page) {
    ui.horizontal(|ui| {
        for &page in Page::ALL {
            ui.selectable_value(current, page, page.label());
        }
    });
}

/// Shows a page in the remaining space; what it asks for goes to `commands`.
pub fn show(
    ui: &mut egui::Ui,
    page: Page,
    cx: &PageContext<'_>,
    states: &mut PageStates,
    settings: &mut Settings,
    commands: &mut Vec<Command>,
) {
    match page {
        Page::Details => details::show(ui, cx.result, &mut settings.show_sol_breakdown),
        Page::Raw => raw_page::show(ui, cx.at, cx.result, &mut states.raw),
        Page::Session => session_page::show(ui, &cx.open.report, cx.result),
        Page::Roofline => {
            roofline_view::show(ui, cx, &mut states.roofline, &mut states.assumed_cc);
        }
        Page::Occupancy => {
            occupancy_view::show(ui, cx, &mut states.occupancy, &mut states.assumed_cc);
        }
        Page::Compare => compare_view::show(
            ui,
            cx,
            &mut states.compare,
            settings,
            &mut states.export_status,
            commands,
        ),
        Page::ReportDiff => report_compare::show(
            ui,
            cx,
            &mut states.reports,
            settings,
            &mut states.export_status,
            commands,
        ),
    }
}
