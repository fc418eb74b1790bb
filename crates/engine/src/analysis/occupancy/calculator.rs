//! The occupancy calculator: how many blocks of a launch fit on one SM, limited by registers,
//! shared memory, warps, the SM's block slots and barriers. The same arithmetic as ncu's own
//! `launch__occupancy_limit_*` values, including the per-sub-partition register rule.
//!
//! Pure and allocation-free, so a view can recompute it every frame while sliders move.

use super::limits::GpuLimits;
use serde::Serialize;

/// The launch inputs of the calculator.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct LaunchConfig {
    /// Threads per block.
    pub block_size: u32,
    pub registers_per_thread: u32,
    /// Static shared memory per block, bytes.
    pub shared_mem_static: u64,
    /// Dynamic shared memory per block, bytes.
    pub shared_mem_dynamic: u64,
    /// Shared memory the driver reserves per block, bytes.
    pub shared_mem_driver: u64,
    /// The shared memory carve-out configured for the launch, bytes.
    pub shared_mem_config: u64,
    /// Named barriers per block.
    pub barriers: u32,
}

impl LaunchConfig {
    /// Total shared memory per block, including the driver's part.
    pub fn shared_mem_per_block(&self) -> u64 {
        self.shared_mem_static
            .saturating_add(self.shared_mem_dynamic)
            .saturating_add(self.shared_mem_driver)
    }

    /// Shared memory the kernel asks for (static and dynamic), without the driver's part.
    pub fn user_shared_mem_per_block(&self) -> u64 {
        self.shared_mem_static
            .saturating_add(self.shared_mem_dynamic)
    }
}

/// A resource that can bound the blocks per SM.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Limiter {
    Registers,
    SharedMem,
    Warps,
    /// The SM's block slots ("Block Limit SM").
    Blocks,
    Barriers,
}

impl Limiter {
    /// Every limiter, in the order ncu lists the block limits.
    pub const ALL: [Limiter; 5] = [
        Limiter::Registers,
        Limiter::SharedMem,
        Limiter::Warps,
        Limiter::Blocks,
        Limiter::Barriers,
    ];

    /// The name used in JSON output (`shared_mem`).
    pub fn name(self) -> &'static str {
        match self {
            Limiter::Registers => "registers",
            Limiter::SharedMem => "shared_mem",
            Limiter::Warps => "warps",
            Limiter::Blocks => "blocks",
            Limiter::Barriers => "barriers",
        }
    }

    /// The label ncu shows after "Block Limit".
    pub fn label(self) -> &'static str {
        match self {
            Limiter::Registers => "Registers",
            Limiter::SharedMem => "Shared Mem",
            Limiter::Warps => "Warps",
            Limiter::Blocks => "SM",
            Limiter::Barriers => "Barriers",
        }
    }

    fn bit(self) -> u8 {
        match self {
            Limiter::Registers => 1,
            Limiter::SharedMem => 2,
            Limiter::Warps => 4,
            Limiter::Blocks => 8,
            Limiter::Barriers => 16,
        }
    }
}

/// The set of limiters that bind (ties keep all of them).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LimiterSet(u8);

impl LimiterSet {
    pub fn insert(&mut self, l: Limiter) {
        self.0 |= l.bit();
    }

    pub fn contains(self, l: Limiter) -> bool {
        self.0 & l.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The limiters in the set, in [`Limiter::ALL`] order.
    pub fn iter(self) -> impl Iterator<Item = Limiter> {
        Limiter::ALL.into_iter().filter(move |l| self.contains(*l))
    }
}

impl Serialize for LimiterSet {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

/// Blocks per SM allowed by each resource; `None` where the resource sets no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BlockLimits {
    /// `None` when the kernel uses no registers.
    pub registers: Option<u32>,
    /// `None` when the block uses no shared memory.
    pub shared_mem: Option<u32>,
    /// `None` for an empty block.
    pub warps: Option<u32>,
    pub blocks: u32,
    /// `None` where barriers are not enforced (CC before 9.0, or no barriers).
    pub barriers: Option<u32>,
}

impl BlockLimits {
    /// The limit of one resource.
    pub fn get(&self, limiter: Limiter) -> Option<u32> {
        match limiter {
            Limiter::Registers => self.registers,
            Limiter::SharedMem => self.shared_mem,
            Limiter::Warps => self.warps,
            Limiter::Blocks => Some(self.blocks),
            Limiter::Barriers => self.barriers,
        }
    }

