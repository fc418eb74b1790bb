//! The Report vs report page: two open reports (a baseline report and a current report)
//! compared kernel by kernel. Every matched kernel with Δ duration, Δ SOL compute and memory,
//! Δ occupancy and the time won or lost, sorted by impact; the kernels only one side has; the
//! context warnings; export. Clicking a row opens the side-by-side view of that pair; its
//! context menu pairs a baseline kernel by hand with any current one ("Pair with…"), which the
//! matching then respects (see [`sightline_app::core::manual_pairs`]).

use crate::analysis::compare::export::{HEADLINE_METRICS, count_text, delta_text};
use crate::analysis::compare::{
    MatchKind, MatchedDiff, Rename, ReportDiff, Verdict, group_suggestions,
};
use crate::model::format::NOT_MEASURED;
use crate::model::format::value_text;
use crate::output::kernel_names::{REPORT_NAME_CHARS, short_demangled};
use crate::pages::PageContext;
use crate::pages::{Page, PageIo};
use crate::widgets::compare_export::{self, ExportSource};
use crate::widgets::theme;
use egui::RichText;
use egui_extras::{Column, TableBuilder};
use sightline_app::core::commands::Command;
use sightline_app::core::ids::{ReportId, ResultRef};
use sightline_app::core::manual_pairs;
use sightline_app::core::page_id::PageId;
use sightline_app::core::report_sides::{CaptureConflict, SidesRule, capture_text, remember_order};
use sightline_app::core::settings::Settings;
use sightline_app::core::workspace::Workspace;
use sightline_app::views::report_compare::{
    CsvTarget, ReportCompareStatus, ReportCompareView, ReportComparison, kernel_cell, time_cell,
    verdict_cell,
};

impl Page for ReportCompareView {
    fn id(&self) -> PageId {
        PageId::ReportDiff
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
    }

    fn release(&mut self) {
        ReportCompareView::release(self);
    }
}

/// What a click in the table asks for.
enum TableAction {
    /// Show the pair (base index, current index) side by side.
    Open(usize, usize),
    /// Pair the base result with the current result by hand.
    Pair(usize, usize),
    /// Remove the manual pair of the base result.
    Unpair(usize),
}

