//! The Occupancy page: the block limit of each resource with the limiter highlighted,
//! theoretical against achieved occupancy, where the device limits came from (with an
//! architecture to pick when the source names none), the occupancy graphs with the kernel's
//! own point, and what-if sliders that recompute everything live.

use crate::analysis::occupancy::{
    CcOrigin, CurveKind, GpuLimits, LaunchConfig, LimitsSource, OccupancyError, OccupancyOptions,
};
use crate::model::format::NOT_MEASURED;
use crate::pages::PageContext;
use crate::pages::{Page, PageIo};
use egui::{Color32, RichText};
use egui_plot::{Line, LineStyle, MarkerShape, Plot, Points, VLine};
use sightline_app::cache::Cached;
use sightline_app::core::ids::ResultRef;
use sightline_app::core::page_id::PageId;
use sightline_app::views::occupancy::{
    CurveView, LimitRow, OccupancyKey, OccupancyView, cc_text, occupancy_view,
};

impl Page for OccupancyPage {
    fn id(&self) -> PageId {
        PageId::Occupancy
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, io: &mut PageIo<'_>) {
        show(ui, cx, self, &mut io.shared.assumed_cc);
    }

    fn release(&mut self) {
        OccupancyPage::release(self);
    }
}

/// Height of one occupancy graph, points: below the figures, and beside them.
const GRAPH_HEIGHT: f32 = 190.0;
const GRAPH_HEIGHT_SIDE: f32 = 132.0;
/// The most a graph grows to in a tall window, points.
const GRAPH_HEIGHT_MAX: f32 = 300.0;
/// Height of the X axis (ticks and label) and width of the Y axis of a graph, points.
const AXIS_THICKNESS: f32 = 34.0;
/// From this width on, the graphs go beside the figures.
const WIDE_LAYOUT_WIDTH: f32 = 1000.0;
/// Largest named-barrier count per block the what-if offers.
const MAX_BARRIERS_PER_BLOCK: u32 = 16;
/// Colours of the curve, the kernel's point and the what-if point.
const CURVE_COLOR: Color32 = Color32::from_rgb(70, 140, 230);
const KERNEL_COLOR: Color32 = Color32::from_rgb(235, 140, 40);
const WHAT_IF_COLOR: Color32 = Color32::from_rgb(60, 175, 110);

/// The what-if inputs, the display choices and the cached view of the Occupancy page.
#[derive(Default)]
pub struct OccupancyPage {
    /// The result the what-if belongs to, the kernel's own launch and the edited one.
    what_if: Option<(ResultRef, LaunchConfig, LaunchConfig)>,
    /// Graphs in warps per SM instead of % occupancy.
    show_warps: bool,
    /// Ignore the report's device attributes.
    table_only: bool,
    view: Cached<OccupancyKey, Option<Result<OccupancyView, OccupancyError>>>,
}

impl OccupancyPage {
    /// Drops the cached view (reports closed or replaced).
    pub fn release(&mut self) {
        self.view.clear();
    }
}

/// A combo box of the architectures the built-in table knows, for sources without a compute
/// capability.
pub fn architecture_picker(ui: &mut egui::Ui, assumed: &mut Option<(u32, u32)>) {
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new("The source names no compute capability.")
                .color(ui.visuals().warn_fg_color),
        );
        let text = assumed.map_or_else(|| "choose…".to_string(), cc_text);
        // Tall enough for every architecture of the table (Maxwell to Blackwell) at once.
        let rows = GpuLimits::table_ccs().count() as f32 + 1.0;
        egui::ComboBox::from_label("Assumed architecture")
            .selected_text(text)
            .height(rows * ui.spacing().interact_size.y)
            .show_ui(ui, |ui| {
                for cc in GpuLimits::table_ccs() {
                    ui.selectable_value(assumed, Some(cc), cc_text(cc));
                }
            });
    });
}

