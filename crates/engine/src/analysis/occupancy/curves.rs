//! Occupancy curves: theoretical warps per SM while one input varies over the grid ncu uses for
//! its occupancy graphs, the others held at the launch's values. Matches the stored
//! `launch__occupancy_per_*` instances point for point.

use super::calculator::{LaunchConfig, calculate, calculate_with};
use super::limits::GpuLimits;
use serde::Serialize;

/// The input a curve varies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CurveKind {
    BlockSize,
    Registers,
    SharedMem,
    /// Only on CC 9.0 and newer.
    Barriers,
}

impl CurveKind {
    /// Every kind, in ncu's chart order.
    pub const ALL: [CurveKind; 4] = [
        CurveKind::Registers,
        CurveKind::BlockSize,
        CurveKind::SharedMem,
        CurveKind::Barriers,
    ];

    /// The key used in JSON output.
    pub fn name(self) -> &'static str {
        match self {
            CurveKind::BlockSize => "block_size",
            CurveKind::Registers => "registers",
            CurveKind::SharedMem => "shared_mem",
            CurveKind::Barriers => "barriers",
        }
    }

    /// The chart title ncu uses.
    pub fn title(self) -> &'static str {
        match self {
            CurveKind::BlockSize => "Impact of Varying Block Size",
            CurveKind::Registers => "Impact of Varying Register Count Per Thread",
            CurveKind::SharedMem => "Impact of Varying Shared Memory Usage Per Block",
            CurveKind::Barriers => "Impact of Varying Block Barriers",
        }
    }

    /// The X axis label.
    pub fn x_label(self) -> &'static str {
        match self {
            CurveKind::BlockSize => "Block Size",
            CurveKind::Registers => "Registers Per Thread",
            CurveKind::SharedMem => "Shared Memory Per Block [bytes]",
            CurveKind::Barriers => "Block Barriers",
        }
    }

    /// The metric whose instances ncu stores for this curve.
    pub fn metric(self) -> &'static str {
        match self {
            CurveKind::BlockSize => "launch__occupancy_per_block_size",
            CurveKind::Registers => "launch__occupancy_per_register_count",
            CurveKind::SharedMem => "launch__occupancy_per_shared_mem_size",
            CurveKind::Barriers => "launch__occupancy_per_barrier_count",
        }
    }

    /// Whether ncu draws this curve for the architecture.
    pub fn applies_to(self, limits: &GpuLimits) -> bool {
        self != CurveKind::Barriers || limits.enforces_barriers()
    }

    /// The launch's own X value.
    pub fn x_of(self, launch: &LaunchConfig) -> u64 {
        match self {
            CurveKind::BlockSize => u64::from(launch.block_size),
            CurveKind::Registers => u64::from(launch.registers_per_thread),
            CurveKind::SharedMem => launch.shared_mem_per_block(),
            CurveKind::Barriers => u64::from(launch.barriers),
        }
    }
}

/// Step of the shared memory grid, bytes.
const SHARED_MEM_STEP: u64 = 512;
/// Largest register count on the grid.
const MAX_REGISTERS_ON_GRID: u64 = 256;
/// Largest barrier count on the grid.
const MAX_BARRIERS_ON_GRID: u64 = 64;
/// Step of the block size grid (after the first point, 1).
const BLOCK_SIZE_STEP: u64 = 16;

/// The X values ncu evaluates: registers 0..=256, block size 1, 16, 32, ... up to the largest
/// block, shared memory 0, 512, ... below the per-SM size, barriers 0..=64.
pub fn grid(kind: CurveKind, limits: &GpuLimits) -> impl Iterator<Item = u64> + use<> {
    let (first, last, step, with_one): (u64, u64, u64, bool) = match kind {
        CurveKind::Registers => (0, MAX_REGISTERS_ON_GRID, 1, false),
        CurveKind::BlockSize => (
            BLOCK_SIZE_STEP,
            u64::from(limits.max_threads_per_block),
            BLOCK_SIZE_STEP,
            true,
        ),
        CurveKind::SharedMem => (
            0,
            limits.shared_mem_per_sm.saturating_sub(SHARED_MEM_STEP),
            SHARED_MEM_STEP,
            false,
        ),
        CurveKind::Barriers => (0, MAX_BARRIERS_ON_GRID, 1, false),
    };
    with_one
        .then_some(1)
        .into_iter()
        .chain((first..=last).step_by(step as usize))
}