/// Shows the Report vs report page.
pub fn show(
    ui: &mut egui::Ui,
    cx: &PageContext<'_>,
    state: &mut ReportCompareView,
    settings: &mut Settings,
    status: &mut Option<String>,
    commands: &mut Vec<Command>,
) {
    let workspace = cx.workspace;
    if let Some(open) = workspace.report(cx.at.report).filter(|r| r.is_growing()) {
        crate::pages::compare::being_written_ui(ui, &open.name, open.report.results.len());
        return;
    }
    let Some(sides) = state.sides(workspace, cx.at.report, settings) else {
        ui.add_space(8.0);
        ui.label("Open a second report to compare two reports kernel by kernel.");
        ui.weak(
            "Kernels are matched by name (then launch order and shape) across any two forms: \
             .ncu-rep, ncu text, CSV exports.",
        );
        return;
    };
    let (base, current) = (sides.base, sides.current);
    let (mut new_base, mut new_current) = (base, current);
    ui.horizontal_wrapped(|ui| {
        report_picker(ui, workspace, "Baseline report", &mut new_base);
        report_picker(ui, workspace, "Current report", &mut new_current);
        if ui.button("Swap").clicked() {
            std::mem::swap(&mut new_base, &mut new_current);
        }
        ui.separator();
        crate::pages::compare::noise_threshold(ui, &mut settings.compare_threshold_pct);
    });
    if (new_base, new_current) != (base, current) {
        state.choose(new_base, new_current);
        // The order of two files the user set is kept for the next time they are compared.
        remember_pair_order(workspace, settings, new_base, new_current);
    }
    let (base, current) = (new_base, new_current);
    if base == current {
        ui.label("Pick two different reports.");
        return;
    }
    // The order given disagrees with the capture times: say so, and claim nothing won or lost
    // until the user swaps or keeps the order.
    let conflict = sides
        .conflict
        .filter(|_| (sides.base, sides.current) == (base, current));
    match sides_reason_ui(ui, workspace, base, current, sides.rule, conflict) {
        Some(OrderAction::Swap) => {
            state.choose(current, base);
            remember_pair_order(workspace, settings, current, base);
        }
        Some(OrderAction::Keep) => {
            state.choose(base, current);
            remember_pair_order(workspace, settings, base, current);
        }
        None => {}
    }
    let neutral = conflict.is_some();
    let manual = manual_pairs::resolve(&settings.manual_pairs, workspace, base, current);
    let threshold_pct = settings.threshold_pct();
    let pairs = match (workspace.report(base), workspace.report(current)) {
        (Some(b), Some(c)) => (b.report.results.len(), c.report.results.len()),
        _ => return,
    };
    // A CSV written in the background: to the clipboard, or to the save dialog.
    let file_stem = {
        let name = |id: ReportId| {
            workspace
                .report(id)
                .map_or(NOT_MEASURED, |r| r.name.as_str())
        };
        compare_export::safe_file_stem(&format!("compare_{}_vs_{}", name(current), name(base)))
    };
    match state.take_csv() {
        Some((CsvTarget::Clipboard, Ok(text))) => {
            *status = Some(compare_export::copied_csv_status(&text));
            ui.ctx().copy_text(text);
        }
        Some((CsvTarget::File, Ok(text))) => commands.push(Command::SaveText {
            file_name: format!("{file_stem}.csv"),
            text,
        }),
        Some((_, Err(e))) => *status = Some(e),
        None => {}
    }
    let csv_pending = state.csv_pending();
    let ctx = ui.ctx().clone();
    let progress = state.status(
        workspace,
        (base, current),
        threshold_pct,
        manual.iter().map(|(_, p)| *p).collect(),
        settings.rename_policy(),
        crate::screenshot_mode(),
        move || ctx.request_repaint(),
    );
    let view = match progress {
        ReportCompareStatus::Ready { view, complete } => {
            if !complete {
                ui.horizontal(|ui| {
                    crate::widgets::calm_spinner::calm_spinner(ui);
                    ui.label("Comparing…");
                    ui.weak(
                        "every metric of every pair; the table below compares the results \
                         table's figures",
                    );
                });
            }
            view
        }
        ReportCompareStatus::Building => {
            ui.horizontal(|ui| {
                crate::widgets::calm_spinner::calm_spinner(ui);
                ui.label("Comparing…");
                ui.weak(format!(
                    "{} with {}",
                    crate::model::format::count_text(
                        pairs.0,
                        "baseline result",
                        "baseline results"
                    ),
                    crate::model::format::count_text(pairs.1, "current result", "current results")
                ));
            });
            return;
        }
        ReportCompareStatus::Failed(e) => {
            ui.colored_label(ui.visuals().error_fg_color, e);
            return;
        }
    };
    let diff = &view.diff;
    let name = |id: ReportId| {
        workspace
            .report(id)
            .map_or(NOT_MEASURED, |r| r.name.as_str())
    };
    // The warnings leave out the suggested renames, offered below with a Pair button.
    for w in &diff.warnings {
        ui.label(RichText::new(format!("Warning: {w}")).color(ui.visuals().warn_fg_color));
    }
    summary_ui(ui, view, neutral);
    // The CSV lists every metric: the view-model compares the pairs again as it writes it.
    let csv_asked = compare_export::buttons(
        ui,
        &ExportSource {
            diff,
            csv_in_background: Some(csv_pending),
            title: format!("Comparison: {} → {}", name(base), name(current)),
            file_stem: file_stem.clone(),
            reports: workspace
                .report(base)
                .zip(workspace.report(current))
                .map(|(b, c)| (&*b.report, &*c.report)),
        },
        status,
        commands,
    );
    if let Some(i) = manual_pairs_ui(ui, settings, &manual) {
        settings.manual_pairs.remove(i);
    }
    if let Some(r) = renamed_ui(ui, diff) {
        settings.set_unpaired(&r.base_function, &r.current_function, true);
    }
    if let Some(pairs) = suggested_pairs_ui(ui, diff) {
        for (b, c) in pairs {
            manual_pairs::add(
                &mut settings.manual_pairs,
                workspace,
                (base, b),
                (current, c),
            );
        }
    }
    ui.weak(if neutral {
        "Sorted by how much each kernel's time changed. Click a kernel to see the pair side by \
         side; right-click a baseline kernel to pair it by hand."
    } else {
        "Sorted by time won or lost. Click a kernel to see the pair side by side; right-click \
         a baseline kernel to pair it by hand."
    });
    match table_ui(ui, view, neutral) {
        Some(TableAction::Open(b, c)) => commands.push(Command::ComparePair {
            base: ResultRef {
                report: base,
                index: b,
            },
            current: ResultRef {
                report: current,
                index: c,
            },
        }),
        Some(TableAction::Pair(b, c)) => {
            manual_pairs::add(
                &mut settings.manual_pairs,
                workspace,
                (base, b),
                (current, c),
            );
        }
        Some(TableAction::Unpair(b)) => {
            if let Some((i, _)) = manual.iter().find(|(_, (mb, _))| *mb == b) {
                settings.manual_pairs.remove(*i);
            }
        }
        None => {}
    }
    if let Some(target) = csv_asked {
        let ctx = ui.ctx().clone();
        state.start_csv(workspace, target, move || ctx.request_repaint());
    }
}

