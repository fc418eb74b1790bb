//! The Details page: speed-of-light bars, then every section in order (collapsible) with its
//! metric table, rule results and bodies (charts and tables, with a body selector).

use crate::analysis::roofline::RooflineOptions;
use crate::model::format::value_and_unit;
use crate::model::section_body::ItemKind;
use crate::model::section_body::SectionBodies;
use crate::model::{KernelResult, MetricView, RuleResult, Section};
use crate::pages::roofline::{Contexts, context_of};
use crate::pages::{Page, PageContext, PageIo};
use crate::widgets::copy_menu::{self, copy_button};
use crate::widgets::section_body::BodyExtras;
use crate::widgets::{section_body, sol_bars};
use sightline_app::cache::Cached;
use sightline_app::core::commands::Command;
use sightline_app::core::page_id::PageId;
use sightline_app::views::hot_spots::{HotSpotInput, HotSpotsView};
use sightline_app::views::roofline::{RooflineScene, SceneKey, roofline_scene};
use sightline_app::views::section_bodies::{DrawnSection, ResultBodies, SectionBodiesView};

/// The Details page; its view-model keeps the bodies of the result last shown, as drawn.
#[derive(Debug, Default)]
pub struct DetailsPage {
    bodies: SectionBodiesView,
    hot_spots: HotSpotsView,
    /// Whether a hot-spot table was in view last frame (its lines are then read).
    hot_spots_seen: bool,
    /// The rooflines of the shown result, for its roofline section.
    roofline: DetailsRoofline,
}

impl Page for DetailsPage {
    fn id(&self) -> PageId {
        PageId::Details
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, io: &mut PageIo<'_>) {
        let shown = self.bodies.of(&cx.open.report, cx.at);
        let bodies = &shown.bodies;
        let sass = || cx.sass_imports.for_kernel(&cx.result.name.demangled);
        let input = HotSpotInput {
            at: cx.at,
            path: cx.open.path.clone(),
            result: cx.result,
            bodies,
            sass_generation: cx.sass_imports.generation(),
            sass: &sass,
            disassembler: cx.disassembler,
        };
        let ctx = ui.ctx().clone();
        // A screenshot is one frame: its hot spots are read at once.
        let screenshot = crate::screenshot_mode();
        let (tables, lines) = self.hot_spots.tables(
            &input,
            self.hot_spots_seen || screenshot,
            screenshot,
            move || ctx.request_repaint(),
        );
        let roofline = self.roofline.scene(cx, bodies);
        let extras = BodyExtras {
            hot_spots: tables,
            lines: Some(lines),
            roofline,
            hot_spots_in_view: Default::default(),
            lines_notes_shown: Default::default(),
        };
        show(
            ui,
            cx.result,
            &shown,
            &mut io.settings.show_sol_breakdown,
            &extras,
        );
        let seen = extras.hot_spots_in_view.get();
        if seen && !self.hot_spots_seen {
            ui.ctx().request_repaint();
        }
        self.hot_spots_seen = seen;
        if let Some(address) = section_body::take_source_jump(ui.ctx()) {
            io.shared.source_jump = Some((cx.at, address));
            io.commands.push(Command::ShowPage(PageId::Source));
        }
    }

    fn release(&mut self) {
        self.bodies.release();
        self.hot_spots.release();
        self.roofline = DetailsRoofline::default();
    }
}

/// The rooflines of the shown result, computed when the result, its baselines or the reports
/// change, and only for results whose sections hold roofline charts.
#[derive(Debug, Default)]
struct DetailsRoofline {
    scene: Cached<SceneKey, Option<RooflineScene>>,
    /// The roofline contexts of the reports (built once per report and workspace generation).
    contexts: Contexts,
}

impl DetailsRoofline {
    fn scene(&mut self, cx: &PageContext<'_>, bodies: &[SectionBodies]) -> Option<&RooflineScene> {
        let has_chart = bodies
            .iter()
            .flat_map(|s| &s.bodies)
            .flat_map(|b| &b.items)
            .any(|i| i.kind == ItemKind::RooflineChart);
        if !has_chart {
            return None;
        }
        let options = RooflineOptions::default();
        let key = SceneKey::new(cx.workspace, cx.at, cx.baselines, &options);
        let contexts = &mut self.contexts;
        self.scene
            .get_or_compute(key, |key| {
                roofline_scene(
                    cx.workspace,
                    key.at,
                    cx.baselines,
                    &options,
                    &mut |report| context_of(contexts, cx.workspace, report),
                )
            })
            .as_ref()
    }
}

