//! The `ncu` CLI text parser against real tool output: result counts, every printed value
//! against the `ncu_report` oracle, kernel lines against the fixture text, rules, summaries,
//! raw pages, terminal captures and truncated files.

mod common;

use common::{TruthResult, fixture_bytes, load_fixture, load_truth};
use sightline::model::units::to_base;
use sightline::model::{Format, KernelResult, Report, RuleKind, SpeedupKind, Value};
use sightline::parse::{cli_text, parse_bytes};
use std::path::Path;

fn fixture_text(rel: &str) -> String {
    String::from_utf8(fixture_bytes(rel)).unwrap()
}

fn parse_text(text: &str) -> Report {
    parse_bytes(Path::new("test.txt"), text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

/// Lines of a fixture that name a kernel, found independently of the parser: 0–2 spaces of
/// indentation, then the fields ncu ends kernel lines with.
fn kernel_lines(text: &str) -> Vec<&str> {
    text.lines()
        .filter(|l| !l.starts_with("   "))
        .map(str::trim)
        .filter(|l| {
            l.ends_with(|c: char| c.is_ascii_digit())
                && (l.contains(", CC ") || (l.contains(", Context ") && l.contains(", Stream ")))
                && !l.starts_with("==")
        })
        .collect()
}

#[test]
fn result_counts() {
    for (rel, n) in [
        ("h100/kernels_cli_basic.txt", 13),
        ("h100/kernels_cli_full.txt", 13),
        ("h100/kernels_basic.details.txt", 13),
        ("h100/kernels_full.details.txt", 13),
        ("h100/kernels_basic.details_base.txt", 13),
        ("h100/kernels_full.details_base.txt", 13),
        ("h100/kernels_basic.raw.txt.xz", 13),
        ("seeds/cli_details_cc86.txt", 5),
        ("seeds/cli_script_log_cutlass.txt", 21),
        ("big/many_basic.details.txt.xz", 400),
    ] {
        let report = load_fixture(rel);
        assert_eq!(report.results.len(), n, "{rel}");
        assert!(report.warnings.is_empty(), "{rel}: {:?}", report.warnings);
        let ids: Vec<u64> = report.results.iter().map(|r| r.id).collect();
        assert_eq!(ids, (0..n as u64).collect::<Vec<_>>(), "{rel}");
        assert!(
            report.results.iter().all(|r| !r.sections().is_empty()),
            "{rel}: a result without sections"
        );
    }
    for rel in [
        "h100/kernels_basic.summary.txt",
        "h100/kernels_full.summary.txt",
    ] {
        let text = fixture_text(rel);
        let n = text
            .lines()
            .filter(|l| l.contains(", Invocations "))
            .count();
        assert!(n > 0);
        let report = load_fixture(rel);
        assert_eq!(report.format, Format::Summary);
        assert_eq!(report.results.len(), n, "{rel}");
    }
}

/// Compares every named row metric of a report with the oracle, to the printed precision.
/// Returns the number of values compared.
fn compare_with_truth(report: &Report, truth: &[TruthResult], what: &str) -> usize {
    assert_eq!(report.results.len(), truth.len(), "{what}: result count");
    let mut compared = 0;
    let mut mismatches = Vec::new();
    for (i, (r, t)) in report.results.iter().zip(truth).enumerate() {
        for section in r.sections() {
            for row in &section.rows {
                let (Some(name), Some(printed)) = (&row.metric.name, &row.metric.printed) else {
                    continue;
                };
                if printed.unit.contains("/K") {
                    // ncu scales these chart-derived units as a whole (2.61 %/Kbyte is stored
                    // as 2,614 %/byte), which `units::to_base` does not follow yet.
                    continue;
                }
                let Some(tm) = t.metrics.get(name.as_str()) else {
                    mismatches.push(format!(
                        "{what} #{i} {}/{}: {name} not in the oracle",
                        section.name, row.label
                    ));
                    continue;
                };
                match (&printed.value, &tm.value) {
                    (Value::Missing, _) => continue,
                    // The oracle stores an unset double as NaN (read as null); ncu prints `nan`.
                    (Value::Double(v), serde_json::Value::Null) if v.is_nan() => {}
                    (Value::Str(s), serde_json::Value::String(ts)) => {
                        if s != ts {
                            mismatches.push(format!("{what} #{i} {name}: {s:?} != {ts:?}"));
                        }
                    }
                    (v, serde_json::Value::Number(n)) => {
                        let p = v.as_f64().unwrap();
                        let factor = to_base(&printed.unit).factor;
                        let expected = n.as_f64().unwrap() / factor;
                        let tol = 0.5 * 10f64.powi(-i32::from(printed.decimals))
                            + 1e-9 * expected.abs().max(1.0);
                        if (p - expected).abs() > tol {
                            mismatches.push(format!(
                                "{what} #{i} {}/{} ({name}): printed {p} {}, oracle {expected}",
                                section.name, row.label, printed.unit
                            ));
                        }
                        // The stored value is the printed one in the base unit.
                        let stored = row.metric.value.as_f64().unwrap();
                        assert!((stored - p * factor).abs() <= 1e-9 * stored.abs().max(1.0));
                    }
                    (v, tv) => mismatches.push(format!("{what} #{i} {name}: {v:?} vs {tv}")),
                }
                compared += 1;
            }
        }
    }
    println!("{what}: compared {compared} values with the oracle");
    assert!(
        mismatches.is_empty(),
        "{} mismatches:\n{}",
        mismatches.len(),
        mismatches.join("\n")
    );
    compared
}

#[test]
fn details_values_match_the_oracle() {
    for (text, truth, min) in [
        (
            "h100/kernels_full.details.txt",
            "h100/kernels_full.truth.json.xz",
            1100,
        ),
        (
            "h100/kernels_full.details_base.txt",
            "h100/kernels_full.truth.json.xz",
            1100,
        ),
        (
            "h100/kernels_basic.details.txt",
            "h100/kernels_basic.truth.json.xz",
            600,
        ),
        (
            "h100/kernels_basic.details_base.txt",
            "h100/kernels_basic.truth.json.xz",
            600,
        ),
    ] {
        let report = load_fixture(text);
        let n = compare_with_truth(&report, &load_truth(truth), text);
        assert!(n >= min, "{text}: only {n} values compared");
        // Nearly every row is named through the label catalog.
        let rows: Vec<_> = report
            .results
            .iter()
            .flat_map(|r| r.sections())
            .flat_map(|s| &s.rows)
            .collect();
        let named = rows.iter().filter(|r| r.metric.name.is_some()).count();
        println!("{text}: {named} of {} rows named", rows.len());
        assert!(
            named * 100 >= rows.len() * 95,
            "{text}: {named} of {} rows named",
            rows.len()
        );
    }
}

#[test]
fn big_details_match_the_oracle() {
    let n = compare_with_truth(
        &load_fixture("big/many_basic.details.txt.xz"),
        &load_truth("big/many_basic.truth.json.xz"),
        "many_basic.details",
    );
    assert!(n >= 400 * 50, "only {n} values compared");
}

/// The function name is cut out of the demangled signature the text prints; template
/// arguments with lambdas and the anonymous namespace (`unnamed>::`) must not confuse it.
#[test]
fn function_names_match_the_oracle() {
    let report = load_fixture("big/many_basic.details.txt.xz");
    let truth = load_truth("big/many_basic.truth.json.xz");
    assert_eq!(report.results.len(), truth.len());
    for (r, t) in report.results.iter().zip(&truth) {
        assert_eq!(r.name.function, t.function, "result {}", r.id);
    }
}

#[test]
fn raw_page_rows_are_metric_names() {
    let report = load_fixture("h100/kernels_basic.raw.txt.xz");
    for r in &report.results {
        assert_eq!(r.sections().len(), 1);
        assert_eq!(r.sections()[0].name, cli_text::RAW_SECTION);
        assert!(r.sections()[0].rows.len() > 500);
    }
    let n = compare_with_truth(
        &report,
        &load_truth("h100/kernels_basic.truth.json.xz"),
        "raw",
    );
    assert!(n >= 13 * 400, "only {n} values compared");
    // A value wrapped onto a second line is joined.
    let name = report.results[0]
        .metric("device__attribute_display_name")
        .unwrap();
    assert_eq!(name.value, Value::Str("NVIDIA H100 80GB HBM3".into()));
    assert_eq!(report.devices.len(), 1);
    assert_eq!(
        report.devices[0].name.as_deref(),
        Some("NVIDIA H100 80GB HBM3")
    );
    assert_eq!(report.devices[0].sm_count, Some(132));
}

/// The kernel line a result would print in the newer layout.
fn new_kernel_line(r: &KernelResult) -> String {
    let (a, b) = r.cc.unwrap();
    format!(
        "{} {}x{}, Context {}, Stream {}, Device {}, CC {a}.{b}",
        r.name.demangled,
        r.grid.unwrap(),
        r.block.unwrap(),
        r.context.unwrap(),
        r.stream.unwrap(),
        r.device.unwrap()
    )
}

#[test]
fn kernel_lines_match_the_fixture_text() {
    for rel in [
        "h100/kernels_cli_basic.txt",
        "h100/kernels_cli_full.txt",
        "h100/kernels_full.details.txt",
        "seeds/cli_details_cc86.txt",
        "big/many_basic.details.txt.xz",
    ] {
        let text = fixture_text(rel);
        let lines = kernel_lines(&text);
        let report = load_fixture(rel);
        assert_eq!(lines.len(), report.results.len(), "{rel}");
        for (line, r) in lines.iter().zip(&report.results) {
            assert_eq!(*line, new_kernel_line(r), "{rel}");
            assert!(r.timestamp.is_none());
        }
    }

    let full = load_fixture("h100/kernels_cli_full.txt");
    let r = &full.results[4];
    assert_eq!(
        r.name.demangled,
        "void matmul_tiled<32>(const float *, const float *, float *, int)"
    );
    assert_eq!(r.name.function, "matmul_tiled");
    assert_eq!(r.grid.unwrap().product(), 32 * 32);
    assert_eq!(r.block.unwrap().product(), 32 * 32);
    assert_eq!(
        (r.context, r.stream, r.device, r.cc),
        (Some(1), Some(7), Some(0), Some((9, 0)))
    );
    assert_eq!(
        (r.process_id, r.process_name.as_deref()),
        (Some(731), Some("kernels"))
    );
    assert_eq!(r.nvtx.len(), 1);
    assert_eq!(
        (r.nvtx[0].domain.as_str(), r.nvtx[0].name.as_str()),
        ("<default domain>", "gemm")
    );
    assert_eq!(full.devices.len(), 1);
    assert_eq!(full.devices[0].cc, Some((9, 0)));
}

#[test]
fn older_layout_in_a_script_log() {
    let rel = "seeds/cli_script_log_cutlass.txt";
    let text = fixture_text(rel);
    let lines = kernel_lines(&text);
    let report = load_fixture(rel);
    assert_eq!(lines.len(), 21);
    assert_eq!(report.results.len(), 21);
    for (line, r) in lines.iter().zip(&report.results) {
        let rebuilt = format!(
            "{}, {}, Context {}, Stream {}",
            r.name.demangled,
            r.timestamp.as_deref().unwrap(),
            r.context.unwrap(),
            r.stream.unwrap()
        );
        assert_eq!(*line, rebuilt);
        assert_eq!((r.grid, r.block, r.cc), (None, None, None));
        assert_eq!(r.process_id, Some(27316));
        assert_eq!(r.process_name.as_deref(), Some("program"));
        assert_eq!(r.name.function, "Kernel");
    }
    let r = &report.results[0];
    assert_eq!(r.timestamp.as_deref(), Some("2025-May-15 09:00:25"));
    // Long unit names convert to base units.
    let sol = &r.sections()[0];
    assert_eq!(sol.name, "GPU Speed Of Light Throughput");
    let dram = r.metric("dram__cycles_elapsed.avg.per_second").unwrap();
    assert_eq!(dram.unit, "hz");
    assert!((dram.as_f64().unwrap() - 7.05e9).abs() < 1.0);
    let duration = r.metric("gpu__time_duration.sum").unwrap();
    assert_eq!(duration.unit, "ns");
    assert!((duration.as_f64().unwrap() - 36_290.0).abs() < 1e-6);
    let memory = r
        .metric("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")
        .unwrap();
    assert!((memory.as_f64().unwrap() - 9.05).abs() < 1e-9);
    let launch = r.section("Launch Statistics").unwrap();
    let cache = launch.row("Function Cache Configuration").unwrap();
    assert_eq!(
        cache.metric.value,
        Value::Str("cudaFuncCachePreferNone".into())
    );
    let mws = launch.row("Memory Throughput");
    assert!(mws.is_none());
    let mem = r.section("Memory Workload Analysis").unwrap();
    let bw = mem.row("Memory Throughput").unwrap();
    assert_eq!(bw.metric.unit, "byte/s");
    assert!((bw.metric.as_f64().unwrap() - 2.32e9).abs() < 1.0);
    // Rules follow the closing rule directly and are separated by `----- ---` lines.
    let sched = r.section("Scheduler Statistics").unwrap();
    assert_eq!(sched.rules.len(), 2);
    assert!(
        sched
            .rules
            .iter()
            .all(|x| x.kind == RuleKind::Wrn && x.speedup.is_none())
    );
    assert!(
        sched.rules[1]
            .message
            .starts_with("The 1.00 theoretical warps per scheduler")
    );
    assert!(sched.rules[1].message.ends_with("theoretical occupancy."));
}

#[test]
fn capture_starting_mid_report() {
    let report = load_fixture("seeds/cli_details_cc86.txt");
    let names: Vec<&str> = report
        .results
        .iter()
        .map(|r| r.name.function.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "conv2d_forward_kernel",
            "evaluate_loss_kernel",
            "compute_loss_error_kernel",
            "conv2d_compute_hidden_error_kernel",
            "conv2d_backward_kernel"
        ]
    );
    assert!(
        report
            .results
            .iter()
            .all(|r| r.process_id.is_none() && r.cc == Some((8, 6)))
    );
    let r = &report.results[0];
    assert_eq!(r.grid.map(|g| (g.x, g.y, g.z)), Some((2, 2, 256)));
    let d = r.metric("gpu__time_duration.sum").unwrap();
    assert!((d.as_f64().unwrap() - 278_340.0).abs() < 1e-6);
    let p = d.printed.as_ref().unwrap();
    assert_eq!((p.unit.as_str(), p.decimals), ("us", 2));
}

/// Removes the markup of oracle rule messages (`@section:Id:Text@`, `@url:Text:Link@`) the
/// way the CLI prints them, and all whitespace (the CLI wraps lines, sometimes inside words).
fn printed_form(message: &str) -> String {
    let mut out = String::new();
    let mut parts = message.split('@');
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    let mut inside = true;
    for part in parts {
        if inside {
            if let Some(rest) = part.strip_prefix("section:") {
                out.push_str(rest.split_once(':').map_or(rest, |(_, text)| text));
            } else if let Some(rest) = part.strip_prefix("url:") {
                let (text, link) = rest.split_once(':').unwrap_or((rest, ""));
                out.push_str(&format!("{text} ({link})"));
            } else {
                out.push('@');
                out.push_str(part);
                inside = false;
                continue;
            }
        } else {
            out.push_str(part);
        }
        inside = !inside;
    }
    out.chars().filter(|c| !c.is_whitespace()).collect()
}

/// A rule as compared with the oracle: kind, message in printed form, speedup.
type RuleKey = (RuleKind, String, Option<(SpeedupKind, f64)>);

#[test]
fn rules_match_the_oracle() {
    let mut checked = 0;
    for (text, truth) in [
        (
            "h100/kernels_full.details.txt",
            "h100/kernels_full.truth.json.xz",
        ),
        (
            "h100/kernels_basic.details.txt",
            "h100/kernels_basic.truth.json.xz",
        ),
        (
            "big/many_basic.details.txt.xz",
            "big/many_basic.truth.json.xz",
        ),
    ] {
        let report = load_fixture(text);
        let truth = load_truth(truth);
        for (r, t) in report.results.iter().zip(&truth) {
            let mut expected: Vec<RuleKey> = t
                .rules
                .iter()
                .filter(|rule| {
                    rule["rule_message"]["message"]
                        .as_str()
                        .is_some_and(|m| !m.is_empty())
                })
                .map(|rule| {
                    let m = &rule["rule_message"];
                    let kind = match m["type"].as_i64() {
                        Some(1) => RuleKind::Inf,
                        Some(2) => RuleKind::Opt,
                        Some(3) => RuleKind::Wrn,
                        _ => RuleKind::Err,
                    };
                    let speedup = rule.get("speedup_estimation").map(|s| {
                        let kind = if s["type"] == 1 {
                            SpeedupKind::Local
                        } else {
                            SpeedupKind::Global
                        };
                        (kind, s["speedup"].as_f64().unwrap())
                    });
                    (kind, printed_form(m["message"].as_str().unwrap()), speedup)
                })
                .collect();
            let mut parsed: Vec<RuleKey> = r
                .all_rules()
                .map(|rule| (rule.kind, printed_form(&rule.message), rule.speedup))
                .collect();
            expected.sort_by(|a, b| a.1.cmp(&b.1));
            parsed.sort_by(|a, b| a.1.cmp(&b.1));
            assert_eq!(parsed.len(), expected.len(), "{text} result {}", r.id);
            for (p, e) in parsed.iter().zip(&expected) {
                assert_eq!(p.0, e.0, "{text}: {}", p.1);
                assert_eq!(p.1, e.1, "{text} result {}", r.id);
                match (p.2, e.2) {
                    (None, None) => {}
                    (Some((pk, pv)), Some((ek, ev))) => {
                        assert_eq!(pk, ek, "{}", p.1);
                        assert!((pv - ev).abs() <= 0.05 + 1e-9, "{pv} vs {ev}");
                    }
                    other => panic!("{text}: speedup {other:?} for {}", p.1),
                }
                checked += 1;
            }
        }
    }
    println!("checked {checked} rules against the oracle");
    assert!(checked >= 2400);

    // Rules sit in the section printed above them.
    let report = load_fixture("h100/kernels_cli_full.txt");
    let r = &report.results[0];
    let cwa = r.section("Compute Workload Analysis").unwrap();
    assert_eq!(cwa.rules.len(), 1);
    assert_eq!(cwa.rules[0].speedup, Some((SpeedupKind::Local, 94.36)));
    assert!(
        cwa.rules[0]
            .message
            .starts_with("All compute pipelines are under-utilized.")
    );
    // The text prints neither the rule's identifier nor its title: the rule catalogue gives
    // both, as the report stores them.
    let native = load_fixture("h100/kernels_full.ncu-rep.xz");
    let stored = &native.results[0]
        .section("Compute Workload Analysis")
        .unwrap()
        .rules[0];
    assert_eq!(cwa.rules[0].identifier, stored.identifier);
    assert_eq!(cwa.rules[0].title, stored.title);
    let chart = r.section("Memory Workload Analysis Chart").unwrap();
    assert!(chart.rows.is_empty());
    assert_eq!(chart.rules[0].speedup, Some((SpeedupKind::Global, 43.11)));
}

#[test]
fn summary_keeps_minimum_maximum_average() {
    let rel = "h100/kernels_basic.summary.txt";
    let report = load_fixture(rel);
    let text = fixture_text(rel);
    for (line, r) in kernel_lines(&text).iter().zip(&report.results) {
        let n: u64 = line.rsplit_once("Invocations ").unwrap().1.parse().unwrap();
        assert_eq!(r.invocations, Some(n));
        assert!(line.starts_with(&r.name.demangled));
    }
    let va = report
        .results
        .iter()
        .find(|r| r.name.function == "vector_add")
        .unwrap();
    assert_eq!(va.invocations, Some(2));
    let d = va.metric("gpu__time_duration.sum").unwrap();
    let ids: Vec<_> = d.instances.iter().map(|i| i.id.unwrap()).collect();
    assert_eq!(
        ids,
        ["Minimum", "Maximum", "Average"].map(|s| Value::Str(s.into()))
    );
    assert_eq!(d.value, d.instances[2].value);
    assert_eq!(d.unit, "ns");
    // Values are read from the fixture row itself.
    let row = text
        .lines()
        .skip_while(|l| !l.contains("vector_add"))
        .find(|l| l.trim_start().starts_with("Duration "))
        .unwrap();
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cells[1], "us");
    for (i, cell) in cells[2..5].iter().enumerate() {
        let v: f64 = cell.replace(',', "").parse().unwrap();
        assert!((d.instances[i].value.as_f64().unwrap() - v * 1e3).abs() < 1e-6);
    }
}