/// Remembers that `base` is the baseline of `current` (both files), for the next time they
/// are compared.
fn remember_pair_order(
    workspace: &Workspace,
    settings: &mut Settings,
    base: ReportId,
    current: ReportId,
) {
    if base != current
        && let (Some(b), Some(c)) = (
            workspace.report(base).and_then(|r| r.path.as_deref()),
            workspace.report(current).and_then(|r| r.path.as_deref()),
        )
    {
        remember_order(&mut settings.report_orders, b, c);
    }
}

/// The kernels the comparison paired as renamed, each with a button that unpairs it; returns
/// the one to unpair.
fn renamed_ui<'d>(ui: &mut egui::Ui, diff: &'d ReportDiff) -> Option<&'d Rename> {
    let mut unpair = None;
    for r in &diff.renamed {
        ui.horizontal_wrapped(|ui| {
            ui.label(r.sentence());
            if ui
                .small_button("Unpair")
                .on_hover_text(
                    "Compare these as two different kernels: one removed, one added (the \
                     pairing stays suggested)",
                )
                .clicked()
            {
                unpair = Some(r);
            }
        });
    }
    unpair
}

/// The manual pairs between the two reports, each with a button that removes it; returns the
/// position in the list of the one to remove.
fn manual_pairs_ui(
    ui: &mut egui::Ui,
    settings: &Settings,
    manual: &[(usize, (usize, usize))],
) -> Option<usize> {
    let mut remove = None;
    for (i, _) in manual {
        let Some(p) = settings.manual_pairs.get(*i) else {
            continue;
        };
        ui.horizontal(|ui| {
            ui.label(format!(
                "Paired by hand: baseline ID {} with current ID {}",
                p.base.result_id, p.current.result_id
            ));
            if ui
                .small_button("Remove")
                .on_hover_text("Let the comparison match this kernel again")
                .clicked()
            {
                remove = Some(*i);
            }
        });
    }
    remove
}

/// The pairs the matching suggests (a kernel renamed), one line per pair of names with its
/// launches and a button that pairs them all by hand, and one for every suggestion; returns
/// the (base index, current index) pairs to make.
fn suggested_pairs_ui(ui: &mut egui::Ui, diff: &ReportDiff) -> Option<Vec<(usize, usize)>> {
    let mut clicked = None;
    let groups = group_suggestions(&diff.suggested_pairs);
    for members in &groups {
        let p = members[0];
        let launches = if members.len() == 1 {
            format!("(ID {} → ID {})", p.base_id, p.current_id)
        } else {
            format!("({} launches)", members.len())
        };
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(format!(
                    "Renamed? `{}` → `{}` {launches}: {}",
                    p.base_function, p.current_function, p.reason
                ))
                .color(ui.visuals().warn_fg_color),
            );
            if ui
                .small_button("Pair")
                .on_hover_text("Compare these as one kernel")
                .clicked()
            {
                clicked = Some(members.iter().map(|s| (s.base, s.current)).collect());
            }
        });
    }
    if groups.len() > 1 && ui.button("Pair all suggested").clicked() {
        clicked = Some(
            diff.suggested_pairs
                .iter()
                .map(|s| (s.base, s.current))
                .collect(),
        );
    }
    clicked
}

