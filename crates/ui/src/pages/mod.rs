//! The pages of the selected result, one file each, shown as tabs. Every page implements
//! [`Page`]: its id (title and key come from it) and `ui`, which draws it from
//! a [`PageContext`] (what is selected and open, read-only) and writes through [`PageIo`]
//! (settings it may change, state shared by pages, commands for the app).
//!
//! To add a page: write its view-model in `app/views/` (what it shows, built when its inputs
//! change: see [`sightline_app::views::rules`]) and one file here that implements [`Page`] for
//! it and draws it (see [`rules`]); then name it: a variant of [`PageId`] (in `PageId::ALL`,
//! with its label) and a field of [`Pages`] listed in [`Pages::page_mut`].

pub mod compare;
pub mod details;
pub mod occupancy;
pub mod raw;
pub mod report_compare;
pub mod roofline;
pub mod rules;
pub mod session;
pub mod source;
pub mod trend;
pub mod trend_sweep;

use crate::model::KernelResult;
use sightline_app::core::actions::Action;
use sightline_app::core::baselines::VisibleBaseline;
use sightline_app::core::commands::Command;
use sightline_app::core::ids::ResultRef;
use sightline_app::core::page_id::PageId;
use sightline_app::core::settings::Settings;
use sightline_app::core::workspace::{OpenReport, Workspace};

/// What a page is about: the selected result, its report, and everything else open (for
/// pages that compare).
pub struct PageContext<'a> {
    pub workspace: &'a Workspace,
    pub open: &'a OpenReport,
    pub result: &'a KernelResult,
    pub at: ResultRef,
    /// The baselines that are open and shown.
    pub baselines: &'a [VisibleBaseline],
    /// SASS text imported from ncu's Source page exports.
    pub sass_imports: &'a sightline_app::core::sass_imports::SassImports,
    /// The nvdisasm programs that give SASS text.
    pub disassembler: &'a sightline_engine::parse::sass::Disassembler,
}

/// State that several pages share; not persisted.
#[derive(Debug, Default)]
pub struct SharedPageState {
    /// The architecture chosen for sources that name no compute capability.
    pub assumed_cc: Option<(u32, u32)>,
    /// What the last export did (copied, saved, no dialog), shown by the comparison pages.
    pub export_status: Option<String>,
    /// The place the Source page opens at (a hot spot or a rule's marker clicked on the
    /// Details or Rules page), with the result it belongs to.
    pub source_jump: Option<(ResultRef, sightline_app::views::source::SourceTarget)>,
    /// Whether the page has the keyboard (the pointer was last over it, not the results
    /// table): the Source page then takes Up, Down and Enter.
    pub page_has_keys: bool,
}

/// What a page may change while it is drawn.
pub struct PageIo<'a> {
    /// The persisted settings (comparison threshold, breakdown shown, …).
    pub settings: &'a mut Settings,
    pub shared: &'a mut SharedPageState,
    /// Commands for the app, carried out after the frame.
    pub commands: &'a mut Vec<Command>,
}

/// One page of the selected result.
pub trait Page {
    /// Which page this is.
    fn id(&self) -> PageId;

    /// The tab title.
    fn title(&self) -> &'static str {
        self.id().label()
    }

    /// Its key, from the action table: the key of its tab position (Ctrl+1 for the first tab;
    /// `sightline_app::core::actions::page_shortcut` says how pages past the ninth get theirs).
    fn shortcut(&self) -> Option<egui::KeyboardShortcut> {
        crate::menu::action_shortcut(Action::ShowPage(self.id()))
    }

    /// Draws the page in the remaining space.
    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, io: &mut PageIo<'_>);

    /// Drops what it derived from open reports (reports closed or replaced).
    fn release(&mut self) {}
}

/// Every page with its view state (search text, caches); not persisted.
#[derive(Default)]
pub struct Pages {
    pub details: details::DetailsPage,
    pub raw: sightline_app::views::raw::RawView,
    pub session: session::SessionPage,
    pub source: source::SourcePage,
    pub roofline: roofline::RooflinePage,
    pub occupancy: occupancy::OccupancyPage,
    pub compare: sightline_app::views::compare::CompareView,
    pub reports: sightline_app::views::report_compare::ReportCompareView,
    pub rules: sightline_app::views::rules::RulesView,
    pub trend: sightline_app::views::trend::TrendView,
    pub shared: SharedPageState,
}

