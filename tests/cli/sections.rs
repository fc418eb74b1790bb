//! Section bodies against ncu's own `--print-details all` export: every body table ncu prints
//! for a result (charts, breakdowns, memory chart and tables, rooflines, occupancy graphs,
//! suffix and source tables) has the same rows and values in `sightline sections --json`, and
//! the text export read back fills the same bodies.

use serde_json::Value as Json;
use sightline_engine::model::units::to_base;
use sightline_testkit::{
    fixture_bytes, fixture_file, fixture_path, load_fixture, rule_spans, temp_dir,
};
use std::collections::BTreeMap;

/// One row of a body table of the export: label, unit, value text (wrapped lines joined).
#[derive(Debug, Clone)]
struct TextRow {
    label: String,
    unit: String,
    value: String,
}

/// The body tables of one result: (section, table name) → rows of all its sub-tables.
type TextTables = BTreeMap<(String, String), Vec<TextRow>>;

fn is_rule(line: &str) -> bool {
    let t = line.trim();
    !t.is_empty() && t.bytes().all(|b| b == b'-' || b == b' ')
}

fn cell(line: &str, from: usize, to: Option<usize>) -> String {
    let end = to.unwrap_or(line.len()).min(line.len());
    line.get(from.min(end)..end)
        .unwrap_or("")
        .trim()
        .to_string()
}

/// Reads the body tables of a `--print-details all` export, independently of the crate: a
/// result starts at a kernel line (two spaces of indent), a section at `Section:`, a body table
/// at `Table Name :`; its rows are those of every `Metric Name` table up to the next one.
fn read_export(text: &str) -> Vec<TextTables> {
    let lines: Vec<&str> = text.lines().collect();
    let mut results: Vec<TextTables> = Vec::new();
    let mut section = String::new();
    let mut table: Option<String> = None;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with("  ") && !line.starts_with("   ") && line.contains(", CC ") {
            results.push(TextTables::new());
            table = None;
        } else if let Some(s) = line.strip_prefix("    Section: ") {
            section = s.trim().to_string();
            table = None;
        } else if let Some(t) = line.strip_prefix("    Table Name : ") {
            table = Some(t.trim().to_string());
        } else if is_rule(line)
            && lines
                .get(i + 1)
                .is_some_and(|l| l.trim_start().starts_with("Metric Name"))
            && lines.get(i + 2).is_some_and(|l| is_rule(l))
        {
            let cols = rule_spans(line);
            let mut rows: Vec<TextRow> = Vec::new();
            let mut j = i + 3;
            while j < lines.len() && !is_rule(lines[j]) {
                let l = lines[j];
                let label = cell(l, cols[0].0, Some(cols[0].1));
                let unit = cell(l, cols[1].0, Some(cols[1].1));
                let value = cell(l, cols[2].0, None);
                match rows.last_mut() {
                    Some(last) if label.is_empty() && unit.is_empty() => {
                        last.value.push(' ');
                        last.value.push_str(&value);
                    }
                    _ => rows.push(TextRow { label, unit, value }),
                }
                j += 1;
            }
            if let (Some(t), Some(r)) = (&table, results.last_mut()) {
                r.entry((section.clone(), t.clone()))
                    .or_default()
                    .extend(rows);
            }
            i = j;
        }
        i += 1;
    }
    results
}

/// A printed number (`1,234.56`) and its decimals; `None` for `n/a` and text.
fn number(s: &str) -> Option<(f64, usize)> {
    let s = s.trim().trim_start_matches("(!)").trim().replace(',', "");
    let v: f64 = s.parse().ok()?;
    let decimals = s.split_once('.').map_or(0, |(_, f)| f.len());
    Some((v, decimals))
}

/// Aggregate and instance values of a printed cell: `agg (v1; v2; …)`.
fn cell_values(value: &str) -> (String, Vec<String>) {
    match value.split_once(" (") {
        Some((agg, rest)) if rest.ends_with(')') => (
            agg.to_string(),
            rest.trim_end_matches(')')
                .split(';')
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
                .collect(),
        ),
        _ => (value.to_string(), Vec::new()),
    }
}

