//! Body tables laid out as ncu lays them out: the NUMA affinity table of every result of
//! `kernels_full.ncu-rep` has the columns and rows of ncu's `--print-details all` export; the
//! memory tables have the rows and columns of the Kernel Profiling Guide, their cells the
//! oracle's values and the Guide's derived values (sectors per request, bytes, hit rates,
//! totals).

use sightline_engine::analysis::sections::memory_table::{self, Grid};
use sightline_engine::analysis::sections::{bodies_of, numa};
use sightline_engine::model::section_body::ItemKind;
use sightline_testkit::{fixture_bytes, load_fixture, load_truth, rule_spans};

fn cells(line: &str, spans: &[(usize, usize)]) -> Vec<String> {
    spans
        .iter()
        .map(|&(a, b)| {
            line.get(a.min(line.len())..b.min(line.len()))
                .unwrap_or("")
                .trim()
                .to_string()
        })
        .collect()
}

/// The NUMA Affinity tables of the export, one per result: (header, rows).
fn printed_numa_tables(text: &str) -> Vec<(Vec<String>, Vec<Vec<String>>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.trim() != "Table Name : NUMA Affinity" {
            continue;
        }
        let rule = lines[i + 1];
        let sp = rule_spans(rule);
        let header = cells(lines[i + 2], &sp);
        let mut rows = Vec::new();
        for l in &lines[i + 4..] {
            if l.trim().starts_with('-') {
                break;
            }
            rows.push(cells(l, &sp));
        }
        out.push((header, rows));
    }
    out
}

#[test]
fn numa_table_has_the_columns_and_rows_ncu_prints() {
    let text = String::from_utf8(fixture_bytes("h100/kernels_full.details_all.txt.xz")).unwrap();
    let printed = printed_numa_tables(&text);
    let report = load_fixture("h100/kernels_full.ncu-rep.xz");
    assert_eq!(printed.len(), report.results.len());
    for (index, (header, rows)) in printed.iter().enumerate() {
        let bodies = bodies_of(&report, index);
        let item = bodies
            .iter()
            .flat_map(|s| &s.bodies)
            .flat_map(|b| &b.items)
            .find(|i| i.kind == ItemKind::NumaTable)
            .expect("a NUMA table");
        let t = numa::table(item);
        assert_eq!(&t.columns, header, "result {index}");
        assert_eq!(&t.rows, rows, "result {index}");
        assert_eq!(rows[0][1], "NVIDIA H100 80GB HBM3");
    }
}

fn table_of(report: &sightline_engine::model::Report, index: usize, kind: ItemKind) -> Grid {
    let bodies = bodies_of(report, index);
    let item = bodies
        .iter()
        .flat_map(|s| &s.bodies)
        .flat_map(|b| &b.items)
        .find(|i| i.kind == kind)
        .unwrap_or_else(|| panic!("no {kind:?}"));
    memory_table::grid(item)
}

fn cell(g: &Grid, row: &str, col: &str) -> Option<f64> {
    let c = g
        .columns
        .iter()
        .position(|c| c == col)
        .unwrap_or_else(|| panic!("no column {col}"));
    let r = g
        .rows
        .iter()
        .find(|r| r.label == row)
        .unwrap_or_else(|| panic!("no row {row}"));
    r.cells[c].as_ref().and_then(|c| c.value)
}

fn close(a: Option<f64>, b: f64) -> bool {
    a.is_some_and(|a| (a - b).abs() <= 1e-9 * a.abs().max(b.abs()))
}

