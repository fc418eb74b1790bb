//! The Occupancy page: the block limit of each resource with the limiter highlighted,
//! theoretical against achieved occupancy, where the device limits came from (with an
//! architecture to pick when the source names none), the occupancy graphs with the kernel's
//! own point, and what-if sliders that recompute everything live.

use crate::analysis::occupancy::{
    self, CcOrigin, CurveKind, GpuLimits, LaunchConfig, Limiter, LimitsSource, Occupancy,
    OccupancyAnalysis, OccupancyError, OccupancyOptions, calculate, curves,
};
use crate::app::page_id::PageId;
use crate::app::workspace::ResultRef;
use crate::model::names;
use crate::model::units::group_thousands;
use crate::ui::pages::PageContext;
use crate::ui::pages::{Page, PageIo};
use egui::{Color32, RichText};
use egui_plot::{Line, LineStyle, MarkerShape, Plot, Points, VLine};

impl Page for OccupancyViewState {
    fn id(&self) -> PageId {
        PageId::Occupancy
    }

    fn ui(&mut self, ui: &mut egui::Ui, cx: &PageContext<'_>, io: &mut PageIo<'_>) {
        show(ui, cx, self, &mut io.shared.assumed_cc);
    }
}

/// Height of one occupancy graph, points: below the figures, and beside them.
const GRAPH_HEIGHT: f32 = 190.0;
const GRAPH_HEIGHT_SIDE: f32 = 132.0;
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

/// The what-if inputs and the display choices of the Occupancy page.
#[derive(Default)]
pub struct OccupancyViewState {
    /// The result and architecture the what-if belongs to, the kernel's own launch and the
    /// edited one.
    what_if: Option<(ResultRef, (u32, u32), LaunchConfig, LaunchConfig)>,
    /// Graphs in warps per SM instead of % occupancy.
    show_warps: bool,
    /// Ignore the report's device attributes.
    table_only: bool,
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
        egui::ComboBox::from_label("Assumed architecture")
            .selected_text(text)
            .show_ui(ui, |ui| {
                for cc in GpuLimits::table_ccs() {
                    ui.selectable_value(assumed, Some(cc), cc_text(cc));
                }
            });
    });
}

/// `CC 8.6`.
pub fn cc_text(cc: (u32, u32)) -> String {
    format!("CC {}.{}", cc.0, cc.1)
}

/// Where the device limits came from, in words.
pub fn limits_source_text(a: &OccupancyAnalysis) -> String {
    let cc = format!("{}.{}", a.cc.0, a.cc.1);
    match (a.cc_origin, a.source) {
        (CcOrigin::Assumed, _) => format!(
            "Device limits: the built-in table for CC {cc}, an assumed architecture (the source \
             names no compute capability)"
        ),
        (CcOrigin::Report, LimitsSource::Report) => format!(
            "Device limits: the report's device attributes (CC {cc}), with the built-in table's \
             allocation rules"
        ),
        (CcOrigin::Report, LimitsSource::Table) => format!(
            "Device limits: the built-in table for CC {cc} (the source has no device attributes)"
        ),
    }
}

/// The limiters as text: `Warps`, `Registers, Warps`.
pub fn limiter_text(o: &Occupancy) -> String {
    let names: Vec<&str> = o.limiters.iter().map(limiter_name).collect();
    if names.is_empty() {
        "-".into()
    } else {
        names.join(", ")
    }
}

/// The name of a limiter on this page (ncu's "Block Limit" labels).
fn limiter_name(l: Limiter) -> &'static str {
    match l {
        Limiter::Registers => "Registers",
        Limiter::SharedMem => "Shared Memory",
        Limiter::Warps => "Warps",
        Limiter::Blocks => "SM",
        Limiter::Barriers => "Barriers",
    }
}

