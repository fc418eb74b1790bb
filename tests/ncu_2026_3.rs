//! What ncu 2026.3 adds to the report format, read from a report built here from that
//! version's schema (NVIDIA's report module 2026.3.1 embeds it; `ncu_schema.py` of the
//! reference tools prints what it adds to 2025.3): CUDA graphs stored per block and linked
//! from results, PC samples of PM sampling per SM, device-side NVTX, merged reports, the
//! metric-instances table, values on single metric instances, the overlay and marker timeline
//! rows, the subgrid schedule node and CC 10.7. Fields no schema this reader knows names (a
//! later ncu) are skipped and named in the notes. The messages are encoded by hand below, field
//! number by field number, independently of the reader's own declarations.

use sightline::analysis::sections::bodies_of;
use sightline::model::graph::NodeKind;
use sightline::model::section_body::ItemKind;
use sightline::model::{Report, ResultKind, Value};
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

const STRINGS: [&str; 5] = [
    "sm__inst_executed.sum",
    "pmsampling:sm__warps_active.avg",
    "device__attribute_compute_capability_major",
    "device__attribute_compute_capability_minor",
    "gpu__time_duration.sum",
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
    let section = Msg::new()
        .s(1, "InstancesDemo")
        .s(2, "Instances Demo")
        .u(3, 1)
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
fn report_bytes() -> Vec<u8> {
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

const NOTES: [&str; 6] = [
    "BlockHeader field 11 is not known to this reader (a newer report form): skipped in 1 message",
    "NodeParams field 22 is not known to this reader (a newer report form): skipped in 1 message",
    "ProfileResult field 40 is not known to this reader (a newer report form): skipped in 1 message",
    "ProfilerSectionBodyItem field 120 is not known to this reader (a newer report form): skipped in 1 message",
    "ReportSessionDetails field 13 is not known to this reader (a newer report form): skipped in 1 message",
    "6 bytes of block payload after the entries this reader knows were skipped (1 block)",
];

fn written(dir: &Path) -> PathBuf {
    let path = dir.join("ncu_2026_3.ncu-rep");
    std::fs::write(&path, report_bytes()).expect("write the report");
    path
}

/// The report read from the file (on demand) and from memory.
fn both() -> (tempfile::TempDir, Report, Report) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = written(dir.path());
    let on_demand = sightline::parse::load_path(&path).expect("opens");
    let in_memory =
        sightline::parse::parse_bytes(&path, &report_bytes()).expect("parses from memory");
    (dir, on_demand, in_memory)
}

#[test]
fn unknown_fields_and_blocks_are_skipped_and_named() {
    let (_dir, a, b) = both();
    for rep in [&a, &b] {
        assert_eq!(rep.warnings, Vec::<String>::new());
        assert_eq!(rep.notes, NOTES);
        assert_eq!(rep.results.len(), 2);
        assert_eq!(rep.tool_version.as_deref(), Some("2026.3.1.0"));
    }
}

#[test]
fn graphs_are_read_and_linked_from_results() {
    let (_dir, a, b) = both();
    assert_eq!(a.graphs, b.graphs);
    assert_eq!(a.graphs.len(), 1);
    let g = &a.graphs[0];
    assert_eq!(
        (g.address, g.timestamp, g.launch_index),
        (0xabc000, Some(777), Some(0))
    );
    assert_eq!(g.stage.name(), "instantiated");
    assert!(g.device_launchable && !g.conditional);
    let kinds: Vec<NodeKind> = g.nodes.iter().map(|n| n.kind).collect();
    assert_eq!(
        kinds,
        [
            NodeKind::Kernel,
            NodeKind::Memcpy,
            NodeKind::Memset,
            NodeKind::Host,
            NodeKind::Conditional,
            NodeKind::ChildGraph,
            NodeKind::SubgridSchedule,
            NodeKind::Other(16),
        ]
    );
    let kernel = &g.nodes[0].params;
    assert_eq!(
        kernel,
        &[
            ("Function".to_string(), "vector_add".to_string()),
            ("Grid Size".into(), "(4, 1, 1)".into()),
            ("Block Size".into(), "(256, 1, 1)".into()),
            ("Dynamic Shared Memory".into(), "1024 bytes".into()),
        ]
    );
    assert_eq!(g.nodes[1].params[0].1, "device to host");
    assert_eq!(
        g.nodes[4].params[0],
        ("Conditional Type".into(), "while".into())
    );
    assert_eq!(
        g.nodes[6].params,
        [("Schedule".to_string(), "0x1234".to_string())]
    );
    assert_eq!(g.nodes[7].text.as_deref(), Some("x=1"));
    assert_eq!(g.edges.len(), 2);
    assert_eq!(g.edges[1].dependency, "programmatic");
    assert_eq!(g.edges[1].conditional_body, Some(0));
    for rep in [&a, &b] {
        assert_eq!(rep.results[1].kind, ResultKind::Graph);
        for r in &rep.results {
            assert_eq!(rep.graph_of(r).map(|g| g.address), Some(0xabc000));
        }
    }
}

#[test]
fn results_carry_the_new_records() {
    let (_dir, a, b) = both();
    for rep in [&a, &b] {
        let r = &rep.results[0];
        assert_eq!(r.cc, Some((10, 7)));
        let body = r.body();
        assert_eq!(body.section_set.as_deref(), Some("full"));
        assert_eq!(body.pc_sampling.len(), 1);
        let sm = &body.pc_sampling[0].per_sm[0];
        assert_eq!(
            (
                sm.sm,
                sm.timestamp_bytes,
                sm.pc_sample_bytes,
                sm.dropped_bytes
            ),
            (3, 16, 24, 8)
        );
        let nvtx = body.device_nvtx.as_deref().expect("device NVTX");
        assert_eq!(nvtx.events.len(), 1);
        assert_eq!(nvtx.events[0].timestamp, 5000);
        assert_eq!(nvtx.info(1).map(|i| i.name.as_str()), Some("phase A"));
        assert_eq!(nvtx.warp_ranges[0].end, 6500);
        assert_eq!(body.instance_values.len(), 1);
        let iv = &body.instance_values[0];
        assert_eq!(iv.metric.as_str(), "sm__inst_executed.sum");
        assert_eq!(iv.instance, 0);
        assert_eq!(iv.values, [Value::Double(1.5), Value::Double(2.5)]);
        // The metric itself is read as before: its value and its two instances.
        let m = r
            .metric("sm__inst_executed.sum")
            .expect("metric")
            .to_metric();
        assert_eq!(m.value, Value::U64(12));
        assert_eq!(m.instances.len(), 2);
    }
}

#[test]
fn merged_reports_name_where_their_results_come_from() {
    let (_dir, a, _) = both();
    assert_eq!(a.session.get("Merged Report"), Some("Yes"));
    assert_eq!(
        a.session.get("Merged From"),
        Some("app (42) on hostA; other (43) on hostB")
    );
}

#[test]
fn bodies_show_the_instances_table_timeline_rows_and_records() {
    let (_dir, a, _) = both();
    let sections = bodies_of(&a, 0);
    let names: Vec<&str> = sections.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "Instances Demo",
            "CUDA Graph",
            "PM Sampling: PC Samples",
            "Device NVTX"
        ]
    );
    let items = &sections[0].bodies[0].items;
    // The item of an unknown kind is not among them.
    let kinds: Vec<ItemKind> = items.iter().map(|i| i.kind).collect();
    assert_eq!(kinds, [ItemKind::MetricInstancesTable, ItemKind::Timeline]);
    let table = &items[0];
    assert_eq!(table.category_axis, "Instance");
    assert_eq!(
        table.value_axis.as_ref().map(|a| a.label.as_str()),
        Some("Value")
    );
    let rows: Vec<(&str, Option<&str>, Value, usize)> = table
        .rows
        .iter()
        .map(|r| {
            (
                r.label.as_str(),
                r.group.as_deref(),
                r.metric.value.clone(),
                r.metric.instances.len(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("11", Some("Instructions"), Value::U64(5), 2),
            ("12", Some("Instructions"), Value::U64(7), 0),
        ]
    );
    let groups: Vec<(&str, &str)> = items[1]
        .rows
        .iter()
        .map(|r| (r.group.as_deref().unwrap_or(""), r.label.as_str()))
        .collect();
    assert_eq!(
        groups,
        [
            ("Overview [overlay]", "Active"),
            ("Overview / Events [markers]", "Warps")
        ]
    );
    let graph = &sections[1].bodies[0].items;
    let labels: Vec<&str> = graph.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels, ["Graph", "Nodes", "Edges"]);
    assert_eq!(graph[1].rows.len(), 8);
    assert_eq!(graph[1].rows[6].group.as_deref(), Some("Subgrid Schedule"));
    assert_eq!(graph[2].rows[0].label, "kernelA -> copy");
}

