//! The memory chart as the Profiling Guide draws it: logical units (Kernel, Global, Local,
//! Texture, Surface, Shared, Load Global Store Shared), physical units (L1/TEX, Shared Memory,
//! L2, L2 Compression, Device, System and Peer Memory) and the links between them, each with
//! its amount (instructions, requests, bytes or sectors), throughput and % of peak, from the
//! metrics of the chart's metric group. Units and links whose metrics the result lacks (other
//! architectures) are left out; links with nothing transferred are inactive.

use crate::model::section_body::BodyItem;
use crate::model::{KernelResult, Metric, MetricView};

/// A unit of the chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    Kernel,
    Global,
    Local,
    Texture,
    Surface,
    Shared,
    /// Load Global Store Shared: asynchronous copies from global to shared memory (CC 8.0+).
    Ldgsts,
    L1Tex,
    SharedMemory,
    L2,
    L2Compression,
    DeviceMemory,
    SystemMemory,
    PeerMemory,
}

impl Unit {
    /// The name the chart shows.
    pub fn name(self) -> &'static str {
        match self {
            Unit::Kernel => "Kernel",
            Unit::Global => "Global",
            Unit::Local => "Local",
            Unit::Texture => "Texture",
            Unit::Surface => "Surface",
            Unit::Shared => "Shared",
            Unit::Ldgsts => "LDGSTS",
            Unit::L1Tex => "L1/TEX Cache",
            Unit::SharedMemory => "Shared Memory",
            Unit::L2 => "L2 Cache",
            Unit::L2Compression => "L2 Compression",
            Unit::DeviceMemory => "Device Memory",
            Unit::SystemMemory => "System Memory",
            Unit::PeerMemory => "Peer Memory",
        }
    }

    /// The unit's name in a few characters, for the colour scale's marks.
    pub fn short_name(self) -> &'static str {
        match self {
            Unit::L1Tex => "L1",
            Unit::SharedMemory => "Smem",
            Unit::L2 => "L2",
            Unit::L2Compression => "L2 Comp",
            Unit::DeviceMemory => "DRAM",
            Unit::SystemMemory => "Sys",
            Unit::PeerMemory => "Peer",
            other => other.name(),
        }
    }

    /// Logical units (what the kernel addresses) as opposed to hardware units.
    pub fn is_logical(self) -> bool {
        matches!(
            self,
            Unit::Kernel
                | Unit::Global
                | Unit::Local
                | Unit::Texture
                | Unit::Surface
                | Unit::Shared
                | Unit::Ldgsts
        )
    }

    /// The column of the chart's layout, left to right.
    pub fn column(self) -> usize {
        match self {
            Unit::Kernel => 0,
            Unit::Global
            | Unit::Local
            | Unit::Texture
            | Unit::Surface
            | Unit::Shared
            | Unit::Ldgsts => 1,
            Unit::L1Tex | Unit::SharedMemory => 2,
            Unit::L2 | Unit::L2Compression => 3,
            Unit::DeviceMemory | Unit::SystemMemory | Unit::PeerMemory => 4,
        }
    }
}

/// What a link's amount counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Amount {
    Instructions,
    Requests,
    Wavefronts,
    Bytes,
    Sectors,
}

impl Amount {
    /// The short unit the chart writes after the number.
    pub fn short(self) -> &'static str {
        match self {
            Amount::Instructions => "Inst",
            Amount::Requests => "Req",
            Amount::Wavefronts => "Wavefronts",
            Amount::Bytes => "B",
            Amount::Sectors => "Sectors",
        }
    }
}

/// One link of the chart, with its values resolved.
#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    pub from: Unit,
    pub to: Unit,
    pub amount_kind: Amount,
    /// The summed amount, `None` when the result has none of the metrics.
    pub amount: Option<f64>,
    /// Per second, when the metrics have rates.
    pub per_second: Option<f64>,
    /// Percent of peak (the largest of the summed metrics' percentages).
    pub pct_of_peak: Option<f64>,
    /// The metrics behind the values, for hover text.
    pub metrics: Vec<String>,
}

