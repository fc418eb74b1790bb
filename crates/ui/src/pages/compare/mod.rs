//! The Compare page: the selected result side by side with the visible baselines (or with the
//! partner picked in the report comparison). Every section's metrics in columns with Δ, Δ%, a
//! better/worse verdict from the direction table and a small bar; several baselines give
//! `current (Δ% against their mean, z=…)` as ncu does. Above them the duration change, the
//! speed-of-light bars and the occupancy of each side, the context warnings, and export; below
//! them every section body with both sides.

use crate::analysis::compare::Verdict;
use crate::analysis::compare::direction::Direction;
use crate::pages::PageContext;
use crate::pages::{Page, PageIo};
use crate::widgets::compare_export::{self, ExportSource};
use crate::widgets::{sol_bars, theme};
use egui::{Color32, RichText};
use sightline_app::core::commands::Command;
use sightline_app::core::ids::ResultRef;
use sightline_app::core::page_id::PageId;
use sightline_app::views::compare::{CompareInput, CompareStatus, CompareView};
use sightline_app::views::side_by_side::{MetricLine, Side, SideBySide};
use sightline_app::views::source::SourceTarget;

mod bodies;
mod table;
use table::*;

impl Page for CompareView {
    fn id(&self) -> PageId {
        PageId::Compare
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, io: &mut PageIo<'_>) {
        show(
            ui,
            cx,
            self,
            io.settings,
            &mut io.shared.export_status,
            io.commands,
        );
        // A line of the why-list clicked: the Source page of the result that has the line
        // opens there (the baseline's for code that went away).
        let jump = take_why_jump(ui.ctx()).or_else(|| {
            crate::widgets::section_body::take_source_jump(ui.ctx()).map(|t| (cx.at, t))
        });
        if let Some((at, target)) = jump {
            if at != cx.at {
                io.commands.push(Command::Select(at));
            }
            io.shared.source_jump = Some((at, target));
            io.commands.push(Command::ShowPage(PageId::Source));
        }
    }

    fn release(&mut self) {
        CompareView::release(self);
    }
}

/// Size of the Δ% bar; a change of 100 % or more fills one half.
const DELTA_BAR_SIZE: egui::Vec2 = egui::vec2(90.0, 12.0);
/// Size of a speed-of-light bar in the side-by-side table.
const SOL_BAR_SIZE: egui::Vec2 = egui::vec2(110.0, 14.0);

/// A side's colour: its own, or the theme's strong text colour (the current result).
fn side_color(ui: &egui::Ui, side: &Side) -> Color32 {
    side.color
        .map_or_else(|| ui.visuals().strong_text_color(), theme::rgb)
}

/// Shows the Compare page.
pub fn show(
    ui: &mut egui::Ui,
    cx: &PageContext<'_>,
    view: &mut CompareView,
    settings: &mut sightline_app::core::settings::Settings,
    status: &mut Option<String>,
    commands: &mut Vec<Command>,
) {
    if let Some(base) = view.pinned_base(cx.at) {
        let mut unpin = false;
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new("Pair picked in the report comparison.")
                    .color(ui.visuals().warn_fg_color),
            );
            if ui.button("Keep it as a baseline").clicked() {
                commands.push(Command::SetBaseline(base));
            }
            unpin = ui.button("Compare with the baselines instead").clicked();
        });
        if unpin {
            view.unpin();
        }
    }
    let ctx = ui.ctx().clone();
    let input = CompareInput {
        workspace: cx.workspace,
        at: cx.at,
        baselines: cx.baselines,
        threshold_pct: settings.threshold_pct(),
        manual_pairs: &settings.manual_pairs,
        renames: settings.rename_policy(),
    };
    let data = match view.status(&input, crate::screenshot_mode(), move || {
        ctx.request_repaint()
    }) {
        CompareStatus::NoBaseline { only_itself } => {
            empty_ui(ui, only_itself);
            return;
        }
        CompareStatus::BeingWritten { name, results } => {
            being_written_ui(ui, &name, results);
            return;
        }
        CompareStatus::Failed(e) => {
            ui.colored_label(theme::error_color(ui), e);
            return;
        }
        CompareStatus::Building { earlier } => {
            comparing_ui(ui);
            match earlier {
                Some(data) => data,
                None => return,
            }
        }
        CompareStatus::Ready {
            data,
            context_pending,
        } => {
            if context_pending {
                comparing_ui(ui);
            }
            data
        }
    };
    let Some(view) = &data.view else {
        ui.weak("The results to compare are no longer open.");
        return;
    };
    egui::ScrollArea::both()
        .id_salt("compare_page")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let focus = crate::pages::details::screenshot_focus();
            if focus.is_some() {
                let threshold = settings.threshold_pct();
                bodies::bodies_ui(ui, &data.bodies, view, threshold, focus);
                return;
            }
            top_ui(ui, view, settings, status, commands);
            ui.separator();
            ui.horizontal_top(|ui| {
                ui.vertical(|ui| sol_ui(ui, view));
                ui.add_space(24.0);
                ui.vertical(|ui| occupancy_ui(ui, view));
            });
            ui.separator();
            metrics_ui(ui, view, settings.compare_changed_only);
            let threshold = settings.threshold_pct();
            bodies::bodies_ui(ui, &data.bodies, view, threshold, None);
        });
}