    /// The barrier limit as ncu reports it (`launch__occupancy_limit_barriers`): capped at the
    /// SM's block slots, and equal to them when barriers set no limit.
    pub fn barriers_as_reported(&self) -> u32 {
        self.barriers.map_or(self.blocks, |b| b.min(self.blocks))
    }
}

/// The calculator's answer for one launch.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Occupancy {
    pub warps_per_block: u32,
    /// Registers allocated per warp (0 when the kernel uses none).
    pub registers_per_warp: u64,
    /// Shared memory allocated per block, rounded up to the allocation unit, bytes.
    pub shared_mem_per_block_allocated: u64,
    /// The carve-out the blocks are fitted into: the launch's, or the smallest one that holds a
    /// block when the launch's is too small (what the calculator does when inputs change).
    pub shared_mem_config_used: Option<u64>,
    pub limits: BlockLimits,
    pub limiters: LimiterSet,
    /// Theoretical active blocks per SM.
    pub active_blocks: u32,
    /// Theoretical active warps per SM (`sm__maximum_warps_avg_per_active_cycle`).
    pub active_warps: u32,
    /// Theoretical occupancy (`sm__maximum_warps_per_active_cycle_pct`).
    pub occupancy_pct: f64,
}

impl Occupancy {
    /// Theoretical warps per scheduler (`smsp__maximum_warps_avg_per_active_cycle`).
    pub fn warps_per_scheduler(&self, limits: &GpuLimits) -> f64 {
        f64::from(self.active_warps) / f64::from(limits.sub_partitions.max(1))
    }

    /// Waves per SM for a grid of `grid_blocks` on `sm_count` SMs.
    pub fn waves_per_sm(&self, grid_blocks: u64, sm_count: u32) -> Option<f64> {
        let per_wave = u64::from(self.active_blocks) * u64::from(sm_count);
        (per_wave > 0).then(|| grid_blocks as f64 / per_wave as f64)
    }
}

fn to_u32(v: u64) -> u32 {
    u32::try_from(v).unwrap_or(u32::MAX)
}

/// Warps needed by a block of `block_size` threads.
fn warps_per_block(limits: &GpuLimits, block_size: u32) -> u64 {
    u64::from(block_size).div_ceil(u64::from(limits.threads_per_warp.max(1)))
}

/// Registers per warp and the register block limit (per sub-partition, like ncu). With
/// `enforce_thread_max`, more registers per thread than the architecture allows give 0.
fn register_limit(
    limits: &GpuLimits,
    registers: u32,
    warps: u64,
    enforce_thread_max: bool,
) -> (u64, Option<u32>) {
    if registers == 0 || warps == 0 {
        return (0, None);
    }
    let unit = u64::from(limits.register_allocation_unit.max(1));
    let per_warp =
        (u64::from(registers) * u64::from(limits.threads_per_warp)).div_ceil(unit) * unit;
    let sub_partitions = u64::from(limits.sub_partitions.max(1));
    if (enforce_thread_max && registers > limits.max_registers_per_thread)
        || per_warp.saturating_mul(warps) > u64::from(limits.max_registers_per_block)
    {
        return (per_warp, Some(0));
    }
    let warps_per_sub_partition = (u64::from(limits.registers_per_sm) / sub_partitions) / per_warp;
    (
        per_warp,
        Some(to_u32(warps_per_sub_partition * sub_partitions / warps)),
    )
}

/// Allocated shared memory per block, the carve-out used and the shared memory block limit.
fn shared_mem_limit(limits: &GpuLimits, launch: &LaunchConfig) -> (u64, Option<u64>, Option<u32>) {
    let unit = limits.shared_mem_allocation_unit.max(1);
    let allocated = launch
        .shared_mem_per_block()
        .div_ceil(unit)
        .saturating_mul(unit);
    let config = launch.shared_mem_config;
    if allocated == 0 {
        return (0, Some(config), None);
    }
    if allocated > limits.max_shared_mem_per_block {
        return (allocated, None, Some(0));
    }
    let used = if allocated <= config {
        Some(config)
    } else {
        limits
            .shared_mem_configs
            .iter()
            .copied()
            .find(|c| *c >= allocated)
    };
    match used {
        Some(c) => (allocated, Some(c), Some(to_u32(c / allocated))),
        None => (allocated, None, Some(0)),
    }
}

/// Runs the calculator for one launch on one GPU.
pub fn calculate(limits: &GpuLimits, launch: &LaunchConfig) -> Occupancy {
    calculate_with(limits, launch, true)
}

