//! The Source page: the CUDA lines of the selected result with a heat bar and the chosen
//! metric column, hottest first or in source order; the SASS of the selected line (or of the
//! whole function) beside it, or the module's PTX text. The rows come from the page's
//! view-model ([`SourcePageView`]); both lists draw only their visible rows, so functions with
//! tens of thousands of instructions scroll smoothly.

use crate::analysis::source::compare::SourceComparison;
use crate::model::source::{SourceView, TextOrigin};
use crate::pages::{Page, PageContext, PageIo};
use sightline_app::core::commands::Command;
use sightline_app::core::page_id::PageId;
use sightline_app::views::source::{
    FileFilter, Listing, SourceChoice, SourcePageView, SourcePane, SourceStatus,
};

mod lists;
mod rows;

use lists::{inline_list, lines_list, ptx_list, sass_list};

/// A baseline's view and the per-line changes from it.
type Baseline<'a> = Option<(&'a SourceView, &'a SourceComparison)>;

/// The Source page: its view-model and where the keyboard moves.
#[derive(Default)]
pub struct SourcePage {
    view: SourcePageView,
    nav: Navigation,
}

/// The keyboard on the Source page: the pane it moves in (the one last pointed at), this
/// frame's keys, and the row to bring into view.
#[derive(Debug, Default)]
struct Navigation {
    pane: SourcePane,
    /// Rows down (negative: up) asked this frame.
    steps: isize,
    /// Enter: the selected line's SASS.
    enter: bool,
    /// A row moved to by the keys: its pane and position in the listed order.
    scroll_to: Option<(SourcePane, usize)>,
}

impl Navigation {
    /// Takes Up, Down and Enter while the page has the keyboard (the pointer was last over
    /// it, no text field is being edited): they never reach the results table then.
    fn take_keys(&mut self, ui: &egui::Ui, page_has_keys: bool) {
        self.steps = 0;
        self.enter = false;
        if !page_has_keys || ui.ctx().text_edit_focused() {
            return;
        }
        ui.input_mut(|i| {
            let mut count =
                |key: egui::Key| i.count_and_consume_key(egui::Modifiers::NONE, key) as isize;
            self.steps = count(egui::Key::ArrowDown) - count(egui::Key::ArrowUp);
            self.enter = count(egui::Key::Enter) > 0;
        });
    }

    /// Moves the selection by this frame's keys.
    fn apply(&mut self, choice: &mut SourceChoice, listing: &Listing) {
        if self.steps != 0
            && let Some(at) = choice.step(self.pane, listing, self.steps)
        {
            self.scroll_to = Some((self.pane, at));
        }
        if self.enter && self.pane == SourcePane::Lines && choice.selected_line.is_some() {
            choice.show_line_sass();
        }
    }

    /// The row of `pane` to bring into view this frame, taken once.
    fn scroll_of(&mut self, pane: SourcePane) -> Option<usize> {
        self.scroll_to
            .take_if(|(p, _)| *p == pane)
            .map(|(_, at)| at)
    }
}

impl Page for SourcePage {
    fn id(&self) -> PageId {
        PageId::Source
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, io: &mut PageIo<'_>) {
        let base_at = cx.baselines.iter().map(|b| b.at).find(|&b| b != cx.at);
        self.view.source_maps = io.settings.source_folders.clone();
        self.view.disassembler = cx.disassembler.clone();
        let key = (
            cx.at,
            base_at,
            cx.sass_imports.generation(),
            io.settings.source_folders.len(),
        );
        let sources = || {
            let imported =
                |r: &crate::model::KernelResult| cx.sass_imports.for_kernel(&r.name.demangled);
            let baseline = base_at.and_then(|b| {
                let (open, result) = cx.workspace.result(b)?;
                Some((open.path.clone(), result.clone(), imported(result)))
            });
            (
                (cx.open.path.clone(), cx.result.clone(), imported(cx.result)),
                baseline,
            )
        };
        if let Some((at, target)) = io.shared.source_jump.take_if(|(at, _)| *at == cx.at) {
            self.view.jump_to(at, target);
        }
        let ctx = ui.ctx().clone();
        let wait = crate::screenshot_mode();
        // What the page changes this frame; the view-model may change the choice itself while
        // answering (a hot spot's line selected once read), so only a change made here is
        // written back.
        let asked = self.view.choice.clone();
        let mut choice = asked.clone();
        match self
            .view
            .status(key, sources, wait, move || ctx.request_repaint())
        {
            SourceStatus::Idle => {}
            SourceStatus::Reading => {
                ui.horizontal(|ui| {
                    crate::widgets::calm_spinner::calm_spinner(ui);
                    ui.label("Reading the function's code and per-instruction metrics…");
                });
            }
            SourceStatus::Failed(e) => {
                ui.label(e);
            }
            SourceStatus::Ready { data, listing } => match (&data.view, listing) {
                (Ok(v), Some(listing)) => {
                    if let Some(Err(e)) = &data.baseline {
                        ui.colored_label(ui.visuals().warn_fg_color, e.as_str());
                    }
                    let baseline = match &data.baseline {
                        Some(Ok((base, c))) => Some((base, c)),
                        _ => None,
                    };
                    self.nav.take_keys(ui, io.shared.page_has_keys);
                    self.nav.apply(&mut choice, listing);
                    let panes = Panes {
                        split: &mut io.settings.panels.source_split,
                        nav: &mut self.nav,
                    };
                    show(ui, &mut choice, v, listing, baseline, io.commands, panes);
                }
                (Err(e), _) => {
                    ui.label(e.as_str());
                }
                (Ok(_), None) => {}
            },
        }
        if choice != asked {
            self.view.choice = choice;
        }
    }