/// The spinner while the comparison (or its context warnings) is being built.
fn comparing_ui(ui: &mut egui::Ui) {
    ui.horizontal(|ui| {
        crate::widgets::calm_spinner::calm_spinner(ui);
        ui.label("Comparing…");
    });
}

/// What to do when there is nothing to compare with.
fn empty_ui(ui: &mut egui::Ui, only_itself: bool) {
    ui.add_space(8.0);
    if only_itself {
        ui.label("This result is the only baseline shown. Select another result to compare it.");
    } else {
        ui.label("No baseline to compare with.");
    }
    ui.weak(
        "Make a result a baseline with \"Set as baseline\" above, or right-click a row of the \
         results table. Baselines come from any open report, each in its own colour; the \
         Baselines list on the left shows, hides and removes them, and they are kept across \
         restarts. Report vs report compares two whole reports.",
    );
}

/// The selected result's report is still being written: it is compared once it has settled.
pub fn being_written_ui(ui: &mut egui::Ui, name: &str, results: usize) {
    ui.add_space(8.0);
    ui.horizontal(|ui| {
        crate::widgets::calm_spinner::calm_spinner(ui);
        ui.label(format!(
            "{name} is {}: it is compared once its write has settled.",
            crate::output::arrival_text::growing_text(results)
        ));
    });
}

/// The id under which a clicked line of the why-list waits for the page to read it.
fn why_jump_id() -> egui::Id {
    egui::Id::unique("compare_why_source_jump")
}

/// Takes the line of the why-list clicked in this frame, with the result whose Source page
/// shows it.
fn take_why_jump(ctx: &egui::Context) -> Option<(ResultRef, SourceTarget)> {
    ctx.data_mut(|d| {
        let jump = d.get_temp::<(ResultRef, SourceTarget)>(why_jump_id());
        d.remove::<(ResultRef, SourceTarget)>(why_jump_id());
        jump
    })
}

/// The ranked explanations of the change, against one baseline: the first that agree with the
/// duration coloured by its verdict, the others plain. Each line that carries a change opens
/// the Source page there: the current result's, or the baseline's for a line only it has.
fn why_ui(ui: &mut egui::Ui, view: &SideBySide) {
    let [pair] = view.export.matched.as_slice() else {
        return;
    };
    if pair.why.is_empty() {
        return;
    }
    let verdict = pair.diff.duration.as_ref().map(|d| d.verdict);
    egui::CollapsingHeader::new("Why it changed")
        .default_open(true)
        .show(ui, |ui| {
            for w in crate::analysis::compare::export::listed_why(&pair.why) {
                let text = RichText::new(&w.text);
                match (w.agrees, verdict) {
                    (Some(true), Some(v)) => ui.label(text.color(theme::verdict_color(ui, v))),
                    (Some(false), _) => ui.weak(w.text.as_str()),
                    _ => ui.label(text),
                }
                .on_hover_text(if w.agrees == Some(true) {
                    "Points the way the duration went"
                } else if w.agrees == Some(false) {
                    "Points against the way the duration went"
                } else {
                    "The duration did not say which way"
                });
                // The lines that carry the change, each opening the Source page there.
                for link in &w.lines {
                    let (at, whose) = match view.bases.first() {
                        Some(base) if link.baseline_only => (base.at, "the baseline's"),
                        _ => (view.current.at, "the"),
                    };
                    ui.horizontal(|ui| {
                        ui.add_space(16.0);
                        if ui
                            .link(&link.place)
                            .on_hover_text(format!(
                                "Open {}:{} on {whose} Source page",
                                link.file, link.line
                            ))
                            .clicked()
                        {
                            let target = SourceTarget::Line {
                                file: crate::analysis::source::file_name(&link.file).to_string(),
                                line: link.line,
                            };
                            ui.data_mut(|d| d.insert_temp(why_jump_id(), (at, target)));
                        }
                    });
                }
            }
        });
}

