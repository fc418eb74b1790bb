//! Body tables laid out as ncu lays them out: the NUMA affinity table of every result of
//! `kernels_full.ncu-rep` has the columns and rows of ncu's `--print-details all` export.

mod common;

use common::{fixture_bytes, load_fixture};
use sightline::analysis::sections::{bodies_of, numa};
use sightline::model::section_body::ItemKind;

/// Column spans of a dash rule, as byte ranges.
fn spans(rule: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, b) in rule.bytes().enumerate() {
        match (b, start) {
            (b'-', None) => start = Some(i),
            (b' ', Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, rule.len()));
    }
    out
}

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
        let sp = spans(rule);
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
