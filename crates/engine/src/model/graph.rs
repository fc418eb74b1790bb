//! CUDA graphs a report stores beside its results (ncu 2026.3 and later): each graph's nodes
//! (kernels, copies, memsets, host calls, conditionals, child graphs, subgrid schedules, ...)
//! and the edges between them. A result profiled as part of a graph names its graph by address,
//! timestamp and launch index ([`GraphLink`]).

use serde::Serialize;

/// How far along a graph was when it was recorded: as built, compiled, or instantiated.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GraphStage {
    #[default]
    Source,
    Compiled,
    Instantiated,
    /// A value this reader does not know.
    Other(i32),
}

impl GraphStage {
    /// The stage of a stored value.
    pub fn from_stored(v: i32) -> Self {
        match v {
            0 => GraphStage::Source,
            1 => GraphStage::Compiled,
            2 => GraphStage::Instantiated,
            n => GraphStage::Other(n),
        }
    }

    /// The name shown.
    pub fn name(self) -> String {
        match self {
            GraphStage::Source => "source".into(),
            GraphStage::Compiled => "compiled".into(),
            GraphStage::Instantiated => "instantiated".into(),
            GraphStage::Other(n) => format!("stage {n}"),
        }
    }
}

/// What a graph node does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    Kernel,
    Memcpy,
    Memset,
    Host,
    ChildGraph,
    Empty,
    WaitEvent,
    EventRecord,
    ExtSemasSignal,
    ExtSemasWait,
    MemAlloc,
    MemFree,
    Conditional,
    /// A subgrid schedule (a workload type new in ncu 2026.3).
    SubgridSchedule,
    MemcpyBatch,
    MemcpyBatch3D,
    /// A node type this reader does not know (its stored number).
    Other(i32),
}

impl NodeKind {
    /// The kind of a stored node type.
    pub fn from_stored(v: i32) -> Self {
        use NodeKind::*;
        match v {
            0 => Kernel,
            1 => Memcpy,
            2 => Memset,
            3 => Host,
            4 => ChildGraph,
            5 => Empty,
            6 => WaitEvent,
            7 => EventRecord,
            8 => ExtSemasSignal,
            9 => ExtSemasWait,
            10 => MemAlloc,
            11 => MemFree,
            12 => Conditional,
            13 => SubgridSchedule,
            14 => MemcpyBatch,
            15 => MemcpyBatch3D,
            n => Other(n),
        }
    }

    /// The name shown (as CUDA's graph API names the node types).
    pub fn name(self) -> String {
        use NodeKind::*;
        match self {
            Kernel => "Kernel".into(),
            Memcpy => "Memcpy".into(),
            Memset => "Memset".into(),
            Host => "Host".into(),
            ChildGraph => "Child Graph".into(),
            Empty => "Empty".into(),
            WaitEvent => "Wait Event".into(),
            EventRecord => "Event Record".into(),
            ExtSemasSignal => "External Semaphore Signal".into(),
            ExtSemasWait => "External Semaphore Wait".into(),
            MemAlloc => "Memory Allocation".into(),
            MemFree => "Memory Free".into(),
            Conditional => "Conditional".into(),
            SubgridSchedule => "Subgrid Schedule".into(),
            MemcpyBatch => "Memcpy Batch".into(),
            MemcpyBatch3D => "Memcpy Batch 3D".into(),
            Other(n) => format!("node type {n}"),
        }
    }
}

/// One node of a graph.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphNode {
    pub address: u64,
    pub name: String,
    pub kind: NodeKind,
    /// The node's parameters as (label, value) pairs, in the order they are shown: a kernel's
    /// function, grid, block and shared memory, a copy's size and directions, a conditional's
    /// type and bodies, a child graph's address...
    pub params: Vec<(String, String)>,
    /// The parameters as one text, where the report stores one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Whether the node is enabled in the instantiated graph, where that applies.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// The conditional node this node is a body of, and which body.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_conditional: Option<(u64, u32)>,
}

/// One dependency between two nodes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GraphEdge {
    pub from: u64,
    pub to: u64,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// `default`, or `programmatic` for a programmatic dependent launch edge.
    pub dependency: String,
    /// The body of a conditional node the edge leads into, where it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conditional_body: Option<u32>,
}

/// One CUDA graph of a report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CudaGraph {
    pub address: u64,
    pub stage: GraphStage,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub launch_index: Option<u32>,
    /// The graph is a body of a conditional node.
    pub conditional: bool,
    pub device_launchable: bool,
    pub nodes: Vec<GraphNode>,
    pub edges: Vec<GraphEdge>,
}

/// Which stored graph a result belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct GraphLink {
    pub address: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timestamp: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub launch_index: Option<u32>,
}

impl GraphLink {
    /// The graph of `graphs` this link names: the one equal in address, timestamp and launch
    /// index; else the one of that address and launch index; else the only one of that address.
    pub fn find<'a>(&self, graphs: &'a [CudaGraph]) -> Option<&'a CudaGraph> {
        let same = |g: &&CudaGraph| g.address == self.address;
        graphs
            .iter()
            .filter(same)
            .find(|g| g.timestamp == self.timestamp && g.launch_index == self.launch_index)
            .or_else(|| {
                graphs
                    .iter()
                    .filter(same)
                    .find(|g| g.launch_index == self.launch_index)
            })
            .or_else(|| {
                let mut of_address = graphs.iter().filter(same);
                match (of_address.next(), of_address.next()) {
                    (Some(g), None) => Some(g),
                    _ => None,
                }
            })
    }
}
