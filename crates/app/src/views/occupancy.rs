//! What the Occupancy page shows of the selected result, computed when the selection, the
//! architecture choice, the what-if launch or the graph unit changes (the page caches it with
//! [`Cached`](crate::cache::Cached)): the analysis, the block limit of each resource with the
//! limiters marked, the what-if occupancy, and the graphs' curves and points.

use crate::analysis::occupancy::{
    self, CcOrigin, CurveKind, GpuLimits, LaunchConfig, Limiter, LimitsSource, Occupancy,
    OccupancyAnalysis, OccupancyError, OccupancyOptions, ShownLimit, StoredLimits, calculate,
    curves,
};
use crate::core::ids::ResultRef;
use crate::core::workspace::Workspace;
use crate::model::format::NOT_MEASURED;
use crate::model::names;
use crate::model::units::group_thousands;

/// What the view is computed from.
#[derive(Debug, Clone, PartialEq)]
pub struct OccupancyKey {
    pub generation: u64,
    pub at: ResultRef,
    pub options: OccupancyOptions,
    /// The launch the what-if sliders give (`None`: the kernel's own).
    pub what_if: Option<LaunchConfig>,
    /// Graphs in warps per SM instead of % occupancy.
    pub show_warps: bool,
}

/// One row of the block limits table.
#[derive(Debug, Clone, PartialEq)]
pub struct LimitRow {
    pub limiter: Limiter,
    /// `Block Limit Registers`.
    pub label: &'static str,
    /// How many blocks per SM the resource allows (`no limit` where it sets none).
    pub blocks: String,
    /// What one block uses (`8,192 regs`).
    pub per_block: String,
    /// What an SM has (`65,536 regs`).
    pub per_sm: String,
    /// What the per-block figure is made of (the hover text).
    pub detail: String,
    /// Whether this resource limits the occupancy.
    pub binds: bool,
}

/// One occupancy graph: the curve of the what-if launch with the kernel's point and the
/// what-if point, y in warps per SM or in % occupancy.
#[derive(Debug, Clone, PartialEq)]
pub struct CurveView {
    pub kind: CurveKind,
    pub points: Vec<[f64; 2]>,
    pub kernel_point: [f64; 2],
    pub what_if_point: [f64; 2],
}

/// Everything the page shows for one result.
#[derive(Debug, Clone)]
pub struct OccupancyView {
    pub analysis: OccupancyAnalysis,
    /// Where the device limits came from, in words.
    pub limits_source: String,
    /// `Registers, Warps`.
    pub limiter: String,
    /// The report's own theoretical occupancy where it differs from the calculator's.
    pub printed_mismatch: Option<String>,
    pub rows: Vec<LimitRow>,
    /// The launch the curves are drawn for (the kernel's own unless the what-if changed it).
    pub what_if: LaunchConfig,
    /// The what-if occupancy in words, when the what-if differs from the kernel's launch.
    pub what_if_text: Option<String>,
    pub curves: Vec<CurveView>,
    pub show_warps: bool,
    /// The top of the graphs' y axis.
    pub y_max: f64,
}

impl OccupancyView {
    /// Whether the what-if launch differs from the kernel's.
    pub fn what_if_changed(&self) -> bool {
        self.what_if != self.analysis.launch
    }
}

/// The view of the result at `at`; the analysis error when there is none (no launch
/// statistics, an unknown architecture). A `what_if` launch is used when the result's own
/// launch is what it was edited from (`kernel`), otherwise the kernel's launch is.
pub fn occupancy_view(
    workspace: &Workspace,
    key: &OccupancyKey,
    kernel: Option<LaunchConfig>,
) -> Option<Result<OccupancyView, OccupancyError>> {
    let (open, result) = workspace.result(key.at)?;
    let analysis = match occupancy::analyze(result, open.report.device_of(result), &key.options) {
        Ok(a) => a,
        Err(e) => return Some(Err(e)),
    };
    let printed = result.number(names::THEORETICAL_OCCUPANCY);
    let what_if = key
        .what_if
        .filter(|_| kernel == Some(analysis.launch))
        .unwrap_or(analysis.launch);
    Some(Ok(view_of(analysis, printed, what_if, key.show_warps)))
}

/// The view of an analysis: `printed` is the report's theoretical occupancy, `what_if` the
/// launch of the curves.
pub fn view_of(
    analysis: OccupancyAnalysis,
    printed: Option<f64>,
    what_if: LaunchConfig,
    show_warps: bool,
) -> OccupancyView {
    let o = &analysis.occupancy;
    let printed_mismatch = printed
        .filter(|p| (p - o.occupancy_pct).abs() > 0.005)
        .map(|p| {
            format!(
                "The report states a theoretical occupancy of {p:.2} %; the calculator gives \
                 {:.2} % from the inputs it could read.",
                o.occupancy_pct
            )
        });
    let what_if_text = (what_if != analysis.launch).then(|| {
        let w = calculate(&analysis.limits, &what_if);
        format!(
            "What-if occupancy: {:.2} % ({} warps per SM, limited by {})",
            w.occupancy_pct,
            w.active_warps,
            limiter_text(&w)
        )
    });
    let curves = curve_views(&analysis.limits, &analysis.launch, &what_if, show_warps);
    let max_warps = f64::from(analysis.limits.max_warps_per_sm.max(1));
    OccupancyView {
        limits_source: limits_source_text(&analysis),
        limiter: limiter_text(o),
        printed_mismatch,
        rows: limit_rows(
            &analysis.limits,
            &analysis.launch,
            o,
            Some(&analysis.stored),
        ),
        what_if,
        what_if_text,
        curves,
        show_warps,
        y_max: if show_warps { max_warps * 1.1 } else { 110.0 },
        analysis,
    }
}