/// Whether a printed value (in `unit`) is the exact value `exact` (in its base unit) rounded.
fn printed_matches(printed: &str, unit: &str, exact: &Json) -> bool {
    match (number(printed), exact.as_f64()) {
        (Some((v, decimals)), Some(x)) => {
            let base = to_base(unit);
            let half = 0.5 * 10f64.powi(-(decimals as i32)) * base.factor;
            (v * base.factor - x).abs() <= half * 1.0001 + x.abs() * 1e-9
        }
        (None, None) => true,
        (None, Some(_)) => false,
        (Some(_), None) => exact
            .as_str()
            .and_then(number)
            .is_some_and(|(x, _)| number(printed).is_some_and(|(v, _)| (v - x).abs() < 1e-9)),
    }
}

/// Whether a JSON row (label, metric) is the printed row.
fn row_matches(t: &TextRow, row: &Json) -> bool {
    if row["label"].as_str() != Some(t.label.as_str()) {
        return false;
    }
    let metric = &row["metric"];
    let (agg, instances) = cell_values(&t.value);
    if !printed_matches(&agg, &t.unit, &metric["value"]) {
        return false;
    }
    let factor = to_base(&t.unit).factor;
    if instances.is_empty() {
        return true;
    }
    let exact: Vec<&Json> = metric["instances"]
        .as_array()
        .map(|a| a.iter().map(|i| &i["value"]).collect())
        .unwrap_or_default();
    if exact.len() != instances.len() {
        return false;
    }
    // Charts may sort their instances; compare as multisets, both sorted by value.
    let mut printed: Vec<f64> = instances
        .iter()
        .filter_map(|v| number(v).map(|n| n.0 * factor))
        .collect();
    let mut stored: Vec<f64> = exact.iter().filter_map(|v| v.as_f64()).collect();
    printed.sort_by(f64::total_cmp);
    stored.sort_by(f64::total_cmp);
    printed.len() == stored.len()
        && printed.iter().zip(&stored).all(|(p, s)| {
            // Instances print without a unit column of their own; the chart unit applies.
            let d = instances
                .iter()
                .filter_map(|v| number(v).map(|n| n.1))
                .max()
                .unwrap_or(0);
            (p - s).abs() <= 0.5 * 10f64.powi(-(d as i32)) * factor * 1.0001 + s.abs() * 1e-9
        })
}

/// Every item's rows (and highlighted values) of a result's sections by (section name, item
/// label). The export prints no `Table Name` line for an item without a label, so its rows
/// follow the previous item's; they are keyed the same way here.
fn json_items(result: &Json) -> BTreeMap<(String, String), Vec<Json>> {
    let mut out = BTreeMap::new();
    for s in result["sections"].as_array().into_iter().flatten() {
        let name = s["name"].as_str().unwrap_or_default().to_string();
        let mut previous: Option<String> = None;
        for b in s["bodies"].as_array().into_iter().flatten() {
            for item in b["items"].as_array().into_iter().flatten() {
                let mut label = item["label"].as_str().unwrap_or_default().to_string();
                if label.is_empty()
                    && let Some(p) = &previous
                {
                    label = p.clone();
                }
                previous = Some(label.clone());
                let rows = out.entry((name.clone(), label)).or_insert_with(Vec::new);
                for key in ["rows", "highlight"] {
                    rows.extend(item[key].as_array().cloned().unwrap_or_default());
                }
            }
        }
    }
    out
}

/// Compares every printed body table with the JSON of the same result; returns the number of
/// rows compared and the mismatches.
fn compare(export: &[TextTables], json: &Json) -> (usize, Vec<String>) {
    let results = json["results"].as_array().cloned().unwrap_or_default();
    assert_eq!(results.len(), export.len(), "result count");
    let mut compared = 0;
    let mut problems = Vec::new();
    for (i, (tables, result)) in export.iter().zip(&results).enumerate() {
        let items = json_items(result);
        for ((section, name), rows) in tables {
            let Some(mine) = items.get(&(section.clone(), name.clone())) else {
                problems.push(format!("result {i}: {section} / {name}: no such item"));
                continue;
            };
            if mine.len() != rows.len() {
                problems.push(format!(
                    "result {i}: {section} / {name}: {} rows printed, {} in JSON",
                    rows.len(),
                    mine.len()
                ));
            }
            let mut used = vec![false; mine.len()];
            for t in rows {
                let hit = mine
                    .iter()
                    .enumerate()
                    .find(|(k, row)| !used[*k] && row_matches(t, row));
                match hit {
                    Some((k, _)) => {
                        used[k] = true;
                        compared += 1;
                    }
                    None => {
                        let mut shown = format!("{t:?}");
                        shown.truncate(160);
                        problems.push(format!(
                            "result {i}: {section} / {name}: printed row {shown} not in JSON"
                        ));
                    }
                }
            }
        }
    }
    (compared, problems)
}

