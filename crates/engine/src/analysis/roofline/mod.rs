//! Rooflines: peak and achieved FP work (FP32, FP64, FP16, tensor datapaths) against DRAM, L2
//! and L1 traffic, exact where the roofline metrics exist and estimated where they do not,
//! and the charts a plot draws from them.

pub mod chart;
pub mod estimate;
pub mod exact;
pub mod labels;
pub mod lanes;
pub mod request;
pub mod rule_text;

pub use chart::{AchievedPoint, Bound, Ceiling, Chart};
pub use estimate::RooflineContext;

use crate::analysis::occupancy::inputs::compute_capability;
use crate::model::{Device, KernelResult, Report};
use serde::Serialize;

/// A floating-point precision with its own pipe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    Fp32,
    Fp64,
    Fp16,
}

impl Precision {
    pub const ALL: [Precision; 3] = [Precision::Fp32, Precision::Fp64, Precision::Fp16];

    /// `fp32`, `fp64`, `fp16`.
    pub fn key(self) -> &'static str {
        match self {
            Precision::Fp32 => "fp32",
            Precision::Fp64 => "fp64",
            Precision::Fp16 => "fp16",
        }
    }

    /// `FP32`, `FP64`, `FP16`.
    pub fn name(self) -> &'static str {
        match self {
            Precision::Fp32 => "FP32",
            Precision::Fp64 => "FP64",
            Precision::Fp16 => "FP16",
        }
    }

    /// `Single Precision`, ... as ncu labels its rooflines.
    pub fn label(self) -> &'static str {
        match self {
            Precision::Fp32 => "Single Precision",
            Precision::Fp64 => "Double Precision",
            Precision::Fp16 => "Half Precision",
        }
    }
}

/// A level of the memory hierarchy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryLevel {
    Dram,
    L2,
    L1,
}

impl MemoryLevel {
    pub const ALL: [MemoryLevel; 3] = [MemoryLevel::Dram, MemoryLevel::L2, MemoryLevel::L1];

    /// `dram`, `l2`, `l1`.
    pub fn key(self) -> &'static str {
        match self {
            MemoryLevel::Dram => "dram",
            MemoryLevel::L2 => "l2",
            MemoryLevel::L1 => "l1",
        }
    }

    fn roofline_label(self) -> &'static str {
        match self {
            MemoryLevel::Dram => "DRAM Roofline",
            MemoryLevel::L2 => "L2 Roofline",
            MemoryLevel::L1 => "L1 Roofline (Global/Local)",
        }
    }

    fn achieved_label(self) -> &'static str {
        match self {
            MemoryLevel::Dram => "DRAM Achieved Value",
            MemoryLevel::L2 => "L2 Achieved Value",
            MemoryLevel::L1 => "L1 Achieved Value (Global/Local)",
        }
    }

    fn tensor_label(self) -> &'static str {
        match self {
            MemoryLevel::Dram => "DRAM",
            MemoryLevel::L2 => "L2 Cache",
            MemoryLevel::L1 => "L1/TEX Cache",
        }
    }
}

/// One value per precision.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct PerPrecision<T> {
    pub fp32: T,
    pub fp64: T,
    pub fp16: T,
}

impl<T: Copy> PerPrecision<T> {
    pub fn get(&self, p: Precision) -> T {
        match p {
            Precision::Fp32 => self.fp32,
            Precision::Fp64 => self.fp64,
            Precision::Fp16 => self.fp16,
        }
    }
}

impl<T> PerPrecision<T> {
    pub fn get_mut(&mut self, p: Precision) -> &mut T {
        match p {
            Precision::Fp32 => &mut self.fp32,
            Precision::Fp64 => &mut self.fp64,
            Precision::Fp16 => &mut self.fp16,
        }
    }
}

/// One value per memory level.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct PerLevel<T> {
    pub dram: T,
    pub l2: T,
    pub l1: T,
}

impl<T: Copy> PerLevel<T> {
    pub fn get(&self, l: MemoryLevel) -> T {
        match l {
            MemoryLevel::Dram => self.dram,
            MemoryLevel::L2 => self.l2,
            MemoryLevel::L1 => self.l1,
        }
    }
}

