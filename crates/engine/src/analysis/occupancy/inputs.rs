//! Reading the calculator's inputs from a result: the launch metrics of a report, or the Launch
//! Statistics rows of a text form, whose byte values ncu printed rounded (`32.77 Kbyte`) and
//! which are snapped back to the sizes the hardware uses.

use super::calculator::LaunchConfig;
use super::limits::GpuLimits;
use crate::model::units::to_base;
use crate::model::{Device, KernelResult, MetricView, names};
use crate::parse::number::parse_value;

/// Metric names of the launch inputs.
pub const SHARED_MEM_STATIC: &str = "launch__shared_mem_per_block_static";
pub const SHARED_MEM_DYNAMIC: &str = "launch__shared_mem_per_block_dynamic";
pub const SHARED_MEM_DRIVER: &str = "launch__shared_mem_per_block_driver";
pub const SHARED_MEM_TOTAL: &str = "launch__shared_mem_per_block";
pub const SHARED_MEM_CONFIG: &str = "launch__shared_mem_config_size";
pub const BARRIER_COUNT: &str = "launch__barrier_count";
pub const LIMIT_BARRIERS: &str = "launch__occupancy_limit_barriers";

/// Why the calculator cannot run for a result.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OccupancyError {
    #[error("the compute capability is unknown (choose an architecture)")]
    UnknownCc,
    #[error("no occupancy limits are known for compute capability {0}.{1}")]
    UnsupportedCc(u32, u32),
    #[error("the result has no {0}")]
    MissingInput(&'static str),
}

/// Where a result's compute capability came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CcOrigin {
    /// The result's kernel line or the report's device.
    Report,
    /// Chosen by the user because the source does not say.
    Assumed,
}

/// Finds the compute capability of a result.
pub fn compute_capability(
    result: &KernelResult,
    device: Option<&Device>,
    assumed: Option<(u32, u32)>,
) -> Result<((u32, u32), CcOrigin), OccupancyError> {
    let from_metrics = || {
        let major = device_attribute(result, device, "compute_capability_major")?;
        let minor = device_attribute(result, device, "compute_capability_minor")?;
        (major >= 0.0 && minor >= 0.0 && major < 100.0 && minor < 100.0)
            .then_some((major as u32, minor as u32))
    };
    if let Some(cc) = result
        .cc
        .or_else(|| device.and_then(|d| d.cc))
        .or_else(from_metrics)
    {
        return Ok((cc, CcOrigin::Report));
    }
    assumed
        .map(|cc| (cc, CcOrigin::Assumed))
        .ok_or(OccupancyError::UnknownCc)
}

/// A device attribute (name without `device__attribute_`) from the result's metrics or the
/// report's device.
pub fn device_attribute(result: &KernelResult, device: Option<&Device>, name: &str) -> Option<f64> {
    let key = format!("device__attribute_{name}");
    result.number(&key).or_else(|| {
        let dev = device?;
        let (_, text) = dev
            .attributes
            .iter()
            .find(|(k, _)| k == name || *k == key)?;
        parse_value(text).0.as_f64()
    })
}

/// Device attributes the occupancy limits come from; a result has them when any is present.
const LIMIT_ATTRIBUTES: [&str; 3] = [
    "max_warps_per_multiprocessor",
    "max_registers_per_multiprocessor",
    "max_shared_memory_per_multiprocessor",
];

/// Whether the result or its device carries the attributes the limits come from.
pub fn has_limit_attributes(result: &KernelResult, device: Option<&Device>) -> bool {
    LIMIT_ATTRIBUTES
        .iter()
        .any(|a| device_attribute(result, device, a).is_some())
}

/// The calculator inputs of a result, with notes on anything read approximately.
#[derive(Debug, Clone, PartialEq)]
pub struct LaunchInputs {
    pub launch: LaunchConfig,
    /// Grid size in blocks, when known.
    pub grid_blocks: Option<u64>,
    /// What was inferred or assumed.
    pub notes: Vec<String>,
}

