//! Exact rooflines from the metrics of the roofline sections (`--set full`, raw CSV,
//! `.ncu-rep`): the formulas of ncu's section files, value per cycle × cycles per second.

use super::{PerLevel, PerPrecision, Precision, TensorPath};
use crate::model::KernelResult;

pub const SM_CYCLES_PER_SECOND: &str = "sm__cycles_elapsed.avg.per_second";
pub const SMSP_CYCLES_PER_SECOND: &str = "smsp__cycles_elapsed.avg.per_second";
pub const DRAM_CYCLES_PER_SECOND: &str = "dram__cycles_elapsed.avg.per_second";
pub const DRAM_PEAK_BYTES_PER_CYCLE: &str = "dram__bytes.sum.peak_sustained";
pub const DRAM_BYTES_PER_SECOND: &str = "dram__bytes.sum.per_second";
const L2_CYCLES_PER_SECOND: &str = "lts__cycles_elapsed.avg.per_second";
const L2_PEAK: &str = "lts__lts2xbar_cycles_active.sum.peak_sustained";
const L2_ACHIEVED: &str = "lts__lts2xbar_cycles_active.sum.per_second";
/// Bytes per active L2-to-crossbar cycle.
const L2_BYTES_PER_CYCLE: f64 = 32.0;
const L1_CYCLES_PER_SECOND: &str = "l1tex__cycles_elapsed.avg.per_second";
/// Bytes per active L1 writeback cycle.
const L1_BYTES_PER_CYCLE: f64 = 128.0;
const TENSOR_PREFIX: &str = "sm__ops_path_tensor_";

/// The L1 writeback metric: global, local and (on CC 9.0 and newer) distributed shared memory.
fn l1_metric(cc: Option<(u32, u32)>, result: &KernelResult) -> &'static str {
    const LG: &str = "l1tex__lsu_writeback_active_mem_lg";
    const LGDS: &str = "l1tex__lsu_writeback_active_mem_lgds";
    match cc {
        Some(cc) if cc >= (9, 0) => LGDS,
        Some(_) => LG,
        None if result
            .metric(&format!("{LGDS}.sum.peak_sustained"))
            .is_some() =>
        {
            LGDS
        }
        None => LG,
    }
}

fn num(result: &KernelResult, key: &str) -> Option<f64> {
    result.number(key).filter(|v| v.is_finite())
}

fn thread_inst(result: &KernelResult, scope: &str, op: &str, suffix: &str) -> Option<f64> {
    num(
        result,
        &format!("{scope}__sass_thread_inst_executed_op_{op}_pred_on.sum.{suffix}"),
    )
}

/// (peak FMA op, FLOP per peak FMA instruction, achieved terms as (op, FLOP per instruction)).
fn fp_terms(p: Precision) -> (&'static str, f64, [(&'static str, f64); 3]) {
    match p {
        Precision::Fp32 => ("ffma", 2.0, [("fadd", 1.0), ("fmul", 1.0), ("ffma", 2.0)]),
        Precision::Fp64 => ("dfma", 2.0, [("dadd", 1.0), ("dmul", 1.0), ("dfma", 2.0)]),
        Precision::Fp16 => ("hfma", 4.0, [("hadd", 2.0), ("hmul", 2.0), ("hfma", 4.0)]),
    }
}

/// Peak work of a precision, FLOP/s.
pub fn peak_work(result: &KernelResult, p: Precision) -> Option<f64> {
    let (op, flop, _) = fp_terms(p);
    Some(
        thread_inst(result, "sm", op, "peak_sustained")?
            * flop
            * num(result, SM_CYCLES_PER_SECOND)?,
    )
}

/// Achieved work of a precision, FLOP/s.
pub fn achieved_work(result: &KernelResult, p: Precision) -> Option<f64> {
    let (_, _, terms) = fp_terms(p);
    let mut per_cycle = 0.0;
    for (op, flop) in terms {
        per_cycle += flop * thread_inst(result, "smsp", op, "per_cycle_elapsed")?;
    }
    let hz = num(result, SMSP_CYCLES_PER_SECOND).or_else(|| num(result, SM_CYCLES_PER_SECOND))?;
    Some(per_cycle * hz)
}

/// The metrics [`achieved_work`] reads, for every precision: what a copy of a result must keep
/// to give its achieved work without its body.
pub fn achieved_work_metrics() -> Vec<String> {
    let mut names: Vec<String> = Precision::ALL
        .into_iter()
        .flat_map(|p| fp_terms(p).2)
        .map(|(op, _)| {
            format!("smsp__sass_thread_inst_executed_op_{op}_pred_on.sum.per_cycle_elapsed")
        })
        .collect();
    names.push(SMSP_CYCLES_PER_SECOND.into());
    names.push(SM_CYCLES_PER_SECOND.into());
    names
}

