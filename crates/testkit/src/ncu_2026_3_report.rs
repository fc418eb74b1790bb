//! A small `.ncu-rep` holding what ncu 2026.3 adds to the format, built from that version's
//! schema (NVIDIA's report module 2026.3.1 embeds it; `ncu_schema.py` of the reference tools
//! prints what it adds to 2025.3). Every message is encoded by hand, field number by field
//! number, independently of the reader's own declarations. Shared by the tests that read it.

use std::path::{Path, PathBuf};

/// A protobuf message written field by field.
#[derive(Default, Clone)]
struct Msg(Vec<u8>);

fn varint(out: &mut Vec<u8>, mut v: u64) {
    loop {
        let b = (v & 0x7f) as u8;
        v >>= 7;
        if v == 0 {
            out.push(b);
            return;
        }
        out.push(b | 0x80);
    }
}

impl Msg {
    fn new() -> Self {
        Msg::default()
    }
    fn key(&mut self, field: u32, wire: u8) {
        varint(&mut self.0, (u64::from(field) << 3) | u64::from(wire));
    }
    fn u(mut self, field: u32, v: u64) -> Self {
        self.key(field, 0);
        varint(&mut self.0, v);
        self
    }
    fn d(mut self, field: u32, v: f64) -> Self {
        self.key(field, 1);
        self.0.extend_from_slice(&v.to_le_bytes());
        self
    }
    fn b(mut self, field: u32, bytes: &[u8]) -> Self {
        self.key(field, 2);
        varint(&mut self.0, bytes.len() as u64);
        self.0.extend_from_slice(bytes);
        self
    }
    fn s(self, field: u32, text: &str) -> Self {
        self.b(field, text.as_bytes())
    }
    fn m(self, field: u32, msg: Msg) -> Self {
        self.b(field, &msg.0)
    }
}

/// `u32 length` + bytes.
fn prefixed(out: &mut Vec<u8>, bytes: &[u8]) {
    out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    out.extend_from_slice(bytes);
}

/// A block: its header (payload size filled in) and its payload entries.
fn block(out: &mut Vec<u8>, header: Msg, entries: &[Vec<u8>]) {
    let mut payload = Vec::new();
    for e in entries {
        prefixed(&mut payload, e);
    }
    let header = header.u(5, payload.len() as u64);
    prefixed(out, &header.0);
    out.extend_from_slice(&payload);
}

const STRINGS: [&str; 6] = [
    "sm__inst_executed.sum",
    "pmsampling:sm__warps_active.avg",
    "device__attribute_compute_capability_major",
    "device__attribute_compute_capability_minor",
    "gpu__time_duration.sum",
    "sm__cycles_active.avg",
];

fn process(pid: u64, host: &str, name: &str) -> Msg {
    Msg::new().u(1, pid).s(2, host).s(3, name)
}

fn metric_u64(name_id: u64, v: u64) -> Msg {
    Msg::new().u(1, name_id).m(2, Msg::new().u(5, v))
}

/// `ProfilerSectionMetric` with a name and a label.
fn section_metric(name: &str, label: &str) -> Msg {
    Msg::new().s(1, name).s(2, label)
}