/// The bounds a printed value stands for, in base units: `(low, high)`.
fn printed_bounds(m: MetricView<'_>) -> Option<(f64, f64)> {
    let value = m.as_f64()?;
    let p = m.printed?;
    let factor = to_base(&p.unit).factor;
    let half = 0.5 * 10f64.powi(-i32::from(p.decimals)) * factor;
    (half >= 0.5).then_some((value - half, value + half))
}

/// A non-negative whole number read from a metric.
fn whole(m: MetricView<'_>) -> Option<u64> {
    m.as_f64()
        .filter(|v| v.is_finite() && *v >= 0.0 && *v < 9.0e15)
        .map(|v| v.round() as u64)
}

/// A byte count; when printed rounded, the candidate inside the printed bounds nearest to the
/// printed value, else the nearest multiple of `unit` inside them.
fn bytes(
    m: MetricView<'_>,
    candidates: &[u64],
    unit: u64,
    what: &str,
    notes: &mut Vec<String>,
) -> Option<u64> {
    let raw = whole(m)?;
    let Some((lo, hi)) = printed_bounds(m) else {
        return Some(raw);
    };
    let value = raw as f64;
    let inside = |c: u64| (c as f64) >= lo && (c as f64) <= hi;
    let nearest = |it: &mut dyn Iterator<Item = u64>| {
        it.filter(|c| inside(*c)).min_by(|a, b| {
            ((*a as f64) - value)
                .abs()
                .total_cmp(&((*b as f64) - value).abs())
        })
    };
    let unit = unit.max(1);
    let snapped = nearest(&mut candidates.iter().copied()).or_else(|| {
        let k = (value / unit as f64).round() as u64;
        nearest(&mut (k.saturating_sub(1)..=k + 1).map(|k| k * unit))
    });
    match snapped {
        Some(s) => {
            if s != raw {
                let shown = m
                    .printed
                    .map_or_else(String::new, |p| format!("{} {}", p.value, p.unit));
                notes.push(format!("{what} printed as {shown}: read as {s} bytes"));
            }
            Some(s)
        }
        None => Some(raw),
    }
}

/// The barrier count that gives ncu's printed barrier limit (`launch__occupancy_limit_barriers`):
/// 0 when the limit is the SM's block slots (barriers then change nothing), else the smallest
/// count that gives it.
fn barriers_from_limit(limits: &GpuLimits, limit: u64) -> Option<u32> {
    if limit >= u64::from(limits.max_blocks_per_sm) {
        return Some(0);
    }
    (1..=limits.barriers_per_sm).find(|b| u64::from(limits.barriers_per_sm / b) == limit)
}

