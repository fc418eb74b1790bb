//! Occupancy: the calculator (block limits per resource, limiters, theoretical warps and
//! occupancy), the occupancy curves, and reading both from a result.
//!
//! A view resolves [`GpuLimits`] once, then calls [`calculate`] and [`curves::points`] as often
//! as it likes: both are pure and do not allocate.

pub mod calculator;
pub mod curves;
pub mod inputs;
pub mod limits;
pub mod request;
pub mod stored;

pub use calculator::{BlockLimits, LaunchConfig, Limiter, LimiterSet, Occupancy, calculate};
pub use curves::{Curve, CurveKind};
pub use inputs::{CcOrigin, LaunchInputs, OccupancyError};
pub use limits::GpuLimits;
pub use stored::{ShownLimit, StoredLimits};

use crate::model::{Device, KernelResult, names};
use serde::Serialize;

/// Where the device limits came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LimitsSource {
    /// The report's `device__attribute_*` values (per-CC constants from the table).
    Report,
    /// The per-CC table only.
    Table,
}

impl LimitsSource {
    pub fn name(self) -> &'static str {
        match self {
            LimitsSource::Report => "report",
            LimitsSource::Table => "table",
        }
    }
}

/// Choices the caller makes for results that do not say everything.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OccupancyOptions {
    /// The architecture to assume when the source has no compute capability.
    pub assumed_cc: Option<(u32, u32)>,
    /// Ignore the report's device attributes and use the per-CC table.
    pub table_only: bool,
}

/// The limits of the GPU a result ran on.
pub fn resolve_limits(
    result: &KernelResult,
    device: Option<&Device>,
    options: &OccupancyOptions,
) -> Result<(GpuLimits, LimitsSource, CcOrigin), OccupancyError> {
    let (cc, origin) = inputs::compute_capability(result, device, options.assumed_cc)?;
    let use_report = !options.table_only && inputs::has_limit_attributes(result, device);
    let mut limits = if use_report {
        GpuLimits::nearest_for_cc(cc)
    } else {
        GpuLimits::for_cc(cc)
    }
    .ok_or(OccupancyError::UnsupportedCc(cc.0, cc.1))?;
    let source = if use_report
        && limits.apply_attributes(|name| inputs::device_attribute(result, device, name)) > 0
    {
        LimitsSource::Report
    } else {
        LimitsSource::Table
    };
    Ok((limits, source, origin))
}

/// The occupancy of one result: its inputs, the device limits, the calculator's answer and the
/// measured figures beside it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OccupancyAnalysis {
    pub cc: (u32, u32),
    pub cc_origin: CcOrigin,
    pub source: LimitsSource,
    pub limits: GpuLimits,
    pub launch: LaunchConfig,
    pub grid_blocks: Option<u64>,
    pub occupancy: Occupancy,
    /// `sm__warps_active.avg.pct_of_peak_sustained_active`.
    pub achieved_occupancy_pct: Option<f64>,
    /// `sm__warps_active.avg.per_cycle_active`.
    pub achieved_warps_per_sm: Option<f64>,
    /// What was inferred or assumed while reading the inputs.
    pub notes: Vec<String>,
    /// The block limits the report stores: shown in place of the calculator's.
    pub stored: StoredLimits,
}

impl OccupancyAnalysis {
    /// One occupancy curve of this launch.
    pub fn curve(&self, kind: CurveKind) -> Curve {
        Curve::compute(&self.limits, &self.launch, kind)
    }

    /// The curves ncu draws for this architecture.
    pub fn curves(&self) -> Vec<Curve> {
        CurveKind::ALL
            .into_iter()
            .filter(|k| k.applies_to(&self.limits))
            .map(|k| self.curve(k))
            .collect()
    }

    /// The block limit shown for `limiter` of the kernel's launch: the stored one, else the
    /// calculator's (marked computed).
    pub fn shown(&self, limiter: Limiter) -> ShownLimit {
        ShownLimit::of(limiter, Some(&self.stored), &self.occupancy)
    }

    /// Recomputes the calculator for changed inputs (a what-if), keeping the device.
    pub fn what_if(&self, launch: &LaunchConfig) -> Occupancy {
        calculate(&self.limits, launch)
    }
}

/// What is said of an architecture the built-in limits table does not list (CC 10.7, new in
/// ncu 2026.3, has no published limits): the report's device attributes are laid over the row
/// of the nearest listed architecture before it, which supplies what they do not give.
fn unlisted_cc_note(cc: (u32, u32)) -> Option<String> {
    if GpuLimits::for_cc(cc).is_some() {
        return None;
    }
    let base = GpuLimits::table_ccs()
        .filter(|&c| c <= cc && c.0 == cc.0)
        .max()
        .or_else(|| GpuLimits::table_ccs().filter(|&c| c <= cc).max())?;
    Some(format!(
        "CC {}.{} is not in the built-in limits table (no published limits): the report's \
         device attributes are used, and the CC {}.{} row for what they do not give",
        cc.0, cc.1, base.0, base.1
    ))
}

/// Runs the calculator for a result.
pub fn analyze(
    result: &KernelResult,
    device: Option<&Device>,
    options: &OccupancyOptions,
) -> Result<OccupancyAnalysis, OccupancyError> {
    let (limits, source, cc_origin) = resolve_limits(result, device, options)?;
    let mut read = inputs::launch_inputs(result, &limits)?;
    if cc_origin == CcOrigin::Assumed {
        read.notes.insert(
            0,
            format!(
                "compute capability not in the source: assumed {}.{}",
                limits.cc.0, limits.cc.1
            ),
        );
    }
    if let Some(note) = unlisted_cc_note(limits.cc) {
        read.notes.insert(0, note);
    }
    let occupancy = calculate(&limits, &read.launch);
    Ok(OccupancyAnalysis {
        cc: limits.cc,
        cc_origin,
        source,
        launch: read.launch,
        grid_blocks: read.grid_blocks,
        occupancy,
        achieved_occupancy_pct: result.number(names::ACHIEVED_OCCUPANCY),
        achieved_warps_per_sm: result.number("sm__warps_active.avg.per_cycle_active"),
        notes: read.notes,
        stored: StoredLimits::read(result),
        limits,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_architecture_without_published_limits_is_said_not_guessed() {
        // CC 10.7 (new in ncu 2026.3) has no row; 10.3 is the nearest listed before it.
        assert_eq!(
            unlisted_cc_note((10, 7)).as_deref(),
            Some(
                "CC 10.7 is not in the built-in limits table (no published limits): the \
                 report's device attributes are used, and the CC 10.3 row for what they do \
                 not give"
            )
        );
        assert_eq!(unlisted_cc_note((10, 3)), None);
        assert_eq!(unlisted_cc_note((9, 0)), None);
        // Without device attributes there is nothing to use: no limits, as before.
        assert!(GpuLimits::for_cc((10, 7)).is_none());
    }
}
