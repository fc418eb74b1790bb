//! CUDA graphs stored in a block's payload after its results (`BlockHeader` field 10 counts
//! them; ncu 2026.3 and later): each `GraphData` message with its nodes and edges, declared by
//! hand with the fields shown, into [`CudaGraph`]. A graph message that cannot be decoded is
//! skipped and said in the report's warnings; fields this reader does not know are counted
//! ([`super::unknown`]).

// prost's derive generates the field accessors; some are unused.
#![allow(dead_code)]

use super::unknown::{self, Unknown, unknown_numbers};
use crate::model::graph::{CudaGraph, GraphEdge, GraphLink, GraphNode, GraphStage, NodeKind};
use prost::Message;

/// `GraphData`: one graph, at one stage, with its nodes and edges.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GraphMsg {
    #[prost(uint64, optional, tag = "1")]
    pub address: Option<u64>,
    /// 0 source, 1 compiled, 2 instantiated.
    #[prost(int32, optional, tag = "2")]
    pub stage: Option<i32>,
    #[prost(uint64, optional, tag = "3")]
    pub timestamp: Option<u64>,
    #[prost(bool, optional, tag = "4")]
    pub conditional: Option<bool>,
    #[prost(bool, optional, tag = "5")]
    pub device_launchable: Option<bool>,
    /// Kept encoded: each node is also walked for fields this reader does not know.
    #[prost(bytes = "vec", repeated, tag = "6")]
    pub nodes: Vec<Vec<u8>>,
    #[prost(bytes = "vec", repeated, tag = "7")]
    pub edges: Vec<Vec<u8>>,
    #[prost(uint32, optional, tag = "8")]
    pub launch_index: Option<u32>,
}

/// `NodeData`: a node's address, name and parameters.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NodeMsg {
    #[prost(uint64, optional, tag = "1")]
    pub address: Option<u64>,
    #[prost(string, optional, tag = "2")]
    pub name: Option<String>,
    #[prost(bytes = "vec", optional, tag = "3")]
    pub params: Option<Vec<u8>>,
}

/// `NodeParams`: the node type and one message of parameters for that type.
#[derive(Clone, PartialEq, prost::Message)]
pub struct NodeParamsMsg {
    /// The parameters as the profiler printed them.
    #[prost(string, optional, tag = "1")]
    pub text: Option<String>,
    #[prost(int32, optional, tag = "2")]
    pub kind: Option<i32>,
    /// 0 not applicable, 1 enabled, 2 disabled.
    #[prost(int32, optional, tag = "4")]
    pub enablement: Option<i32>,
    #[prost(uint64, optional, tag = "5")]
    pub parent_conditional: Option<u64>,
    #[prost(uint32, optional, tag = "6")]
    pub conditional_body: Option<u32>,
    #[prost(message, optional, tag = "8")]
    pub kernel: Option<KernelNodeMsg>,
    #[prost(message, optional, tag = "9")]
    pub memcpy: Option<MemcpyNodeMsg>,
    #[prost(message, optional, tag = "10")]
    pub conditional: Option<ConditionalNodeMsg>,
    #[prost(message, optional, tag = "11")]
    pub child_graph: Option<ChildGraphNodeMsg>,
    #[prost(message, optional, tag = "12")]
    pub memset: Option<MemsetNodeMsg>,
    #[prost(message, optional, tag = "13")]
    pub host: Option<HostNodeMsg>,
    #[prost(message, optional, tag = "17")]
    pub mem_alloc: Option<MemAllocNodeMsg>,
    #[prost(message, optional, tag = "18")]
    pub mem_free: Option<MemFreeNodeMsg>,
    #[prost(message, optional, tag = "19")]
    pub subgrid_schedule: Option<SubgridScheduleNodeMsg>,
}

/// A kernel node: function, launch shape and dynamic shared memory.
#[derive(Clone, PartialEq, prost::Message)]
pub struct KernelNodeMsg {
    #[prost(string, optional, tag = "1")]
    pub function: Option<String>,
    #[prost(uint64, optional, tag = "2")]
    pub grid_x: Option<u64>,
    #[prost(uint64, optional, tag = "3")]
    pub grid_y: Option<u64>,
    #[prost(uint64, optional, tag = "4")]
    pub grid_z: Option<u64>,
    #[prost(uint64, optional, tag = "5")]
    pub block_x: Option<u64>,
    #[prost(uint64, optional, tag = "6")]
    pub block_y: Option<u64>,
    #[prost(uint64, optional, tag = "7")]
    pub block_z: Option<u64>,
    #[prost(uint64, optional, tag = "8")]
    pub shared_mem_bytes: Option<u64>,
}

/// A copy node: the kinds of memory at both ends, the addresses and the extent.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MemcpyNodeMsg {
    /// 0 unknown, 1 device, 2 host, 3 array, 4 unified.
    #[prost(int32, optional, tag = "1")]
    pub src_memory: Option<i32>,
    #[prost(int32, optional, tag = "2")]
    pub dst_memory: Option<i32>,
    #[prost(uint64, optional, tag = "3")]
    pub src_address: Option<u64>,
    #[prost(uint64, optional, tag = "10")]
    pub dst_address: Option<u64>,
    #[prost(uint64, optional, tag = "17")]
    pub width: Option<u64>,
    #[prost(uint64, optional, tag = "18")]
    pub height: Option<u64>,
    #[prost(uint64, optional, tag = "19")]
    pub depth: Option<u64>,
}