/// Shows the Occupancy page.
pub fn show(
    ui: &mut egui::Ui,
    cx: &PageContext<'_>,
    state: &mut OccupancyPage,
    assumed_cc: &mut Option<(u32, u32)>,
) {
    if let Some(w) = sightline_app::views::occupancy::workload_occupancy(cx.result) {
        workload_ui(ui, &w);
        return;
    }
    let edited = state.what_if.filter(|w| w.0 == cx.at && w.2 != w.1);
    let key = OccupancyKey {
        generation: cx.workspace.generation(),
        at: cx.at,
        options: OccupancyOptions {
            assumed_cc: *assumed_cc,
            table_only: state.table_only,
        },
        what_if: edited.map(|w| w.2),
        show_warps: state.show_warps,
    };
    let kernel = edited.map(|w| w.1);
    let view = state
        .view
        .get_or_compute(key, |k| occupancy_view(cx.workspace, k, kernel));
    let Some(view) = view else {
        return;
    };
    egui::ScrollArea::vertical()
        .id_salt("occupancy_page")
        .auto_shrink([false, false])
        .show(ui, |ui| match view {
            Ok(v) => {
                let mut what_if = v.what_if;
                let choices = Choices {
                    assumed_cc,
                    table_only: &mut state.table_only,
                    show_warps: &mut state.show_warps,
                    what_if: &mut what_if,
                };
                view_ui(ui, v, choices);
                if what_if != v.what_if {
                    // Computed again for the next frame.
                    ui.ctx().request_repaint();
                }
                state.what_if = Some((cx.at, v.analysis.launch, what_if));
            }
            Err(e) => {
                if *e == OccupancyError::UnknownCc || assumed_cc.is_some() {
                    architecture_picker(ui, assumed_cc);
                }
                ui.label(format!("No occupancy for this result: {e}."));
            }
        });
}

/// A range's (graph's, command list's) achieved occupancy, and why there is nothing else.
fn workload_ui(ui: &mut egui::Ui, w: &sightline_app::views::occupancy::WorkloadOccupancy) {
    egui::Grid::new("workload_occupancy")
        .num_columns(2)
        .spacing([16.0, 4.0])
        .show(ui, |ui| {
            ui.weak("Achieved Occupancy");
            ui.label(
                RichText::new(
                    w.achieved_pct
                        .map_or_else(|| NOT_MEASURED.into(), |v| format!("{v:.2} %")),
                )
                .strong(),
            );
            ui.end_row();
            ui.weak("Achieved Active Warps Per SM");
            ui.label(
                w.achieved_warps_per_sm
                    .map_or_else(|| NOT_MEASURED.into(), |v| format!("{v:.2}")),
            );
            ui.end_row();
        });
    ui.add_space(6.0);
    ui.weak(format!(
        "This result is a {}: it spans many kernel launches, and the block size, registers and \
         shared memory it records belong to one of them. As in Nsight Compute, only the \
         achieved occupancy is shown; there is no theoretical occupancy, limiter or what-if.",
        w.kind
    ));
}

/// What the user changes on the page.
struct Choices<'a> {
    assumed_cc: &'a mut Option<(u32, u32)>,
    table_only: &'a mut bool,
    show_warps: &'a mut bool,
    what_if: &'a mut LaunchConfig,
}

fn view_ui(ui: &mut egui::Ui, v: &OccupancyView, c: Choices<'_>) {
    let a = &v.analysis;
    if a.cc_origin == CcOrigin::Assumed {
        architecture_picker(ui, c.assumed_cc);
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(&v.limits_source);
        if a.source == LimitsSource::Report || *c.table_only {
            ui.checkbox(c.table_only, "Use the built-in table only");
        }
    });
    ui.add_space(6.0);
    summary_ui(ui, v);
    ui.add_space(6.0);
    if ui.available_width() >= WIDE_LAYOUT_WIDTH {
        // Limits and what-if on the left, the graphs beside them.
        ui.columns(2, |cols| {
            if let [left, right] = cols {
                limits_table(left, &v.rows);
                left.add_space(8.0);
                what_if_ui(left, v, c.what_if);
                graphs_ui(right, v, c.show_warps, GRAPH_HEIGHT_SIDE);
            }
        });
    } else {
        limits_table(ui, &v.rows);
        ui.add_space(8.0);
        what_if_ui(ui, v, c.what_if);
        ui.add_space(8.0);
        graphs_ui(ui, v, c.show_warps, GRAPH_HEIGHT);
    }
    if !a.notes.is_empty() {
        egui::CollapsingHeader::new(RichText::new("Notes").strong())
            .id_salt("occupancy_notes")
            .default_open(true)
            .show(ui, |ui| {
                for n in &a.notes {
                    ui.label(format!("• {n}"));
                }
            });
    }
}