#[test]
fn terminal_colours_and_crlf_give_the_same_results() {
    for rel in ["seeds/cli_details_cc86.txt", "h100/kernels_cli_full.txt"] {
        let plain = load_fixture(rel);
        let text = fixture_text(rel);
        let mut coloured = String::new();
        for line in text.lines() {
            if let Some(name) = line.strip_prefix("    Section: ") {
                coloured.push_str(&format!("    \x1b[1mSection: \x1b[36m{name}\x1b[0m\r\n"));
            } else if let Some(rest) = line.strip_prefix("    OPT") {
                coloured.push_str(&format!("    \x1b[1;33mOPT\x1b[0m{rest}\r\n"));
            } else {
                coloured.push_str(line);
                coloured.push_str("\r\n");
            }
        }
        assert_ne!(coloured.len(), text.len());
        let report = parse_text(&coloured);
        assert_eq!(report.results, plain.results, "{rel}");
        assert_eq!(report.warnings, plain.warnings);
    }
}

#[test]
fn truncated_text_keeps_earlier_results() {
    let text = fixture_text("h100/kernels_full.details.txt");
    let full = parse_text(&text);
    // Cut after the `Block Size` row of the 8th result's Launch Statistics table.
    let eighth = text
        .match_indices("\n  ")
        .filter(|(i, _)| !text[i + 3..].starts_with(' '))
        .nth(7)
        .unwrap()
        .0;
    let row = eighth + text[eighth..].find("    Block Size").unwrap();
    let line_end = row + text[row..].find('\n').unwrap() + 1;
    for (cut, what) in [(line_end, "at a line end"), (line_end - 3, "inside a row")] {
        let report = parse_text(&text[..cut]);
        assert_eq!(report.results.len(), 8, "{what}");
        assert_eq!(report.results[..7], full.results[..7], "{what}");
        assert_eq!(report.warnings.len(), 1, "{what}: {:?}", report.warnings);
        let last = &report.results[7];
        let launch = last.section("Launch Statistics").unwrap();
        let labels: Vec<&str> = launch.rows.iter().map(|r| r.label.as_str()).collect();
        let expected: &[&str] = if cut == line_end {
            &["Block Size"]
        } else {
            &[]
        };
        assert_eq!(labels, expected, "{what}");
    }
    // Cut right after a section title.
    let section = eighth + text[eighth..].find("    Section: Occupancy\n").unwrap();
    let report = parse_text(&text[..section + "    Section: Occupancy\n".len()]);
    assert_eq!(report.results.len(), 8);
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
}

