//! The memory tables with the rows and columns of the Kernel Profiling Guide: Shared Memory
//! (access types × Instructions, Wavefronts, % Peak, Bank Conflicts), L1/TEX Cache (global,
//! local, texture, surface and distributed shared accesses, then Loads, Stores and Total ×
//! Instructions, Requests, Wavefronts, Wavefront % Peak, Sectors, Sectors/Req, Hit Rate,
//! Bytes, Sector Misses to L2, % Peak to L2, Returns to SM, % Peak to SM), L2 Cache (L1/TEX
//! Total and its access types, GCC, ECC and L2 Fabric totals, GPU Total × Requests, Sectors,
//! Sectors/Req, % Peak, Hit Rate, Bytes, Throughput, Sector Misses to Device, System and
//! Peer), L2 Cache Eviction Policies (L1/TEX loads, stores, atomics and total, L2 Fabric and
//! GPU totals × sectors and hit rate of the First, Last, Normal and Normal Demote policies) and
//! Device Memory (Load, Store, Total × Sectors, % Peak, Bytes, Throughput). Derived cells
//! carry their formula instead of a metric name; metrics the layout does not place are listed
//! apart.

use super::memory_chart::older_name;
use super::memory_grid::{Cell, Grid, Row};
use crate::model::section_body::{BodyItem, ItemKind};

/// Bytes per sector.
const SECTOR_BYTES: f64 = 32.0;

/// A value of the table's metrics, under its older name where the report has that one
/// (`None` when the result lacks it).
fn metric(item: &BodyItem, name: &str) -> Option<Cell> {
    let (m, name) = match item.metric(name) {
        Some(m) => (m, name),
        None => {
            let old = older_name(name)?;
            (item.metric(old)?, old)
        }
    };
    Some(Cell {
        value: m.as_f64().filter(|v| v.is_finite()),
        unit: m.unit.to_string(),
        metric: name.to_string(),
    })
}

/// The sum of several metrics (those present); `None` when none is.
fn sum(item: &BodyItem, names: &[String], unit: &str) -> Option<Cell> {
    let found: Vec<Cell> = names.iter().filter_map(|n| metric(item, n)).collect();
    if found.is_empty() {
        return None;
    }
    let value = found.iter().map(|c| c.value).sum::<Option<f64>>();
    Some(Cell {
        value,
        unit: found[0].unit.clone().if_empty(unit),
        metric: found
            .iter()
            .map(|c| c.metric.as_str())
            .collect::<Vec<_>>()
            .join(" + "),
    })
}

trait IfEmpty {
    fn if_empty(self, other: &str) -> String;
}

impl IfEmpty for String {
    fn if_empty(self, other: &str) -> String {
        if self.is_empty() {
            other.to_string()
        } else {
            self
        }
    }
}

/// `a / b`, with the formula.
fn ratio(a: &Option<Cell>, b: &Option<Cell>, unit: &str) -> Option<Cell> {
    let (a, b) = (a.as_ref()?, b.as_ref()?);
    Some(Cell {
        value: match (a.value, b.value) {
            (Some(x), Some(y)) if y != 0.0 => Some(x / y),
            _ => None,
        },
        unit: unit.to_string(),
        metric: format!("({}) / ({})", a.metric, b.metric),
    })
}

/// `a × factor`, with the formula.
fn times(a: &Option<Cell>, factor: f64, unit: &str) -> Option<Cell> {
    let a = a.as_ref()?;
    Some(Cell {
        value: a.value.map(|v| v * factor),
        unit: unit.to_string(),
        metric: format!("({}) × {factor}", a.metric),
    })
}

/// Hits ÷ (hits + misses) in percent.
fn hit_rate(hit: &Option<Cell>, miss: &Option<Cell>) -> Option<Cell> {
    let (h, m) = (hit.as_ref()?, miss.as_ref()?);
    Some(Cell {
        value: match (h.value, m.value) {
            (Some(x), Some(y)) if x + y > 0.0 => Some(x / (x + y) * 100.0),
            _ => None,
        },
        unit: "%".to_string(),
        metric: format!("{0} / ({0} + {1}) × 100", h.metric, m.metric),
    })
}

/// The sum of one column over rows (the Loads, Stores and Total rows).
fn column_sum(rows: &[&Row], c: usize) -> Option<Cell> {
    let cells: Vec<&Cell> = rows
        .iter()
        .filter_map(|r| r.cells.get(c)?.as_ref())
        .collect();
    let first = cells.first()?;
    Some(Cell {
        value: cells.iter().map(|c| c.value).sum::<Option<f64>>(),
        unit: first.unit.clone(),
        metric: format!("sum of the column over {} rows", cells.len()),
    })
}