    fn release(&mut self) {
        self.view.release();
    }
}

/// The page: the metric and order choices, then the CUDA lines and the SASS or PTX beside.
fn show(
    ui: &mut egui::Ui,
    choice: &mut SourceChoice,
    view: &SourceView,
    listing: &Listing,
    baseline: Baseline<'_>,
    commands: &mut Vec<Command>,
    panes: Panes<'_>,
) {
    ui.heading(&view.kernel);
    // A source file not found: the user can say where its folder is.
    let mut asked: Vec<&str> = Vec::new();
    for f in view
        .files
        .iter()
        .filter(|f| f.origin == TextOrigin::Missing)
    {
        let recorded = crate::analysis::source::recorded_folder(&f.path);
        let used = view
            .lines
            .iter()
            .any(|l| view.files.get(l.file).is_some_and(|g| g.path == f.path));
        if !used || recorded.is_empty() || asked.contains(&recorded) {
            continue;
        }
        asked.push(recorded);
        let name = crate::analysis::source::file_name(&f.path);
        if ui
            .button(format!("Locate {name}\u{2026}"))
            .on_hover_text(format!(
                "Pick the folder that holds the sources recorded under {recorded}; it is \
                 remembered and used by every report that names files there"
            ))
            .clicked()
        {
            commands.push(Command::LocateSource(recorded.to_string()));
        }
    }
    // Each note on one line (the lists keep the room), the whole note on hover. Why no
    // instruction has SASS text is said by the SASS listing, beside the button that adds it.
    for note in view
        .notes
        .iter()
        .filter(|n| view.sass_note.as_ref() != Some(*n))
    {
        note_line(ui, note);
    }
    let column = listing.column;
    // The choices wrap onto a second line in a narrow window rather than hiding the last ones.
    ui.horizontal_wrapped(|ui| {
        file_choice(ui, choice, listing);
        egui::ComboBox::from_label("Metric")
            .selected_text(view.columns.get(column).map_or("", String::as_str))
            .show_ui(ui, |ui| {
                for &i in &listing.numeric {
                    ui.selectable_value(
                        &mut choice.column,
                        view.columns[i].clone(),
                        &view.columns[i],
                    );
                }
            });
        ui.checkbox(&mut choice.hottest_first, "Hottest first");
        ui.checkbox(&mut choice.all_sass, "Whole function's SASS");
        ui.checkbox(&mut choice.ptx, "PTX");
        if choice.ptx {
            ui.checkbox(&mut choice.module_ptx, "Whole module")
                .on_hover_text("The module's whole PTX, not only this function's");
        }
        if !view.inline_functions.is_empty() {
            ui.checkbox(&mut choice.inline_functions, "Inline functions")
                .on_hover_text(
                    "The device functions inlined into the kernel, per call site, with the \
                     sums of their instructions",
                );
        }
        let label = ui.label("Search");
        ui.add(
            egui::TextEdit::singleline(&mut choice.search)
                .hint_text("text, or >= 5")
                .desired_width(160.0),
        )
        .labelled_by(label.id)
        .on_hover_text(
            "Text finds lines and instructions by their text; a comparison (> 0, >= 5, < 1e3, \
             = 0, != 0) lists those whose value of the metric passes it",
        );
    });
    ui.separator();
    let Panes { split, nav } = panes;
    let (lines_scroll, sass_scroll) = (
        nav.scroll_of(SourcePane::Lines),
        nav.scroll_of(SourcePane::Sass),
    );
    let pointed = split_panes(ui, split, |ui, pane| match pane {
        SourcePane::Lines => lines_list(ui, choice, view, listing, baseline, lines_scroll),
        SourcePane::Sass if choice.inline_functions && !view.inline_functions.is_empty() => {
            inline_list(ui, choice, view, listing);
        }
        SourcePane::Sass if choice.ptx => ptx_list(ui, choice, view, listing),
        SourcePane::Sass => sass_list(ui, choice, view, listing, commands, sass_scroll),
    });
    if let Some(pane) = pointed {
        nav.pane = pane;
    }
}