/// For documentation screenshots (`EFRAME_SCREENSHOT_TO` set): show only the sections whose
/// name contains `SIGHTLINE_SCREENSHOT_SECTION`, without the speed-of-light bars.
pub(crate) fn screenshot_focus() -> Option<&'static str> {
    static FOCUS: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    FOCUS
        .get_or_init(|| {
            std::env::var_os("EFRAME_SCREENSHOT_TO")?;
            std::env::var("SIGHTLINE_SCREENSHOT_SECTION")
                .ok()
                .filter(|s| !s.is_empty())
        })
        .as_deref()
}

/// Whether bodies belong under a section: the same name, or a section extending it.
fn belongs(b: &SectionBodies, section: &Section) -> bool {
    b.name == section.name
        || (section.identifier.is_some() && b.extends.as_ref() == section.identifier.as_ref())
}

/// Shows the Details page of a result with its section bodies as drawn.
pub fn show(
    ui: &mut egui::Ui,
    result: &KernelResult,
    shown: &ResultBodies,
    show_breakdown: &mut bool,
    extras: &BodyExtras<'_>,
) {
    let bodies = shown.bodies.as_slice();
    let missing = shown.missing;
    egui::ScrollArea::vertical()
        .id_salt("details_page")
        .auto_shrink([false, false])
        .show(ui, |ui| {
            let focus = screenshot_focus();
            if focus.is_none() {
                sol_bars::show(ui, result, &shown.breakdown, show_breakdown);
                ui.separator();
            }
            if result.sections().is_empty() {
                ui.weak("This form of report has no sections; the Raw page lists every metric.");
            }
            // The speed-of-light bars above draw that section's chart and breakdown.
            let mut drawn: Vec<bool> = bodies
                .iter()
                .map(|b| {
                    b.identifier.as_deref() == Some("SpeedOfLight")
                        || b.name == "GPU Speed Of Light Throughput"
                })
                .collect();
            for (i, section) in result.sections().iter().enumerate() {
                if focus.is_some_and(|f| !section.name.contains(f)) {
                    continue;
                }
                let mut own: Vec<DrawnSection<'_>> = Vec::new();
                for (k, b) in bodies.iter().enumerate() {
                    if !drawn[k] && belongs(b, section) {
                        drawn[k] = true;
                        own.extend(shown.drawn(k));
                    }
                }
                section_ui(ui, i, section, &own, extras);
                if let Some(note) = missing.filter(|_| has_bodies_in_ncu(&section.name)) {
                    ui.indent(("missing_bodies", i), |ui| {
                        ui.weak(format!("Charts and tables of this section: {note}."));
                    });
                }
            }
            // Sections with bodies only (no header table and no rule output); sections
            // extending the same absent section share one selector.
            let mut groups: Vec<(Option<&str>, Vec<DrawnSection<'_>>)> = Vec::new();
            for (k, b) in bodies.iter().enumerate() {
                if drawn[k] || focus.is_some_and(|f| !b.name.contains(f)) {
                    continue;
                }
                let Some(d) = shown.drawn(k) else { continue };
                let key = b.extends.as_deref();
                match groups.iter_mut().find(|g| key.is_some() && g.0 == key) {
                    Some(g) => g.1.push(d),
                    None => groups.push((key, vec![d])),
                }
            }
            for (k, (_, group)) in groups.iter().enumerate() {
                let title = &group[0].section.name;
                egui::CollapsingHeader::new(egui::RichText::new(title).strong())
                    .id_salt(("section_bodies_only", title, k))
                    .default_open(true)
                    .show(ui, |ui| section_body::show_group_with(ui, group, extras));
            }
            if !result.rules().is_empty() {
                egui::CollapsingHeader::new(egui::RichText::new("Other rule results").strong())
                    .id_salt("section_other_rules")
                    .default_open(true)
                    .show(ui, |ui| rules_ui(ui, result.rules()));
            }
        });
}

/// Whether ncu draws charts or tables below this stock section's header.
fn has_bodies_in_ncu(section: &str) -> bool {
    [
        "Compute Workload Analysis",
        "Memory Workload Analysis",
        "Scheduler Statistics",
        "Warp State Statistics",
        "Instruction Statistics",
        "Occupancy",
        "PM Sampling",
        "GPU and Memory Workload Distribution",
        "Source Counters",
        "NUMA Affinity",
    ]
    .contains(&section)
}

/// One collapsible section: its metric table, its rule results, then its bodies.
fn section_ui(
    ui: &mut egui::Ui,
    index: usize,
    section: &Section,
    bodies: &[DrawnSection<'_>],
    extras: &BodyExtras<'_>,
) {
    let title = if section.name.is_empty() {
        section
            .identifier
            .clone()
            .unwrap_or_else(|| "Section".into())
    } else {
        section.name.clone()
    };
    egui::CollapsingHeader::new(egui::RichText::new(&title).strong())
        .id_salt(("section", &title, index))
        .default_open(true)
        .show(ui, |ui| {
            if !section.rows.is_empty() {
                egui::Grid::new(("section_metrics", index))
                    .striped(true)
                    .num_columns(3)
                    .min_col_width(60.0)
                    .show(ui, |ui| {
                        ui.weak("Metric Name");
                        ui.weak("Metric Unit");
                        ui.weak("Metric Value");
                        ui.end_row();
                        for row in &section.rows {
                            let (value, unit) = value_and_unit(&row.metric.value, &row.metric.unit);
                            let name = ui.label(&row.label).on_hover_ui(|ui| {
                                metric_tooltip(ui, &row.label, &row.metric.view())
                            });
                            metric_copy_menu(&name, &row.label, &row.metric.view());
                            ui.label(&unit);
                            let shown = ui.label(&value).on_hover_ui(|ui| {
                                metric_tooltip(ui, &row.label, &row.metric.view())
                            });
                            metric_copy_menu(&shown, &row.label, &row.metric.view());
                            ui.end_row();
                        }
                    });
            }
            rules_ui(ui, &section.rules);
            if !bodies.is_empty() {
                ui.add_space(4.0);
                section_body::show_group_with(ui, bodies, extras);
            }
        });
}

/// The right-click menu of a metric: copy its value, its name, or its row as TSV or Markdown.
pub fn metric_copy_menu(response: &egui::Response, label: &str, metric: &MetricView<'_>) {
    response.context_menu(|ui| {
        let (value, unit) = value_and_unit(&metric.value, &metric.unit);
        let with_unit = if unit.is_empty() {
            value.clone()
        } else {
            format!("{value} {unit}")
        };
        copy_button(ui, "Copy value", || with_unit);
        copy_button(ui, "Copy label", || label.to_string());
        if let Some(name) = metric.name.as_deref() {
            copy_button(ui, "Copy metric name", || name.to_string());
        }
        let cells = [label.to_string(), unit, value];
        copy_menu::row_buttons(ui, &["Metric Name", "Metric Unit", "Metric Value"], &cells);
    });
}

/// The tooltip of a metric: name, unit and raw value.
pub fn metric_tooltip(ui: &mut egui::Ui, label: &str, metric: &MetricView<'_>) {
    ui.strong(label);
    egui::Grid::new("metric_tooltip")
        .num_columns(2)
        .show(ui, |ui| {
            ui.weak("Metric");
            ui.monospace(
                metric
                    .name
                    .as_deref()
                    .unwrap_or("(no metric name in this form)"),
            );
            ui.end_row();
            ui.weak("Unit");
            ui.monospace(if metric.unit.is_empty() {
                "-"
            } else {
                &metric.unit
            });
            ui.end_row();
            ui.weak("Raw value");
            ui.monospace(format!("{} ({})", metric.value, metric.value.kind_name()));
            ui.end_row();
            if let Some(printed) = &metric.printed {
                ui.weak("Printed");
                ui.monospace(
                    format!("{} {}", printed.value, printed.unit)
                        .trim_end()
                        .to_string(),
                );
                ui.end_row();
            }
            if !metric.instances.is_empty() {
                ui.weak("Instances");
                ui.monospace(metric.instances.len().to_string());
                ui.end_row();
            }
        });
}

/// Rule results as cards ([`crate::widgets::rule_card`]).
pub fn rules_ui(ui: &mut egui::Ui, rules: &[RuleResult]) {
    for rule in rules {
        crate::widgets::rule_card::show(ui, &sightline_app::views::rules::RuleLine::of(rule, ""));
    }
}