/// The Shared Memory table.
fn shared(item: &BodyItem) -> Grid {
    let columns = ["Instructions", "Wavefronts", "% Peak", "Bank Conflicts"];
    // (row, op qualifier, instruction metrics, wavefront metric base)
    let rows: [(&str, &str, &[&str]); 6] = [
        (
            "Shared Loads",
            "_op_ld",
            &["smsp__sass_inst_executed_op_shared_ld"],
        ),
        (
            "Shared Stores",
            "_op_st",
            &["smsp__sass_inst_executed_op_shared_st"],
        ),
        (
            "Shared Atomics",
            "_op_atom",
            &["smsp__inst_executed_op_shared_atom"],
        ),
        ("LDSM", "_op_ldsm", &["smsp__inst_executed_op_ldsm"]),
        ("STSM", "_op_stsm", &["smsp__inst_executed_op_shared_stsm"]),
        ("LDGSTS", "_op_ldgsts", &["smsp__inst_executed_op_ldgsts"]),
    ];
    let mut out: Vec<Row> = rows
        .iter()
        .map(|(label, op, inst)| {
            let names: Vec<String> = inst.iter().map(|i| format!("{i}.sum")).collect();
            let wave = if *op == "_op_ldgsts" {
                "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum".to_string()
            } else {
                format!("l1tex__data_pipe_lsu_wavefronts_mem_shared{op}.sum")
            };
            Row {
                label: (*label).to_string(),
                cells: vec![
                    sum(item, &names, "inst"),
                    metric(item, &wave),
                    metric(item, &format!("{wave}.pct_of_peak_sustained_elapsed")),
                    metric(
                        item,
                        &format!("l1tex__data_bank_conflicts_pipe_lsu_mem_shared{op}.sum"),
                    ),
                ],
            }
        })
        .collect();
    let parts: Vec<&Row> = out.iter().collect();
    let total = Row {
        label: "Total".to_string(),
        cells: vec![
            column_sum(&parts, 0),
            metric(item, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"),
            metric(
                item,
                "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed",
            ),
            metric(item, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"),
        ],
    };
    out.push(total);
    finish(item, &columns, out)
}

/// The L1/TEX Cache table.
fn l1tex(item: &BodyItem) -> Grid {
    let columns = [
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
    ];
    // (row, qualifier, hit-rate qualifier, instruction metrics, is a load, is a store)
    type Spec<'a> = (&'a str, &'a str, &'a str, &'a [&'a str], bool, bool);
    let specs: [Spec<'_>; 15] = [
        (
            "Global Loads",
            "pipe_lsu_mem_global_op_ld",
            "",
            &["smsp__sass_inst_executed_op_global_ld"],
            true,
            false,
        ),
        (
            "Global Stores",
            "pipe_lsu_mem_global_op_st",
            "",
            &["smsp__sass_inst_executed_op_global_st"],
            false,
            true,
        ),
        (
            "Global Atomics",
            "pipe_lsu_mem_global_op_atom",
            "",
            &[
                "smsp__inst_executed_op_generic_atom_dot_alu",
                "smsp__inst_executed_op_generic_atom_dot_cas",
            ],
            false,
            false,
        ),
        (
            "Global Reductions",
            "pipe_lsu_mem_global_op_red",
            "",
            &["smsp__inst_executed_op_global_red"],
            false,
            false,
        ),
        (
            "Local Loads",
            "pipe_lsu_mem_local_op_ld",
            "",
            &["smsp__sass_inst_executed_op_local_ld"],
            true,
            false,
        ),
        (
            "Local Stores",
            "pipe_lsu_mem_local_op_st",
            "",
            &["smsp__sass_inst_executed_op_local_st"],
            false,
            true,
        ),
        (
            "Texture Loads",
            "pipe_tex_mem_texture",
            "pipe_tex_mem_texture_op_tex",
            &["smsp__inst_executed_op_texture"],
            true,
            false,
        ),
        (
            "Surface Loads",
            "pipe_tex_mem_surface_op_ld",
            "",
            &["smsp__inst_executed_op_surface_ld"],
            true,
            false,
        ),
        (
            "Surface Stores",
            "pipe_tex_mem_surface_op_st",
            "",
            &["smsp__inst_executed_op_surface_st"],
            false,
            true,
        ),
        (
            "Surface Atomics",
            "pipe_tex_mem_surface_op_atom",
            "",
            &[
                "smsp__inst_executed_op_surface_atom_dot_alu",
                "smsp__inst_executed_op_surface_atom_dot_cas",
            ],
            false,
            false,
        ),
        (
            "Surface Reductions",
            "pipe_tex_mem_surface_op_red",
            "",
            &["smsp__inst_executed_op_surface_red"],
            false,
            false,
        ),
        (
            "Distributed Shared Loads",
            "pipe_lsu_mem_dshared_op_ld",
            "",
            &["smsp__sass_inst_executed_op_dshared_ld"],
            true,
            false,
        ),
        (
            "Distributed Shared Stores",
            "pipe_lsu_mem_dshared_op_st",
            "",
            &["smsp__sass_inst_executed_op_dshared_st"],
            false,
            true,
        ),
        (
            "Distributed Shared Atomics",
            "pipe_lsu_mem_dshared_op_atom",
            "",
            &["smsp__sass_inst_executed_op_dshared_atom"],
            false,
            false,
        ),
        (
            "Distributed Shared Async Reductions",
            "pipe_lsu_mem_dshared_op_redas",
            "",
            &["smsp__sass_inst_executed_op_dshared_redas"],
            false,
            false,
        ),
    ];
    let mut rows: Vec<(Row, bool, bool)> = Vec::new();
    for (label, q, hq, inst, load, store) in specs {
        let names: Vec<String> = inst.iter().map(|i| format!("{i}.sum")).collect();
        let requests = metric(item, &format!("l1tex__t_requests_{q}.sum"));
        let sectors = metric(item, &format!("l1tex__t_sectors_{q}.sum"));
        let waves = format!("l1tex__t_output_wavefronts_{q}.sum");
        let hq = if hq.is_empty() { q } else { hq };
        let row = Row {
            label: label.to_string(),
            cells: vec![
                sum(item, &names, "inst"),
                requests.clone(),
                metric(item, &waves),
                metric(item, &format!("{waves}.pct_of_peak_sustained_elapsed")),
                sectors.clone(),
                ratio(&sectors, &requests, "sector/request"),
                metric(item, &format!("l1tex__t_sector_{hq}_hit_rate.pct")),
                times(&sectors, SECTOR_BYTES, "byte"),
                metric(item, &format!("l1tex__t_sectors_{q}_lookup_miss.sum")),
                metric(
                    item,
                    &format!("{}.sum.pct_of_peak_sustained_elapsed", to_l2(q)),
                ),
                None,
                None,
            ],
        };
        // Rows of access types the architecture lacks are left out.
        if row.cells.iter().any(Option::is_some) {
            rows.push((row, load, store));
        }
    }
    let mut out: Vec<Row> = rows.iter().map(|r| r.0.clone()).collect();
    for (label, pick) in [("Loads", 0), ("Stores", 1), ("Total", 2)] {
        let parts: Vec<&Row> = rows
            .iter()
            .filter(|r| match pick {
                0 => r.1,
                1 => r.2,
                _ => true,
            })
            .map(|r| &r.0)
            .collect();
        if parts.is_empty() {
            continue;
        }
        let mut cells: Vec<Option<Cell>> =
            (0..columns.len()).map(|c| column_sum(&parts, c)).collect();
        // Rates do not add up: derived again from the sums, or left out.
        cells[3] = None;
        cells[5] = ratio(&cells[4], &cells[1], "sector/request");
        cells[6] = None;
        cells[9] = None;
        out.push(Row {
            label: label.to_string(),
            cells,
        });
    }
    // What L1/TEX returns to the SM is counted per pipeline: the texture pipeline's on its
    // row, both in the total.
    let returns = |root: &str| {
        (
            metric(item, &format!("{root}.sum")),
            metric(item, &format!("{root}.sum.pct_of_peak_sustained_elapsed")),
        )
    };
    const TEX: &str = "l1tex__tex_writeback_active";
    const LSU: &str = "l1tex__lsu_writeback_active_mem_lgds";
    let (tex, tex_pct) = returns(TEX);
    let (lsu, lsu_pct) = returns(LSU);
    for row in &mut out {
        match row.label.as_str() {
            "Texture Loads" => {
                row.cells[10] = tex.clone();
                row.cells[11] = tex_pct.clone();
            }
            // Without the LSU's count (older versions) a total would be the texture's alone.
            "Total" if lsu.is_some() => {
                row.cells[10] = sum(item, &[format!("{LSU}.sum"), format!("{TEX}.sum")], "cycle");
                row.cells[11] = largest(&[lsu_pct.clone(), tex_pct.clone()]);
            }
            _ => {}
        }
    }
    finish(item, &columns, out)
}