/// Peak and achieved traffic of each memory level, byte/s.
pub fn traffic(
    result: &KernelResult,
    cc: Option<(u32, u32)>,
) -> (PerLevel<Option<f64>>, PerLevel<Option<f64>>) {
    let l1 = l1_metric(cc, result);
    let peak = PerLevel {
        dram: num(result, DRAM_PEAK_BYTES_PER_CYCLE)
            .zip(num(result, DRAM_CYCLES_PER_SECOND))
            .map(|(b, hz)| b * hz),
        l2: num(result, L2_PEAK)
            .zip(num(result, L2_CYCLES_PER_SECOND))
            .map(|(c, hz)| c * L2_BYTES_PER_CYCLE * hz),
        l1: num(result, &format!("{l1}.sum.peak_sustained"))
            .zip(num(result, L1_CYCLES_PER_SECOND))
            .map(|(c, hz)| c * L1_BYTES_PER_CYCLE * hz),
    };
    let achieved = PerLevel {
        dram: num(result, DRAM_BYTES_PER_SECOND),
        l2: num(result, L2_ACHIEVED).map(|c| c * L2_BYTES_PER_CYCLE),
        l1: num(result, &format!("{l1}.sum.per_second")).map(|c| c * L1_BYTES_PER_CYCLE),
    };
    (peak, achieved)
}

/// Peak and achieved FP work of every precision.
pub fn work(result: &KernelResult) -> (PerPrecision<Option<f64>>, PerPrecision<Option<f64>>) {
    let per = |f: fn(&KernelResult, Precision) -> Option<f64>| PerPrecision {
        fp32: f(result, Precision::Fp32),
        fp64: f(result, Precision::Fp64),
        fp16: f(result, Precision::Fp16),
    };
    (per(peak_work), per(achieved_work))
}

/// "Op:hgmma Src:bf16 Dst:fp32 Sparsity:off" from `op_hgmma_src_bf16_dst_fp32_sparsity_off`.
pub fn tensor_label(path: &str) -> String {
    const KEYS: [(&str, &str); 4] = [
        ("op", "Op"),
        ("src", "Src"),
        ("dst", "Dst"),
        ("sparsity", "Sparsity"),
    ];
    let mut parts: Vec<String> = Vec::new();
    let mut tokens = path.split('_').peekable();
    while let Some(t) = tokens.next() {
        match KEYS.iter().find(|(k, _)| *k == t) {
            Some((_, name)) => {
                let mut value = String::new();
                while let Some(next) = tokens.peek() {
                    if KEYS.iter().any(|(k, _)| k == next) {
                        break;
                    }
                    if !value.is_empty() {
                        value.push('_');
                    }
                    value.push_str(next);
                    tokens.next();
                }
                parts.push(format!("{name}:{value}"));
            }
            None => match parts.last_mut() {
                Some(last) => {
                    last.push('_');
                    last.push_str(t);
                }
                None => parts.push(t.to_string()),
            },
        }
    }
    parts.join(" ")
}

/// Tensor-core datapaths with nonzero achieved work, OP/s. Where the per-instruction paths
/// (`op_hmma_...`, `op_hgmma_...`) exist, the chart uses only those.
pub fn tensor_paths(result: &KernelResult) -> Vec<TensorPath> {
    every_tensor_path(result)
        .into_iter()
        .filter(|t| t.achieved > 0.0)
        .collect()
}

/// Tensor-core datapaths the result did no work on but whose peak it stores (a `--set full`
/// report of a kernel without tensor work stores every datapath's), OP/s: ncu draws their
/// ceilings all the same.
pub fn idle_tensor_paths(result: &KernelResult) -> Vec<TensorPath> {
    every_tensor_path(result)
        .into_iter()
        .filter(|t| t.achieved <= 0.0 && t.peak > 0.0)
        .collect()
}

/// Every tensor-core datapath with its peak and achieved work (none achieved where the
/// result stores no achieved value), per-instruction paths only where there are some.
fn every_tensor_path(result: &KernelResult) -> Vec<TensorPath> {
    let Some(hz) = num(result, SM_CYCLES_PER_SECOND) else {
        return Vec::new();
    };
    let paths: Vec<&str> = result
        .metrics()
        .with_prefix(TENSOR_PREFIX)
        .filter_map(|(k, _)| {
            k.as_str()
                .strip_prefix(TENSOR_PREFIX)?
                .strip_suffix(".sum.peak_sustained")
        })
        .collect();
    let by_instruction = paths.iter().any(|p| p.starts_with("op_"));
    paths
        .into_iter()
        .filter(|p| !by_instruction || p.starts_with("op_"))
        .filter_map(|p| {
            let peak = num(result, &format!("{TENSOR_PREFIX}{p}.sum.peak_sustained"))?;
            let achieved =
                num(result, &format!("{TENSOR_PREFIX}{p}.sum.per_cycle_elapsed")).unwrap_or(0.0);
            (peak.is_finite() && achieved.is_finite()).then(|| TensorPath {
                name: p.to_string(),
                label: tensor_label(p),
                peak: peak * hz,
                achieved: achieved * hz,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::tensor_label;

    #[test]
    fn tensor_labels_like_ncu() {
        assert_eq!(
            tensor_label("op_hgmma_src_bf16_dst_fp32_sparsity_off"),
            "Op:hgmma Src:bf16 Dst:fp32 Sparsity:off"
        );
        assert_eq!(tensor_label("op_bmma_src_int1"), "Op:bmma Src:int1");
        assert_eq!(tensor_label("src_fp8_e4m3"), "Src:fp8_e4m3");
    }
}