#[test]
fn metric_map_equals_index_section_metrics() {
    for rel in [
        "h100/kernels_full.details.txt",
        "h100/kernels_basic.summary.txt",
        "h100/kernels_basic.raw.txt.xz",
        "seeds/cli_script_log_cutlass.txt",
        "big/many_basic.details.txt.xz",
    ] {
        for r in &load_fixture(rel).results {
            let mut rebuilt = r.clone();
            rebuilt.metrics_mut().clear();
            rebuilt.index_section_metrics();
            assert_eq!(rebuilt.metrics(), r.metrics(), "{rel} result {}", r.id);
        }
    }
    // With body tables, the header rows' entries are those of `index_section_metrics`.
    let r = &cli_text::parse(DETAILS_ALL).unwrap().results[0];
    let mut rebuilt = r.clone();
    rebuilt.metrics_mut().clear();
    rebuilt.index_section_metrics();
    for (key, metric) in rebuilt.metrics() {
        assert_eq!(r.metrics().get(&key), Some(metric), "{key}");
    }
    assert!(r.metrics().len() > rebuilt.metrics().len());
}

#[test]
fn large_texts_read_in_parts_give_the_same_results() {
    // Texts of a megabyte or more are read in parallel parts; a prefix under a megabyte is
    // read in one go. The results they share must be equal, processes included.
    let text = fixture_text("big/many_basic.details.txt.xz");
    assert!(text.len() > 2 << 20);
    let whole = cli_text::parse(&text).unwrap();
    assert!(whole.results.iter().all(|r| r.process_id == Some(3264)));
    assert!(
        whole
            .results
            .iter()
            .all(|r| r.process_name.as_deref() == Some("python3.12"))
    );
    let mut cut = (1 << 20) - 1;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    let prefix = cli_text::parse(&text[..cut]).unwrap();
    let n = prefix.results.len() - 1;
    assert!(n > 100);
    assert_eq!(prefix.results[..n], whole.results[..n]);
    // A copy of the text twice over splits mid-way and numbers results across the parts.
    let twice = text.repeat(2);
    let report = cli_text::parse(&twice).unwrap();
    assert_eq!(report.results.len(), 2 * whole.results.len());
    assert_eq!(
        report.results[whole.results.len()..],
        whole
            .results
            .iter()
            .map(|r| {
                let mut r = r.clone();
                r.id += whole.results.len() as u64;
                r
            })
            .collect::<Vec<_>>()[..]
    );
}