/// A conditional node: if, while or switch, and its body graphs.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ConditionalNodeMsg {
    /// 1 if, 2 while, 3 switch.
    #[prost(int32, optional, tag = "1")]
    pub kind: Option<i32>,
    #[prost(uint32, optional, tag = "2")]
    pub bodies: Option<u32>,
    #[prost(uint64, optional, tag = "3")]
    pub handle: Option<u64>,
    #[prost(uint64, repeated, packed = "false", tag = "4")]
    pub body_graphs: Vec<u64>,
}

/// A child graph node: the graph it runs.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ChildGraphNodeMsg {
    #[prost(uint64, optional, tag = "1")]
    pub graph: Option<u64>,
}

/// A memset node: destination, value, element size and extent.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MemsetNodeMsg {
    #[prost(uint64, optional, tag = "1")]
    pub dst_address: Option<u64>,
    #[prost(uint64, optional, tag = "3")]
    pub value: Option<u64>,
    #[prost(uint64, optional, tag = "4")]
    pub element_size: Option<u64>,
    #[prost(uint64, optional, tag = "5")]
    pub width: Option<u64>,
    #[prost(uint64, optional, tag = "6")]
    pub height: Option<u64>,
}

/// A host node: the function the CPU runs.
#[derive(Clone, PartialEq, prost::Message)]
pub struct HostNodeMsg {
    #[prost(uint64, optional, tag = "1")]
    pub function: Option<u64>,
}

/// A memory allocation node.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MemAllocNodeMsg {
    #[prost(uint64, optional, tag = "1")]
    pub address: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    pub bytes: Option<u64>,
}

/// A memory free node.
#[derive(Clone, PartialEq, prost::Message)]
pub struct MemFreeNodeMsg {
    #[prost(uint64, optional, tag = "1")]
    pub address: Option<u64>,
}

/// A subgrid schedule node.
#[derive(Clone, PartialEq, prost::Message)]
pub struct SubgridScheduleNodeMsg {
    #[prost(uint64, optional, tag = "1")]
    pub schedule: Option<u64>,
}

/// `EdgeData`: a dependency from one node to another.
#[derive(Clone, PartialEq, prost::Message)]
pub struct EdgeMsg {
    #[prost(uint64, optional, tag = "1")]
    pub from: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    pub to: Option<u64>,
    #[prost(string, optional, tag = "3")]
    pub name: Option<String>,
    #[prost(message, optional, tag = "4")]
    pub params: Option<EdgeParamsMsg>,
}

/// `EdgeParams`: the dependency type and, into a conditional node, which body.
#[derive(Clone, PartialEq, prost::Message)]
pub struct EdgeParamsMsg {
    #[prost(message, optional, tag = "1")]
    pub edge: Option<EdgeTypeMsg>,
    #[prost(uint32, optional, tag = "3")]
    pub conditional_body: Option<u32>,
}

/// `GraphEdgeData`: 0 default, 1 programmatic dependency.
#[derive(Clone, PartialEq, prost::Message)]
pub struct EdgeTypeMsg {
    #[prost(int32, optional, tag = "1")]
    pub dependency: Option<i32>,
}

/// `GraphViewerDataInfo` of a result: which graph it belongs to.
#[derive(Clone, PartialEq, prost::Message)]
pub struct GraphLinkMsg {
    #[prost(uint64, optional, tag = "1")]
    pub address: Option<u64>,
    #[prost(uint64, optional, tag = "2")]
    pub timestamp: Option<u64>,
    #[prost(uint32, optional, tag = "3")]
    pub launch_index: Option<u32>,
}

/// The link of a result to its graph.
pub fn graph_link(bytes: &[u8]) -> Result<GraphLink, prost::DecodeError> {
    let m = GraphLinkMsg::decode(bytes)?;
    Ok(GraphLink {
        address: m.address.unwrap_or(0),
        timestamp: m.timestamp,
        launch_index: m.launch_index,
    })
}

