//! Memory tables (Shared Memory, L1/TEX, L2, L2 eviction policies, Device Memory) as a grid:
//! the metric group a table is built from is split into rows by what is accessed (`mem_global`
//! `op_ld` → "Global Loads", `srcunit_tex` → "TEX") and into columns by what is counted
//! (requests, sectors, wavefronts, bytes, each also as % of peak or per second). Works from the
//! metric names alone, so tables of any architecture lay themselves out. The tables the Kernel
//! Profiling Guide defines take its rows and columns instead ([`super::memory_guide`]).

use crate::model::section_body::BodyItem;

pub use super::memory_grid::{Cell, Grid, Row};

/// Column names of well-known counters.
const COUNTERS: &[(&str, &str)] = &[
    ("inst_executed", "Instructions"),
    ("sass_inst_executed", "Instructions"),
    ("t_requests", "Requests"),
    ("t_requests_pipe_lsu", "Requests"),
    ("t_requests_pipe_tex", "Requests"),
    ("t_sectors", "Sectors"),
    ("t_sectors_pipe_lsu", "Sectors"),
    ("t_sectors_pipe_tex", "Sectors"),
    ("t_sector_hit_rate", "Hit Rate"),
    ("t_sector_pipe_lsu_hit_rate", "Hit Rate"),
    ("t_sector_pipe_tex_hit_rate", "Hit Rate"),
    ("t_output_wavefronts_pipe_lsu", "Wavefronts"),
    ("t_output_wavefronts_pipe_tex", "Wavefronts"),
    ("data_pipe_lsu_wavefronts", "Wavefronts"),
    ("sass_l1tex_data_pipe_lsu_wavefronts", "Wavefronts"),
    ("data_bank_conflicts_pipe_lsu", "Bank Conflicts"),
    ("m_xbar2l1tex_read_sectors", "Returns from L2 (sectors)"),
    ("m_xbar2l1tex_read_bytes", "Returns from L2 (bytes)"),
    ("m_l1tex2xbar_write_sectors", "Writes to L2 (sectors)"),
    ("m_l1tex2xbar_write_bytes", "Writes to L2 (bytes)"),
    ("t_bytes", "Bytes"),
    ("bytes", "Bytes"),
    ("sectors", "Sectors"),
    ("lsu_writeback_active", "Writeback Active"),
];

/// Words of access qualifiers as the tables name them.
fn word(w: &str) -> Option<&'static str> {
    Some(match w {
        "op" | "mem" | "srcunit" | "aperture" | "pipe" | "lsu" => return None,
        "ld" => "Loads",
        "st" => "Stores",
        "atom" => "Atomics",
        "red" => "Reductions",
        "redas" => "Async Reductions",
        "global" => "Global",
        "local" => "Local",
        "shared" => "Shared",
        "dshared" => "Distributed Shared",
        "lg" => "Local/Global",
        "texture" => "Texture",
        "surface" => "Surface",
        "tex" => "L1/TEX",
        "ltcfabric" => "L2 Fabric",
        "gcc" => "GCC",
        "sysmem" => "System",
        "peer" => "Peer",
        "read" => "Read",
        "write" => "Write",
        "tma" => "TMA",
        "ldgsts" => "LDGSTS",
        "ldsm" => "LDSM",
        "stsm" => "STSM",
        "gmma" => "GMMA",
        "evict" => "Evict",
        "first" => "First",
        "last" => "Last",
        "normal" => "Normal",
        "demote" => "Demote",
        _ => return Some(""),
    })
}