/// Problems grouped by table: a count and the first of each.
fn summary(problems: &[String]) -> String {
    let mut by_table: BTreeMap<String, (usize, &str)> = BTreeMap::new();
    for p in problems {
        let key = p
            .split_once(": ")
            .map_or(p.as_str(), |(_, rest)| rest)
            .split(": ")
            .next()
            .unwrap_or("")
            .to_string();
        by_table.entry(key).or_insert((0, p)).0 += 1;
    }
    let mut out = format!("{} problems\n", problems.len());
    for (k, (n, first)) in by_table {
        out.push_str(&format!("{n:5} {k}\n      {first}\n"));
    }
    out
}

fn export_tables(rel: &str) -> Vec<TextTables> {
    let text = String::from_utf8(fixture_bytes(rel)).expect("utf-8 export");
    read_export(&text)
}

#[test]
fn every_printed_body_of_kernels_full_has_the_same_values_in_json() {
    let export = export_tables("h100/kernels_full.details_all.txt.xz");
    assert_eq!(export.len(), 13);
    let report = load_fixture("h100/kernels_full.ncu-rep.xz");
    let json = sightline_engine::output::sections_json::report_json(&report);
    let (compared, problems) = compare(&export, &json);
    assert!(problems.is_empty(), "{}", summary(&problems));
    let printed: usize = export.iter().flat_map(|t| t.values()).map(Vec::len).sum();
    assert_eq!(compared, printed);
    // The memory chart and tables are there with their stored metric lists.
    assert!(printed > 5000, "{printed}");
}

#[test]
fn the_tensor_report_bodies_match_its_export() {
    let export = export_tables("tensor/tensor_full.details_all.txt.xz");
    let report = load_fixture("tensor/tensor_full.ncu-rep.xz");
    let json = sightline_engine::output::sections_json::report_json(&report);
    let (compared, problems) = compare(&export, &json);
    assert!(problems.is_empty(), "{}", summary(&problems));
    assert!(compared > 0);
}

