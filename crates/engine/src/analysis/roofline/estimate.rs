//! Estimated rooflines for results without the roofline metrics (basic set, text forms): peaks
//! from SM count × FMA lanes × SM frequency, achieved FP work from the SOLFPRoofline rule's
//! "achieved X% of this device's FP32 peak", DRAM peak from Memory Throughput over DRAM
//! Throughput % (or DRAM frequency × 2 × bus width).

use super::exact::{
    DRAM_BYTES_PER_SECOND, DRAM_CYCLES_PER_SECOND, DRAM_PEAK_BYTES_PER_CYCLE, SM_CYCLES_PER_SECOND,
};
use super::lanes::lanes_for;
use super::rule_text::{fp_roofline_rule, sm_count_from_rules};
use super::{Precision, Roofline};
use crate::analysis::occupancy::inputs::device_attribute;
use crate::model::units::to_base;
use crate::model::{Device, KernelResult, MetricView, Report, names};
use std::collections::BTreeMap;

const DRAM_THROUGHPUT_PCT: &str = "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed";
/// Extra relative uncertainty given to the bus-width rule (2 transfers per cycle is checked on
/// HBM3 only).
const BUS_WIDTH_RULE_UNCERTAINTY: f64 = 0.02;

/// The relative rounding of a value a text form printed (0 for stored values).
fn rel_rounding(m: MetricView<'_>) -> f64 {
    let (Some(v), Some(p)) = (m.as_f64(), m.printed) else {
        return 0.0;
    };
    let half = 0.5 * 10f64.powi(-i32::from(p.decimals)) * to_base(&p.unit).factor;
    if v == 0.0 {
        f64::INFINITY
    } else {
        (half / v).abs()
    }
}

/// A number with its relative uncertainty.
fn measured(result: &KernelResult, key: &str) -> Option<(f64, f64)> {
    let m = result.metric(key)?;
    let v = m.as_f64().filter(|v| v.is_finite())?;
    Some((v, rel_rounding(m)))
}

/// DRAM bytes per DRAM cycle from Memory Throughput ÷ DRAM Throughput % ÷ DRAM frequency, with
/// its relative uncertainty.
fn dram_bytes_per_cycle(result: &KernelResult) -> Option<(f64, f64)> {
    if let Some(b) = result
        .number(DRAM_PEAK_BYTES_PER_CYCLE)
        .filter(|v| *v > 0.0)
    {
        return Some((b, 0.0));
    }
    let (bw, e1) = measured(result, DRAM_BYTES_PER_SECOND)?;
    let (pct, e2) = measured(result, DRAM_THROUGHPUT_PCT)?;
    let (hz, e3) = measured(result, DRAM_CYCLES_PER_SECOND)?;
    (bw > 0.0 && pct > 0.0 && hz > 0.0).then(|| (bw / (pct / 100.0) / hz, e1 + e2 + e3))
}

/// What the other results of a report tell about a result's device: the DRAM bytes per cycle
/// measured most precisely among the results of each device. Build it once per report.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RooflineContext {
    dram_bytes_per_cycle: BTreeMap<Option<u64>, (f64, f64)>,
}

impl RooflineContext {
    /// Collects the context from the results of one report.
    pub fn from_results<'a>(results: impl IntoIterator<Item = &'a KernelResult>) -> Self {
        let mut map: BTreeMap<Option<u64>, (f64, f64)> = BTreeMap::new();
        for r in results {
            if let Some(candidate) = dram_bytes_per_cycle(r).filter(|c| c.1.is_finite()) {
                let entry = map.entry(r.device).or_insert(candidate);
                if candidate.1 < entry.1 {
                    *entry = candidate;
                }
            }
        }
        RooflineContext {
            dram_bytes_per_cycle: map,
        }
    }

    /// Adds the context of results that come after those of `self`: the same as collecting the
    /// context from all of them in order, so the results can be read in parallel and their
    /// contexts merged in order.
    pub fn merge(&mut self, later: RooflineContext) {
        for (device, candidate) in later.dram_bytes_per_cycle {
            let entry = self.dram_bytes_per_cycle.entry(device).or_insert(candidate);
            if candidate.1 < entry.1 {
                *entry = candidate;
            }
        }
    }

    /// The context of every result of a report, read a window of results at a time on every
    /// core (each body released after) and merged in order: the same as
    /// [`RooflineContext::from_results`] over the report's results.
    pub fn of_report(report: &mut Report) -> Self {
        let mut context = RooflineContext::from_results([]);
        let _ = crate::analysis::parallel::map_results(
            report,
            |report, i| RooflineContext::from_results([&report.results[i]]),
            |_, c| -> Result<(), std::convert::Infallible> {
                context.merge(c);
                Ok(())
            },
        );
        context
    }
}

