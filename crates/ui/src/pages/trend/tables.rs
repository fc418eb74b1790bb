//! The Trend page's tables: every kernel with a small line of its duration over the runs, its
//! latest value, its change (coloured by its verdict) and its share of the reference kernel;
//! and every run of the chosen kernel with its value, its change from the run before and its
//! share of the first run, of the fastest and of the reference. Kernel names are cut to the
//! column with the whole rename chain on hover, so the figures stay in view on a small screen.

use super::chart::{change_text, share_text};
use crate::analysis::compare::Verdict;
use crate::model::format::{NOT_MEASURED, measured_text};
use crate::widgets::section_body::bar_color;
use crate::widgets::theme::verdict_color;
use egui::RichText;
use egui_extras::{Column, TableBuilder};
use sightline_app::views::trend::chart::{KernelRow, TrendChart};
use sightline_app::views::trend::{TrendData, TrendFigure};

/// Width and height of a row's small line.
const SPARK: egui::Vec2 = egui::vec2(90.0, 16.0);
/// The least width of a name column, points.
const NAME_MIN: f32 = 110.0;
/// The width of a figure's column at least, and the room between columns, points.
const FIGURE: f32 = 64.0;
const SPACING: f32 = 8.0;

/// The width of a name column: what the longest of `names` needs, at most what the figures'
/// `columns` leave of the page (so that they stay in view: a longer name is cut, whole on
/// hover); on a wide page the rest stays empty at the right.
fn names_width<'a>(ui: &egui::Ui, names: impl Iterator<Item = &'a str>, columns: f32) -> f32 {
    let font = egui::TextStyle::Button.resolve(ui.style());
    let color = ui.visuals().text_color();
    let painter = ui.painter();
    let needed = names
        .map(|n| {
            painter
                .layout_no_wrap(n.to_string(), font.clone(), color)
                .size()
                .x
        })
        .fold(0.0, f32::max)
        + 2.0 * ui.spacing().button_padding.x
        + SPACING;
    let room = ui.available_width() - columns * (FIGURE + SPACING);
    needed.min(room).max(NAME_MIN)
}

/// The row height of the tables.
fn row_height(ui: &egui::Ui) -> f32 {
    ui.text_style_height(&egui::TextStyle::Body) + 6.0
}

/// A change in the colour of its verdict (red where the kernel got worse).
fn change_label(ui: &mut egui::Ui, change: Option<(f64, Verdict)>) {
    if let Some((pct, verdict)) = change {
        let color = match verdict {
            Verdict::Unchanged => ui.visuals().text_color(),
            v => verdict_color(ui, v),
        };
        ui.label(RichText::new(change_text(pct)).color(color));
    }
}

/// The kernels' table; returns the kernel clicked.
pub(super) fn kernels_table(
    ui: &mut egui::Ui,
    rows: &[KernelRow],
    selected: Option<usize>,
    reference: Option<usize>,
) -> Option<usize> {
    let mut clicked = None;
    let height = row_height(ui);
    let reference_title = reference
        .and_then(|r| rows.get(r))
        .map(|r| format!("% of {}", r.label));
    let figures = if reference_title.is_some() { 6.5 } else { 5.5 };
    let names = names_width(ui, rows.iter().map(|r| r.label.as_str()), figures);
    let mut table = TableBuilder::new(ui)
        .id_salt("trend_kernels")
        .striped(true)
        .vscroll(false)
        .auto_shrink([false, true])
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
        .column(Column::exact(names).clip(true))
        .column(Column::exact(SPARK.x + 8.0))
        .column(Column::auto().at_least(FIGURE))
        .column(Column::auto().at_least(FIGURE));
    if reference_title.is_some() {
        table = table.column(Column::auto().at_least(FIGURE).clip(true));
    }
    table
        .column(Column::remainder().at_least(FIGURE))
        .header(height, |mut header| {
            let titles = [
                Some("Kernel"),
                Some("Over the runs"),
                Some("Latest"),
                Some("Change"),
                reference_title.as_deref(),
                Some(""),
            ];
            for title in titles.into_iter().flatten() {
                header.col(|ui| {
                    ui.add(egui::Label::new(RichText::new(title).weak()).truncate());
                });
            }
        })
        .body(|mut body| {
            for (k, row) in rows.iter().enumerate() {
                body.row(height, |mut cells| {
                    cells.col(|ui| {
                        let name =
                            egui::Button::selectable(selected == Some(k), &row.label).truncate();
                        if ui.add(name).on_hover_text(&row.whole).clicked() {
                            clicked = Some(k);
                        }
                    });
                    cells.col(|ui| sparkline(ui, &row.means));
                    cells.col(|ui| {
                        ui.label(
                            row.latest
                                .map_or_else(|| NOT_MEASURED.into(), |v| measured_text(v, "ns")),
                        );
                    });
                    cells.col(|ui| {
                        change_label(ui, row.change.map(|j| (j.change.pct, j.verdict)));
                    });
                    if reference_title.is_some() {
                        cells.col(|ui| {
                            if !row.is_reference {
                                ui.label(share_text(row.of_reference));
                            }
                        });
                    }
                    cells.col(|ui| {
                        if row.regressed {
                            ui.colored_label(ui.visuals().error_fg_color, "regressed")
                                .on_hover_text(
                                    "The latest run is beyond the history of the runs before \
                                     it (the regressions above say by how much)",
                                );
                        } else if row.is_reference {
                            ui.weak("reference");
                        }
                    });
                });
            }
        });
    clicked
}