impl Pages {
    /// The page with this id.
    pub fn page_mut(&mut self, id: PageId) -> &mut dyn Page {
        match id {
            PageId::Details => &mut self.details,
            PageId::Raw => &mut self.raw,
            PageId::Session => &mut self.session,
            PageId::Roofline => &mut self.roofline,
            PageId::Occupancy => &mut self.occupancy,
            PageId::Compare => &mut self.compare,
            PageId::ReportDiff => &mut self.reports,
            PageId::Source => &mut self.source,
            PageId::Rules => &mut self.rules,
            PageId::Trend => &mut self.trend,
        }
    }

    /// A result a page asked to select (a click in the report-wide roofline), taken once.
    pub fn take_selection_request(&mut self) -> Option<ResultRef> {
        self.roofline.take_selection_request()
    }

    /// Drops every cache derived from open reports (after reports closed or were replaced), so
    /// that nothing of a closed report stays in memory; the pages build what they show again.
    pub fn release_caches(&mut self) {
        for &id in PageId::ALL {
            self.page_mut(id).release();
        }
    }

    /// Shows a page in the remaining space; what it asks for goes to `commands`.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        id: PageId,
        cx: &PageContext<'_>,
        settings: &mut Settings,
        commands: &mut Vec<Command>,
    ) {
        let mut shared = std::mem::take(&mut self.shared);
        let mut io = PageIo {
            settings,
            shared: &mut shared,
            commands,
        };
        if id.scrolls_as_a_whole() {
            // Pages whose lists fill the pane scroll as a whole where their head and lists are
            // taller than it (a short window): wheel and paging keys reach every part.
            egui::ScrollArea::vertical()
                .id_salt(("page_scroll", id))
                .auto_shrink([false, false])
                .show(ui, |ui| self.page_mut(id).ui(ui, cx, &mut io));
        } else {
            self.page_mut(id).ui(ui, cx, &mut io);
        }
        self.shared = shared;
    }
}

/// The tab strip, one tab per page; a tab's tooltip names its shortcut.
pub fn tabs(ui: &mut egui::Ui, current: &mut PageId) {
    // A narrow window wraps the tabs rather than hiding the last ones.
    ui.horizontal_wrapped(|ui| {
        for &page in PageId::ALL {
            let response = ui.selectable_value(current, page, page.label());
            if let Some(shortcut) = crate::menu::action_shortcut(Action::ShowPage(page)) {
                response.on_hover_text(ui.ctx().format_shortcut(&shortcut));
            }
        }
    });
}

/// The height of a list inside a page that scrolls as a whole: what is left of the pane, but at
/// least most of the pane, so that scrolling the page down shows the whole list.
pub fn list_height(ui: &egui::Ui) -> f32 {
    let pane = ui.clip_rect().height();
    ui.available_height().max(pane * 0.8).max(120.0)
}

/// Page Up/Down, Home and End scroll the page (its first vertical scroll area) by most of its
/// height, or to its top and bottom; not while a text field has the keyboard.
pub fn scroll_by_paging_keys(ui: &egui::Ui) {
    if ui.ctx().text_edit_focused() {
        return;
    }
    let page = (ui.available_height() * 0.9).max(40.0);
    let delta = ui.input_mut(|i| {
        let mut count = |key: egui::Key| i.count_and_consume_key(egui::Modifiers::NONE, key) as f32;
        let pages = count(egui::Key::PageUp) - count(egui::Key::PageDown);
        let (home, end) = (count(egui::Key::Home), count(egui::Key::End));
        if end > 0.0 {
            -1e9
        } else if home > 0.0 {
            1e9
        } else {
            pages * page
        }
    });
    if delta != 0.0 {
        ui.scroll_with_delta_animation(
            egui::vec2(0.0, delta),
            egui::style::ScrollAnimation::none(),
        );
    }
}