fn sightline(args: &[&str]) -> (String, String, bool) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(args)
        .output()
        .expect("runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.success(),
    )
}

#[test]
fn the_cli_shows_them_and_notes_what_it_skipped() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = written(dir.path());
    let file = path.to_str().expect("utf-8 path");
    let (out, err, ok) = sightline(&["sections", file]);
    assert!(ok, "{err}");
    for line in [
        "  Section: CUDA Graph",
        "      [table] Nodes",
        "      [metric_instances_table] Per Instance",
        "  Section: Device NVTX",
    ] {
        assert!(
            out.lines().any(|l| l == line),
            "{line:?} missing in:\n{out}"
        );
    }
    assert!(out.contains("Subgrid Schedule"), "{out}");
    assert!(out.contains("Schedule: 0x1234"), "{out}");
    assert!(out.contains("Overview / Events [markers]"), "{out}");
    for note in NOTES {
        assert!(
            err.contains(&format!("note: {file}: {note}")),
            "{note:?} not in:\n{err}"
        );
    }
    // Notes are not problems: --strict passes.
    let (_, err, ok) = sightline(&["summary", "--strict", file]);
    assert!(ok, "{err}");
    let (out, _, ok) = sightline(&["summary", "--json", file]);
    assert!(ok);
    let doc: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let rep = &doc["reports"][0];
    assert_eq!(rep["merged_from"], "app (42) on hostA; other (43) on hostB");
    assert_eq!(rep["graphs"][0]["address"], 0xabc000);
    assert_eq!(rep["graphs"][0]["nodes"][6]["kind"], "subgrid_schedule");
    assert_eq!(rep["results"][0]["cc"], "10.7");
    assert_eq!(rep["results"][0]["graph"]["launch_index"], 0);
}