/// The graphs ncu draws for this architecture, of the `what_if` launch, with the kernel's
/// point and the what-if point.
pub fn curve_views(
    limits: &GpuLimits,
    kernel: &LaunchConfig,
    what_if: &LaunchConfig,
    show_warps: bool,
) -> Vec<CurveView> {
    let max_warps = f64::from(limits.max_warps_per_sm.max(1));
    let y = |w: u32| {
        if show_warps {
            f64::from(w)
        } else {
            100.0 * f64::from(w) / max_warps
        }
    };
    let kernel_warps = calculate(limits, kernel).active_warps;
    let what_if_warps = calculate(limits, what_if).active_warps;
    [
        CurveKind::BlockSize,
        CurveKind::Registers,
        CurveKind::SharedMem,
        CurveKind::Barriers,
    ]
    .into_iter()
    .filter(|k| k.applies_to(limits))
    .map(|kind| CurveView {
        kind,
        points: curves::points(limits, what_if, kind)
            .map(|(x, w)| [x as f64, y(w)])
            .collect(),
        kernel_point: [kind.x_of(kernel) as f64, y(kernel_warps)],
        what_if_point: [kind.x_of(what_if) as f64, y(what_if_warps)],
    })
    .collect()
}

/// `CC 8.6`.
pub fn cc_text(cc: (u32, u32)) -> String {
    format!("CC {}", crate::model::format::cc_text(cc))
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
        NOT_MEASURED.into()
    } else {
        names.join(", ")
    }
}

/// The name of a limiter (ncu's "Block Limit" labels).
fn limiter_name(l: Limiter) -> &'static str {
    match l {
        Limiter::Registers => "Registers",
        Limiter::SharedMem => "Shared Memory",
        Limiter::Warps => "Warps",
        Limiter::Blocks => "SM",
        Limiter::Barriers => "Barriers",
    }
}

/// The block limit of each resource, the limiters marked: the report's stored limit where
/// `stored` has one (the kernel's own launch), else the calculator's, marked computed.
pub fn limit_rows(
    limits: &GpuLimits,
    launch: &LaunchConfig,
    o: &Occupancy,
    stored: Option<&StoredLimits>,
) -> Vec<LimitRow> {
    let shown = |l: Limiter| ShownLimit::of(l, stored, o).text();
    let registers_per_block = o.registers_per_warp * u64::from(o.warps_per_block);
    let n = |v: u64| group_thousands(&v.to_string());
    let row = |limiter, label, blocks, per_block, per_sm, detail| LimitRow {
        limiter,
        label,
        blocks,
        per_block,
        per_sm,
        detail,
        binds: o.limiters.contains(limiter),
    };
    vec![
        row(
            Limiter::Registers,
            "Block Limit Registers",
            shown(Limiter::Registers),
            format!("{} regs", n(registers_per_block)),
            format!("{} regs", n(u64::from(limits.registers_per_sm))),
            format!(
                "{} registers per thread, allocated per warp in units of {}",
                launch.registers_per_thread, limits.register_allocation_unit
            ),
        ),
        row(
            Limiter::SharedMem,
            "Block Limit Shared Mem",
            shown(Limiter::SharedMem),
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
        row(
            Limiter::Warps,
            "Block Limit Warps",
            shown(Limiter::Warps),
            format!("{} warps", o.warps_per_block),
            format!("{} warps", limits.max_warps_per_sm),
            format!("{} threads per block", launch.block_size),
        ),
        row(
            Limiter::Blocks,
            "Block Limit SM",
            shown(Limiter::Blocks),
            "1 block".into(),
            format!("{} blocks", limits.max_blocks_per_sm),
            "The SM's block slots".into(),
        ),
        row(
            Limiter::Barriers,
            "Block Limit Barriers",
            shown(Limiter::Barriers),
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
    ]
}

/// What the Occupancy page shows for a range, graph or command list: only the achieved
/// figures, as ncu does. The launch figures such a result carries belong to one launch of many,
/// so no theoretical occupancy, limits or what-if follow from them.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkloadOccupancy {
    /// `range`, `graph`, `command list`.
    pub kind: &'static str,
    pub achieved_pct: Option<f64>,
    pub achieved_warps_per_sm: Option<f64>,
}

/// The achieved occupancy of a result that is not one kernel launch; `None` for a kernel.
pub fn workload_occupancy(result: &crate::model::KernelResult) -> Option<WorkloadOccupancy> {
    (!result.kind.is_kernel()).then(|| WorkloadOccupancy {
        kind: result.kind.label(),
        achieved_pct: result.number(crate::model::names::ACHIEVED_OCCUPANCY),
        achieved_warps_per_sm: result.number("sm__warps_active.avg.per_cycle_active"),
    })
}