#[test]
fn memory_tables_have_the_rows_and_columns_of_the_profiling_guide() {
    let report = load_fixture("h100/kernels_full.ncu-rep.xz");
    let truth = load_truth("h100/kernels_full.truth.json.xz");
    // strided_copy (launch 2) reads with a stride: many sectors per request.
    let (i, t) = (2, &truth[2]);
    assert_eq!(t.function, "strided_copy");

    let l1 = table_of(&report, i, ItemKind::L1TexTable);
    assert_eq!(
        l1.columns,
        [
            "Instructions",
            "Requests",
            "Wavefronts",
            "Wavefront % Peak",
            "Sectors",
            "Sectors/Req",
            "Hit Rate",
            "Bytes",
            "Sector Misses to L2",
            "% Peak to L2",
            "Returns to SM",
            "% Peak to SM",
        ]
    );
    let labels: Vec<&str> = l1.rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(
        &labels[..4],
        [
            "Global Loads",
            "Global Stores",
            "Global Atomics",
            "Global Reductions"
        ]
    );
    assert_eq!(&labels[labels.len() - 3..], ["Loads", "Stores", "Total"]);
    let n = |k: &str| t.number(k);
    let (req, sec) = (
        n("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
        n("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    );
    assert!(close(cell(&l1, "Global Loads", "Requests"), req));
    assert!(close(cell(&l1, "Global Loads", "Sectors/Req"), sec / req));
    assert!(close(cell(&l1, "Global Loads", "Bytes"), sec * 32.0));
    assert!(close(
        cell(&l1, "Global Loads", "Instructions"),
        n("smsp__sass_inst_executed_op_global_ld.sum")
    ));
    assert!(close(
        cell(&l1, "Global Loads", "Hit Rate"),
        n("l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct")
    ));
    let st = n("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum");
    let loads: f64 = [
        "global_op_ld",
        "local_op_ld",
        "surface_op_ld",
        "dshared_op_ld",
    ]
    .iter()
    .map(|q| {
        let pipe = if q.starts_with("surface") {
            "tex"
        } else {
            "lsu"
        };
        n(&format!("l1tex__t_sectors_pipe_{pipe}_mem_{q}.sum"))
    })
    .sum::<f64>()
        + n("l1tex__t_sectors_pipe_tex_mem_texture.sum");
    assert!(close(cell(&l1, "Loads", "Sectors"), loads));
    assert!(cell(&l1, "Total", "Sectors").unwrap() >= sec + st);
    // Loads are measured by what L2 returns, stores by what L1/TEX writes; global and local
    // accesses share one counter.
    let to_l2 = |k: &str| n(&format!("{k}.sum.pct_of_peak_sustained_elapsed"));
    assert!(to_l2("l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld") > 0.0);
    for (row, counter) in [
        (
            "Global Loads",
            "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld",
        ),
        (
            "Local Loads",
            "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld",
        ),
        (
            "Global Stores",
            "l1tex__m_l1tex2xbar_write_sectors_mem_lg_op_st",
        ),
        (
            "Global Atomics",
            "l1tex__m_l1tex2xbar_write_sectors_mem_global_op_atom",
        ),
    ] {
        assert!(
            close(cell(&l1, row, "% Peak to L2"), to_l2(counter)),
            "{row}"
        );
    }
    let (lsu, tex) = (
        n("l1tex__lsu_writeback_active_mem_lgds.sum"),
        n("l1tex__tex_writeback_active.sum"),
    );
    assert!(lsu > 0.0);
    assert!(close(cell(&l1, "Total", "Returns to SM"), lsu + tex));
    assert!(close(
        cell(&l1, "Total", "% Peak to SM"),
        n("l1tex__lsu_writeback_active_mem_lgds.sum.pct_of_peak_sustained_elapsed").max(n(
            "l1tex__tex_writeback_active.sum.pct_of_peak_sustained_elapsed"
        ))
    ));
    assert!(close(cell(&l1, "Texture Loads", "Returns to SM"), tex));
    assert_eq!(cell(&l1, "Global Loads", "Returns to SM"), None);

    let evict = table_of(&report, i, ItemKind::L2EvictPolicyTable);
    assert_eq!(
        evict.columns,
        [
            "First Sectors",
            "First Hit Rate",
            "Last Sectors",
            "Last Hit Rate",
            "Normal Sectors",
            "Normal Hit Rate",
            "Normal Demote Sectors",
            "Normal Demote Hit Rate",
        ]
    );
    let labels: Vec<&str> = evict.rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "L1/TEX Loads",
            "L1/TEX Stores",
            "L1/TEX Atomics",
            "L1/TEX Total",
            "L2 Fabric Total",
            "GPU Total"
        ]
    );
    for (row, source) in [
        ("L1/TEX Loads", "srcunit_tex_op_read_"),
        ("L1/TEX Stores", "srcunit_tex_op_write_"),
        ("L1/TEX Total", "srcunit_tex_"),
        ("L2 Fabric Total", "srcunit_ltcfabric_"),
        ("GPU Total", ""),
    ] {
        for (policy, name) in [("First", "first"), ("Normal", "normal")] {
            let hit = n(&format!(
                "lts__t_sectors_{source}evict_{name}_lookup_hit.sum"
            ));
            let miss = n(&format!(
                "lts__t_sectors_{source}evict_{name}_lookup_miss.sum"
            ));
            let sectors = cell(&evict, row, &format!("{policy} Sectors"));
            assert!(close(sectors, hit + miss), "{row} {policy}");
            let rate = cell(&evict, row, &format!("{policy} Hit Rate"));
            if hit + miss > 0.0 {
                assert!(close(rate, hit / (hit + miss) * 100.0), "{row} {policy}");
            } else {
                assert_eq!(rate, None, "{row} {policy}");
            }
        }
    }
    // Every metric of the table has its cell.
    assert!(evict.other.is_empty(), "{:?}", evict.other);

    let l2 = table_of(&report, i, ItemKind::L2CacheTable);
    assert_eq!(l2.columns[..3], ["Requests", "Sectors", "Sectors/Req"]);
    let (hit, miss) = (
        n("lts__t_sectors_srcunit_tex_lookup_hit.sum"),
        n("lts__t_sectors_srcunit_tex_lookup_miss.sum"),
    );
    assert!(close(
        cell(&l2, "L1/TEX Total", "Hit Rate"),
        hit / (hit + miss) * 100.0
    ));
    assert!(close(
        cell(&l2, "L1/TEX Loads", "Sector Misses to Device"),
        n("lts__t_sectors_srcunit_tex_aperture_device_op_read_lookup_miss.sum")
    ));
    assert!(close(
        cell(&l2, "GPU Total", "Bytes"),
        n("lts__t_sectors.sum") * 32.0
    ));

    let dram = table_of(&report, i, ItemKind::DeviceMemoryTable);
    assert_eq!(dram.columns, ["Sectors", "% Peak", "Bytes", "Throughput"]);
    assert!(close(
        cell(&dram, "Total", "Bytes"),
        n("dram__bytes_read.sum") + n("dram__bytes_write.sum")
    ));
    assert!(close(
        cell(&dram, "Load", "Sectors"),
        n("dram__sectors_read.sum")
    ));

    let shared = table_of(&report, i, ItemKind::SharedMemoryTable);
    assert_eq!(
        shared.columns,
        ["Instructions", "Wavefronts", "% Peak", "Bank Conflicts"]
    );
    assert!(close(
        cell(&shared, "Total", "Wavefronts"),
        n("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum")
    ));
}
