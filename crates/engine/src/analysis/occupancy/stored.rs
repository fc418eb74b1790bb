//! The block limits a report stores (`launch__occupancy_limit_*`). Where a report stores a
//! limit, that is the limit shown, as ncu shows it (ncu's own calculation of older versions
//! differs from today's, and a resource that sets no limit is stored as the SM's block
//! slots); the calculator's value is shown only where none is stored, and says so.

use super::calculator::{Limiter, Occupancy};
use crate::model::KernelResult;
use serde::Serialize;

/// The stored limit of each resource; `None` where the report stores none (or NaN).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct StoredLimits {
    pub registers: Option<u32>,
    pub shared_mem: Option<u32>,
    pub warps: Option<u32>,
    pub blocks: Option<u32>,
    pub barriers: Option<u32>,
}

impl StoredLimits {
    /// The limits `result` stores.
    pub fn read(result: &KernelResult) -> StoredLimits {
        let get = |limiter: Limiter| {
            result
                .number(metric(limiter))
                .filter(|v| v.is_finite() && *v >= 0.0 && *v <= f64::from(u32::MAX))
                .map(|v| v as u32)
        };
        StoredLimits {
            registers: get(Limiter::Registers),
            shared_mem: get(Limiter::SharedMem),
            warps: get(Limiter::Warps),
            blocks: get(Limiter::Blocks),
            barriers: get(Limiter::Barriers),
        }
    }

    /// The stored limit of one resource.
    pub fn get(&self, limiter: Limiter) -> Option<u32> {
        match limiter {
            Limiter::Registers => self.registers,
            Limiter::SharedMem => self.shared_mem,
            Limiter::Warps => self.warps,
            Limiter::Blocks => self.blocks,
            Limiter::Barriers => self.barriers,
        }
    }
}

/// The metric a limit is stored in.
pub fn metric(limiter: Limiter) -> &'static str {
    match limiter {
        Limiter::Registers => "launch__occupancy_limit_registers",
        Limiter::SharedMem => "launch__occupancy_limit_shared_mem",
        Limiter::Warps => "launch__occupancy_limit_warps",
        Limiter::Blocks => "launch__occupancy_limit_blocks",
        Limiter::Barriers => super::inputs::LIMIT_BARRIERS,
    }
}

/// A limit as shown: the stored one, else the calculator's (`None`: no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ShownLimit {
    pub value: Option<u32>,
    /// The report stores no limit: the calculator's.
    pub computed: bool,
}

impl ShownLimit {
    /// The limit of `limiter`: stored where `stored` has it, else from `o`.
    pub fn of(limiter: Limiter, stored: Option<&StoredLimits>, o: &Occupancy) -> ShownLimit {
        match stored.and_then(|s| s.get(limiter)) {
            Some(v) => ShownLimit {
                value: Some(v),
                computed: false,
            },
            None => ShownLimit {
                value: match limiter {
                    Limiter::Barriers => Some(o.limits.barriers_as_reported()),
                    other => o.limits.get(other),
                },
                computed: true,
            },
        }
    }

    /// The limit in words: `4`, or `4 (computed)` / `no limit (computed)`.
    pub fn text(&self) -> String {
        let v = self
            .value
            .map_or_else(|| "no limit".into(), |v| v.to_string());
        if self.computed {
            format!("{v} (computed)")
        } else {
            v
        }
    }
}