/// The calculator; without `enforce_thread_register_max` a register count above the
/// architecture's per-thread maximum is sized like any other (ncu's stored register curves do
/// this at 256 registers).
pub(crate) fn calculate_with(
    limits: &GpuLimits,
    launch: &LaunchConfig,
    enforce_thread_register_max: bool,
) -> Occupancy {
    let warps = warps_per_block(limits, launch.block_size);
    let warp_limit = if warps == 0 {
        None
    } else if launch.block_size > limits.max_threads_per_block {
        Some(0)
    } else {
        Some(to_u32(u64::from(limits.max_warps_per_sm) / warps))
    };
    let (registers_per_warp, register_limit) = register_limit(
        limits,
        launch.registers_per_thread,
        warps,
        enforce_thread_register_max,
    );
    let (allocated, config_used, shared_limit) = shared_mem_limit(limits, launch);
    let barrier_limit = (limits.enforces_barriers() && launch.barriers > 0)
        .then(|| limits.barriers_per_sm / launch.barriers);
    let block_limits = BlockLimits {
        registers: register_limit,
        shared_mem: shared_limit,
        warps: warp_limit,
        blocks: limits.max_blocks_per_sm,
        barriers: barrier_limit,
    };
    let active_blocks = Limiter::ALL
        .iter()
        .filter_map(|l| block_limits.get(*l))
        .min()
        .unwrap_or(0);
    let mut limiters = LimiterSet::default();
    for l in Limiter::ALL {
        if block_limits.get(l) == Some(active_blocks) {
            limiters.insert(l);
        }
    }
    let active_warps = to_u32(u64::from(active_blocks) * warps);
    let occupancy_pct = if limits.max_warps_per_sm == 0 {
        0.0
    } else {
        100.0 * f64::from(active_warps) / f64::from(limits.max_warps_per_sm)
    };
    Occupancy {
        warps_per_block: to_u32(warps),
        registers_per_warp,
        shared_mem_per_block_allocated: allocated,
        shared_mem_config_used: config_used,
        limits: block_limits,
        limiters,
        active_blocks,
        active_warps,
        occupancy_pct,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h100() -> GpuLimits {
        GpuLimits::for_cc((9, 0)).unwrap()
    }

    fn launch(block_size: u32, registers: u32) -> LaunchConfig {
        LaunchConfig {
            block_size,
            registers_per_thread: registers,
            shared_mem_driver: 1024,
            shared_mem_config: 32768,
            ..LaunchConfig::default()
        }
    }

    #[test]
    fn per_sub_partition_register_rule() {
        // The reference's example: the simplified rule would give 25 blocks.
        let o = calculate(&h100(), &launch(64, 40));
        assert_eq!(o.limits.registers, Some(24));
        assert_eq!(o.registers_per_warp, 1280);
    }

    #[test]
    fn shared_memory_bumps_the_carve_out() {
        let mut l = launch(128, 32);
        l.shared_mem_dynamic = 40 * 1024;
        let o = calculate(&h100(), &l);
        assert_eq!(o.shared_mem_per_block_allocated, 41 * 1024);
        assert_eq!(o.shared_mem_config_used, Some(65536));
        assert_eq!(o.limits.shared_mem, Some(1));
        assert!(o.limiters.contains(Limiter::SharedMem));
        l.shared_mem_dynamic = 300 * 1024;
        assert_eq!(calculate(&h100(), &l).limits.shared_mem, Some(0));
        assert_eq!(calculate(&h100(), &l).active_warps, 0);
    }

    #[test]
    fn barriers_only_from_hopper_on() {
        let mut l = launch(32, 16);
        l.barriers = 4;
        let o = calculate(&h100(), &l);
        assert_eq!(o.limits.barriers, Some(16));
        assert_eq!(o.active_blocks, 16);
        assert!(o.limiters.contains(Limiter::Barriers));
        let ga10x = GpuLimits::for_cc((8, 6)).unwrap();
        assert_eq!(calculate(&ga10x, &l).limits.barriers, None);
        assert_eq!(calculate(&ga10x, &l).limits.barriers_as_reported(), 16);
    }

    #[test]
    fn empty_and_oversized_blocks() {
        let o = calculate(&h100(), &launch(0, 16));
        assert_eq!(o.active_warps, 0);
        let o = calculate(&h100(), &launch(2048, 16));
        assert_eq!(o.limits.warps, Some(0));
        assert_eq!(o.occupancy_pct, 0.0);
        let o = calculate(&h100(), &launch(256, 0));
        assert_eq!(o.limits.registers, None);
        assert_eq!(o.active_warps, 64);
    }
}