/// Decodes one `GraphData` message, counting the fields this reader does not know.
pub fn decode_graph(bytes: &[u8], unknown: &mut Unknown) -> Result<CudaGraph, String> {
    unknown.add(
        "GraphData",
        &unknown_numbers(bytes, unknown::is_graph_field),
    );
    let g = GraphMsg::decode(bytes).map_err(|e| e.to_string())?;
    let mut nodes = Vec::with_capacity(g.nodes.len());
    for n in &g.nodes {
        nodes.push(node(n, unknown).map_err(|e| format!("node: {e}"))?);
    }
    let mut edges = Vec::with_capacity(g.edges.len());
    for e in &g.edges {
        unknown.add(
            "EdgeData",
            &unknown_numbers(e, |n| (1..=unknown::GRAPH_EDGE).contains(&n)),
        );
        let e = EdgeMsg::decode(e.as_slice()).map_err(|e| format!("edge: {e}"))?;
        let params = e.params.as_ref();
        edges.push(GraphEdge {
            from: e.from.unwrap_or(0),
            to: e.to.unwrap_or(0),
            name: e.name.unwrap_or_default(),
            dependency: match params
                .and_then(|p| p.edge.as_ref())
                .and_then(|t| t.dependency)
            {
                None | Some(0) => "default".into(),
                Some(1) => "programmatic".into(),
                Some(n) => format!("type {n}"),
            },
            conditional_body: params.and_then(|p| p.conditional_body),
        });
    }
    Ok(CudaGraph {
        address: g.address.unwrap_or(0),
        stage: GraphStage::from_stored(g.stage.unwrap_or(0)),
        timestamp: g.timestamp,
        launch_index: g.launch_index,
        conditional: g.conditional.unwrap_or(false),
        device_launchable: g.device_launchable.unwrap_or(false),
        nodes,
        edges,
    })
}

fn hex(v: u64) -> String {
    format!("{v:#x}")
}

fn memory_kind(v: Option<i32>) -> String {
    match v.unwrap_or(0) {
        0 => "unknown".into(),
        1 => "device".into(),
        2 => "host".into(),
        3 => "array".into(),
        4 => "unified".into(),
        n => format!("kind {n}"),
    }
}

fn node(bytes: &[u8], unknown: &mut Unknown) -> Result<GraphNode, prost::DecodeError> {
    unknown.add(
        "NodeData",
        &unknown_numbers(bytes, |n| (1..=unknown::GRAPH_NODE).contains(&n)),
    );
    let n = NodeMsg::decode(bytes)?;
    let raw = n.params.unwrap_or_default();
    unknown.add(
        "NodeParams",
        &unknown_numbers(&raw, |n| (1..=unknown::GRAPH_NODE_PARAMS).contains(&n)),
    );
    let p = NodeParamsMsg::decode(raw.as_slice())?;
    let kind = NodeKind::from_stored(p.kind.unwrap_or(0));
    Ok(GraphNode {
        address: n.address.unwrap_or(0),
        name: n.name.unwrap_or_default(),
        kind,
        params: params_of(&p),
        text: p.text.clone().filter(|t| !t.is_empty()),
        enabled: match p.enablement {
            Some(1) => Some(true),
            Some(2) => Some(false),
            _ => None,
        },
        parent_conditional: p
            .parent_conditional
            .filter(|&a| a != 0)
            .map(|a| (a, p.conditional_body.unwrap_or(0))),
    })
}

/// The parameters of a node as (label, value) pairs.
fn params_of(p: &NodeParamsMsg) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut push = |label: &str, value: String| out.push((label.to_string(), value));
    let n = |v: Option<u64>| v.unwrap_or(0);
    if let Some(k) = &p.kernel {
        push("Function", k.function.clone().unwrap_or_default());
        push(
            "Grid Size",
            format!("({}, {}, {})", n(k.grid_x), n(k.grid_y), n(k.grid_z)),
        );
        push(
            "Block Size",
            format!("({}, {}, {})", n(k.block_x), n(k.block_y), n(k.block_z)),
        );
        push(
            "Dynamic Shared Memory",
            format!("{} bytes", n(k.shared_mem_bytes)),
        );
    }
    if let Some(m) = &p.memcpy {
        push(
            "Direction",
            format!(
                "{} to {}",
                memory_kind(m.src_memory),
                memory_kind(m.dst_memory)
            ),
        );
        push("Source", hex(n(m.src_address)));
        push("Destination", hex(n(m.dst_address)));
        push(
            "Extent",
            format!("{} x {} x {} bytes", n(m.width), n(m.height), n(m.depth)),
        );
    }
    if let Some(m) = &p.memset {
        push("Destination", hex(n(m.dst_address)));
        push("Value", n(m.value).to_string());
        push("Element Size", format!("{} bytes", n(m.element_size)));
        push("Extent", format!("{} x {}", n(m.width), n(m.height)));
    }
    if let Some(h) = &p.host {
        push("Function", hex(n(h.function)));
    }
    if let Some(c) = &p.conditional {
        let kind = match c.kind.unwrap_or(0) {
            1 => "if".to_string(),
            2 => "while".to_string(),
            3 => "switch".to_string(),
            k => format!("type {k}"),
        };
        push("Conditional Type", kind);
        push("Bodies", c.bodies.unwrap_or(0).to_string());
        if !c.body_graphs.is_empty() {
            let graphs: Vec<String> = c.body_graphs.iter().map(|&g| hex(g)).collect();
            push("Body Graphs", graphs.join(", "));
        }
    }
    if let Some(c) = &p.child_graph {
        push("Child Graph", hex(n(c.graph)));
    }
    if let Some(m) = &p.mem_alloc {
        push("Address", hex(n(m.address)));
        push("Size", format!("{} bytes", n(m.bytes)));
    }
    if let Some(m) = &p.mem_free {
        push("Address", hex(n(m.address)));
    }
    if let Some(s) = &p.subgrid_schedule {
        push("Schedule", hex(n(s.schedule)));
    }
    out
}