impl Link {
    /// Whether anything went over the link.
    pub fn is_active(&self) -> bool {
        self.amount.is_some_and(|a| a > 0.0)
    }
}

/// A unit with its headline figure (a hit rate or a ratio).
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub unit: Unit,
    /// (label, value, metric name), e.g. ("Hit Rate", 34.0, "lts__t_sector_hit_rate.pct").
    pub figure: Option<(&'static str, f64, String)>,
    pub active: bool,
}

/// One mark of the colour scale: a link and its % of peak.
#[derive(Debug, Clone, PartialEq)]
pub struct PeakMark {
    /// The two units and the percentage: `L2 → DRAM 45 %`.
    pub text: String,
    pub pct: f64,
}

/// The resolved chart.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct MemoryChart {
    pub nodes: Vec<Node>,
    pub links: Vec<Link>,
}

impl MemoryChart {
    /// The active links' % of peak, highest first, each named by its two units
    /// (`L2 → DRAM`): the marks beside the chart's colour scale.
    pub fn peak_marks(&self) -> Vec<PeakMark> {
        let mut marks: Vec<PeakMark> = self
            .links
            .iter()
            .filter(|l| l.is_active())
            .filter_map(|l| {
                l.pct_of_peak.map(|pct| PeakMark {
                    text: format!("{} → {} {pct:.0} %", l.from.short_name(), l.to.short_name()),
                    pct,
                })
            })
            .collect();
        marks.sort_by(|a, b| b.pct.total_cmp(&a.pct));
        marks
    }

    /// The chart without the links `is_inactive` picks and the units left with no link: the
    /// chart's "Hidden" display of inactive units.
    pub fn without_inactive(&self, is_inactive: impl Fn(&Link) -> bool) -> MemoryChart {
        let links: Vec<Link> = self
            .links
            .iter()
            .filter(|l| !is_inactive(l))
            .cloned()
            .collect();
        let nodes = self
            .nodes
            .iter()
            .filter(|n| links.iter().any(|l| l.from == n.unit || l.to == n.unit))
            .cloned()
            .collect();
        MemoryChart { nodes, links }
    }
}

