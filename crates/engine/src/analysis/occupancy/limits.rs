//! The per-GPU limits the occupancy calculator needs: the per-compute-capability table shipped
//! with the app (`assets/data/gpu_limits.json`), with a report's device attributes laid over it.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::sync::OnceLock;

const GPU_LIMITS_JSON: &str = include_str!("../../../../../assets/data/gpu_limits.json");

/// The largest block every listed architecture allows; no table column, a device attribute.
const MAX_THREADS_PER_BLOCK: u32 = 1024;
/// The default per-block shared memory limit without opt-in (bytes, excluding the reservation).
const DEFAULT_SHARED_MEM_PER_BLOCK: u64 = 48 * 1024;

/// The physical limits of one GPU that bound how many blocks fit on an SM.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GpuLimits {
    /// Compute capability (major, minor).
    pub cc: (u32, u32),
    pub threads_per_warp: u32,
    pub max_warps_per_sm: u32,
    pub max_threads_per_sm: u32,
    pub max_blocks_per_sm: u32,
    pub max_threads_per_block: u32,
    /// Named barriers per SM (enforced on CC 9.0 and newer only).
    pub barriers_per_sm: u32,
    pub registers_per_sm: u32,
    pub max_registers_per_block: u32,
    pub max_registers_per_thread: u32,
    /// Registers are allocated per warp in units of this many.
    pub register_allocation_unit: u32,
    /// SM sub-partitions; each holds an equal share of the register file.
    pub sub_partitions: u32,
    /// Shared memory per SM (the largest carve-out), bytes.
    pub shared_mem_per_sm: u64,
    /// Largest shared memory per block including the reservation, bytes.
    pub max_shared_mem_per_block: u64,
    /// Per-block limit without opt-in, excluding the reservation, bytes.
    pub default_shared_mem_per_block: u64,
    /// Shared memory is allocated per block in units of this many bytes.
    pub shared_mem_allocation_unit: u64,
    /// Shared memory the CUDA runtime reserves per block, bytes.
    pub reserved_shared_mem_per_block: u64,
    /// The shared memory carve-outs the driver can configure, bytes, ascending.
    pub shared_mem_configs: Vec<u64>,
}

impl GpuLimits {
    /// The largest shared memory a block may opt in to, excluding the reservation.
    pub fn max_user_shared_mem_per_block(&self) -> u64 {
        self.max_shared_mem_per_block
            .saturating_sub(self.reserved_shared_mem_per_block)
    }

    /// Whether this architecture enforces the per-SM barrier limit.
    pub fn enforces_barriers(&self) -> bool {
        self.cc >= (9, 0)
    }

    /// The table row of exactly this compute capability.
    pub fn for_cc(cc: (u32, u32)) -> Option<GpuLimits> {
        table().iter().find(|l| l.cc == cc).cloned()
    }

    /// The table row of this compute capability, or else of the newest listed one before it
    /// (the per-CC constants rarely change within a major version).
    pub fn nearest_for_cc(cc: (u32, u32)) -> Option<GpuLimits> {
        let rows = table();
        let mut best = rows
            .iter()
            .filter(|l| l.cc <= cc && l.cc.0 == cc.0)
            .max_by_key(|l| l.cc)
            .or_else(|| rows.iter().filter(|l| l.cc <= cc).max_by_key(|l| l.cc))?
            .clone();
        best.cc = cc;
        Some(best)
    }

    /// The compute capabilities the table lists, ascending.
    pub fn table_ccs() -> impl Iterator<Item = (u32, u32)> {
        table().iter().map(|l| l.cc)
    }

    /// Lays device attributes over the limits. `attribute` answers a name without the
    /// `device__attribute_` prefix. Returns how many attributes were used.
    pub fn apply_attributes(&mut self, attribute: impl Fn(&str) -> Option<f64>) -> usize {
        let count = |name: &str| {
            attribute(name)
                .filter(|v| v.is_finite() && *v >= 0.0 && *v <= f64::from(u32::MAX))
                .map(|v| v.round() as u32)
        };
        let mut used = 0;
        let mut set32 = |target: &mut u32, name: &str| {
            if let Some(v) = count(name).filter(|v| *v > 0) {
                *target = v;
                used += 1;
            }
        };
        set32(&mut self.threads_per_warp, "warp_size");
        set32(&mut self.max_warps_per_sm, "max_warps_per_multiprocessor");
        set32(
            &mut self.max_threads_per_sm,
            "max_threads_per_multiprocessor",
        );
        set32(&mut self.max_blocks_per_sm, "max_blocks_per_multiprocessor");
        set32(&mut self.max_threads_per_block, "max_threads_per_block");
        set32(
            &mut self.registers_per_sm,
            "max_registers_per_multiprocessor",
        );
        set32(&mut self.max_registers_per_block, "max_registers_per_block");
        set32(
            &mut self.max_registers_per_thread,
            "max_registers_per_thread",
        );
        set32(
            &mut self.sub_partitions,
            "num_schedulers_per_multiprocessor",
        );
        if let Some(v) = count("reserved_shared_memory_per_block") {
            self.reserved_shared_mem_per_block = u64::from(v);
            used += 1;
        }
        if let Some(v) = count("max_shared_memory_per_multiprocessor").filter(|v| *v > 0) {
            self.shared_mem_per_sm = u64::from(v);
            used += 1;
        }
        if let Some(v) = count("max_shared_memory_per_block_optin").filter(|v| *v > 0) {
            self.max_shared_mem_per_block = u64::from(v) + self.reserved_shared_mem_per_block;
            used += 1;
        }
        if let Some(v) = count("max_shared_memory_per_block").filter(|v| *v > 0) {
            self.default_shared_mem_per_block = u64::from(v);
            used += 1;
        }
        used
    }
}