/// Reads the launch inputs of a result.
pub fn launch_inputs(
    result: &KernelResult,
    limits: &GpuLimits,
) -> Result<LaunchInputs, OccupancyError> {
    let mut notes = Vec::new();
    let metric = |k: &str| result.metric(k);
    let block_size = metric(names::BLOCK_SIZE)
        .and_then(whole)
        .or_else(|| result.block.map(|b| b.product()))
        .ok_or(OccupancyError::MissingInput("block size"))?;
    let registers = metric(names::REGISTERS_PER_THREAD)
        .and_then(whole)
        .ok_or(OccupancyError::MissingInput("registers per thread"))?;
    let unit = limits.shared_mem_allocation_unit;
    let reserved = limits.reserved_shared_mem_per_block;
    let driver = match metric(SHARED_MEM_DRIVER) {
        Some(m) => bytes(
            m,
            &[reserved],
            unit,
            "Driver Shared Memory Per Block",
            &mut notes,
        ),
        None => None,
    };
    let driver = driver.unwrap_or_else(|| {
        notes.push(format!(
            "driver shared memory per block not given: assumed {reserved} bytes"
        ));
        reserved
    });
    let stat = metric(SHARED_MEM_STATIC)
        .and_then(|m| bytes(m, &[0], unit, "Static Shared Memory Per Block", &mut notes));
    let dynamic = metric(SHARED_MEM_DYNAMIC)
        .and_then(|m| bytes(m, &[0], unit, "Dynamic Shared Memory Per Block", &mut notes));
    let (stat, dynamic) = match (stat, dynamic) {
        (None, None) => {
            let total = metric(SHARED_MEM_TOTAL)
                .and_then(whole)
                .ok_or(OccupancyError::MissingInput("shared memory per block"))?;
            (total.saturating_sub(driver), 0)
        }
        (s, d) => (s.unwrap_or(0), d.unwrap_or(0)),
    };
    // An architecture of one fixed shared memory size (Maxwell, Pascal) has no carve-out to
    // configure: what older reports store under that name is something else.
    let config = match (
        limits.shared_mem_configs.as_slice(),
        metric(SHARED_MEM_CONFIG),
    ) {
        ([only], _) => Some(*only),
        (_, Some(m)) => bytes(
            m,
            &limits.shared_mem_configs,
            unit,
            "Shared Memory Configuration Size",
            &mut notes,
        ),
        (_, None) => None,
    };
    let config = config.unwrap_or_else(|| {
        let need = (stat + dynamic + driver).div_ceil(unit.max(1)) * unit.max(1);
        let c = limits
            .shared_mem_configs
            .iter()
            .copied()
            .find(|c| *c >= need && *c > 0)
            .unwrap_or(limits.shared_mem_per_sm);
        notes.push(format!(
            "shared memory configuration size not given: assumed {c} bytes"
        ));
        c
    });
    let barriers = match metric(BARRIER_COUNT).and_then(whole) {
        Some(b) => b,
        None if limits.enforces_barriers() => {
            match metric(LIMIT_BARRIERS)
                .and_then(whole)
                .and_then(|l| barriers_from_limit(limits, l))
            {
                Some(b) => {
                    notes.push(format!(
                        "barrier count not printed: {b} inferred from Block Limit Barriers"
                    ));
                    u64::from(b)
                }
                None => {
                    notes.push("barrier count not given: assumed 0".into());
                    0
                }
            }
        }
        None => 0,
    };
    let clamp = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
    let grid_blocks = result
        .number(names::GRID_SIZE)
        .filter(|v| v.is_finite() && *v >= 0.0)
        .map(|v| v as u64)
        .or_else(|| result.grid.map(|g| g.product()));
    Ok(LaunchInputs {
        launch: LaunchConfig {
            block_size: clamp(block_size),
            registers_per_thread: clamp(registers),
            shared_mem_static: stat,
            shared_mem_dynamic: dynamic,
            shared_mem_driver: driver,
            shared_mem_config: config,
            barriers: clamp(barriers),
        },
        grid_blocks,
        notes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Metric, Printed, Value};

    fn printed(base: f64, shown: f64, unit: &str, decimals: u8) -> Metric {
        let mut m = Metric::new(None, Value::Double(base), "byte");
        m.printed = Some(Printed {
            value: Value::Double(shown),
            unit: unit.into(),
            decimals,
        });
        m
    }

    #[test]
    fn snaps_rounded_byte_values() {
        let h100 = GpuLimits::for_cc((9, 0)).unwrap();
        let mut notes = Vec::new();
        let config = printed(32770.0, 32.77, "Kbyte", 2);
        assert_eq!(
            bytes(
                config.view(),
                &h100.shared_mem_configs,
                128,
                "c",
                &mut notes
            ),
            Some(32768)
        );
        let driver = printed(1020.0, 1.02, "Kbyte/block", 2);
        assert_eq!(
            bytes(driver.view(), &[1024], 128, "d", &mut notes),
            Some(1024)
        );
        let dynamic = printed(98300.0, 98.30, "Kbyte/block", 2);
        assert_eq!(
            bytes(dynamic.view(), &[0], 128, "s", &mut notes),
            Some(98304)
        );
        assert_eq!(notes.len(), 3);
        let exact = Metric::new(None, Value::U64(2048), "byte/block");
        assert_eq!(bytes(exact.view(), &[0], 128, "e", &mut notes), Some(2048));
    }

    #[test]
    fn barrier_count_from_printed_limit() {
        let h100 = GpuLimits::for_cc((9, 0)).unwrap();
        assert_eq!(barriers_from_limit(&h100, 32), Some(0));
        assert_eq!(barriers_from_limit(&h100, 16), Some(4));
        assert_eq!(barriers_from_limit(&h100, 21), Some(3));
    }
}