/// The context menu of a baseline kernel's row: pair it by hand with a current result, or
/// remove its manual pair.
fn pair_menu(
    response: &egui::Response,
    base_index: usize,
    manual: bool,
    candidates: &[String],
    action: &mut Option<TableAction>,
) {
    response.context_menu(|ui| {
        ui.menu_button("Pair with…", |ui| {
            egui::ScrollArea::vertical()
                .max_height(320.0)
                .show(ui, |ui| {
                    for (c, text) in candidates.iter().enumerate() {
                        if ui.button(text).clicked() {
                            *action = Some(TableAction::Pair(base_index, c));
                            ui.close();
                        }
                    }
                });
        });
        if manual && ui.button("Remove manual pair").clicked() {
            *action = Some(TableAction::Unpair(base_index));
            ui.close();
        }
    });
}

/// What the order line asks for.
enum OrderAction {
    Swap,
    /// Keep the order given although the captures say otherwise.
    Keep,
}

/// One line under the pickers: why the baseline report is the baseline, with both capture
/// times where they decided it; where the order given disagrees with the captures, a warning
/// with Swap and Keep this order.
fn sides_reason_ui(
    ui: &mut egui::Ui,
    workspace: &Workspace,
    base: ReportId,
    current: ReportId,
    rule: SidesRule,
    conflict: Option<CaptureConflict>,
) -> Option<OrderAction> {
    let captured = |id: ReportId| workspace.report(id).and_then(|r| r.captured.map(|c| c.at));
    let name = |id: ReportId| {
        workspace
            .report(id)
            .map_or(NOT_MEASURED, |r| r.name.as_str())
    };
    if let Some(c) = conflict {
        let mut action = None;
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(format!(
                    "Direction unconfirmed: the baseline {} was captured after {} ({} vs {}). It is the baseline \
                     because it was opened first; nothing is called won or lost until you \
                     swap to capture order or keep this order.",
                    name(base),
                    name(current),
                    capture_text(c.base_captured),
                    capture_text(c.current_captured)
                ))
                .color(ui.visuals().warn_fg_color),
            );
            if ui
                .button("Swap to capture order")
                .on_hover_text("Take the report captured first as the baseline")
                .clicked()
            {
                action = Some(OrderAction::Swap);
            }
            if ui
                .button("Keep this order")
                .on_hover_text("The report opened first is the baseline (kept for these files)")
                .clicked()
            {
                action = Some(OrderAction::Keep);
            }
        });
        return action;
    }
    let mut text = format!("Baseline report: {}", rule.reason());
    if rule == SidesRule::OlderCapture
        && let (Some(b), Some(c)) = (captured(base), captured(current))
    {
        text.push_str(&format!(
            " ({} before {})",
            capture_text(b),
            capture_text(c)
        ));
    }
    text.push_str(". Swap or pick to change it; the choice is kept for these files.");
    ui.weak(text);
    None
}

/// A combo box of the open reports, after its label.
fn report_picker(ui: &mut egui::Ui, workspace: &Workspace, label: &str, chosen: &mut ReportId) {
    let text = workspace
        .report(*chosen)
        .map_or_else(|| NOT_MEASURED.to_string(), |r| r.name.clone());
    let label = ui.label(label);
    egui::ComboBox::from_id_salt(("report_picker", label.id))
        .selected_text(text)
        .show_ui(ui, |ui| {
            for r in workspace.reports() {
                ui.selectable_value(chosen, r.id, &r.name);
            }
        })
        .response
        .labelled_by(label.id);
}

