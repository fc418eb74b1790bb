//! What a result measured: one kernel launch, a range of work (range or application-range
//! replay), a whole CUDA graph, or a command list.

use serde::Serialize;

/// The kind of workload a result measured.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ResultKind {
    /// One kernel launch (kernel replay, the default).
    #[default]
    Kernel,
    /// The work between `cuProfilerStart/Stop` or inside an NVTX range (`--replay-mode range`
    /// or `app-range`).
    Range,
    /// A whole CUDA graph launch (`--graph-profiling graph`).
    Graph,
    /// A command list.
    #[serde(rename = "cmdlist")]
    CommandList,
}

impl ResultKind {
    /// Every kind, in the order of the report format.
    pub const ALL: [ResultKind; 4] = [
        ResultKind::Kernel,
        ResultKind::Range,
        ResultKind::Graph,
        ResultKind::CommandList,
    ];

    /// The short name used in JSON and on the command line (`kernel`, `range`, `graph`,
    /// `cmdlist`), the workload type NVIDIA's report module gives.
    pub fn name(self) -> &'static str {
        match self {
            ResultKind::Kernel => "kernel",
            ResultKind::Range => "range",
            ResultKind::Graph => "graph",
            ResultKind::CommandList => "cmdlist",
        }
    }

    /// The words shown to a reader (`command list`).
    pub fn label(self) -> &'static str {
        match self {
            ResultKind::CommandList => "command list",
            other => other.name(),
        }
    }

    /// The kind a name stands for (`kernel`, `range`, `graph`, `cmdlist` or `command list`).
    pub fn from_name(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "kernel" => Some(ResultKind::Kernel),
            "range" => Some(ResultKind::Range),
            "graph" => Some(ResultKind::Graph),
            "cmdlist" | "command list" => Some(ResultKind::CommandList),
            _ => None,
        }
    }

    /// The kind of a result as ncu's text and CSV exports show it: ranges, graphs and command
    /// lists are printed with their kind as their name (`range`, `graph`, `cmdlist`), kernels
    /// with their function name and parameters.
    pub fn of_printed_name(name: &str) -> Self {
        match name.trim() {
            "range" => ResultKind::Range,
            "graph" => ResultKind::Graph,
            "cmdlist" => ResultKind::CommandList,
            _ => ResultKind::Kernel,
        }
    }

    /// Whether results of this kind are kernel launches.
    pub fn is_kernel(self) -> bool {
        self == ResultKind::Kernel
    }
}

impl std::fmt::Display for ResultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

#[cfg(test)]
mod tests {
    use super::ResultKind;

    #[test]
    fn names_round_trip() {
        for k in ResultKind::ALL {
            assert_eq!(ResultKind::from_name(k.name()), Some(k));
            assert_eq!(ResultKind::from_name(k.label()), Some(k));
        }
        assert_eq!(ResultKind::from_name("kernels"), None);
        assert_eq!(ResultKind::default(), ResultKind::Kernel);
        assert_eq!(ResultKind::of_printed_name("range"), ResultKind::Range);
        assert_eq!(ResultKind::of_printed_name("graph"), ResultKind::Graph);
        assert_eq!(
            ResultKind::of_printed_name("graph_kernel(float *)"),
            ResultKind::Kernel
        );
    }
}