/// Shows the Occupancy page.
pub fn show(
    ui: &mut egui::Ui,
    cx: &PageContext<'_>,
    state: &mut OccupancyViewState,
    assumed_cc: &mut Option<(u32, u32)>,
) {
    let options = OccupancyOptions {
        assumed_cc: *assumed_cc,
        table_only: state.table_only,
    };
    let device = cx.open.report.device_of(cx.result);
    let analysis = occupancy::analyze(cx.result, device, &options);
    egui::ScrollArea::vertical()
        .id_salt("occupancy_page")
        .auto_shrink([false, false])
        .show(ui, |ui| match analysis {
            Ok(a) => analysis_ui(ui, cx, state, assumed_cc, &a),
            Err(e) => {
                if e == OccupancyError::UnknownCc || assumed_cc.is_some() {
                    architecture_picker(ui, assumed_cc);
                }
                ui.label(format!("No occupancy for this result: {e}."));
            }
        });
}

fn analysis_ui(
    ui: &mut egui::Ui,
    cx: &PageContext<'_>,
    state: &mut OccupancyViewState,
    assumed_cc: &mut Option<(u32, u32)>,
    a: &OccupancyAnalysis,
) {
    let kernel = a.launch;
    let fresh = matches!(&state.what_if, Some((at, cc, k, _)) if *at == cx.at && *cc == a.cc && *k == kernel);
    if !fresh {
        state.what_if = Some((cx.at, a.cc, kernel, kernel));
    }
    let mut what_if = state.what_if.map_or(kernel, |w| w.3);

    if a.cc_origin == CcOrigin::Assumed {
        architecture_picker(ui, assumed_cc);
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(limits_source_text(a));
        if a.source == LimitsSource::Report || state.table_only {
            ui.checkbox(&mut state.table_only, "Use the built-in table only");
        }
    });
    ui.add_space(6.0);
    summary_ui(ui, cx, a);
    ui.add_space(6.0);
    if ui.available_width() >= WIDE_LAYOUT_WIDTH {
        // Limits and what-if on the left, the graphs beside them.
        ui.columns(2, |cols| {
            if let [left, right] = cols {
                limits_and_what_if_ui(left, a, &kernel, &mut what_if);
                graphs_ui(
                    right,
                    state,
                    &a.limits,
                    &kernel,
                    &what_if,
                    GRAPH_HEIGHT_SIDE,
                );
            }
        });
    } else {
        limits_and_what_if_ui(ui, a, &kernel, &mut what_if);
        ui.add_space(8.0);
        graphs_ui(ui, state, &a.limits, &kernel, &what_if, GRAPH_HEIGHT);
    }
    if let Some(w) = state.what_if.as_mut() {
        w.3 = what_if;
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

/// The limits table and the what-if sliders.
fn limits_and_what_if_ui(
    ui: &mut egui::Ui,
    a: &OccupancyAnalysis,
    kernel: &LaunchConfig,
    what_if: &mut LaunchConfig,
) {
    limits_table(ui, &a.limits, kernel, &a.occupancy);
    ui.add_space(8.0);
    what_if_ui(ui, &a.limits, kernel, what_if);
}

/// Theoretical and achieved occupancy and warps.
fn summary_ui(ui: &mut egui::Ui, cx: &PageContext<'_>, a: &OccupancyAnalysis) {
    let o = &a.occupancy;
    let printed = cx.result.number(names::THEORETICAL_OCCUPANCY);
    egui::Grid::new("occupancy_summary")
        .num_columns(4)
        .spacing([16.0, 4.0])
        .show(ui, |ui| {
            ui.weak("Theoretical Occupancy");
            ui.label(RichText::new(format!("{:.2} %", o.occupancy_pct)).strong());
            ui.weak("Achieved Occupancy");
            ui.label(
                a.achieved_occupancy_pct
                    .map_or_else(|| "-".into(), |v| format!("{v:.2} %")),
            );
            ui.end_row();
            ui.weak("Theoretical Active Warps per SM");
            ui.label(o.active_warps.to_string());
            ui.weak("Achieved Active Warps Per SM");
            ui.label(
                a.achieved_warps_per_sm
                    .map_or_else(|| "-".into(), |v| format!("{v:.2}")),
            );
            ui.end_row();
            ui.weak("Limiter");
            ui.label(
                RichText::new(limiter_text(o))
                    .strong()
                    .color(ui.visuals().warn_fg_color),
            );
            ui.weak("Blocks per SM");
            ui.label(o.active_blocks.to_string());
            ui.end_row();
        });
    if let Some(p) = printed.filter(|p| (p - o.occupancy_pct).abs() > 0.005) {
        ui.label(
            RichText::new(format!(
                "The report states a theoretical occupancy of {p:.2} %; the calculator gives {:.2} % from the inputs it could read.",
                o.occupancy_pct
            ))
            .color(ui.visuals().warn_fg_color),
        );
    }
}

fn limit_text(v: Option<u32>) -> String {
    v.map_or_else(|| "no limit".into(), |v| v.to_string())
}

/// The block limit of each resource, the limiter highlighted.
fn limits_table(ui: &mut egui::Ui, limits: &GpuLimits, launch: &LaunchConfig, o: &Occupancy) {
    let registers_per_block = o.registers_per_warp * u64::from(o.warps_per_block);
    let n = |v: u64| group_thousands(&v.to_string());
    // (limiter, row, block limit, per block, per SM, what the per-block figure is made of)
    let rows: [(Limiter, &str, String, String, String, String); 5] = [
        (
            Limiter::Registers,
            "Block Limit Registers",
            limit_text(o.limits.registers),
            format!("{} regs", n(registers_per_block)),
            format!("{} regs", n(u64::from(limits.registers_per_sm))),
            format!(
                "{} registers per thread, allocated per warp in units of {}",
                launch.registers_per_thread, limits.register_allocation_unit
            ),
        ),
        (
            Limiter::SharedMem,
            "Block Limit Shared Mem",
            limit_text(o.limits.shared_mem),
            format!("{} B", n(o.shared_mem_per_block_allocated)),
            o.shared_mem_config_used
                .map_or_else(|| "none fits".into(), |c| format!("{} B", n(c))),
            format!(
                "static {} + dynamic {} + driver {} bytes, in units of {}; per SM: the carve-out",
                n(launch.shared_mem_static),
                n(launch.shared_mem_dynamic),
                n(launch.shared_mem_driver),
                limits.shared_mem_allocation_unit
            ),
        ),
        (
            Limiter::Warps,
            "Block Limit Warps",
            limit_text(o.limits.warps),
            format!("{} warps", o.warps_per_block),
            format!("{} warps", limits.max_warps_per_sm),
            format!("{} threads per block", launch.block_size),
        ),
        (
            Limiter::Blocks,
            "Block Limit SM",
            o.limits.blocks.to_string(),
            "1 block".into(),
            format!("{} blocks", limits.max_blocks_per_sm),
            "The SM's block slots".into(),
        ),
        (
            Limiter::Barriers,
            "Block Limit Barriers",
            o.limits.barriers_as_reported().to_string(),
            match launch.barriers {
                1 => "1 barrier".into(),
                b => format!("{b} barriers"),
            },
            if limits.enforces_barriers() {
                format!("{} barriers", limits.barriers_per_sm)
            } else {
                "not enforced".into()
            },
            "Named barriers per block (enforced from CC 9.0 on)".into(),
        ),
    ];
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
            for (limiter, label, limit, per_block, per_sm, detail) in rows {
                let binds = o.limiters.contains(limiter);
                let text = |t: String| {
                    let r = RichText::new(t);
                    if binds {
                        r.strong().color(highlight)
                    } else {
                        r
                    }
                };
                ui.label(text(label.to_string()));
                ui.label(text(limit));
                ui.label(per_block).on_hover_text(detail);
                ui.label(per_sm);
                if binds {
                    ui.label(RichText::new("limiter").strong().color(highlight));
                } else {
                    ui.label("");
                }
                ui.end_row();
            }
        });
}