/// One row of the table file, as written there.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct TableRow {
    warps: u32,
    threads: u32,
    blocks: u32,
    barriers: u32,
    regs: u32,
    regs_per_block: u32,
    regs_per_thread: u32,
    reg_unit: u32,
    warp_gran: u32,
    #[serde(rename = "smemPerSM")]
    smem_per_sm: u64,
    smem_per_block_max: u64,
    smem_gran: u64,
    reserved: u64,
    configs: Vec<u64>,
}

#[derive(Deserialize, Default)]
struct TableFile {
    occupancy: BTreeMap<String, TableRow>,
}

/// Parses `"9.0"` or `"10.3"` into (major, minor).
pub fn parse_cc(text: &str) -> Option<(u32, u32)> {
    let (major, minor) = text.trim().split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

fn table() -> &'static [GpuLimits] {
    static TABLE: OnceLock<Vec<GpuLimits>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let file: TableFile = serde_json::from_str(GPU_LIMITS_JSON).unwrap_or_default();
        let mut rows: Vec<GpuLimits> = file
            .occupancy
            .into_iter()
            .filter_map(|(key, row)| {
                let cc = parse_cc(&key)?;
                let mut configs = row.configs;
                configs.sort_unstable();
                Some(GpuLimits {
                    cc,
                    threads_per_warp: 32,
                    max_warps_per_sm: row.warps,
                    max_threads_per_sm: row.threads,
                    max_blocks_per_sm: row.blocks,
                    max_threads_per_block: MAX_THREADS_PER_BLOCK,
                    barriers_per_sm: row.barriers,
                    registers_per_sm: row.regs,
                    max_registers_per_block: row.regs_per_block,
                    max_registers_per_thread: row.regs_per_thread,
                    register_allocation_unit: row.reg_unit,
                    sub_partitions: row.warp_gran,
                    shared_mem_per_sm: row.smem_per_sm,
                    max_shared_mem_per_block: row.smem_per_block_max,
                    default_shared_mem_per_block: DEFAULT_SHARED_MEM_PER_BLOCK,
                    shared_mem_allocation_unit: row.smem_gran,
                    reserved_shared_mem_per_block: row.reserved,
                    shared_mem_configs: configs,
                })
            })
            .collect();
        rows.sort_by_key(|l| l.cc);
        rows
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_every_listed_architecture() {
        let ccs: Vec<_> = GpuLimits::table_ccs().collect();
        assert_eq!(ccs.len(), 18);
        assert_eq!(ccs.first(), Some(&(5, 0)));
        // Maxwell and Pascal: every CC ncu has supported.
        for cc in [(5, 0), (5, 2), (5, 3), (6, 0), (6, 1), (6, 2)] {
            assert!(GpuLimits::for_cc(cc).is_some(), "{cc:?}");
        }
        assert_eq!(ccs.last(), Some(&(12, 1)));
        let h100 = GpuLimits::for_cc((9, 0)).unwrap();
        assert_eq!(h100.max_warps_per_sm, 64);
        assert_eq!(h100.shared_mem_per_sm, 233_472);
        assert_eq!(h100.max_user_shared_mem_per_block(), 232_448);
        assert_eq!(h100.shared_mem_configs.len(), 10);
        let ga10x = GpuLimits::for_cc((8, 6)).unwrap();
        assert_eq!(ga10x.max_blocks_per_sm, 16);
        assert_eq!(ga10x.barriers_per_sm, 16);
        assert_eq!(
            GpuLimits::nearest_for_cc((9, 1)).unwrap().max_warps_per_sm,
            64
        );
        assert_eq!(GpuLimits::for_cc((9, 1)), None);
        assert_eq!(parse_cc("10.3"), Some((10, 3)));
        assert_eq!(parse_cc("x"), None);
    }
}