/// The metric of the traffic between L1/TEX and L2 of an access type (`q`, as in
/// `pipe_lsu_mem_global_op_ld`): the sectors L2 returns for loads, the sectors L1/TEX writes
/// for stores, atomics and reductions. Global and local accesses share one counter.
fn to_l2(q: &str) -> String {
    let access = q
        .trim_start_matches("pipe_lsu_")
        .trim_start_matches("pipe_tex_")
        .replace("mem_global_op_ld", "mem_lg_op_ld")
        .replace("mem_local_op_ld", "mem_lg_op_ld")
        .replace("mem_global_op_st", "mem_lg_op_st")
        .replace("mem_local_op_st", "mem_lg_op_st");
    let load = access.ends_with("op_ld") || access == "mem_texture";
    if load {
        format!("l1tex__m_xbar2l1tex_read_sectors_{access}")
    } else {
        format!("l1tex__m_l1tex2xbar_write_sectors_{access}")
    }
}

/// The largest of several percentages (those present), with the formula.
fn largest(cells: &[Option<Cell>]) -> Option<Cell> {
    let found: Vec<&Cell> = cells.iter().flatten().collect();
    let first = found.first()?;
    if found.len() == 1 {
        return Some((*first).clone());
    }
    Some(Cell {
        value: found
            .iter()
            .map(|c| c.value)
            .try_fold(f64::NEG_INFINITY, |m, v| v.map(|v| m.max(v))),
        unit: first.unit.clone(),
        metric: format!(
            "max({})",
            found
                .iter()
                .map(|c| c.metric.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}

/// The L2 Cache table.
fn l2(item: &BodyItem) -> Grid {
    let columns = [
        "Requests",
        "Sectors",
        "Sectors/Req",
        "% Peak",
        "Hit Rate",
        "Bytes",
        "Throughput",
        "Sector Misses to Device",
        "Sector Misses to System",
        "Sector Misses to Peer",
    ];
    // (row, source qualifier, operation qualifier)
    let specs: [(&str, &str, &str); 10] = [
        ("L1/TEX Total", "_srcunit_tex", ""),
        ("L1/TEX Loads", "_srcunit_tex", "_op_read"),
        ("L1/TEX Stores", "_srcunit_tex", "_op_write"),
        ("L1/TEX Atomic ALU", "_srcunit_tex", "_op_atom_dot_alu"),
        ("L1/TEX Atomic CAS", "_srcunit_tex", "_op_atom_dot_cas"),
        ("L1/TEX Reductions", "_srcunit_tex", "_op_red"),
        ("GCC Total", "_srcunit_gcc", ""),
        ("ECC Total", "_data_ecc", ""),
        ("L2 Fabric Total", "_srcunit_ltcfabric", ""),
        ("GPU Total", "", ""),
    ];
    let mut out = Vec::new();
    for (label, src, op) in specs {
        let base = format!("lts__t_sectors{src}{op}");
        let requests = metric(item, &format!("lts__t_requests{src}{op}.sum"));
        let sectors = metric(item, &format!("{base}.sum"));
        let per_second = metric(item, &format!("{base}.sum.per_second"));
        let miss = |aperture: &str| {
            metric(
                item,
                &format!("lts__t_sectors{src}_aperture_{aperture}{op}_lookup_miss.sum"),
            )
        };
        let row = Row {
            label: label.to_string(),
            cells: vec![
                requests.clone(),
                sectors.clone(),
                ratio(&sectors, &requests, "sector/request"),
                metric(item, &format!("{base}.avg.pct_of_peak_sustained_elapsed"))
                    .or_else(|| metric(item, &format!("{base}.sum.pct_of_peak_sustained_elapsed"))),
                hit_rate(
                    &metric(item, &format!("{base}_lookup_hit.sum")),
                    &metric(item, &format!("{base}_lookup_miss.sum")),
                ),
                times(&sectors, SECTOR_BYTES, "byte"),
                times(&per_second, SECTOR_BYTES, "byte/s"),
                miss("device"),
                miss("sysmem"),
                miss("peer"),
            ],
        };
        if row.cells.iter().any(Option::is_some) {
            out.push(row);
        }
    }
    finish(item, &columns, out)
}

/// The Device Memory table.
fn device(item: &BodyItem) -> Grid {
    let columns = ["Sectors", "% Peak", "Bytes", "Throughput"];
    let mut out: Vec<Row> = [("Load", "read"), ("Store", "write")]
        .iter()
        .map(|(label, rw)| Row {
            label: (*label).to_string(),
            cells: vec![
                metric(item, &format!("dram__sectors_{rw}.sum")),
                metric(
                    item,
                    &format!("dram__bytes_{rw}.sum.pct_of_peak_sustained_elapsed"),
                ),
                metric(item, &format!("dram__bytes_{rw}.sum")),
                metric(item, &format!("dram__bytes_{rw}.sum.per_second")),
            ],
        })
        .collect();
    let parts: Vec<&Row> = out.iter().collect();
    let total = Row {
        label: "Total".to_string(),
        cells: vec![
            column_sum(&parts, 0),
            None,
            column_sum(&parts, 2),
            column_sum(&parts, 3),
        ],
    };
    out.push(total);
    finish(item, &columns, out)
}

/// The grid, with the item's metrics no cell shows listed apart.
fn finish(item: &BodyItem, columns: &[&str], rows: Vec<Row>) -> Grid {
    let used: Vec<&str> = rows
        .iter()
        .flat_map(|r| r.cells.iter().flatten())
        .flat_map(|c| c.metric.split([' ', '(', ')', ',']))
        .collect();
    let other = item
        .rows
        .iter()
        .filter_map(|r| {
            let name = r.metric.name.map(|k| k.as_str().to_string())?;
            (!used.contains(&name.as_str())).then(|| Cell {
                value: r.metric.as_f64().filter(|v| v.is_finite()),
                unit: r.metric.unit.to_string(),
                metric: name,
            })
        })
        .collect();
    Grid {
        columns: columns.iter().map(|c| (*c).to_string()).collect(),
        rows,
        other,
    }
}

/// The L2 Cache Eviction Policies table: per source of accesses, the sectors looked up under
/// each eviction policy and the share of them that hit.
fn evict_policies(item: &BodyItem) -> Grid {
    const POLICIES: [(&str, &str); 4] = [
        ("First", "evict_first"),
        ("Last", "evict_last"),
        ("Normal", "evict_normal"),
        ("Normal Demote", "evict_normal_demote"),
    ];
    let columns: Vec<String> = POLICIES
        .iter()
        .flat_map(|(p, _)| [format!("{p} Sectors"), format!("{p} Hit Rate")])
        .collect();
    let sources = [
        ("L1/TEX Loads", "srcunit_tex_op_read_"),
        ("L1/TEX Stores", "srcunit_tex_op_write_"),
        ("L1/TEX Atomics", "srcunit_tex_op_atom_"),
        ("L1/TEX Total", "srcunit_tex_"),
        ("L2 Fabric Total", "srcunit_ltcfabric_"),
        ("GPU Total", ""),
    ];
    let mut rows = Vec::new();
    for (label, source) in sources {
        let mut cells = Vec::new();
        for (_, policy) in POLICIES {
            let lookup =
                |outcome: &str| format!("lts__t_sectors_{source}{policy}_lookup_{outcome}.sum");
            let hit = metric(item, &lookup("hit"));
            let sectors = sum(item, &[lookup("hit"), lookup("miss")], "sector");
            let rate = times(&ratio(&hit, &sectors, "%"), 100.0, "%");
            cells.push(sectors);
            cells.push(rate);
        }
        if cells.iter().any(Option::is_some) {
            rows.push(Row {
                label: label.to_string(),
                cells,
            });
        }
    }
    let columns: Vec<&str> = columns.iter().map(String::as_str).collect();
    finish(item, &columns, rows)
}

/// The Guide's layout of a memory table item, when it has one.
pub fn grid(item: &BodyItem) -> Option<Grid> {
    match item.kind {
        ItemKind::SharedMemoryTable => Some(shared(item)),
        ItemKind::L1TexTable => Some(l1tex(item)),
        ItemKind::L2CacheTable => Some(l2(item)),
        ItemKind::L2EvictPolicyTable => Some(evict_policies(item)),
        ItemKind::DeviceMemoryTable => Some(device(item)),
        _ => None,
    }
}
