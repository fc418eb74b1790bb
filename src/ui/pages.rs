//! The pages of the selected result, as tabs. To add a page: add a variant to [`Page`], list it
//! in [`Page::ALL`], name it in [`Page::label`], and call its `show` function in [`show`].

use super::settings::Settings;
use super::workspace::{OpenReport, ResultRef, Workspace};
use super::{details, occupancy_view, raw_page, roofline_view, session_page};
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
}

impl Page {
    /// The tabs, left to right.
    pub const ALL: &'static [Page] = &[
        Page::Details,
        Page::Raw,
        Page::Session,
        Page::Roofline,
        Page::Occupancy,
    ];

    /// The tab label.
    pub fn label(self) -> &'static str {
        match self {
            Page::Details => "Details",
            Page::Raw => "Raw",
            Page::Session => "Session",
            Page::Roofline => "Roofline",
            Page::Occupancy => "Occupancy",
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
}

/// View state of the pages that need some (search text, caches); not persisted.
#[derive(Default)]
pub struct PageStates {
    pub raw: raw_page::RawPageState,
    pub roofline: roofline_view::RooflineViewState,
    pub occupancy: occupancy_view::OccupancyViewState,
    /// The architecture chosen for sources that name no compute capability.
    pub assumed_cc: Option<(u32, u32)>,
}

impl PageStates {
    /// A result a page asked to select (a click in the report-wide roofline), taken once.
    pub fn take_selection_request(&mut self) -> Option<ResultRef> {
        self.roofline.take_selection_request()
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

/// Shows a page in the remaining space.
pub fn show(
    ui: &mut egui::Ui,
    page: Page,
    cx: &PageContext<'_>,
    states: &mut PageStates,
    settings: &mut Settings,
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
    }
}