/// Link definitions: from, to, amount kind, base metric names (summed; `.sum` and the rate and
/// peak suffixes are appended).
const LINKS: &[(Unit, Unit, Amount, &[&str])] = &[
    (
        Unit::Kernel,
        Unit::Global,
        Amount::Instructions,
        &[
            "smsp__sass_inst_executed_op_global_ld",
            "smsp__sass_inst_executed_op_global_st",
            "smsp__inst_executed_op_global_red",
            "smsp__inst_executed_op_generic_atom_dot_alu",
            "smsp__inst_executed_op_generic_atom_dot_cas",
        ],
    ),
    (
        Unit::Kernel,
        Unit::Local,
        Amount::Instructions,
        &[
            "smsp__sass_inst_executed_op_local_ld",
            "smsp__sass_inst_executed_op_local_st",
        ],
    ),
    (
        Unit::Kernel,
        Unit::Texture,
        Amount::Instructions,
        &["smsp__inst_executed_op_texture"],
    ),
    (
        Unit::Kernel,
        Unit::Surface,
        Amount::Instructions,
        &[
            "smsp__inst_executed_op_surface_ld",
            "smsp__inst_executed_op_surface_st",
            "smsp__inst_executed_op_surface_red",
            "smsp__inst_executed_op_surface_atom_dot_alu",
            "smsp__inst_executed_op_surface_atom_dot_cas",
        ],
    ),
    (
        Unit::Kernel,
        Unit::Shared,
        Amount::Instructions,
        &[
            "smsp__sass_inst_executed_op_shared_ld",
            "smsp__sass_inst_executed_op_shared_st",
            "smsp__inst_executed_op_shared_atom",
            "smsp__inst_executed_op_ldsm",
            "smsp__inst_executed_op_shared_stsm",
        ],
    ),
    (
        Unit::Kernel,
        Unit::Ldgsts,
        Amount::Instructions,
        &["smsp__inst_executed_op_ldgsts"],
    ),
    (
        Unit::Global,
        Unit::L1Tex,
        Amount::Requests,
        &[
            "l1tex__t_requests_pipe_lsu_mem_global_op_ld",
            "l1tex__t_requests_pipe_lsu_mem_global_op_st",
            "l1tex__t_requests_pipe_lsu_mem_global_op_atom",
            "l1tex__t_requests_pipe_lsu_mem_global_op_red",
        ],
    ),
    (
        Unit::Local,
        Unit::L1Tex,
        Amount::Requests,
        &[
            "l1tex__t_requests_pipe_lsu_mem_local_op_ld",
            "l1tex__t_requests_pipe_lsu_mem_local_op_st",
        ],
    ),
    (
        Unit::Texture,
        Unit::L1Tex,
        Amount::Requests,
        &["l1tex__t_requests_pipe_tex_mem_texture"],
    ),
    (
        Unit::Surface,
        Unit::L1Tex,
        Amount::Requests,
        &[
            "l1tex__t_requests_pipe_tex_mem_surface_op_ld",
            "l1tex__t_requests_pipe_tex_mem_surface_op_st",
            "l1tex__t_requests_pipe_tex_mem_surface_op_atom",
            "l1tex__t_requests_pipe_tex_mem_surface_op_red",
        ],
    ),
    (
        Unit::Ldgsts,
        Unit::L1Tex,
        Amount::Requests,
        &["sm__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts"],
    ),
    (
        Unit::Shared,
        Unit::SharedMemory,
        Amount::Wavefronts,
        &["l1tex__data_pipe_lsu_wavefronts_mem_shared"],
    ),
    (
        Unit::L1Tex,
        Unit::L2,
        Amount::Bytes,
        &["l1tex__m_l1tex2xbar_write_bytes"],
    ),
    (
        Unit::L2,
        Unit::L1Tex,
        Amount::Bytes,
        &["l1tex__m_xbar2l1tex_read_bytes"],
    ),
    (
        Unit::L2,
        Unit::L2Compression,
        Amount::Sectors,
        &["lrc__ilc_input_sectors"],
    ),
    (
        Unit::L2,
        Unit::DeviceMemory,
        Amount::Bytes,
        &["dram__bytes_write"],
    ),
    (
        Unit::DeviceMemory,
        Unit::L2,
        Amount::Bytes,
        &["dram__bytes_read"],
    ),
    (
        Unit::L2,
        Unit::SystemMemory,
        Amount::Sectors,
        &[
            "lts__t_sectors_srcunit_tex_aperture_sysmem_op_write",
            "lts__t_sectors_srcunit_tex_aperture_sysmem_op_atom",
            "lts__t_sectors_srcunit_tex_aperture_sysmem_op_red",
        ],
    ),
    (
        Unit::SystemMemory,
        Unit::L2,
        Amount::Sectors,
        &["lts__t_sectors_srcunit_tex_aperture_sysmem_op_read_lookup_miss"],
    ),
    (
        Unit::L2,
        Unit::PeerMemory,
        Amount::Sectors,
        &[
            "lts__t_sectors_srcunit_tex_aperture_peer_op_write",
            "lts__t_sectors_srcunit_tex_aperture_peer_op_atom",
            "lts__t_sectors_srcunit_tex_aperture_peer_op_red",
        ],
    ),
    (
        Unit::PeerMemory,
        Unit::L2,
        Amount::Sectors,
        &["lts__t_sectors_srcunit_tex_aperture_peer_op_read_lookup_miss"],
    ),
];

/// Headline figures of the physical units: (unit, label, metric).
const FIGURES: &[(Unit, &str, &str)] = &[
    (Unit::L1Tex, "Hit Rate", "l1tex__t_sector_hit_rate.pct"),
    (Unit::L2, "Hit Rate", "lts__t_sector_hit_rate.pct"),
    (
        Unit::L2Compression,
        "Success Rate",
        "lts__average_gcomp_input_sector_success_rate.pct",
    ),
];