/// Theoretical and achieved occupancy and warps.
fn summary_ui(ui: &mut egui::Ui, v: &OccupancyView) {
    let a = &v.analysis;
    let o = &a.occupancy;
    egui::Grid::new("occupancy_summary")
        .num_columns(4)
        .spacing([16.0, 4.0])
        .show(ui, |ui| {
            ui.weak("Theoretical Occupancy");
            ui.label(RichText::new(format!("{:.2} %", o.occupancy_pct)).strong());
            ui.weak("Achieved Occupancy");
            ui.label(
                a.achieved_occupancy_pct
                    .map_or_else(|| NOT_MEASURED.into(), |v| format!("{v:.2} %")),
            );
            ui.end_row();
            ui.weak("Theoretical Active Warps per SM");
            ui.label(o.active_warps.to_string());
            ui.weak("Achieved Active Warps Per SM");
            ui.label(
                a.achieved_warps_per_sm
                    .map_or_else(|| NOT_MEASURED.into(), |v| format!("{v:.2}")),
            );
            ui.end_row();
            ui.weak("Limiter");
            ui.label(
                RichText::new(&v.limiter)
                    .strong()
                    .color(ui.visuals().warn_fg_color),
            );
            ui.weak("Blocks per SM");
            ui.label(o.active_blocks.to_string());
            ui.end_row();
        });
    if let Some(text) = &v.printed_mismatch {
        ui.label(RichText::new(text).color(ui.visuals().warn_fg_color));
    }
}

/// The block limit of each resource, the limiter highlighted.
fn limits_table(ui: &mut egui::Ui, rows: &[LimitRow]) {
    let highlight = ui.visuals().warn_fg_color;
    egui::Grid::new("occupancy_limits")
        .striped(true)
        .num_columns(5)
        .spacing([14.0, 4.0])
        .show(ui, |ui| {
            ui.strong("Resource");
            ui.strong("Blocks per SM");
            ui.strong("Per block");
            ui.strong("Per SM");
            ui.strong("");
            ui.end_row();
            for row in rows {
                let text = |t: &str| {
                    let r = RichText::new(t);
                    if row.binds {
                        r.strong().color(highlight)
                    } else {
                        r
                    }
                };
                ui.label(text(row.label));
                ui.label(text(&row.blocks));
                ui.label(&row.per_block).on_hover_text(&row.detail);
                ui.label(&row.per_sm);
                if row.binds {
                    ui.label(RichText::new("limiter").strong().color(highlight));
                } else {
                    ui.label("");
                }
                ui.end_row();
            }
        });
}

/// The what-if sliders and the occupancy they give.
fn what_if_ui(ui: &mut egui::Ui, v: &OccupancyView, w: &mut LaunchConfig) {
    let limits = &v.analysis.limits;
    let kernel = &v.analysis.launch;
    ui.strong("What if");
    ui.add(
        egui::Slider::new(&mut w.block_size, 1..=limits.max_threads_per_block.max(1))
            .text("Threads per block"),
    );
    ui.add(
        egui::Slider::new(
            &mut w.registers_per_thread,
            0..=limits.max_registers_per_thread.max(1),
        )
        .text("Registers per thread"),
    );
    let mut user = w.user_shared_mem_per_block();
    let max_user = limits.max_user_shared_mem_per_block().max(user);
    if ui
        .add(egui::Slider::new(&mut user, 0..=max_user).text("Shared memory per block (bytes)"))
        .changed()
    {
        w.shared_mem_static = user.min(kernel.shared_mem_static);
        w.shared_mem_dynamic = user - w.shared_mem_static;
    }
    if limits.enforces_barriers() {
        let max_barriers = MAX_BARRIERS_PER_BLOCK.max(w.barriers);
        ui.add(egui::Slider::new(&mut w.barriers, 0..=max_barriers).text("Barriers per block"));
    }
    let changed = *w != *kernel;
    ui.horizontal_wrapped(|ui| {
        if ui
            .add_enabled(changed, egui::Button::new("Reset to the kernel's values"))
            .clicked()
        {
            *w = *kernel;
        }
        // The text belongs to the launch the view was computed for (this frame's slider
        // move shows from the next frame on).
        match &v.what_if_text {
            Some(text) => {
                ui.label(RichText::new(text).strong().color(WHAT_IF_COLOR));
            }
            None => {
                ui.weak("Move a slider to see the occupancy of other launch settings.");
            }
        }
    });
}

/// The occupancy graphs, two per row.
fn graphs_ui(ui: &mut egui::Ui, v: &OccupancyView, show_warps: &mut bool, height: f32) {
    let changed = v.what_if_changed();
    ui.horizontal_wrapped(|ui| {
        ui.strong("Occupancy graphs: impact of varying");
        ui.selectable_value(show_warps, false, "% Occupancy");
        ui.selectable_value(show_warps, true, "# Warps");
    });
    // The legend on a line of its own, so it never breaks inside an entry.
    ui.horizontal_wrapped(|ui| {
        ui.label(
            RichText::new(if changed {
                "What-if curve"
            } else {
                "Occupancy curve"
            })
            .color(CURVE_COLOR),
        );
        ui.label(RichText::new("This kernel (diamond)").color(KERNEL_COLOR));
        if changed {
            ui.label(RichText::new("What-if (circle)").color(WHAT_IF_COLOR));
        }
    });
    let height = graph_height(ui, v.curves.len(), height);
    for pair in v.curves.chunks(2) {
        ui.columns(2, |cols| {
            for (col, curve) in cols.iter_mut().zip(pair) {
                curve_plot(col, v, curve, height);
            }
        });
    }
}

