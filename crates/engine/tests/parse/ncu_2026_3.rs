//! What ncu 2026.3 adds to the report format, read from a report built here from that
//! version's schema (NVIDIA's report module 2026.3.1 embeds it; `ncu_schema.py` of the
//! reference tools prints what it adds to 2025.3): CUDA graphs stored per block and linked
//! from results, PC samples of PM sampling per SM, device-side NVTX, merged reports, the
//! metric-instances table, values on single metric instances, the overlay and marker timeline
//! rows, the subgrid schedule node and CC 10.7. Fields no schema this reader knows names (a
//! later ncu) are skipped and named in the notes. The report is built in
//! `sightline_testkit::ncu_2026_3_report`.

use sightline_engine::analysis::sections::bodies_of;
use sightline_engine::model::graph::NodeKind;
use sightline_engine::model::section_body::{ItemKind, TimelineRowKind};
use sightline_engine::model::{Report, ResultKind, Value};

use sightline_testkit::ncu_2026_3_report::{BODY_NOTES, NOTES, report_bytes, written};

/// The report read from the file (on demand) and from memory.
fn both() -> (tempfile::TempDir, Report, Report) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = written(dir.path());
    let on_demand = sightline_engine::parse::load_path(&path).expect("opens");
    let in_memory =
        sightline_engine::parse::parse_bytes(&path, &report_bytes()).expect("parses from memory");
    (dir, on_demand, in_memory)
}

#[test]
fn unknown_fields_and_blocks_are_skipped_and_named() {
    let (_dir, mut a, b) = both();
    for rep in [&a, &b] {
        assert_eq!(rep.warnings, Vec::<String>::new());
        assert_eq!(rep.results.len(), 2);
        assert_eq!(rep.tool_version.as_deref(), Some("2026.3.1.0"));
    }
    // Read whole from memory, every body is read: its notes hold both lists.
    let mut all = NOTES.to_vec();
    all.splice(NOTES.len() - 1..NOTES.len() - 1, BODY_NOTES);
    let sorted = |notes: &[&str]| {
        let mut n: Vec<String> = notes.iter().map(|s| s.to_string()).collect();
        n.sort();
        n
    };
    let mut in_memory = b.all_notes();
    in_memory.sort();
    assert_eq!(in_memory, sorted(&all));
    // Read on demand, the report's own notes are those of the opening, and what bodies hold
    // is counted as they are read: the first at opening, the others when asked for.
    assert_eq!(a.notes, NOTES);
    let so_far = |read: usize| -> Vec<String> {
        BODY_NOTES
            .iter()
            .map(|n| match read {
                2 => n.to_string(),
                _ => format!("{n}, in the {read} of 2 results read in full so far"),
            })
            .collect()
    };
    assert_eq!(a.all_notes()[NOTES.len()..], so_far(1));
    let _ = a.results[1].body();
    assert_eq!(a.all_notes()[NOTES.len()..], so_far(2));
    // A body released and read again is not counted twice.
    a.release_bodies(0);
    let _ = a.results[0].body();
    assert_eq!(a.all_notes()[NOTES.len()..], so_far(2));
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
        assert_eq!(r.section_set.as_deref(), Some("full"));
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
                r.metric.value,
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
    // The timeline draws each row as its kind says: the group's row overlaid, the events as
    // marks, each over the two samples.
    let timeline = sightline_engine::analysis::sections::timeline::build(&items[1]);
    let drawn: Vec<(&str, Option<TimelineRowKind>, usize)> = timeline
        .groups
        .iter()
        .map(|g| (g.label.as_str(), g.drawn_as, g.series[0].points.len()))
        .collect();
    assert_eq!(
        drawn,
        [
            ("Overview [overlay]", Some(TimelineRowKind::Overlay), 2),
            (
                "Overview / Events [markers]",
                Some(TimelineRowKind::Markers),
                2
            ),
        ]
    );
    let graph = &sections[1].bodies[0].items;
    let labels: Vec<&str> = graph.iter().map(|i| i.label.as_str()).collect();
    assert_eq!(labels, ["Graph", "Nodes", "Edges"]);
    assert_eq!(graph[1].rows.len(), 8);
    assert_eq!(graph[1].rows[6].group.as_deref(), Some("Subgrid Schedule"));
    assert_eq!(graph[2].rows[0].label, "kernelA -> copy");
}
