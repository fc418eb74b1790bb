//! Section-like tables for what a result stores beside its metrics (ncu 2026.3): the CUDA
//! graph it belongs to (the graph, its nodes and its edges), the PC samples of PM sampling per
//! SM, and device-side NVTX events and warp ranges. They are drawn and printed as section
//! bodies of tables, after the sections of the report's templates.

use crate::model::device_records::{DeviceNvtx, PcSampling};
use crate::model::graph::CudaGraph;
use crate::model::section_body::{BodyItem, BodyRow, ItemKind, SectionBodies, SectionBody};
use crate::model::{KernelResult, Metric, Report, Value};

/// The identifier of the CUDA graph section.
pub const GRAPH_SECTION: &str = "CudaGraph";
/// The identifier of the PC samples section.
pub const PC_SAMPLES_SECTION: &str = "PmSamplingPcSamples";
/// The identifier of the device NVTX section.
pub const DEVICE_NVTX_SECTION: &str = "DeviceNvtx";

/// The section-like tables of the result: its graph, PC samples and device NVTX, those it has.
pub fn sections(report: &Report, r: &KernelResult) -> Vec<SectionBodies> {
    let mut out = Vec::new();
    if let Some(g) = report.graph_of(r) {
        out.push(graph_section(g));
    } else if let Some(link) = &r.graph {
        out.push(section(
            GRAPH_SECTION,
            "CUDA Graph",
            vec![table(
                "Graph",
                vec![row(
                    "Address",
                    None,
                    text(&format!("{:#x} (not stored in the report)", link.address)),
                )],
            )],
        ));
    }
    let body = r.body();
    if !body.pc_sampling.is_empty() {
        out.push(section(
            PC_SAMPLES_SECTION,
            "PM Sampling: PC Samples",
            body.pc_sampling.iter().map(pc_table).collect(),
        ));
    }
    if let Some(n) = &body.device_nvtx {
        out.push(section(DEVICE_NVTX_SECTION, "Device NVTX", nvtx_tables(n)));
    }
    out
}

fn section(identifier: &str, name: &str, items: Vec<BodyItem>) -> SectionBodies {
    SectionBodies {
        identifier: Some(identifier.to_string()),
        name: name.to_string(),
        extends: None,
        bodies: vec![SectionBody {
            name: String::new(),
            default: true,
            items,
        }],
    }
}

fn table(label: &str, rows: Vec<BodyRow>) -> BodyItem {
    BodyItem {
        kind: ItemKind::Table,
        label: label.to_string(),
        description: None,
        rows,
        highlight: Vec::new(),
        horizontal: false,
        value_axis: None,
        category_axis: String::new(),
        note: None,
        workload_ns: None,
    }
}

fn row(label: &str, group: Option<String>, metric: Metric) -> BodyRow {
    BodyRow {
        label: label.to_string(),
        group,
        metric,
        drawn_as: None,
    }
}

fn text(s: &str) -> Metric {
    Metric::new(None, Value::Str(s.into()), "")
}

fn number(v: u64, unit: &str) -> Metric {
    Metric::new(None, Value::U64(v), unit)
}

fn graph_section(g: &CudaGraph) -> SectionBodies {
    let mut info = vec![
        row("Address", None, text(&format!("{:#x}", g.address))),
        row("Stage", None, text(&g.stage.name())),
    ];
    if let Some(i) = g.launch_index {
        info.push(row("Launch Index", None, number(u64::from(i), "")));
    }
    if let Some(t) = g.timestamp {
        info.push(row("Timestamp", None, number(t, "")));
    }
    info.push(row("Nodes", None, number(g.nodes.len() as u64, "")));
    info.push(row("Edges", None, number(g.edges.len() as u64, "")));
    info.push(row(
        "Device Launchable",
        None,
        text(if g.device_launchable { "Yes" } else { "No" }),
    ));
    if g.conditional {
        info.push(row("Conditional Body", None, text("Yes")));
    }
    let name_of = |address: u64| {
        g.nodes
            .iter()
            .find(|n| n.address == address)
            .filter(|n| !n.name.is_empty())
            .map_or_else(|| format!("{address:#x}"), |n| n.name.clone())
    };
    let nodes = g
        .nodes
        .iter()
        .map(|n| {
            let mut parts: Vec<String> =
                n.params.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            if parts.is_empty()
                && let Some(t) = &n.text
            {
                parts.push(t.clone());
            }
            if n.enabled == Some(false) {
                parts.push("disabled".into());
            }
            if let Some((parent, body)) = n.parent_conditional {
                parts.push(format!("body {body} of {}", name_of(parent)));
            }
            let label = if n.name.is_empty() {
                format!("{:#x}", n.address)
            } else {
                n.name.clone()
            };
            let value = if parts.is_empty() {
                Metric::new(None, Value::Missing, "")
            } else {
                text(&parts.join("; "))
            };
            row(&label, Some(n.kind.name()), value)
        })
        .collect();
    let edges = g
        .edges
        .iter()
        .map(|e| {
            let mut what = e.dependency.clone();
            if let Some(b) = e.conditional_body {
                what.push_str(&format!(", body {b}"));
            }
            let label = format!("{} -> {}", name_of(e.from), name_of(e.to));
            let group = (!e.name.is_empty()).then(|| e.name.clone());
            row(&label, group, text(&what))
        })
        .collect();
    section(
        GRAPH_SECTION,
        "CUDA Graph",
        vec![
            table("Graph", info),
            table("Nodes", nodes),
            table("Edges", edges),
        ],
    )
}

fn pc_table(p: &PcSampling) -> BodyItem {
    let mut rows = Vec::with_capacity(p.per_sm.len() * 3);
    for s in &p.per_sm {
        let sm = format!("SM {}", s.sm);
        rows.push(row(
            &sm,
            Some("PC Samples".into()),
            number(s.pc_sample_bytes, "byte"),
        ));
        rows.push(row(
            &sm,
            Some("Timestamps".into()),
            number(s.timestamp_bytes, "byte"),
        ));
        rows.push(row(
            &sm,
            Some("Dropped".into()),
            number(s.dropped_bytes, "byte"),
        ));
    }
    table(&p.metric, rows)
}

fn nvtx_tables(n: &DeviceNvtx) -> Vec<BodyItem> {
    let mut out = Vec::new();
    if let Some(m) = &n.pass_group_metric {
        out.push(table(
            "Collection",
            vec![row("Pass Group Metric", None, text(m))],
        ));
    }
    let events = n
        .events
        .iter()
        .map(|e| {
            let label = match n.info(e.event_id) {
                Some(i) if i.domain.is_empty() => format!("{} ({})", i.name, i.kind_name()),
                Some(i) => format!("{}: {} ({})", i.domain, i.name, i.kind_name()),
                None => format!("event {}", e.event_id),
            };
            row(
                &label,
                Some(format!("SM {}, warp {}", e.sm, e.warp)),
                number(e.timestamp, ""),
            )
        })
        .collect();
    out.push(table("Events (timestamp)", events));
    if !n.warp_ranges.is_empty() {
        let ranges = n
            .warp_ranges
            .iter()
            .map(|w| {
                row(
                    &format!("SM {}, warp {}", w.sm, w.warp),
                    Some(format!("{} - {}", w.start, w.end)),
                    number(w.end.saturating_sub(w.start), ""),
                )
            })
            .collect();
        out.push(table("Warp Execution Ranges (length)", ranges));
    }
    out
}