/// A small line of the values over the runs, with a gap where a run does not launch the
/// kernel.
fn sparkline(ui: &mut egui::Ui, values: &[Option<f64>]) {
    let (rect, _) = ui.allocate_exact_size(SPARK, egui::Sense::hover());
    if !ui.is_rect_visible(rect) {
        return;
    }
    // A damaged mean (no number) is drawn as a gap.
    let (lo, hi) = crate::analysis::series::finite_range(values);
    let n = values.len().max(2) as f32;
    let at = |i: usize, v: f64| {
        let y = if hi > lo {
            ((v - lo) / (hi - lo)) as f32
        } else {
            0.5
        };
        egui::pos2(
            rect.left() + rect.width() * i as f32 / (n - 1.0),
            rect.bottom() - rect.height() * y,
        )
    };
    let stroke = egui::Stroke::new(1.5, bar_color(ui, false));
    let mut previous: Option<egui::Pos2> = None;
    for (i, v) in values.iter().enumerate() {
        match v.filter(|v| v.is_finite()) {
            Some(v) => {
                let p = at(i, v);
                if let Some(q) = previous {
                    ui.painter().line_segment([q, p], stroke);
                }
                ui.painter().circle_filled(p, 1.5, stroke.color);
                previous = Some(p);
            }
            None => previous = None,
        }
    }
}

/// Every run of the chosen kernel: its name then (renames show), its value, the change from
/// the run before, and its share of the first run, the fastest and the reference kernel.
pub(super) fn runs_table(
    ui: &mut egui::Ui,
    data: &TrendData,
    chart: &TrendChart,
    figure: &TrendFigure,
) {
    let height = row_height(ui);
    let unit = figure.unit();
    let reference_title = chart
        .reference
        .as_ref()
        .map(|r| format!("% of {}", r.label));
    ui.add_space(6.0);
    let figures = if reference_title.is_some() { 7.0 } else { 6.0 };
    let names = names_width(
        ui,
        chart.runs.iter().filter_map(|r| r.name.as_deref()),
        figures,
    );
    let mut table = TableBuilder::new(ui)
        .id_salt("trend_runs")
        .striped(true)
        .vscroll(false)
        .auto_shrink([false, true])
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
        .column(Column::auto().at_least(40.0).at_most(120.0).clip(true))
        .column(Column::exact(names).clip(true))
        .column(Column::auto().at_least(FIGURE))
        .column(Column::auto().at_least(FIGURE))
        .column(Column::auto().at_least(FIGURE))
        .column(Column::auto().at_least(FIGURE));
    if reference_title.is_some() {
        table = table.column(Column::auto().at_least(FIGURE).clip(true));
    }
    table
        .column(Column::remainder())
        .header(height, |mut header| {
            let titles = [
                Some("Run"),
                Some("Kernel in the run"),
                Some(figure_title(figure)),
                Some("Change"),
                Some("% of first"),
                Some("% of fastest"),
                reference_title.as_deref(),
            ];
            for title in titles.into_iter().flatten() {
                header.col(|ui| {
                    ui.add(egui::Label::new(RichText::new(title).weak()).truncate());
                });
            }
        })
        .body(|mut body| {
            for r in &chart.runs {
                let label = data
                    .trend
                    .runs
                    .get(r.run)
                    .map_or("", |run| run.label.as_str());
                body.row(height, |mut cells| {
                    cells.col(|ui| {
                        ui.add(egui::Label::new(label).truncate())
                            .on_hover_text(label);
                    });
                    cells.col(|ui| {
                        let name = r.name.as_deref().unwrap_or("not launched");
                        ui.add(egui::Label::new(name).truncate())
                            .on_hover_text(name);
                    });
                    cells.col(|ui| {
                        ui.label(r.measured.map_or_else(
                            || NOT_MEASURED.into(),
                            |v| match figure {
                                TrendFigure::Duration => measured_text(v, unit),
                                _ => crate::model::format::value_text(v, unit),
                            },
                        ));
                    });
                    cells.col(|ui| {
                        change_label(ui, r.step.map(|j| (j.change.pct, j.verdict)));
                    });
                    cells.col(|ui| {
                        ui.label(share_text(r.of_first));
                    });
                    cells.col(|ui| {
                        let text = share_text(r.of_best);
                        if chart.best_run == Some(r.run) {
                            ui.strong(text).on_hover_text("The fastest run");
                        } else {
                            ui.label(text);
                        }
                    });
                    if reference_title.is_some() {
                        cells.col(|ui| {
                            ui.label(share_text(r.of_reference));
                        });
                    }
                });
            }
        });
}

/// The title of the figure's column.
fn figure_title(figure: &TrendFigure) -> &str {
    match figure {
        TrendFigure::Metric(m) => m,
        named => TrendFigure::NAMED
            .iter()
            .find(|(f, _)| f == named)
            .map_or("Value", |(_, name)| *name),
    }
}