/// Sides, duration, options, warnings and export.
fn top_ui(
    ui: &mut egui::Ui,
    view: &SideBySide,
    settings: &mut sightline_app::core::settings::Settings,
    status: &mut Option<String>,
    commands: &mut Vec<Command>,
) {
    ui.horizontal_wrapped(|ui| {
        ui.weak("Current");
        side_label(ui, &view.current);
        ui.weak(if view.bases.len() == 1 {
            "against"
        } else {
            "against the mean of"
        });
        for b in &view.bases {
            side_label(ui, b);
        }
    });
    if let Some(d) = &view.duration {
        ui.horizontal_wrapped(|ui| {
            ui.label(RichText::new(&d.text).strong());
            ui.label(
                RichText::new(d.verdict.name())
                    .strong()
                    .color(theme::verdict_color(ui, d.verdict)),
            );
        });
    }
    // In a scope of its own, so that the widgets below keep their ids when the warnings of
    // two reports arrive after the comparison is shown.
    ui.push_id("context_warnings", |ui| {
        for w in &view.warnings {
            ui.label(RichText::new(format!("Warning: {w}")).color(ui.visuals().warn_fg_color));
        }
    });
    for n in &view.notes {
        ui.weak(n);
    }
    why_ui(ui, view);
    ui.horizontal_wrapped(|ui| {
        ui.checkbox(&mut settings.compare_changed_only, "Changed only")
            .on_hover_text("List only metrics that changed beyond the noise threshold");
        noise_threshold(ui, &mut settings.compare_threshold_pct);
    });
    compare_export::buttons(
        ui,
        &ExportSource {
            diff: &view.export,
            csv_in_background: None,
            title: view.export_title.clone(),
            file_stem: view.file_stem.clone(),
            reports: None,
        },
        status,
        commands,
    );
}

/// A side's mark and name in its colour, with its report.
fn side_label(ui: &mut egui::Ui, side: &Side) {
    let color = side_color(ui, side);
    theme::swatch(ui, color);
    ui.label(
        RichText::new(format!("{} ({})", side.title, side.report_name))
            .color(color)
            .strong(),
    )
    .on_hover_text(&side.full_name);
}

/// The column titles of the side-by-side grids: the baselines, then the current result.
fn header_cells(ui: &mut egui::Ui, view: &SideBySide) {
    for side in view.bases.iter().chain(std::iter::once(&view.current)) {
        ui.vertical(|ui| {
            let color = side_color(ui, side);
            ui.horizontal(|ui| {
                theme::swatch(ui, color);
                ui.add(egui::Label::new(RichText::new(&side.title).color(color)).extend())
                    .on_hover_text(&side.full_name);
            });
            ui.add(egui::Label::new(RichText::new(&side.report_name).weak()).extend());
        });
    }
}

/// The speed-of-light bars of every side.
fn sol_ui(ui: &mut egui::Ui, view: &SideBySide) {
    ui.strong("GPU Speed Of Light Throughput");
    if view.sol.is_empty() {
        ui.weak("No side has speed-of-light throughput metrics.");
        return;
    }
    egui::Grid::new("compare_sol")
        .num_columns(view.bases.len() + 2)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            ui.label("");
            header_cells(ui, view);
            ui.end_row();
            for (label, metric, memory, values) in &view.sol {
                ui.label(*label).on_hover_text(*metric);
                for v in values {
                    ui.horizontal(|ui| {
                        sol_bars::percent_bar(ui, *v, *memory, SOL_BAR_SIZE);
                        ui.label(crate::model::format::percent_text(*v));
                    });
                }
                ui.end_row();
            }
        });
}

/// The occupancy of every side.
fn occupancy_ui(ui: &mut egui::Ui, view: &SideBySide) {
    ui.strong("Occupancy");
    egui::Grid::new("compare_occupancy")
        .num_columns(view.bases.len() + 2)
        .striped(true)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            ui.label("");
            header_cells(ui, view);
            ui.end_row();
            for (label, values) in &view.occupancy {
                ui.label(*label);
                for v in values {
                    ui.label(v);
                }
                ui.end_row();
            }
        });
}

/// The noise threshold (%) under which a change counts as unchanged, shared by both compare pages.
pub fn noise_threshold(ui: &mut egui::Ui, threshold_pct: &mut f64) {
    let label = ui.label("Noise threshold");
    ui.add(
        egui::DragValue::new(threshold_pct)
            .range(0.0..=100.0)
            .speed(0.1)
            .suffix(" %"),
    )
    .labelled_by(label.id);
}