/// Fills what the exact formulas left empty with estimates, noting each assumption.
pub fn fill(
    r: &mut Roofline,
    result: &KernelResult,
    device: Option<&Device>,
    cc: Option<(u32, u32)>,
    context: &RooflineContext,
) {
    let mut notes: Vec<String> = Vec::new();
    let rule = fp_roofline_rule(result);
    let sm_count = result
        .number("launch__sm_count")
        .or_else(|| device_attribute(result, device, "multiprocessor_count"))
        .or_else(|| device.and_then(|d| d.sm_count).map(|n| n as f64))
        .or_else(|| sm_count_from_rules(result).map(|n| n as f64))
        .filter(|n| *n >= 1.0);
    let sm_hz = result
        .number(SM_CYCLES_PER_SECOND)
        .or_else(|| result.number(names::SM_FREQUENCY))
        .filter(|v| v.is_finite() && *v > 0.0);
    let lanes = cc.and_then(lanes_for);

    // Peaks of the FP pipes. FP64 comes from the rule's FP32:FP64 ratio when it has one.
    let ratio = rule
        .and_then(|x| x.fp32_to_fp64_ratio)
        .or_else(|| device_attribute(result, device, "single_to_double_precision_perf_ratio"))
        .filter(|v| *v > 0.0);
    if let (Some(n), Some(hz), Some(l), Some(cc)) = (sm_count, sm_hz, lanes, cc) {
        let fp64_lanes = if ratio.is_some() { None } else { l.fp64 };
        for (p, lanes, flop, what) in [
            (Precision::Fp32, l.fp32, 2.0, "FFMA"),
            (Precision::Fp64, fp64_lanes, 2.0, "DFMA"),
            (Precision::Fp16, l.hfma2, 4.0, "HFMA2"),
        ] {
            if r.peak_work.get(p).is_none()
                && let Some(lanes) = lanes
            {
                *r.peak_work.get_mut(p) = Some(n * f64::from(lanes) * flop * hz);
                notes.push(format!(
                    "peak {} = {n} SMs x {lanes} {what} lanes x {flop} FLOP x SM frequency (CC {}.{} table)",
                    p.name(),
                    cc.0,
                    cc.1
                ));
            }
        }
    }
    if r.peak_work.fp64.is_none()
        && let (Some(p32), Some(ratio)) = (r.peak_work.fp32, ratio)
    {
        r.peak_work.fp64 = Some(p32 / ratio);
        notes.push(format!(
            "peak FP64 = peak FP32 / {ratio} (the device's FP32:FP64 ratio)"
        ));
    }

    // Achieved FP work from the rule's percentages.
    if let Some(rule) = rule {
        for (p, pct) in [
            (Precision::Fp32, rule.fp32_pct),
            (Precision::Fp64, rule.fp64_pct),
        ] {
            if r.achieved_work.get(p).is_some() {
                continue;
            }
            if let (Some(pct), Some(peak)) = (pct, r.peak_work.get(p)) {
                let (lo, hi) = pct.bounds();
                *r.achieved_work.get_mut(p) = Some(pct.estimate() / 100.0 * peak);
                *r.achieved_bounds.get_mut(p) = Some((lo / 100.0 * peak, hi / 100.0 * peak));
                notes.push(format!(
                    "achieved {} = {}% of peak (the roofline rule printed {}{}%)",
                    p.name(),
                    pct.estimate(),
                    if pct.close_to { "close to " } else { "" },
                    pct.value
                ));
            }
        }
    }

    // DRAM peak.
    if r.peak_traffic.dram.is_none() {
        let dram_hz = measured(result, DRAM_CYCLES_PER_SECOND);
        let mut candidates: Vec<(f64, f64, String)> = Vec::new();
        if let Some((bpc, e)) = dram_bytes_per_cycle(result)
            && let Some((hz, _)) = dram_hz
        {
            candidates.push((bpc * hz, e, "Memory Throughput / DRAM Throughput %".into()));
        }
        if let (Some((bpc, e)), Some((hz, e_hz))) =
            (context.dram_bytes_per_cycle.get(&result.device), dram_hz)
        {
            candidates.push((
                bpc * hz,
                e + e_hz,
                format!("{bpc:.1} byte/cycle (from the report's results) x DRAM frequency"),
            ));
        }
        if let (Some(bits), Some((hz, e_hz))) = (
            device_attribute(result, device, "fb_bus_width")
                .or_else(|| device_attribute(result, device, "global_memory_bus_width")),
            dram_hz,
        ) && bits > 0.0
        {
            candidates.push((
                hz * 2.0 * bits / 8.0,
                e_hz + BUS_WIDTH_RULE_UNCERTAINTY,
                format!("DRAM frequency x 2 x {bits}-bit bus"),
            ));
        }
        if let Some((v, _, how)) = candidates
            .into_iter()
            .filter(|c| c.0.is_finite() && c.0 > 0.0)
            .min_by(|a, b| a.1.total_cmp(&b.1))
        {
            r.peak_traffic.dram = Some(v);
            notes.push(format!("peak DRAM bandwidth = {how}"));
        }
    }
    // DRAM traffic from the throughput percentage.
    if r.achieved_traffic.dram.is_none()
        && let (Some(peak), Some(pct)) = (r.peak_traffic.dram, result.number(DRAM_THROUGHPUT_PCT))
    {
        r.achieved_traffic.dram = Some(pct / 100.0 * peak);
        notes.push(
            "DRAM traffic = DRAM Throughput % x peak (the % is a max over DRAM sub-metrics)".into(),
        );
    }

    if !notes.is_empty() {
        r.estimated = true;
        if cc.is_some() && lanes.is_none() && r.peak_work.fp32.is_none() {
            notes.push("no FMA lanes known for this architecture".into());
        }
        r.assumptions.extend(notes);
    }
}