#[test]
fn mangled_text_never_panics() {
    // Deterministic pseudo-random damage: dropped, repeated and cut lines, stray bytes.
    let text = fixture_text("seeds/cli_details_cc86.txt");
    let lines: Vec<&str> = text.lines().collect();
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    for round in 0..200 {
        let mut out = String::new();
        for line in &lines {
            match next(40) {
                0 => continue,
                1 => out.push_str(&format!("{line}\n{line}\n")),
                2 => {
                    let cut = next(line.len() + 1);
                    out.push_str(line.get(..cut).unwrap_or(line));
                    out.push('\n');
                }
                3 => out.push_str("    ----- --- -\n  (1, 1)x(, Context , CC 9.\n\u{fffd}>  ;(\n"),
                _ => {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
        let cut = next(out.len() + 1);
        let cut = (0..=cut)
            .rev()
            .find(|&i| out.is_char_boundary(i))
            .unwrap_or(0);
        // Work done, not wall time: CPU time does not grow when the machine is busy.
        let started = common::cpu_time::thread_cpu_time();
        if let Ok(report) = cli_text::parse(&out[..cut]) {
            assert!(report.results.len() <= lines.len(), "round {round}");
        }
        let spent = common::cpu_time::thread_cpu_time().saturating_sub(started);
        assert!(
            spent.as_secs() < 5,
            "round {round} took {spent:?} of CPU time"
        );
    }
}

#[test]
fn no_result_is_an_error() {
    let err = cli_text::parse("hello\n    Section: nothing\n").unwrap_err();
    let message = err.to_string();
    assert!(message.contains("kernel line"), "{message}");
    assert!(!message.contains('\n'));
    assert!(cli_text::parse("").is_err());
}

#[test]
fn label_name_exports_give_metric_names() {
    let report = cli_text::parse(DETAILS_NAMES).unwrap();
    let r = &report.results[0];
    assert_eq!(r.process_id, Some(1287));
    let sol = &r.sections()[0];
    assert_eq!(sol.rows[0].label, "DRAM Frequency");
    assert_eq!(
        sol.rows[0].metric.name.as_deref(),
        Some("dram__cycles_elapsed.avg.per_second")
    );
    assert_eq!(sol.rows.len(), 10);
    let pm = r.section("PM Sampling").unwrap();
    let groups = pm.row("# Pass Groups").unwrap();
    assert_eq!(
        groups.metric.name.as_deref(),
        Some("profiler__pmsampler_pass_groups")
    );
    assert_eq!(groups.metric.value, Value::U64(1));
    // Every row names its metric and the labels are those the catalog knows.
    for s in r.sections() {
        for row in &s.rows {
            let name = row.metric.name.as_deref().unwrap();
            if let Some(known) = sightline::model::catalog::metric_for(&s.name, &row.label) {
                assert_eq!(known, name);
            }
        }
    }
    assert_eq!(r.number("gpu__time_duration.sum"), Some(71_620.0));
}

#[test]
fn rule_details_give_focus_metrics() {
    let report = cli_text::parse(RULE_DETAILS).unwrap();
    let r = &report.results[0];
    let sol = &r.sections()[0];
    assert_eq!(sol.rows.len(), 10);
    assert_eq!(sol.rules.len(), 1);
    assert_eq!(
        sol.rules[0].focus_metrics,
        [(
            "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed".to_string(),
            78.531475
        )]
    );
    assert!(sol.rules[0].message.ends_with("(re)compute."));
    let occ = r.section("Occupancy").unwrap();
    assert_eq!(occ.rows.len(), 13);
    assert_eq!(occ.rules[0].speedup, Some((SpeedupKind::Local, 23.72)));
    assert_eq!(
        occ.rules[0].focus_metrics,
        [(
            "sm__warps_active.avg.pct_of_peak_sustained_active".to_string(),
            76.277562
        )]
    );
    let launch = r.section("Launch Statistics").unwrap();
    assert_eq!(launch.rows.len(), 17);
    assert!(report.warnings.is_empty());
}

#[test]
fn details_all_keeps_header_tables_and_rules() {
    let report = cli_text::parse(DETAILS_ALL).unwrap();
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let r = &report.results[0];
    let sol = &r.sections()[0];
    let labels: Vec<&str> = sol.rows.iter().map(|row| row.label.as_str()).collect();
    assert_eq!(labels.len(), 11);
    assert_eq!(labels[0], "DRAM Frequency");
    assert_eq!(labels[10], "Compute (SM) Throughput");
    assert!(!labels.contains(&"SM: Inst Executed Pipe Adu"));
    assert_eq!(sol.rules.len(), 1);
    assert_eq!(sol.rules[0].kind, RuleKind::Opt);
    assert!(
        sol.rules[0]
            .message
            .starts_with("Memory is more heavily utilized")
    );
    let roofline = &r.sections()[1];
    assert_eq!(roofline.name, "GPU Speed Of Light Roofline Chart");
    assert_eq!(roofline.rows.len(), 4);
    // Body tables are kept as metrics, keyed by section, table and label.
    let adu = r
        .metric(
            "GPU Speed Of Light Throughput/Compute Throughput Breakdown/SM: Inst Executed Pipe Adu",
        )
        .unwrap();
    assert_eq!(adu.value, Value::Double(33.65));
    let ffma = r
        .metric("GPU Speed Of Light Roofline Chart/Floating Point Operations Roofline/Theoretical Predicated-On FFMA Operations")
        .unwrap();
    assert_eq!(ffma.value, Value::U64(33_792));
}

#[test]
fn instanced_values_keep_their_instances() {
    let report = cli_text::parse(DETAILS_INSTANCES).unwrap();
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    let r = &report.results[0];
    let per_reg = r
        .metric(
            "Occupancy/Impact of Varying Register Count Per Thread/% Occupancy Per Register Count",
        )
        .unwrap();
    assert_eq!(per_reg.value, Value::U64(8524));
    assert_eq!(per_reg.unit, "%/register");
    // Instances wrap over many lines inside the value column; compare with the oracle.
    let truth = load_truth("h100/kernels_basic.truth.json.xz");
    let t = &truth[0].metrics["derived__pct_occupancy_per_register_count"];
    assert_eq!(per_reg.instances.len(), t.n_instances.unwrap());
    for (got, (_, want)) in per_reg.instances.iter().zip(&t.instances) {
        assert_eq!(got.id, None);
        assert_eq!(got.value.as_f64(), want.as_f64());
    }
    let per_block = r
        .metric("Occupancy/Impact of Varying Block Size/% Occupancy Per Block Size")
        .unwrap();
    let t = &truth[0].metrics["derived__pct_occupancy_per_block_size"];
    assert_eq!(per_block.instances.len(), t.n_instances.unwrap());
    let block = r
        .metric("Occupancy/Impact of Varying Block Size/Block Size")
        .unwrap();
    assert_eq!(block.value, Value::U64(256));
    assert_eq!(block.instances.len(), 1);
}

/// Real output copied from the corpus (`kernels_full.details_names.txt, first lines`).
const DETAILS_NAMES: &str = r##"[1287] kernels@127.0.0.1
  vector_add(const float *, const float *, float *, int) (65536, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0

    NVTX Push/Pop Stack for Thread 1287:
      <default domain>
        <0,elementwise>
    Warning: Data collection happened without fixed GPU frequencies. Profiling results may be inconsistent.
    Section: GPU Speed Of Light Throughput
    ------------------------------------------------------------------------------------ ----------- ------------
    Metric Name                                                                          Metric Unit Metric Value
    ------------------------------------------------------------------------------------ ----------- ------------
    DRAM Frequency (dram__cycles_elapsed.avg.per_second)                                         Ghz         2.62
    SM Frequency (gpc__cycles_elapsed.avg.per_second)                                            Ghz         1.97
    Elapsed Cycles (gpc__cycles_elapsed.max)                                                   cycle      141,717
    Memory Throughput (gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed)           %        79.68
    DRAM Throughput (gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed)                       %        79.68
    Duration (gpu__time_duration.sum)                                                             us        71.62
    L1/TEX Cache Throughput (l1tex__throughput.avg.pct_of_peak_sustained_active)                   %        15.53
    L2 Cache Throughput (lts__throughput.avg.pct_of_peak_sustained_elapsed)                        %        79.49
    SM Active Cycles (sm__cycles_active.avg)                                                   cycle   136,607.76
    Compute (SM) Throughput (sm__throughput.avg.pct_of_peak_sustained_elapsed)                     %        33.65
    ------------------------------------------------------------------------------------ ----------- ------------

    OPT   Memory is more heavily utilized than Compute: Look at the Memory Workload Analysis section to identify the    
          DRAM bottleneck. Check memory replay (coalescing) metrics to make sure you're efficiently utilizing the       
          bytes transferred. Also consider whether it is possible to do more work per memory access (kernel fusion) or  
          whether there are values you can (re)compute.                                                                 

    Section: GPU Speed Of Light Roofline Chart
    INF   The ratio of peak float (FP32) to double (FP64) performance on this device is 2:1. The workload achieved      
          close to 0% of this device's FP32 peak performance and 0% of its FP64 peak performance. See the Profiling     
          Guide (https://docs.nvidia.com/nsight-compute/ProfilingGuide/index.html#roofline) for more details on         
          roofline analysis.                                                                                            

    Section: PM Sampling
    ------------------------------------------------------------- ----------- ------------
    Metric Name                                                   Metric Unit Metric Value
    ------------------------------------------------------------- ----------- ------------
    Maximum Buffer Size (profiler__pmsampler_buffer_size_bytes)         Mbyte        29.95
    Maximum Sampling Interval (profiler__pmsampler_interval_time)          us         1.50
    # Pass Groups (profiler__pmsampler_pass_groups)                                      1
    ------------------------------------------------------------- ----------- ------------
"##;

/// Real output copied from the corpus (`kernels_basic.rule_details.txt, first result`).
const RULE_DETAILS: &str = r##"[1842] kernels@127.0.0.1
  vector_add(const float *, const float *, float *, int) (65536, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0
    Warning: Data collection happened without fixed GPU frequencies. Profiling results may be inconsistent.
    Section: GPU Speed Of Light Throughput
    ----------------------- ----------- ------------
    Metric Name             Metric Unit Metric Value
    ----------------------- ----------- ------------
    DRAM Frequency                  Ghz         2.62
    SM Frequency                    Ghz         1.98
    Elapsed Cycles                cycle      143,826
    Memory Throughput                 %        78.53
    DRAM Throughput                   %        78.53
    Duration                         us        72.64
    L1/TEX Cache Throughput           %        15.46
    L2 Cache Throughput               %        78.23
    SM Active Cycles              cycle   137,191.05
    Compute (SM) Throughput           %        33.22
    ----------------------- ----------- ------------

    OPT   Memory is more heavily utilized than Compute: Look at the Memory Workload Analysis section to identify the    
          DRAM bottleneck. Check memory replay (coalescing) metrics to make sure you're efficiently utilizing the       
          bytes transferred. Also consider whether it is possible to do more work per memory access (kernel fusion) or  
          whether there are values you can (re)compute.                                                                 

          > Key Performance Indicators: Use the guidance related to these metrics to increase performance.
          ---------------------------------- ----------------------- ---------------------------------------------------------
          Metric Name                        Value                   Guidance                                                 
          ---------------------------------- ----------------------- ---------------------------------------------------------
          gpu__compute_memory_throughput.avg 78.531475               78.531 - 33.217 >= 10.000                                
          .pct_of_peak_sustained_elapsed                                                                                      

    Section: Launch Statistics
    -------------------------------- --------------- ---------------
    Metric Name                          Metric Unit    Metric Value
    -------------------------------- --------------- ---------------
    Block Size                                                   256
    Cluster Scheduling Policy                           PolicySpread
    Cluster Size                                                   0
    Function Cache Configuration                     CachePreferNone
    Grid Size                                                 65,536
    Registers Per Thread             register/thread              16
    Shared Memory Configuration Size           Kbyte           32.77
    Driver Shared Memory Per Block       Kbyte/block            1.02
    Dynamic Shared Memory Per Block       byte/block               0
    Static Shared Memory Per Block        byte/block               0
    # SMs                                         SM             132
    Stack Size                                                 1,024
    Threads                                   thread      16,777,216
    # TPCs                                                        66
    Enabled TPC IDs                                              all
    Uses Green Context                                             0
    Waves Per SM                                               62.06
    -------------------------------- --------------- ---------------

    Section: Occupancy
    ------------------------------- ----------- ------------
    Metric Name                     Metric Unit Metric Value
    ------------------------------- ----------- ------------
    Max Active Clusters                 cluster            0
    Max Cluster Size                      block            8
    Overall GPU Occupancy                     %            0
    Cluster Occupancy                         %            0
    Block Limit Barriers                  block           32
    Block Limit SM                        block           32
    Block Limit Registers                 block           16
    Block Limit Shared Mem                block           32
    Block Limit Warps                     block            8
    Theoretical Active Warps per SM        warp           64
    Theoretical Occupancy                     %          100
    Achieved Occupancy                        %        76.28
    Achieved Active Warps Per SM           warp        48.82
    ------------------------------- ----------- ------------

    OPT   Est. Local Speedup: 23.72%                                                                                    
          The difference between calculated theoretical (100.0%) and measured achieved occupancy (76.3%) can be the     
          result of warp scheduling overheads or workload imbalances during the kernel execution. Load imbalances can   
          occur between warps within a block as well as across blocks of the same kernel. See the CUDA Best Practices   
          Guide (https://docs.nvidia.com/cuda/cuda-c-best-practices-guide/index.html#occupancy) for more details on     
          optimizing occupancy.                                                                                         

          > Key Performance Indicators: Use the guidance related to these metrics to increase performance.
          ---------------------------------- ----------------------- ---------------------------------------------------------
          Metric Name                        Value                   Guidance                                                 
          ---------------------------------- ----------------------- ---------------------------------------------------------
          sm__warps_active.avg.pct_of_peak_s 76.277562               Increase the achieved occupancy towards the theoretical  
          ustained_active                                            limit (100.0%)                                           

"##;

/// Real output copied from the corpus (`kernels_full.details_all.txt, first sections`).
const DETAILS_ALL: &str = r##"[1287] kernels@127.0.0.1
  vector_add(const float *, const float *, float *, int) (65536, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0

    NVTX Push/Pop Stack for Thread 1287:
      <default domain>
        <0,elementwise>
    Warning: Data collection happened without fixed GPU frequencies. Profiling results may be inconsistent.
    Section: GPU Speed Of Light Throughput
    ----------------------- ----------- ------------
    Metric Name             Metric Unit Metric Value
    ----------------------- ----------- ------------
    DRAM Frequency                  Ghz         2.62
    SM Frequency                    Ghz         1.97
    Elapsed Cycles                cycle      141,717
    Memory Throughput                 %        79.68
    DRAM Throughput                   %        79.68
    Duration                         us        71.62
    L1/TEX Cache Throughput           %        15.53
    Waves Per SM                               62.06
    L2 Cache Throughput               %        79.49
    SM Active Cycles              cycle   136,607.76
    Compute (SM) Throughput           %        33.65
    ----------------------- ----------- ------------

    GPU Throughput Chart
    Table Name : GPU Throughput
    ---------------- ----------- ------------
    Metric Name      Metric Unit Metric Value
    ---------------- ----------- ------------
    Memory [%]                 %        79.68
    Compute (SM) [%]           %        33.65
    ---------------- ----------- ------------

    GPU Throughput Breakdown
    Table Name : Compute Throughput Breakdown
    ------------------------------------------------------------------------- ----------- ------------
    Metric Name                                                               Metric Unit Metric Value
    ------------------------------------------------------------------------- ----------- ------------
    SM: Inst Executed Pipe Adu                                                          %        33.65
    IDC: Request Cycles Active                                                          %        28.06
    SM: Issue Active                                                                    %        14.01
    SM: Mio Inst Issued                                                                 %        14.01
    SM: Inst Executed                                                                   %        14.00
    SM: Inst Executed Pipe Lsu                                                          %        11.20
    SM: Pipe Fmaheavy Cycles Active                                                     %         9.82
    SM: Mio2rf Writeback Active                                                         %         5.60
    SM: Pipe Fma Cycles Active                                                          %         5.60
    SM: Inst Executed Pipe Cbu Pred On Any                                              %         2.87
    SM: Mio Pq Read Cycles Active                                                       %         2.80
    SM: Mio Pq Write Cycles Active                                                      %         2.80
    SM: Pipe Alu Cycles Active                                                          %         1.40
    SM: Inst Executed Pipe Ipa                                                          %            0
    SM: Inst Executed Pipe Tex                                                          %            0
    SM: Inst Executed Pipe Uniform                                                      %            0
    SM: Inst Executed Pipe Xu                                                           %            0
    SM: Instruction Throughput Internal Activity                                        %            0
    SM: Memory Throughput Internal Activity                                             %            0
    SM: Pipe Fp64 Cycles Active                                                         %            0
    SM: Pipe Shared Cycles Active                                                       %            0
    SM: Pipe Tensor Cycles Active                                                       %            0
    SM: Pipe Tensor Op Dmma Cycles Active                                               %            0
    SM: Pipe Tensor Type Hmma Hgmma Qgmma Imma Igmma Bmma Bgmma Cycles Active           %            0
    SM: Pipe Tma Cycles Active                                                          %            0
    ------------------------------------------------------------------------- ----------- ------------

    Table Name : Memory Throughput Breakdown
    -------------------------------------------------------- ----------- ------------
    Metric Name                                              Metric Unit Metric Value
    -------------------------------------------------------- ----------- ------------
    DRAM: Cycles Active                                                %        79.68
    DRAM: Dram Sectors                                                 %        61.06
    L2: D Sectors                                                      %        44.72
    L2: D Sectors Fill Device                                          %        42.86
    L2: T Sectors                                                      %        32.51
    L2: Xbar2lts Cycles Active                                         %        32.12
    L2: T Tag Requests                                                 %        31.76
    GPU: Compute Memory Access Throughput Internal Activity            %        31.22
    L2: Lts2xbar Cycles Active                                         %        21.55
    L1: M L1tex2xbar Req Cycles Active                                 %        14.96
    L1: Data Pipe Lsu Wavefronts                                       %        12.52
    L1: Lsuin Requests                                                 %        11.20
    L1: Lsu Writeback Active                                           %         8.40
    L1: M Xbar2l1tex Read Sectors                                      %         5.60
    L1: Data Bank Reads                                                %         4.20
    L1: Data Bank Writes                                               %         4.20
    L1: Texin Sm2tex Req Cycles Active                                 %         0.01
    GPU: Compute Memory Request Throughput Internal Activity           %            0
    L1: Data Pipe Tex Wavefronts                                       %            0
    L1: F Wavefronts                                                   %            0
    L1: M Xbar2l1tex Read Sectors Mem Dshared                          %            0
    L1: Tex Writeback Active                                           %            0
    L1: Tmain Requests                                                 %            0
    L2: D Atomic Input Cycles Active                                   %            0
    L2: D Decomp Input Sectors                                         %            0
    L2: D Sectors Fill Sysmem                                          %            0
    -------------------------------------------------------- ----------- ------------

    OPT   Memory is more heavily utilized than Compute: Look at the Memory Workload Analysis section to identify the    
          DRAM bottleneck. Check memory replay (coalescing) metrics to make sure you're efficiently utilizing the       
          bytes transferred. Also consider whether it is possible to do more work per memory access (kernel fusion) or  
          whether there are values you can (re)compute.                                                                 

    Section: GPU Speed Of Light Roofline Chart
    ----------------------------------------------------------- ----------- ------------
    Metric Name                                                 Metric Unit Metric Value
    ----------------------------------------------------------- ----------- ------------
    Theoretical Predicated-On DFMA Thread Instructions Executed  inst/cycle        8,448
    Theoretical Predicated-On FFMA Thread Instructions Executed  inst/cycle       16,896
    Predicated-On DFMA Thread Instructions Executed Per Cycle    inst/cycle            0
    Predicated-On FFMA Thread Instructions Executed Per Cycle    inst/cycle            0
    ----------------------------------------------------------- ----------- ------------

    GPU Throughput Rooflines
    Table Name : Floating Point Operations Roofline
    Single Precision Roofline
    Peak Work
    ----------------------------------------- ----------- ------------
    Metric Name                               Metric Unit Metric Value
    ----------------------------------------- ----------- ------------
    Theoretical Predicated-On FFMA Operations        inst       33,792
    SM Frequency                                      Ghz         1.98
    ----------------------------------------- ----------- ------------

"##;

/// Real output copied from the corpus (`kernels_basic.details_instances.txt, kernel line and Occupancy tables`).
const DETAILS_INSTANCES: &str = r##"[1842] kernels@127.0.0.1
  vector_add(const float *, const float *, float *, int) (65536, 1, 1)x(256, 1, 1), Context 1, Stream 7, Device 0, CC 9.0
    Section: Occupancy
    % Occupancy Graphs
    Table Name : Impact of Varying Register Count Per Thread
    ------------------------------ --------------- ------------------------------
    Metric Name                        Metric Unit                   Metric Value
    ------------------------------ --------------- ------------------------------
    % Occupancy Per Register Count      %/register     8,524 (100; 100; 100; 100;
                                                         100; 100; 100; 100; 100;
                                                         100; 100; 100; 100; 100;
                                                         100; 100; 100; 100; 100;
                                                         100; 100; 100; 100; 100;
                                                         100; 100; 100; 100; 100;
                                                      100; 100; 100; 100; 75; 75;
                                                      75; 75; 75; 75; 75; 75; 62;
                                                      62; 62; 62; 62; 62; 62; 62;
                                                      50; 50; 50; 50; 50; 50; 50;
                                                      50; 50; 50; 50; 50; 50; 50;
                                                      50; 50; 37; 37; 37; 37; 37;
                                                      37; 37; 37; 37; 37; 37; 37;
                                                      37; 37; 37; 37; 25; 25; 25;
                                                      25; 25; 25; 25; 25; 25; 25;
                                                      25; 25; 25; 25; 25; 25; 25;
                                                      25; 25; 25; 25; 25; 25; 25;
                                                      25; 25; 25; 25; 25; 25; 25;
                                                      25; 25; 25; 25; 25; 25; 25;
                                                      25; 25; 25; 25; 25; 25; 25;
                                                      25; 25; 25; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                      12; 12; 12; 12; 12; 12; 12;
                                                              12; 12; 12; 12; 12)
    Registers Per Thread           register/thread                        16 (16)
    ------------------------------ --------------- ------------------------------

    Table Name : Impact of Varying Block Size
    -------------------------- ----------- ------------------------------
    Metric Name                Metric Unit                   Metric Value
    -------------------------- ----------- ------------------------------
    % Occupancy Per Block Size           %   5,706 (50; 50; 50; 100; 100;
                                                98; 98; 100; 100; 93; 93;
                                                93; 93; 98; 98; 100; 100;
                                              98; 98; 93; 93; 85; 85; 93;
                                              93; 81; 81; 87; 87; 93; 93;
                                                100; 100; 79; 79; 84; 84;
                                              89; 89; 93; 93; 98; 98; 68;
                                              68; 71; 71; 75; 75; 78; 78;
                                              81; 81; 84; 84; 87; 87; 90;
                                            90; 93; 93; 96; 96; 100; 100)
    Block Size                                                  256 (256)
    -------------------------- ----------- ------------------------------

"##;