fn title(w: &str) -> String {
    let mut c = w.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// The row label of an access qualifier (`global_op_ld` → "Global Loads"); "Total" when empty.
pub fn row_label(qualifier: &str) -> String {
    let words: Vec<String> = qualifier
        .split('_')
        .filter(|w| !w.is_empty())
        .filter_map(|w| match word(w) {
            Some("") => Some(title(w)),
            Some(s) => Some(s.to_string()),
            None => None,
        })
        .collect();
    if words.is_empty() {
        "Total".to_string()
    } else {
        words.join(" ")
    }
}

/// Splits a metric name into (column, row qualifier).
pub fn split(name: &str) -> (String, String) {
    let (unit, rest) = name.split_once("__").unwrap_or(("", name));
    let (counter, rollup) = rest.split_once('.').unwrap_or((rest, ""));
    let mut col = counter.to_string();
    let mut qual = String::new();
    for marker in ["_mem_", "_srcunit_", "_op_"] {
        if let Some(i) = counter.find(marker) {
            col = counter[..i].to_string();
            qual = counter[i + 1..].to_string();
            break;
        }
    }
    if qual.is_empty() {
        for tail in ["_read", "_write"] {
            if let Some(c) = counter.strip_suffix(tail) {
                col = c.to_string();
                qual = tail[1..].to_string();
            }
        }
    }
    // A rate of the access belongs to the column.
    if let Some(q) = qual.strip_suffix("_hit_rate") {
        qual = q.to_string();
        col.push_str("_hit_rate");
    }
    // What the lookup found belongs to the column: hits and misses side by side.
    let mut col_extra = String::new();
    for tail in [
        "_lookup_hit",
        "_lookup_miss",
        "_cache_access",
        "_cache_bypass",
    ] {
        if let Some(q) = qual.strip_suffix(tail) {
            qual = q.to_string();
            col_extra = format!(" ({})", tail[1..].replace('_', " "));
        }
    }
    let base = COUNTERS
        .iter()
        .find(|(c, _)| *c == col)
        .map(|(_, l)| l.to_string())
        .unwrap_or_else(|| {
            let words: Vec<String> = col
                .split('_')
                .filter(|w| !w.is_empty())
                .map(title)
                .collect();
            format!("{} {}", unit.to_ascii_uppercase(), words.join(" "))
        });
    let suffix = match rollup {
        "sum" | "" | "avg" => "",
        r if r.ends_with("pct_of_peak_sustained_elapsed") => " % Peak",
        r if r.ends_with("per_second") => " /s",
        "ratio" => " Ratio",
        _ => "",
    };
    (format!("{base}{col_extra}{suffix}"), qual)
}

/// The grid of a memory table item: the Profiling Guide's layout where it has one, else rows
/// by access and columns by counter.
pub fn grid(item: &BodyItem) -> Grid {
    super::memory_guide::grid(item).unwrap_or_else(|| by_name(item))
}

/// The grid of a memory table item laid out from its metric names alone.
pub fn by_name(item: &BodyItem) -> Grid {
    let mut g = Grid::default();
    for row in &item.rows {
        let name = row
            .metric
            .name
            .map_or_else(|| row.label.clone(), String::from);
        let (column, qual) = split(&name);
        let label = row_label(&qual);
        let c = match g.columns.iter().position(|c| *c == column) {
            Some(c) => c,
            None => {
                g.columns.push(column);
                for r in &mut g.rows {
                    r.cells.push(None);
                }
                g.columns.len() - 1
            }
        };
        let r = match g.rows.iter().position(|r| r.label == label) {
            Some(r) => r,
            None => {
                g.rows.push(Row {
                    label,
                    cells: vec![None; g.columns.len()],
                });
                g.rows.len() - 1
            }
        };
        g.rows[r].cells[c] = Some(Cell {
            value: row.metric.as_f64(),
            unit: row.metric.unit.to_string(),
            metric: name,
        });
    }
    // "Total" first, as the tables print it.
    g.rows.sort_by_key(|r| r.label != "Total");
    g
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_split_into_rows_and_columns() {
        assert_eq!(
            split("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
            ("Requests".to_string(), "mem_global_op_ld".to_string())
        );
        assert_eq!(row_label("global_op_ld"), "Global Loads");
        assert_eq!(
            split("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum.pct_of_peak_sustained_elapsed").0,
            "Wavefronts % Peak"
        );
        let (c, q) = split("lts__t_sectors_srcunit_tex_evict_first_lookup_hit.sum");
        assert_eq!(
            (c.as_str(), row_label(&q).as_str()),
            ("Sectors (lookup hit)", "L1/TEX Evict First")
        );
        let (c, q) = split("dram__bytes_read.sum.per_second");
        assert_eq!((c.as_str(), row_label(&q).as_str()), ("Bytes /s", "Read"));
    }
}