/// The what-if sliders and the occupancy they give.
fn what_if_ui(ui: &mut egui::Ui, limits: &GpuLimits, kernel: &LaunchConfig, w: &mut LaunchConfig) {
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
        if *w != *kernel {
            let o = calculate(limits, w);
            ui.label(
                RichText::new(format!(
                    "What-if occupancy: {:.2} % ({} warps per SM, limited by {})",
                    o.occupancy_pct,
                    o.active_warps,
                    limiter_text(&o)
                ))
                .strong()
                .color(WHAT_IF_COLOR),
            );
        } else {
            ui.weak("Move a slider to see the occupancy of other launch settings.");
        }
    });
}

/// The occupancy graphs, two per row.
fn graphs_ui(
    ui: &mut egui::Ui,
    state: &mut OccupancyViewState,
    limits: &GpuLimits,
    kernel: &LaunchConfig,
    what_if: &LaunchConfig,
    height: f32,
) {
    let changed = what_if != kernel;
    ui.horizontal_wrapped(|ui| {
        ui.strong("Occupancy graphs");
        ui.selectable_value(&mut state.show_warps, false, "% Occupancy");
        ui.selectable_value(&mut state.show_warps, true, "# Warps");
        ui.separator();
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
    let kinds: Vec<CurveKind> = [
        CurveKind::BlockSize,
        CurveKind::Registers,
        CurveKind::SharedMem,
        CurveKind::Barriers,
    ]
    .into_iter()
    .filter(|k| k.applies_to(limits))
    .collect();
    let warps = state.show_warps;
    for pair in kinds.chunks(2) {
        ui.columns(2, |cols| {
            for (col, kind) in cols.iter_mut().zip(pair) {
                curve_plot(col, *kind, limits, kernel, what_if, warps, height);
            }
        });
    }
}

/// One occupancy graph: the curve of the what-if launch, the kernel's own point and the
/// what-if point.
fn curve_plot(
    ui: &mut egui::Ui,
    kind: CurveKind,
    limits: &GpuLimits,
    kernel: &LaunchConfig,
    what_if: &LaunchConfig,
    warps: bool,
    height: f32,
) {
    let max_warps = f64::from(limits.max_warps_per_sm.max(1));
    let y = move |w: u32| {
        if warps {
            f64::from(w)
        } else {
            100.0 * f64::from(w) / max_warps
        }
    };
    let points: Vec<[f64; 2]> = curves::points(limits, what_if, kind)
        .map(|(x, w)| [x as f64, y(w)])
        .collect();
    let kernel_point = [
        kind.x_of(kernel) as f64,
        y(calculate(limits, kernel).active_warps),
    ];
    let what_if_point = [
        kind.x_of(what_if) as f64,
        y(calculate(limits, what_if).active_warps),
    ];
    let changed = what_if != kernel;
    let x_label = kind.x_label();
    let y_unit = if warps { " warps" } else { " %" };
    ui.add(egui::Label::new(RichText::new(kind.title()).strong()).truncate());
    let mut plot = Plot::new(("occupancy_curve", kind.name()));
    if kind == CurveKind::Barriers {
        // The default spacing labels only 0 on a 0..64 axis this narrow.
        plot = plot.x_grid_spacer(egui_plot::uniform_grid_spacer(|_| [4.0, 16.0, 64.0]));
    }
    plot.height(height)
        .allow_zoom(false)
        .allow_drag(false)
        .allow_scroll(false)
        .allow_boxed_zoom(false)
        .allow_double_click_reset(false)
        .include_x(0.0)
        .include_y(0.0)
        .include_y(if warps { max_warps * 1.1 } else { 110.0 })
        // Room for the ticks and the axis label from the first frame on.
        .custom_x_axes(vec![
            egui_plot::AxisHints::new_x()
                .label(x_label)
                .min_thickness(AXIS_THICKNESS),
        ])
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
                    points,
                )
                .color(CURVE_COLOR)
                .width(1.5),
            );
            if changed {
                plot_ui.vline(
                    VLine::new("", what_if_point[0])
                        .color(WHAT_IF_COLOR.gamma_multiply(0.6))
                        .style(LineStyle::dashed_loose())
                        .allow_hover(false),
                );
                plot_ui.points(
                    Points::new("What-if", vec![what_if_point])
                        .shape(MarkerShape::Circle)
                        .radius(5.0)
                        .color(WHAT_IF_COLOR),
                );
            }
            plot_ui.points(
                Points::new("This kernel", vec![kernel_point])
                    .shape(MarkerShape::Diamond)
                    .radius(6.0)
                    .color(KERNEL_COLOR),
            );
        });
}