/// The kernel result: metrics (one with values on an instance), a section template with a
/// metric-instances table, an item of an unknown kind and a timeline with the new rows, PC
/// samples, the graph link, device NVTX, the section set, and a field no schema names (40).
fn kernel_result() -> Msg {
    let instances = Msg::new()
        .u(1, 0)
        .m(
            3,
            Msg::new()
                .m(1, Msg::new().u(5, 11))
                .m(2, Msg::new().u(5, 5))
                .m(3, Msg::new().d(3, 1.5))
                .m(3, Msg::new().d(3, 2.5)),
        )
        .m(
            3,
            Msg::new()
                .m(1, Msg::new().u(5, 12))
                .m(2, Msg::new().u(5, 7)),
        )
        .m(2, Msg::new().u(5, 12));
    let samples = Msg::new()
        .u(1, 1)
        .m(
            3,
            Msg::new()
                .m(1, Msg::new().u(5, 1000))
                .m(2, Msg::new().d(3, 3.0)),
        )
        .m(
            3,
            Msg::new()
                .m(1, Msg::new().u(5, 2000))
                .m(2, Msg::new().d(3, 4.0)),
        );
    let instances_table = Msg::new().m(
        9,
        Msg::new()
            .s(1, "Per Instance")
            .s(2, "Instructions of each instance")
            .s(3, "Instance")
            .s(4, "Value")
            .m(5, section_metric("sm__inst_executed.sum", "Instructions")),
    );
    let unknown_item = Msg::new().m(120, Msg::new().s(1, "a later widget"));
    let timeline = Msg::new().m(
        113,
        Msg::new().s(1, "Timeline").m(
            2,
            Msg::new()
                .s(1, "Overview")
                .m(
                    4,
                    Msg::new()
                        .s(1, "Events")
                        .u(3, 3)
                        .m(
                            4,
                            section_metric("pmsampling:sm__warps_active.avg", "Warps"),
                        )
                        .u(5, 1),
                )
                .m(
                    5,
                    Msg::new().s(1, "All").u(3, 2).m(
                        4,
                        section_metric("pmsampling:sm__warps_active.avg", "Active"),
                    ),
                ),
        ),
    );
    // A section template with fields no schema names: its own (14) and in a header metric (17).
    let section = Msg::new()
        .s(1, "InstancesDemo")
        .s(2, "Instances Demo")
        .u(3, 1)
        .m(
            4,
            Msg::new().u(1, 1).m(
                2,
                section_metric("sm__inst_executed.sum", "Instructions").u(17, 1),
            ),
        )
        .u(14, 1)
        .m(
            5,
            Msg::new()
                .m(1, instances_table)
                .m(1, unknown_item)
                .m(1, timeline),
        );
    let pc = Msg::new().s(1, "pmsampling:sm__warps_active.avg").m(
        2,
        Msg::new().m(
            1,
            Msg::new()
                .u(1, 3)
                .b(2, &[0; 16])
                .b(3, &[0; 24])
                .b(4, &[0; 8]),
        ),
    );
    let nvtxd = Msg::new()
        .m(1, Msg::new().u(1, 5000).u(2, 1).u(3, 3).u(4, 2))
        .m(2, Msg::new().u(1, 4000).u(2, 6500).u(3, 3).u(4, 2))
        .s(3, "pmsampling:sm__warps_active.avg")
        .m(4, Msg::new().u(1, 1).s(2, "app").s(3, "phase A").u(4, 1));
    let shape = |x: u64| Msg::new().u(1, x).u(2, 1).u(3, 1);
    Msg::new()
        .u(1, 42)
        .u(2, 7)
        .s(5, "_Z10vector_addPfi")
        .s(6, "vector_add")
        .s(7, "vector_add(float *, int)")
        .m(10, shape(4))
        .m(11, shape(256))
        .m(13, instances)
        .m(13, samples)
        .m(13, metric_u64(2, 10))
        .m(13, metric_u64(3, 7))
        .m(13, metric_u64(4, 1234))
        // Fields no schema names inside a metric (5), its value (9) and an instance (7).
        .m(
            13,
            Msg::new()
                .u(1, 5)
                .m(2, Msg::new().u(5, 3).u(9, 1))
                .m(3, Msg::new().m(2, Msg::new().u(5, 3)).u(7, 1))
                .u(5, 1),
        )
        // A rule result with a field no schema names (6) and one in its message (5).
        .m(
            19,
            Msg::new()
                .s(1, "LaterRule")
                .s(2, "Later Rule")
                .m(
                    3,
                    Msg::new().m(
                        1,
                        Msg::new().m(1, Msg::new().s(1, "A later note.").u(2, 1).u(5, 1)),
                    ),
                )
                .u(6, 1),
        )
        .m(17, section)
        .m(36, pc)
        .m(37, Msg::new().u(1, 0xabc000).u(2, 777).u(3, 0))
        .m(38, nvtxd)
        .s(39, "full")
        .u(40, 1)
}

fn node(address: u64, name: &str, params: Msg) -> Msg {
    Msg::new().u(1, address).s(2, name).m(3, params)
}

/// One instantiated graph with a node of every kind shown, and a node whose parameters hold
/// a field no schema names (22).
fn graph() -> Msg {
    Msg::new()
        .u(1, 0xabc000)
        .u(2, 2)
        .u(3, 777)
        .u(5, 1)
        .m(
            6,
            node(
                0x10,
                "kernelA",
                Msg::new().u(2, 0).m(
                    8,
                    Msg::new()
                        .s(1, "vector_add")
                        .u(2, 4)
                        .u(3, 1)
                        .u(4, 1)
                        .u(5, 256)
                        .u(6, 1)
                        .u(7, 1)
                        .u(8, 1024),
                ),
            ),
        )
        .m(
            6,
            node(
                0x20,
                "copy",
                Msg::new().u(2, 1).m(
                    9,
                    Msg::new()
                        .u(1, 1)
                        .u(2, 2)
                        .u(3, 0x7000)
                        .u(10, 0x8000)
                        .u(17, 4096)
                        .u(18, 1)
                        .u(19, 1),
                ),
            ),
        )
        .m(
            6,
            node(
                0x30,
                "zero",
                Msg::new().u(2, 2).m(
                    12,
                    Msg::new().u(1, 0x9000).u(3, 0).u(4, 4).u(5, 1024).u(6, 1),
                ),
            ),
        )
        .m(
            6,
            node(
                0x40,
                "callback",
                Msg::new().u(2, 3).m(13, Msg::new().u(1, 0x401000)),
            ),
        )
        .m(
            6,
            node(
                0x50,
                "loop",
                Msg::new()
                    .u(2, 12)
                    .m(10, Msg::new().u(1, 2).u(2, 1).u(4, 0xdef000)),
            ),
        )
        .m(
            6,
            node(
                0x60,
                "child",
                Msg::new().u(2, 4).m(11, Msg::new().u(1, 0xcafe000)),
            ),
        )
        .m(
            6,
            node(
                0x70,
                "subgrid",
                Msg::new().u(2, 13).m(19, Msg::new().u(1, 0x1234)),
            ),
        )
        .m(6, node(0x80, "", Msg::new().s(1, "x=1").u(2, 16).u(22, 1)))
        .m(7, Msg::new().u(1, 0x10).u(2, 0x20))
        .m(
            7,
            Msg::new()
                .u(1, 0x20)
                .u(2, 0x50)
                .m(4, Msg::new().m(1, Msg::new().u(1, 1)).u(3, 0)),
        )
        .u(8, 0)
        .u(100, 1)
}