/// What the two panes of the page share: the split between them (the CUDA lines' share of
/// the width, remembered in the settings) and the keyboard.
struct Panes<'a> {
    split: &'a mut f32,
    nav: &'a mut Navigation,
}

/// The CUDA lines left and the SASS (or PTX, or inline functions) right, each drawn by
/// `draw`, with a handle between them that drags the split. Returns the pane the pointer moved
/// or clicked in.
fn split_panes(
    ui: &mut egui::Ui,
    split: &mut f32,
    mut draw: impl FnMut(&mut egui::Ui, SourcePane),
) -> Option<SourcePane> {
    const HANDLE: f32 = 8.0;
    let range = sightline_app::core::settings::PanelSizes::SOURCE_SPLIT;
    let full = ui.available_rect_before_wrap();
    let share = if split.is_finite() {
        split.clamp(*range.start(), *range.end())
    } else {
        0.6
    };
    let left_width = ((full.width() - HANDLE) * share).round();
    let left_rect = egui::Rect::from_min_size(full.min, egui::vec2(left_width, full.height()));
    let handle_rect = egui::Rect::from_min_size(
        egui::pos2(left_rect.max.x, full.min.y),
        egui::vec2(HANDLE, full.height()),
    );
    let right_rect = egui::Rect::from_min_max(egui::pos2(handle_rect.max.x, full.min.y), full.max);
    let layout = egui::Layout::top_down(egui::Align::Min);
    let mut left_ui = ui.new_child(egui::UiBuilder::new().max_rect(left_rect).layout(layout));
    left_ui.set_clip_rect(left_rect.intersect(ui.clip_rect()));
    draw(&mut left_ui, SourcePane::Lines);
    let mut right_ui = ui.new_child(egui::UiBuilder::new().max_rect(right_rect).layout(layout));
    right_ui.set_clip_rect(right_rect.intersect(ui.clip_rect()));
    draw(&mut right_ui, SourcePane::Sass);
    let handle = ui
        .interact(
            handle_rect,
            ui.scope_id().with("source_split"),
            egui::Sense::drag(),
        )
        .on_hover_cursor(egui::CursorIcon::ResizeHorizontal)
        .on_hover_text("Drag to share the width between the CUDA lines and the SASS");
    if handle.dragged()
        && let Some(p) = handle.interact_pointer_pos()
        && full.width() > HANDLE
    {
        *split = ((p.x - full.min.x) / (full.width() - HANDLE)).clamp(*range.start(), *range.end());
    }
    let stroke = if handle.hovered() || handle.dragged() {
        ui.visuals().widgets.active.fg_stroke
    } else {
        ui.visuals().widgets.noninteractive.bg_stroke
    };
    ui.painter()
        .vline(handle_rect.center().x, handle_rect.y_range(), stroke);
    let used = left_ui
        .min_rect()
        .union(right_ui.min_rect())
        .union(handle_rect);
    ui.allocate_rect(
        egui::Rect::from_min_max(full.min, egui::pos2(full.max.x, used.max.y)),
        egui::Sense::hover(),
    );
    let (pointer, acted) = ui.input(|i| {
        (
            i.pointer.latest_pos(),
            i.pointer.any_pressed() || i.pointer.delta() != egui::Vec2::ZERO,
        )
    });
    let p = pointer.filter(|_| acted)?;
    if left_rect.contains(p) {
        Some(SourcePane::Lines)
    } else if right_rect.contains(p) {
        Some(SourcePane::Sass)
    } else {
        None
    }
}

/// The file selector: the kernel's own file first, the CUDA headers its code inlines after,
/// and every file together.
fn file_choice(ui: &mut egui::Ui, choice: &mut SourceChoice, listing: &Listing) {
    if listing.files.len() < 2 {
        return;
    }
    let shown = match listing.file {
        Some(f) => listing
            .files
            .iter()
            .find(|e| e.index == f)
            .map_or(String::new(), |e| e.label.clone()),
        None => "All files".to_string(),
    };
    egui::ComboBox::from_label("File")
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for (n, entry) in listing.files.iter().enumerate() {
                let value = if n == 0 {
                    FileFilter::Kernel
                } else {
                    FileFilter::One(entry.index)
                };
                ui.selectable_value(&mut choice.file, value, &entry.label)
                    .on_hover_text(&entry.path);
            }
            ui.selectable_value(&mut choice.file, FileFilter::All, "All files");
        });
}

/// A note of the Source page on one line in the warning colour, whole on hover.
fn note_line(ui: &mut egui::Ui, note: &str) {
    ui.add(
        egui::Label::new(egui::RichText::new(note).color(ui.visuals().warn_fg_color)).truncate(),
    )
    .on_hover_text(note);
}