/// Counts and the total time won or lost (`neutral`: without the colours of won and lost).
fn summary_ui(ui: &mut egui::Ui, view: &ReportComparison, neutral: bool) {
    let diff = &view.diff;
    let worse = view.regressions;
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new(format!(
                "{} matched",
                count_text(diff.matched.len(), "kernel", "kernels")
            ))
            .strong(),
        );
        ui.separator();
        ui.label(format!(
            "{} only in the baseline report",
            diff.only_in_base.len()
        ));
        ui.separator();
        ui.label(format!(
            "{} only in the current report",
            diff.only_in_current.len()
        ));
        ui.separator();
        let text = RichText::new(if neutral {
            format!("{} changed beyond {}%", view.changed, diff.threshold_pct)
        } else if worse == 0 {
            format!("nothing got worse beyond {}%", diff.threshold_pct)
        } else {
            format!("{worse} got worse beyond {}%", diff.threshold_pct)
        });
        ui.label(if worse == 0 || neutral {
            text
        } else {
            text.color(theme::verdict_color(ui, Verdict::Worse))
        });
    });
    // Matched, only in base, only in current, net: the matched and net lines coloured by a
    // change beyond the noise threshold (and the printed precision); while the direction is
    // not confirmed, in words that call nothing won or lost.
    for (i, (line, verdict)) in view.totals.iter().enumerate() {
        let line = match view.unjudged_totals.get(i) {
            Some(unjudged) if neutral => unjudged,
            _ => line,
        };
        let text = RichText::new(line);
        ui.label(match verdict {
            Some(_) if neutral => text.strong(),
            Some(v) if *v != Verdict::Unchanged => {
                text.strong().color(theme::verdict_color(ui, *v))
            }
            Some(_) => text.strong(),
            None => text,
        });
    }
}

/// A cell text coloured by a verdict.
fn verdict_text(ui: &egui::Ui, text: String, verdict: Option<Verdict>) -> RichText {
    let t = RichText::new(text);
    match verdict {
        Some(v) => t.color(theme::verdict_color(ui, v)),
        None => t,
    }
}

fn cell(ui: &mut egui::Ui, text: impl Into<egui::WidgetText>) -> egui::Response {
    ui.add(egui::Label::new(text).truncate().selectable(false))
}

/// What the table says of a kernel only in the baseline report, and of one only in the
/// current report (short enough for the column; the summary above says the same).
const REMOVED: &str = "removed";
const ADDED: &str = "added";