/// The whole report.
pub fn report_bytes() -> Vec<u8> {
    let mut out = b"NVR\0".to_vec();
    prefixed(&mut out, &Msg::new().u(1, 7).0);
    // Session: a merged report, with a field no schema names (13).
    let session = Msg::new()
        .u(2, 1_800_000_000)
        .m(
            8,
            Msg::new()
                .s(1, "Nsight Compute Target")
                .s(2, "2026.3.1.0 (build 1) (public-release)"),
        )
        .u(12, 1)
        .u(13, 1);
    block(
        &mut out,
        Msg::new()
            .u(1, 0)
            .u(2, 0)
            .m(3, session)
            .m(6, process(42, "hostA", "/opt/app")),
        &[],
    );
    let mut strings = Msg::new();
    for s in STRINGS {
        strings = strings.s(1, s);
    }
    block(
        &mut out,
        Msg::new()
            .u(1, 0)
            .u(2, 1)
            .m(4, strings)
            .m(6, process(42, "hostA", "/opt/app")),
        &[kernel_result().0],
    );
    // A whole-graph result linked to the graph, and the graph itself after it.
    let graph_result = Msg::new()
        .u(1, 43)
        .u(2, 9)
        .m(25, Msg::new().u(1, 0xabc000).u(2, 777).u(3, 0))
        .s(26, "full");
    block(
        &mut out,
        Msg::new()
            .u(1, 0)
            .u(2, 0)
            .u(9, 1)
            .u(10, 1)
            .m(6, process(43, "hostB", "/opt/other")),
        &[graph_result.0, graph().0],
    );
    // A block whose header has a count no schema names (11): its entry is skipped.
    block(&mut out, Msg::new().u(11, 1), &[Msg::new().u(1, 1).0]);
    out
}

/// Writes the report into `dir` and returns its path.
pub fn written(dir: &Path) -> PathBuf {
    let path = dir.join("ncu_2026_3.ncu-rep");
    std::fs::write(&path, report_bytes()).expect("write the report");
    path
}

/// Fields no schema names, as the notes name them: those every opening reads (block headers,
/// session, result messages, graphs, section templates down to their metrics and filters),
/// then those inside the kernel's body (its metrics, their values and instances, its rule
/// results).
pub const NOTES: [&str; 8] = [
    "BlockHeader field 11 is not known to this reader (a newer report form): skipped in 1 message",
    "NodeParams field 22 is not known to this reader (a newer report form): skipped in 1 message",
    "ProfileResult field 40 is not known to this reader (a newer report form): skipped in 1 message",
    "ProfilerSection field 14 is not known to this reader (a newer report form): skipped in 1 message",
    "ProfilerSectionBodyItem field 120 is not known to this reader (a newer report form): skipped in 1 message",
    "ProfilerSectionMetric field 17 is not known to this reader (a newer report form): skipped in 1 message",
    "ReportSessionDetails field 13 is not known to this reader (a newer report form): skipped in 1 message",
    "6 bytes of block payload after the entries this reader knows were skipped (1 block)",
];
pub const BODY_NOTES: [&str; 5] = [
    "ProfileMetricListElement field 7 is not known to this reader (a newer report form): skipped in 1 message",
    "ProfileMetricResult field 5 is not known to this reader (a newer report form): skipped in 1 message",
    "ProfileMetricValue field 9 is not known to this reader (a newer report form): skipped in 1 message",
    "RuleResult field 6 is not known to this reader (a newer report form): skipped in 1 message",
    "RuleResultMessage field 5 is not known to this reader (a newer report form): skipped in 1 message",
];