/// One tensor-core datapath with nonzero achieved work.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TensorPath {
    /// The metric's path (`op_hgmma_src_bf16_dst_fp32_sparsity_off`).
    pub name: String,
    /// As ncu labels it (`Op:hgmma Src:bf16 Dst:fp32 Sparsity:off`).
    pub label: String,
    /// Peak, OP/s.
    pub peak: f64,
    /// Achieved, OP/s.
    pub achieved: f64,
}

/// The roofline figures of one result. Work in FLOP/s (OP/s for tensor paths), traffic in
/// byte/s; `None` where neither the metrics nor an estimate give a value.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Roofline {
    /// Some value is an estimate (see `assumptions`).
    pub estimated: bool,
    /// How each estimated value was obtained.
    pub assumptions: Vec<String>,
    pub peak_work: PerPrecision<Option<f64>>,
    pub achieved_work: PerPrecision<Option<f64>>,
    /// The range an estimated achieved work stands for (the rule's percentage is rounded).
    pub achieved_bounds: PerPrecision<Option<(f64, f64)>>,
    pub peak_traffic: PerLevel<Option<f64>>,
    pub achieved_traffic: PerLevel<Option<f64>>,
    pub tensor: Vec<TensorPath>,
    /// The tensor datapaths without work whose peaks the result stores: with no path at work,
    /// the tensor chart draws their ceilings (as ncu does), without points.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub idle_tensor: Vec<TensorPath>,
}

/// The charts ncu draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub enum ChartKind {
    /// "Floating Point Operations Roofline": FP32 and FP64 against DRAM.
    FloatingPoint,
    /// One precision against DRAM, L2 and L1.
    Hierarchical(Precision),
    /// Every active tensor datapath against DRAM, L2 and L1.
    Tensor,
}

impl ChartKind {
    pub const ALL: [ChartKind; 5] = [
        ChartKind::FloatingPoint,
        ChartKind::Hierarchical(Precision::Fp32),
        ChartKind::Hierarchical(Precision::Fp64),
        ChartKind::Hierarchical(Precision::Fp16),
        ChartKind::Tensor,
    ];

    /// The chart title ncu uses.
    pub fn title(self) -> String {
        match self {
            ChartKind::FloatingPoint => "Floating Point Operations Roofline".into(),
            ChartKind::Hierarchical(p) => {
                format!("Floating Point Operations Roofline ({})", p.label())
            }
            ChartKind::Tensor => "Tensor Core Operations Roofline".into(),
        }
    }
}

impl Roofline {
    /// Achieved work over achieved traffic, FLOP/byte.
    pub fn intensity(&self, p: Precision, l: MemoryLevel) -> Option<f64> {
        let work = self.achieved_work.get(p)?;
        let traffic = self.achieved_traffic.get(l)?;
        (traffic > 0.0).then(|| work / traffic)
    }

    fn ceiling(&self, label: String, work: Option<f64>, l: MemoryLevel) -> Option<Ceiling> {
        let peak_work = work.filter(|w| *w > 0.0)?;
        let peak_traffic = self.peak_traffic.get(l).filter(|t| *t > 0.0)?;
        Some(Ceiling {
            label,
            peak_work,
            peak_traffic,
        })
    }

    fn push(
        &self,
        chart: &mut Chart,
        ceiling: Option<Ceiling>,
        point: (String, Option<f64>, MemoryLevel),
    ) {
        let Some(c) = ceiling else { return };
        let (label, work, level) = point;
        let index = chart.ceilings.len();
        if let (Some(work), Some(traffic)) = (work, self.achieved_traffic.get(level))
            && let Some(p) = AchievedPoint::place(label, work, traffic, index, &c, self.estimated)
        {
            chart.points.push(p);
        }
        chart.ceilings.push(c);
    }