/// The table of matched kernels by impact, then the unmatched ones; returns what a click or
/// the context menu of a row asks for (`candidates`: the current results, for "Pair with…").
fn table_ui(ui: &mut egui::Ui, view: &ReportComparison, neutral: bool) -> Option<TableAction> {
    let verdict_text = |ui: &egui::Ui, text: String, verdict: Option<Verdict>| {
        verdict_text(ui, text, verdict.filter(|_| !neutral))
    };
    let diff = &view.diff;
    let candidates = &view.candidates;
    let rows: Vec<&MatchedDiff> = view
        .by_impact
        .iter()
        .filter_map(|&i| diff.matched.get(i))
        .collect();
    let unmatched: Vec<(&str, &crate::analysis::compare::UnmatchedResult)> = diff
        .only_in_base
        .iter()
        .map(|u| (REMOVED, u))
        .chain(diff.only_in_current.iter().map(|u| (ADDED, u)))
        .collect();
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let mut clicked = None;
    egui::ScrollArea::horizontal()
        .id_salt("report_compare_table_wide")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let height = crate::pages::list_height(ui);
            let mut table = TableBuilder::new(ui)
                .id_salt("report_compare_table")
                .max_scroll_height(height)
                .min_scrolled_height(height)
                .striped(true)
                .resizable(true)
                .auto_shrink([false, false])
                .sense(egui::Sense::click())
                .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
                .column(Column::initial(64.0).at_least(40.0))
                .column(Column::initial(260.0).at_least(80.0).clip(true))
                .column(Column::initial(84.0).at_least(50.0))
                .column(Column::initial(84.0).at_least(50.0))
                .column(Column::initial(84.0).at_least(50.0))
                .column(Column::initial(72.0).at_least(50.0))
                .column(Column::initial(100.0).at_least(60.0));
            for _ in HEADLINE_METRICS {
                table = table.column(Column::initial(100.0).at_least(50.0));
            }
            table
                .header(row_height + 2.0, |mut header| {
                    let titles = [
                        "IDs",
                        "Kernel",
                        "Baseline",
                        "Current",
                        "Δ Duration",
                        "Verdict",
                        "Time",
                    ];
                    for t in titles {
                        header.col(|ui| {
                            ui.strong(t);
                        });
                    }
                    for (_, label) in HEADLINE_METRICS {
                        header.col(|ui| {
                            ui.strong(format!("Δ {label}"));
                        });
                    }
                })
                .body(|body| {
                    body.rows(row_height, rows.len() + unmatched.len(), |mut row| {
                        let i = row.index();
                        if let Some(k) = rows.get(i) {
                            let d = k.diff.duration.as_ref();
                            let verdict = d.map(|d| d.verdict);
                            let value = |v: Option<f64>| {
                                v.map_or_else(|| NOT_MEASURED.into(), |x| value_text(x, "ns"))
                            };
                            row.col(|ui| {
                                cell(
                                    ui,
                                    RichText::new(format!("{}→{}", k.base_id, k.current_id))
                                        .monospace(),
                                );
                            });
                            row.col(|ui| {
                                // Both names of a renamed kernel; what differs between the two
                                // launches (template arguments, grid, block) follows.
                                let (text, hover) = kernel_cell(k);
                                cell(ui, text).on_hover_text(hover);
                            });
                            row.col(|ui| {
                                cell(ui, value(k.base_duration_ns));
                            });
                            row.col(|ui| {
                                cell(ui, value(k.current_duration_ns));
                            });
                            row.col(|ui| {
                                let t = verdict_text(ui, delta_text(d), verdict);
                                cell(ui, t);
                            });
                            row.col(|ui| {
                                let (text, verdict) = verdict_cell(k, !neutral);
                                let t = verdict_text(ui, text.into(), verdict);
                                cell(ui, t);
                            });
                            row.col(|ui| {
                                let t = verdict_text(ui, time_cell(k, !neutral), verdict);
                                cell(ui, t);
                            });
                            for (key, _) in HEADLINE_METRICS {
                                let m = k.diff.get(key);
                                row.col(|ui| {
                                    let t = verdict_text(ui, delta_text(m), m.map(|m| m.verdict));
                                    cell(ui, t);
                                });
                            }
                            let response = row.response();
                            if response.clicked() {
                                clicked = Some(TableAction::Open(k.base_index, k.current_index));
                            }
                            let manual = k.kind == MatchKind::Manual;
                            pair_menu(&response, k.base_index, manual, candidates, &mut clicked);
                        } else if let Some((side, u)) =
                            i.checked_sub(rows.len()).and_then(|j| unmatched.get(j))
                        {
                            let base_side = *side == REMOVED;
                            row.col(|ui| {
                                let ids = if base_side {
                                    format!("{}→–", u.id)
                                } else {
                                    format!("–→{}", u.id)
                                };
                                cell(ui, RichText::new(ids).monospace().weak());
                            });
                            row.col(|ui| {
                                cell(
                                    ui,
                                    RichText::new(short_demangled(&u.name, REPORT_NAME_CHARS))
                                        .weak(),
                                )
                                .on_hover_text(&u.name);
                            });
                            let duration = u
                                .duration_ns
                                .map_or_else(|| NOT_MEASURED.into(), |d| value_text(d, "ns"));
                            let (b, c) = if base_side {
                                (duration, NOT_MEASURED.to_string())
                            } else {
                                (NOT_MEASURED.to_string(), duration)
                            };
                            row.col(|ui| {
                                cell(ui, RichText::new(b).weak());
                            });
                            row.col(|ui| {
                                cell(ui, RichText::new(c).weak());
                            });
                            row.col(|ui| {
                                cell(ui, RichText::new(*side).color(ui.visuals().warn_fg_color))
                                    .on_hover_text(if base_side {
                                        "Only in the baseline report"
                                    } else {
                                        "Only in the current report"
                                    });
                            });
                            for _ in 0..2 + HEADLINE_METRICS.len() {
                                row.col(|_| {});
                            }
                            if base_side {
                                let response = row.response();
                                pair_menu(&response, u.index, false, candidates, &mut clicked);
                            }
                        }
                    });
                });
        });
    clicked
}