#[test]
fn the_command_prints_the_same_json() {
    let dir = temp_dir("sections");
    let path = fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["sections", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    let printed: Json = sightline_testkit::printed_json(&out);
    let report = sightline_engine::parse::load_path(&path).unwrap();
    // Both through the same text round trip (the JSON reader rounds the last bit of some
    // floats).
    let expected: Json = serde_json::from_str(
        &sightline_engine::output::sections_json::report_json(&report).to_string(),
    )
    .unwrap();
    if printed["reports"][0] != expected {
        std::fs::write(dir.join("printed.json"), printed["reports"][0].to_string()).ok();
        std::fs::write(dir.join("expected.json"), expected.to_string()).ok();
        panic!("the command's JSON differs; see {}", dir.display());
    }
    assert_eq!(printed["errors"], Json::Array(Vec::new()));
    let text = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .arg("sections")
        .arg(&path)
        .output()
        .unwrap();
    assert!(text.status.success());
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(
        text.contains("[memory_chart] Memory Chart"),
        "{}",
        &text[..text.len().min(2000)]
    );
    std::fs::remove_dir_all(&dir).ok();
    let _ = fixture_path("h100");
}

#[test]
fn the_text_export_fills_the_same_bodies() {
    let export = export_tables("h100/kernels_full.details_all.txt.xz");
    let text_report = load_fixture("h100/kernels_full.details_all.txt.xz");
    let text_json = sightline_engine::output::sections_json::report_json(&text_report);
    let (compared, problems) = compare(&export, &text_json);
    assert!(problems.is_empty(), "{}", summary(&problems));
    let printed: usize = export.iter().flat_map(|t| t.values()).map(Vec::len).sum();
    assert_eq!(compared, printed);
    // Item by item, the text gives what the report gives: the same rows with the same labels.
    let native = sightline_engine::output::sections_json::report_json(&load_fixture(
        "h100/kernels_full.ncu-rep.xz",
    ));
    let (texts, natives) = (
        text_json["results"].as_array().unwrap(),
        native["results"].as_array().unwrap(),
    );
    for (t, n) in texts.iter().zip(natives) {
        let (ti, ni) = (json_items(t), json_items(n));
        for (key, rows) in &ti {
            let theirs = ni.get(key).unwrap_or_else(|| panic!("{key:?} missing"));
            assert_eq!(rows.len(), theirs.len(), "{key:?}");
            let labels = |rs: &[Json]| {
                let mut g: Vec<String> = rs.iter().map(|r| r["label"].to_string()).collect();
                g.sort();
                g
            };
            assert_eq!(labels(rows), labels(theirs), "{key:?}");
        }
    }
}

#[test]
fn memory_chart_links_carry_the_stored_values() {
    use sightline_engine::analysis::sections::{bodies_of, memory_chart};
    use sightline_engine::model::section_body::ItemKind;
    let report = load_fixture("h100/kernels_full.ncu-rep.xz");
    let truth = sightline_testkit::load_truth("h100/kernels_full.truth.json.xz");
    for (i, t) in truth.iter().enumerate() {
        let bodies = bodies_of(&report, i);
        let item = bodies
            .iter()
            .flat_map(|s| &s.bodies)
            .flat_map(|b| &b.items)
            .find(|it| it.kind == ItemKind::MemoryChart)
            .expect("a memory chart");
        let chart = memory_chart::build(Some(item), None);
        let link = |from, to| {
            chart
                .links
                .iter()
                .find(|l| l.from == from && l.to == to)
                .unwrap_or_else(|| panic!("{}: no link", t.function))
        };
        use memory_chart::Unit::*;
        // The oracle's JSON reader may round the last bit.
        let same = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() <= b.abs() * 1e-12);
        // Links of one metric; LDGSTS (asynchronous global-to-shared copies) has its own
        // logical unit (CC 8.0+).
        for (from, to, metric) in [
            (DeviceMemory, L2, "dram__bytes_read.sum"),
            (L2, DeviceMemory, "dram__bytes_write.sum"),
            (L2, L1Tex, "l1tex__m_xbar2l1tex_read_bytes.sum"),
            (Kernel, Ldgsts, "smsp__inst_executed_op_ldgsts.sum"),
            (
                Ldgsts,
                L1Tex,
                "sm__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum",
            ),
        ] {
            assert!(same(link(from, to).amount, t.number(metric)), "{metric}");
        }
        assert!(same(
            link(L2, DeviceMemory).pct_of_peak,
            t.number("dram__bytes_write.sum.pct_of_peak_sustained_elapsed")
        ));
        let global = t.number("smsp__sass_inst_executed_op_global_ld.sum")
            + t.number("smsp__sass_inst_executed_op_global_st.sum")
            + t.number("smsp__inst_executed_op_global_red.sum")
            + t.number("smsp__inst_executed_op_generic_atom_dot_alu.sum")
            + t.number("smsp__inst_executed_op_generic_atom_dot_cas.sum");
        assert!(same(link(Kernel, Global).amount, global), "{}", t.function);
        let l2 = chart.nodes.iter().find(|n| n.unit == L2).unwrap();
        assert!(same(
            l2.figure.as_ref().map(|f| f.1),
            t.number("lts__t_sector_hit_rate.pct")
        ));
        // Nothing went through texture units in these kernels: greyed out.
        assert!(!link(Kernel, Texture).is_active());
        // "Hidden" leaves out what nothing went through: here the texture unit.
        let shown = chart.without_inactive(|l| !l.is_active());
        assert!(shown.links.iter().all(|l| l.is_active()));
        assert!(
            shown
                .links
                .iter()
                .any(|l| l.from == Kernel && l.to == Global)
        );
        assert!(!shown.nodes.iter().any(|n| n.unit == Texture));
        assert!(shown.nodes.iter().all(|n| n.active));
    }
}