/// The largest total shared memory per block the curve allows. ncu compares the total (the
/// reservation included) with the per-block limit that excludes it: 48 KB when the kernel uses
/// no static shared memory and no more than 48 KB dynamic (it has not opted in), else the
/// opt-in maximum.
fn kernel_shared_mem_cap(limits: &GpuLimits, launch: &LaunchConfig) -> u64 {
    let default = limits.default_shared_mem_per_block;
    if launch.shared_mem_static == 0 && launch.shared_mem_dynamic <= default {
        default
    } else {
        limits.max_user_shared_mem_per_block()
    }
}

/// Theoretical warps per SM with one input set to `x`.
pub fn warps_at(limits: &GpuLimits, launch: &LaunchConfig, kind: CurveKind, x: u64) -> u32 {
    let clamp = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
    let mut l = *launch;
    match kind {
        CurveKind::BlockSize => l.block_size = clamp(x),
        CurveKind::Registers => l.registers_per_thread = clamp(x),
        CurveKind::Barriers => l.barriers = clamp(x),
        CurveKind::SharedMem => {
            // X is the total per block, the driver's reservation included.
            if x > kernel_shared_mem_cap(limits, launch) {
                return 0;
            }
            l.shared_mem_static = x;
            l.shared_mem_dynamic = 0;
            l.shared_mem_driver = 0;
        }
    }
    // ncu's stored register curve sizes 256 registers per thread like any other count.
    calculate_with(limits, &l, kind != CurveKind::Registers).active_warps
}

/// The curve's points (x, theoretical warps per SM), computed lazily without allocating.
pub fn points<'a>(
    limits: &'a GpuLimits,
    launch: &'a LaunchConfig,
    kind: CurveKind,
) -> impl Iterator<Item = (u64, u32)> + 'a {
    grid(kind, limits).map(move |x| (x, warps_at(limits, launch, kind, x)))
}

/// One occupancy graph.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Curve {
    pub kind: CurveKind,
    /// (x, theoretical warps per SM).
    pub points: Vec<(u64, u32)>,
    /// The launch's own point.
    pub current: (u64, u32),
    /// Divide warps by this and multiply by 100 for % occupancy.
    pub max_warps_per_sm: u32,
}

impl Curve {
    /// Computes a curve.
    pub fn compute(limits: &GpuLimits, launch: &LaunchConfig, kind: CurveKind) -> Curve {
        Curve {
            kind,
            points: points(limits, launch, kind).collect(),
            current: (kind.x_of(launch), calculate(limits, launch).active_warps),
            max_warps_per_sm: limits.max_warps_per_sm,
        }
    }

    /// Warps as % occupancy.
    pub fn pct(&self, warps: u32) -> f64 {
        if self.max_warps_per_sm == 0 {
            0.0
        } else {
            100.0 * f64::from(warps) / f64::from(self.max_warps_per_sm)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grids_have_ncu_lengths() {
        let h100 = GpuLimits::for_cc((9, 0)).unwrap();
        let ga10x = GpuLimits::for_cc((8, 6)).unwrap();
        assert_eq!(grid(CurveKind::Registers, &h100).count(), 257);
        assert_eq!(grid(CurveKind::BlockSize, &h100).count(), 65);
        assert_eq!(grid(CurveKind::SharedMem, &h100).count(), 456);
        assert_eq!(grid(CurveKind::SharedMem, &ga10x).count(), 200);
        assert_eq!(grid(CurveKind::Barriers, &h100).count(), 65);
        let bs: Vec<u64> = grid(CurveKind::BlockSize, &h100).take(3).collect();
        assert_eq!(bs, vec![1, 16, 32]);
        assert!(!CurveKind::Barriers.applies_to(&ga10x));
    }
}