    /// The ceilings and achieved points of one chart.
    pub fn chart(&self, kind: ChartKind) -> Chart {
        let mut chart = Chart {
            title: kind.title(),
            work_unit: if kind == ChartKind::Tensor {
                "OP"
            } else {
                "FLOP"
            },
            ceilings: Vec::new(),
            points: Vec::new(),
        };
        match kind {
            ChartKind::FloatingPoint => {
                for p in [Precision::Fp32, Precision::Fp64] {
                    let c = self.ceiling(
                        format!("{} Roofline", p.label()),
                        self.peak_work.get(p),
                        MemoryLevel::Dram,
                    );
                    let point = (
                        format!("{} Achieved Value", p.label()),
                        self.achieved_work.get(p),
                        MemoryLevel::Dram,
                    );
                    self.push(&mut chart, c, point);
                }
            }
            ChartKind::Hierarchical(p) => {
                for l in MemoryLevel::ALL {
                    let c = self.ceiling(l.roofline_label().into(), self.peak_work.get(p), l);
                    let point = (l.achieved_label().into(), self.achieved_work.get(p), l);
                    self.push(&mut chart, c, point);
                }
            }
            ChartKind::Tensor if self.tensor.is_empty() => {
                // No tensor work: the datapaths' ceilings alone, each distinct peak once,
                // named by the datapaths it bounds.
                let mut peaks: Vec<(f64, Vec<&str>)> = Vec::new();
                for t in &self.idle_tensor {
                    match peaks
                        .iter_mut()
                        .find(|(peak, _)| labels::same_value(*peak, t.peak))
                    {
                        Some((_, paths)) => paths.push(&t.label),
                        None => peaks.push((t.peak, vec![&t.label])),
                    }
                }
                for (peak, paths) in &peaks {
                    let paths = match paths.as_slice() {
                        [one] => one.to_string(),
                        [first, rest @ ..] => format!(
                            "{first} and {} other{}",
                            rest.len(),
                            if rest.len() == 1 { "" } else { "s" }
                        ),
                        [] => continue,
                    };
                    for l in MemoryLevel::ALL {
                        let name = l.tensor_label();
                        let c = self.ceiling(format!("{name} Roofline ({paths})"), Some(*peak), l);
                        if let Some(c) = c {
                            chart.ceilings.push(c);
                        }
                    }
                }
            }
            ChartKind::Tensor => {
                for t in &self.tensor {
                    for l in MemoryLevel::ALL {
                        let name = l.tensor_label();
                        let c =
                            self.ceiling(format!("{name} Roofline ({})", t.label), Some(t.peak), l);
                        let point = (
                            format!("{name} Achieved Value ({})", t.label),
                            Some(t.achieved),
                            l,
                        );
                        self.push(&mut chart, c, point);
                    }
                }
            }
        }
        chart
    }

    /// Every chart with something to draw.
    pub fn charts(&self) -> Vec<Chart> {
        ChartKind::ALL
            .into_iter()
            .map(|k| self.chart(k))
            .filter(|c| !c.is_empty())
            .collect()
    }
}

/// Choices for results that do not say everything.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RooflineOptions {
    /// The architecture to assume when the source has no compute capability.
    pub assumed_cc: Option<(u32, u32)>,
}

/// The roofline of one result. `context` carries what other results of the same report tell
/// about the device ([`RooflineContext::from_results`]); a default context is fine.
pub fn analyze(
    result: &KernelResult,
    device: Option<&Device>,
    context: &RooflineContext,
    options: &RooflineOptions,
) -> Roofline {
    let cc = compute_capability(result, device, options.assumed_cc).ok();
    let (peak_work, achieved_work) = exact::work(result);
    let (peak_traffic, achieved_traffic) = exact::traffic(result, cc.map(|c| c.0));
    let mut r = Roofline {
        peak_work,
        achieved_work,
        peak_traffic,
        achieved_traffic,
        tensor: exact::tensor_paths(result),
        idle_tensor: exact::idle_tensor_paths(result),
        ..Roofline::default()
    };
    estimate::fill(&mut r, result, device, cc.map(|c| c.0), context);
    if let Some((cc, crate::analysis::occupancy::CcOrigin::Assumed)) = cc
        && r.estimated
    {
        r.assumptions.insert(
            0,
            format!(
                "compute capability not in the source: assumed {}.{}",
                cc.0, cc.1
            ),
        );
    }
    r
}

/// The rooflines of every result of a report, sharing one context.
pub fn analyze_report(report: &Report, options: &RooflineOptions) -> Vec<Roofline> {
    let context = RooflineContext::from_results(&report.results);
    report
        .results
        .iter()
        .map(|r| analyze(r, report.device_of(r), &context, options))
        .collect()
}