/// The height of each graph: at least `least`, and more where the page's visible height leaves
/// room for every row of graphs (a tall window shows them larger instead of empty space).
fn graph_height(ui: &egui::Ui, curves: usize, least: f32) -> f32 {
    let rows = curves.div_ceil(2).max(1) as f32;
    // Below each plot: its title line and the spacing between rows.
    let per_row_extra =
        ui.text_style_height(&egui::TextStyle::Body) + 3.0 * ui.spacing().item_spacing.y;
    let room = ui.clip_rect().bottom() - ui.cursor().top();
    ((room / rows) - per_row_extra).clamp(least, GRAPH_HEIGHT_MAX)
}

/// Ticks and labels of the shared-memory axis: bytes in KB (1,024 bytes), as CUDA states its
/// shared-memory sizes.
fn shared_mem_axis(mark: egui_plot::GridMark, _range: &std::ops::RangeInclusive<f64>) -> String {
    format!("{} KB", (mark.value / 1024.0).round())
}

/// One occupancy graph: the curve of the what-if launch, the kernel's own point and the
/// what-if point.
fn curve_plot(ui: &mut egui::Ui, v: &OccupancyView, curve: &CurveView, height: f32) {
    let kind = curve.kind;
    let warps = v.show_warps;
    let changed = v.what_if_changed();
    let x_label = kind.x_label();
    let y_unit = if warps { " warps" } else { " %" };
    // ncu's titles all start "Impact of Varying"; the graphs' header says so once, which
    // leaves room for what varies in a half-width column.
    let short_title = kind.title().trim_start_matches("Impact of Varying ");
    ui.add(egui::Label::new(RichText::new(short_title).strong()).truncate())
        .on_hover_text(kind.title());
    let mut plot = Plot::new(("occupancy_curve", kind.name()));
    let mut x_axis = egui_plot::AxisHints::new_x()
        .label(if kind == CurveKind::SharedMem {
            // The ticks carry the unit.
            "Shared Memory Per Block"
        } else {
            x_label
        })
        .min_thickness(AXIS_THICKNESS);
    match kind {
        // The default spacing labels only 0 on a 0..64 axis this narrow.
        CurveKind::Barriers => {
            plot = plot.x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [4.0, 16.0, 64.0]));
        }
        CurveKind::SharedMem => {
            plot = plot.x_grid_spacer(egui_plot::uniform_grid_spacer(|_| {
                [8.0 * 1024.0, 32.0 * 1024.0, 128.0 * 1024.0]
            }));
            x_axis = x_axis.formatter(shared_mem_axis);
        }
        _ => {}
    }
    plot.height(height)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .include_x(0.0)
        .include_y(0.0)
        .include_y(v.y_max)
        // Room for the ticks and the axis label from the first frame on.
        .custom_x_axes(vec![x_axis])
        .y_axis_label(if warps {
            "Warps per SM"
        } else {
            "Occupancy [%]"
        })
        .y_axis_min_width(AXIS_THICKNESS)
        .label_formatter(move |pos| match pos {
            egui_plot::HoverPosition::NearDataPoint {
                plot_name,
                position,
                ..
            } => Some(format!(
                "{plot_name}\n{x_label}: {}\n{:.1}{y_unit}",
                position.x, position.y
            )),
            egui_plot::HoverPosition::Elsewhere { .. } => None,
        })
        .show(ui, |plot_ui| {
            plot_ui.line(
                Line::new(
                    if changed {
                        "What-if curve"
                    } else {
                        "Occupancy"
                    },
                    curve.points.clone(),
                )
                .color(CURVE_COLOR)
                .width(1.5),
            );
            if changed {
                plot_ui.vline(
                    VLine::new("", curve.what_if_point[0])
                        .color(WHAT_IF_COLOR.gamma_multiply(0.6))
                        .style(LineStyle::dashed_loose())
                        .allow_hover(false),
                );
                plot_ui.points(
                    Points::new("What-if", vec![curve.what_if_point])
                        .shape(MarkerShape::Circle)
                        .radius(5.0)
                        .color(WHAT_IF_COLOR),
                );
            }
            plot_ui.points(
                Points::new("This kernel", vec![curve.kernel_point])
                    .shape(MarkerShape::Diamond)
                    .radius(6.0)
                    .color(KERNEL_COLOR),
            );
        });
}