#[test]
fn memory_tables_lay_out_rows_by_access_and_columns_by_counter() {
    use sightline_engine::analysis::sections::{bodies_of, memory_table};
    use sightline_engine::model::section_body::ItemKind;
    let report = load_fixture("h100/kernels_full.ncu-rep.xz");
    let truth = sightline_testkit::load_truth("h100/kernels_full.truth.json.xz");
    let bodies = bodies_of(&report, 0);
    let item = bodies
        .iter()
        .flat_map(|s| &s.bodies)
        .flat_map(|b| &b.items)
        .find(|it| it.kind == ItemKind::L1TexTable)
        .expect("an L1/TEX table");
    let grid = memory_table::grid(item);
    let col = grid.columns.iter().position(|c| c == "Requests").unwrap();
    let row = grid
        .rows
        .iter()
        .find(|r| r.label == "Global Loads")
        .unwrap();
    let cell = row.cells[col].as_ref().unwrap();
    assert_eq!(
        cell.metric,
        "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"
    );
    let exact = truth[0].number("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
    assert!(
        cell.value
            .is_some_and(|v| (v - exact).abs() <= exact * 1e-12)
    );
    // Every metric of the table is in a cell (alone or in a formula) or listed apart.
    let shown: Vec<&str> = grid
        .rows
        .iter()
        .flat_map(|r| r.cells.iter().flatten())
        .chain(&grid.other)
        .flat_map(|c| c.metric.split([' ', '(', ')', ',']))
        .collect();
    for row in &item.rows {
        let name = row.metric.name.unwrap();
        assert!(
            shown.contains(&name.as_str()),
            "{} not shown",
            name.as_str()
        );
    }
}

/// Reports of ncu 2020–2021 name the instructions per memory space `sass__inst_executed_*` (and
/// shared stores' wavefronts `smsp__sass_l1tex_*`): the chart's links and the tables' cells read
/// the older names where the newer are missing. The chart and tables of `kernels_full` with
/// those metrics renamed as the older versions store them give the same values.
#[test]
fn older_metric_names_fill_the_memory_chart_and_tables() {
    use sightline_engine::analysis::sections::{bodies_of, memory_chart, memory_table};
    use sightline_engine::model::MetricKey;
    use sightline_engine::model::section_body::ItemKind;
    let report = load_fixture("h100/kernels_full.ncu-rep.xz");
    let bodies = bodies_of(&report, 6); // reduce_bank_conflicts: shared loads and stores
    let items: Vec<_> = bodies
        .iter()
        .flat_map(|s| &s.bodies)
        .flat_map(|b| &b.items)
        .collect();
    let chart = items
        .iter()
        .find(|i| i.kind == ItemKind::MemoryChart)
        .expect("a memory chart");
    let shared = items
        .iter()
        .find(|i| i.kind == ItemKind::SharedMemoryTable)
        .expect("a shared memory table");
    let renamed = |item: &sightline_engine::model::section_body::BodyItem| {
        let mut old = item.clone();
        let mut renamed = 0;
        for row in &mut old.rows {
            let Some(name) = row.metric.name else {
                continue;
            };
            if let Some(older) = memory_chart::older_name(name.as_str()) {
                row.metric.name = Some(MetricKey::new(older));
                renamed += 1;
            }
        }
        (old, renamed)
    };
    let (old_chart, n) = renamed(chart);
    assert!(n >= 6, "{n} metrics renamed");
    let (new, old) = (
        memory_chart::build(Some(chart), None),
        memory_chart::build(Some(&old_chart), None),
    );
    assert_eq!(new.links.len(), old.links.len());
    for (a, b) in new.links.iter().zip(&old.links) {
        assert_eq!((a.from, a.to, a.amount), (b.from, b.to, b.amount));
    }
    let link = |c: &memory_chart::MemoryChart, to| {
        c.links
            .iter()
            .find(|l| l.from == memory_chart::Unit::Kernel && l.to == to)
            .and_then(|l| l.amount)
    };
    assert!(link(&old, memory_chart::Unit::Shared).is_some_and(|v| v > 0.0));
    assert!(
        old.links
            .iter()
            .flat_map(|l| &l.metrics)
            .any(|m| m == "sass__inst_executed_shared_loads")
    );

    let (old_shared, _) = renamed(shared);
    let (new, old) = (memory_table::grid(shared), memory_table::grid(&old_shared));
    let values = |g: &memory_table::Grid| -> Vec<Vec<Option<f64>>> {
        g.rows
            .iter()
            .map(|r| {
                r.cells
                    .iter()
                    .map(|c| c.as_ref().and_then(|c| c.value))
                    .collect()
            })
            .collect()
    };
    assert_eq!(values(&new), values(&old));
    assert!(
        old.rows[0].cells[0]
            .as_ref()
            .is_some_and(|c| c.metric == "sass__inst_executed_shared_loads")
    );
}