/// A metric of the chart: from the chart item's rows when given, else from the result.
fn lookup<'a>(
    item: Option<&'a BodyItem>,
    r: Option<&'a KernelResult>,
    name: &str,
) -> Option<MetricView<'a>> {
    item.and_then(|i| i.metric(name))
        .map(Metric::view)
        .or_else(|| r.and_then(|r| r.metric(name)))
        .filter(|m| m.as_f64().is_some())
}

/// The name an older ncu (2020–2021) gave a metric of the chart and tables: instructions per
/// memory space were counted by SASS patching as `sass__inst_executed_*`, without a rollup,
/// and shared stores' wavefronts by `smsp__sass_l1tex_*`.
pub fn older_name(name: &str) -> Option<&'static str> {
    Some(match name {
        "smsp__sass_inst_executed_op_global_ld.sum" => "sass__inst_executed_global_loads",
        "smsp__sass_inst_executed_op_global_st.sum" => "sass__inst_executed_global_stores",
        "smsp__sass_inst_executed_op_local_ld.sum" => "sass__inst_executed_local_loads",
        "smsp__sass_inst_executed_op_local_st.sum" => "sass__inst_executed_local_stores",
        "smsp__sass_inst_executed_op_shared_ld.sum" => "sass__inst_executed_shared_loads",
        "smsp__sass_inst_executed_op_shared_st.sum" => "sass__inst_executed_shared_stores",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum" => {
            "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"
        }
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum.pct_of_peak_sustained_elapsed" => {
            "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum.pct_of_peak_sustained_elapsed"
        }
        _ => return None,
    })
}

/// Builds the chart from the memory chart item's rows (a text export's or a report's), falling
/// back to the result's metrics for names the item lacks.
pub fn build(item: Option<&BodyItem>, r: Option<&KernelResult>) -> MemoryChart {
    let mut links = Vec::new();
    for &(from, to, kind, bases) in LINKS {
        let mut amount: Option<f64> = None;
        let mut per_second: Option<f64> = None;
        let mut pct: Option<f64> = None;
        let mut metrics = Vec::new();
        for base in bases {
            let sum = format!("{base}.sum");
            let found = lookup(item, r, &sum).map(|m| (m, sum.clone())).or_else(|| {
                let old = older_name(&sum)?;
                Some((lookup(item, r, old)?, old.to_string()))
            });
            if let Some((v, name)) = found.and_then(|(m, n)| Some((m.as_f64()?, n))) {
                *amount.get_or_insert(0.0) += v;
                metrics.push(name);
            }
            let rate = format!("{sum}.per_second");
            if let Some(v) = lookup(item, r, &rate).and_then(MetricView::as_f64) {
                *per_second.get_or_insert(0.0) += v;
                metrics.push(rate);
            }
            let peak = format!("{sum}.pct_of_peak_sustained_elapsed");
            if let Some(v) = lookup(item, r, &peak).and_then(MetricView::as_f64) {
                pct = Some(pct.map_or(v, |p: f64| p.max(v)));
                metrics.push(peak);
            }
        }
        if amount.is_some() {
            links.push(Link {
                from,
                to,
                amount_kind: kind,
                amount,
                per_second,
                pct_of_peak: pct,
                metrics,
            });
        }
    }
    let mut units: Vec<Unit> = links.iter().flat_map(|l| [l.from, l.to]).collect();
    units.sort();
    units.dedup();
    let nodes = units
        .into_iter()
        .map(|unit| Node {
            unit,
            figure: FIGURES
                .iter()
                .find(|f| f.0 == unit)
                .and_then(|&(_, label, name)| {
                    lookup(item, r, name)
                        .and_then(MetricView::as_f64)
                        .map(|v| (label, v, name.to_string()))
                }),
            active: links
                .iter()
                .any(|l| (l.from == unit || l.to == unit) && l.is_active()),
        })
        .collect();
    MemoryChart { nodes, links }
}
