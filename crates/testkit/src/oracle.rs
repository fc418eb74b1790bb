//! NVIDIA's own readings of a report, and comparisons of a parsed report with them: the truth
//! oracle (`*.truth.json.xz`, every stored value as NVIDIA's report module reads it) and the
//! details page text (`ncu -i`).

use crate::fixture_bytes;
use serde_json::Value as Json;
use sightline_engine::model::units::to_base;
use sightline_engine::model::{KernelResult, Report, RuleKind, SpeedupKind, Value};
use sightline_engine::parse::ncu_rep;
use std::collections::BTreeMap;
// ---------------------------------------------------------------------------------------------
// The truth oracle, read with exact numbers.

/// Marks a JSON number turned into a string, so that it is parsed with Rust's exact parser.
pub const NUM: &str = "~#num~";

/// Rewrites the oracle's JSON so every bare number (and Python's `NaN`) becomes a marked
/// string: serde_json's default float parsing is not guaranteed to be correctly rounded, and
/// `NaN` and `Infinity` are not JSON.
pub fn quote_numbers(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + text.len() / 4);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'"' {
            let start = i;
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str(&text[start..i.min(b.len())]);
        } else if c == b'-'
            || c.is_ascii_digit()
            || text[i..].starts_with("NaN")
            || text[i..].starts_with("Infinity")
        {
            let start = i;
            while i < b.len() && !matches!(b[i], b',' | b']' | b'}' | b' ' | b'\n') {
                i += 1;
            }
            out.push('"');
            out.push_str(NUM);
            out.push_str(&text[start..i]);
            out.push('"');
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

/// A number token of the oracle: its text.
pub fn num_text(v: &Json) -> Option<&str> {
    v.as_str().and_then(|s| s.strip_prefix(NUM))
}

pub fn num_f64(v: &Json) -> Option<f64> {
    num_text(v).map(|t| {
        if t == "NaN" {
            f64::NAN
        } else {
            t.parse().expect("number")
        }
    })
}

pub fn truth(rel: &str) -> Vec<Json> {
    let bytes = fixture_bytes(rel);
    let text = std::str::from_utf8(&bytes).expect("utf-8");
    match serde_json::from_str(&quote_numbers(text)).expect("truth json") {
        Json::Array(a) => a,
        _ => panic!("truth is not a list"),
    }
}

pub fn parse_fixture(rel: &str) -> Report {
    ncu_rep::parse(&fixture_bytes(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Compares a stored value with an oracle value token: integers equal, doubles bit-equal
/// (NaN equals NaN), strings equal.
pub fn same_value(mine: &Value, truth: &Json) -> bool {
    if let Some(text) = num_text(truth) {
        let is_int = !text.contains(['.', 'e', 'E', 'N']);
        match mine {
            Value::U64(v) if is_int => text.parse::<u64>().ok() == Some(*v),
            Value::U32(v) if is_int => text.parse::<u32>().ok() == Some(*v),
            Value::Double(v) => num_f64(truth).is_some_and(|t| same_double(t, *v)),
            Value::Float(v) => num_f64(truth).is_some_and(|t| same_double(t, f64::from(*v))),
            _ => false,
        }
    } else if let Some(s) = truth.as_str() {
        mine.as_str() == Some(s)
    } else {
        truth.is_null() && *mine == Value::Missing
    }
}

/// Compares an instance value with the oracle, which reads instances in the kind of the
/// metric's aggregate (`as_double` of a stored integer when the aggregate is a double): the
/// stored value converted the same way must be bit-equal.
pub fn same_instance_value(mine: &Value, truth: &Json, aggregate_kind: &str) -> bool {
    if same_value(mine, truth) {
        return true;
    }
    match (aggregate_kind, mine) {
        ("double" | "float", Value::U64(_) | Value::U32(_)) => {
            let converted = mine.as_f64().unwrap_or(f64::NAN);
            num_f64(truth).is_some_and(|t| same_double(t, converted))
        }
        // A string instance (`numa__cpu_affinity` stores `0-15`) read as a number gives 0.
        ("uint64" | "uint32" | "double" | "float", Value::Str(_)) => num_f64(truth) == Some(0.0),
        _ => false,
    }
}

/// Bit-equal doubles, any NaN equal to any NaN.
pub fn same_double(a: f64, b: f64) -> bool {
    a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())
}

/// The CLI's rendering of message markup, written independently of the reader.
pub fn render(text: &str) -> String {
    let mut out = String::new();
    let mut parts = text.split('@');
    out.push_str(parts.next().unwrap_or(""));
    let pending: Vec<&str> = parts.collect();
    let mut i = 0;
    while i < pending.len() {
        let p = pending[i];
        if let Some(body) = p.strip_prefix("section:").filter(|_| i + 1 < pending.len()) {
            out.push_str(body.split_once(':').unwrap().1);
            out.push_str(pending[i + 1]);
            i += 2;
        } else if let Some(body) = p.strip_prefix("url:").filter(|_| i + 1 < pending.len()) {
            let (label, url) = body.split_once(':').unwrap();
            out.push_str(&format!("{label} ({url})"));
            out.push_str(pending[i + 1]);
            i += 2;
        } else {
            out.push('@');
            out.push_str(p);
            i += 1;
        }
    }
    out
}

/// Which section a rule of a result is attached to (`None`: the result's own list).
pub fn rules_with_sections(
    r: &KernelResult,
) -> Vec<(Option<&str>, &sightline_engine::model::RuleResult)> {
    r.sections()
        .iter()
        .flat_map(|s| s.rules.iter().map(move |x| (s.identifier.as_deref(), x)))
        .chain(r.rules().iter().map(|x| (None, x)))
        .collect()
}

/// Compares a report with its oracle and returns the number of values compared.
pub fn compare_with_truth(report_rel: &str, truth_rel: &str) -> usize {
    compare_report_with_truth(&mut parse_fixture(report_rel), report_rel, truth_rel)
}

/// Compares a report with its oracle result by result, releasing each body read on demand
/// after it is compared; returns the number of values compared.
pub fn compare_report_with_truth(report: &mut Report, report_rel: &str, truth_rel: &str) -> usize {
    let truth = truth(truth_rel);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    assert_eq!(
        report.results.len(),
        truth.len(),
        "{report_rel}: result count"
    );
    let mut compared = 0usize;
    for (i, t) in truth.iter().enumerate() {
        let r = &report.results[i];
        let ctx = format!("{report_rel} result {i}");
        assert_eq!(r.id, i as u64, "{ctx}: id");
        assert_eq!(
            num_text(&t["action"]),
            Some(i.to_string().as_str()),
            "{ctx}: action"
        );
        assert_eq!(
            r.name.function,
            t["function"].as_str().unwrap(),
            "{ctx}: function"
        );
        assert_eq!(
            r.name.mangled.as_deref(),
            t["mangled"].as_str(),
            "{ctx}: mangled"
        );
        if let Some(kind) = t.get("workload_type").and_then(Json::as_str) {
            assert_eq!(r.kind.name(), kind, "{ctx}: workload type");
            compared += 1;
        }
        if let Some(domains) = t.get("nvtx").and_then(Json::as_object) {
            let mut stack: Vec<(String, String)> = Vec::new();
            for (domain, d) in domains {
                for name in d["push_pop"].as_array().unwrap() {
                    stack.push((domain.clone(), name.as_str().unwrap().to_string()));
                }
            }
            let mine: Vec<(String, String)> = r
                .nvtx
                .iter()
                .map(|n| (n.domain.clone(), n.name.clone()))
                .collect();
            assert_eq!(mine, stack, "{ctx}: NVTX push/pop stack");
            compared += 1;
        }

        let metrics = t["metrics"].as_object().unwrap();
        assert_eq!(r.metrics().len(), metrics.len(), "{ctx}: metric count");
        for (name, tm) in metrics {
            let m = r
                .metrics()
                .get(name.as_str())
                .unwrap_or_else(|| panic!("{ctx}: no {name}"));
            assert_eq!(m.name.as_deref(), Some(name.as_str()));
            let kind = tm["kind"].as_str().unwrap();
            let value = &tm["value"];
            // Kind 0 (unknown): the module reads 0.0 from a metric that has no value.
            if value.is_null() || kind == "0" {
                assert_eq!(m.value, Value::Missing, "{ctx}: {name} has no aggregate");
            } else {
                assert_eq!(m.value.kind_name(), kind, "{ctx}: {name} kind");
                assert!(
                    same_value(&m.value, value),
                    "{ctx}: {name}: {:?} vs {value}",
                    m.value
                );
            }
            compared += 1;
            let n = tm
                .get("n_instances")
                .and_then(num_text)
                .map_or(0, |t| t.parse().unwrap());
            assert_eq!(m.instances.len(), n, "{ctx}: {name} instance count");
            let listed = tm
                .get("instances")
                .and_then(Json::as_array)
                .map_or(&[][..], |a| a);
            assert!(listed.len() <= n);
            for (k, pair) in listed.iter().enumerate() {
                let inst = &m.instances[k];
                let id = inst
                    .id
                    .as_ref()
                    .unwrap_or_else(|| panic!("{ctx}: {name}[{k}] id"));
                assert!(
                    same_value(id, &pair[0]),
                    "{ctx}: {name}[{k}] id {id:?} vs {}",
                    pair[0]
                );
                assert!(
                    same_instance_value(&inst.value, &pair[1], kind),
                    "{ctx}: {name}[{k}] {:?} vs {}",
                    inst.value,
                    pair[1]
                );
                compared += 1;
            }
        }

        // Rules: one entry per rule-body message (entries without a message are tables).
        let expected: Vec<&Json> = t["rules"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| {
                let m = &x["rule_message"];
                !m.is_null()
                    && (m["message"].as_str() != Some("") || num_text(&m["type"]) != Some("0"))
            })
            .collect();
        let mine = rules_with_sections(r);
        assert_eq!(mine.len(), expected.len(), "{ctx}: rule count");
        for x in expected {
            let id = x["rule_identifier"].as_str().unwrap();
            let msg = &x["rule_message"];
            let text = render(msg["message"].as_str().unwrap());
            let title = msg["title"].as_str().unwrap();
            let (section, rule) = mine
                .iter()
                .find(|(_, m)| {
                    m.identifier.as_deref() == Some(id) && m.message == text && m.title == title
                })
                .unwrap_or_else(|| panic!("{ctx}: rule {id} `{text}` not found"));
            let want_section = x["section_identifier"].as_str();
            if section.is_some() {
                assert_eq!(*section, want_section, "{ctx}: {id} section");
            } else {
                assert!(
                    !r.sections()
                        .iter()
                        .any(|s| s.identifier.as_deref() == want_section),
                    "{ctx}: {id} should be in its section"
                );
            }
            let kind = match num_text(&msg["type"]) {
                Some("1") => RuleKind::Inf,
                Some("2") => RuleKind::Opt,
                Some("3") => RuleKind::Wrn,
                Some("4") => RuleKind::Err,
                other => panic!("{ctx}: message type {other:?}"),
            };
            assert_eq!(rule.kind, kind, "{ctx}: {id} kind");
            let speedup = x
                .get("speedup_estimation")
                .filter(|s| !s.is_null())
                .map(|s| {
                    let k = match num_text(&s["type"]) {
                        Some("1") => SpeedupKind::Local,
                        _ => SpeedupKind::Global,
                    };
                    (k, num_f64(&s["speedup"]).unwrap().to_bits())
                });
            assert_eq!(
                rule.speedup.map(|(k, v)| (k, v.to_bits())),
                speedup,
                "{ctx}: {id} speedup"
            );
            let focus: Vec<(String, u64)> = x
                .get("focus_metrics")
                .and_then(Json::as_array)
                .map_or(&[][..], |a| a)
                .iter()
                .map(|f| {
                    (
                        f["name"].as_str().unwrap().to_string(),
                        num_f64(&f["value"]).unwrap().to_bits(),
                    )
                })
                .collect();
            let mine_focus: Vec<(String, u64)> = rule
                .focus_metrics
                .iter()
                .map(|(n, v)| (n.clone(), v.to_bits()))
                .collect();
            assert_eq!(mine_focus, focus, "{ctx}: {id} focus metrics");
            compared += 1;
        }
        report.results[i].release_body();
        let decoded = report.decoded_bodies();
        assert!(
            decoded <= 1 || decoded == report.results.len(),
            "{decoded} bodies kept"
        );
    }
    println!("{report_rel}: {compared} values compared with the oracle");
    compared
}
// ---------------------------------------------------------------------------------------------
// The details page text: sections, labels, printed values, rule kinds and speedups.

#[derive(Debug, Default)]
pub struct PrintedSection {
    pub name: String,
    /// (label, value text, unit text)
    pub rows: Vec<(String, String, String)>,
    /// (kind tag, speedup line if any)
    pub rules: Vec<(String, Option<String>)>,
}

/// Splits `ncu -i` details text into results and their sections.
pub fn read_details(text: &str) -> Vec<Vec<PrintedSection>> {
    let mut results: Vec<Vec<PrintedSection>> = Vec::new();
    let mut widths: Vec<(usize, usize)> = Vec::new();
    let mut dashes = 0;
    for line in text.lines() {
        if line.starts_with("  ") && !line.starts_with("   ") {
            results.push(Vec::new());
            continue;
        }
        let Some(sections) = results.last_mut() else {
            continue;
        };
        if let Some(name) = line.strip_prefix("    Section: ") {
            sections.push(PrintedSection {
                name: name.trim().to_string(),
                ..Default::default()
            });
            dashes = 0;
            continue;
        }
        let Some(section) = sections.last_mut() else {
            continue;
        };
        let body = line.trim_start();
        if !body.is_empty()
            && body
                .split(' ')
                .all(|g| !g.is_empty() && g.bytes().all(|b| b == b'-'))
        {
            dashes += 1;
            widths.clear();
            let mut pos = 0;
            for g in line.split(' ') {
                if !g.is_empty() {
                    widths.push((pos, pos + g.len()));
                }
                pos += g.len() + 1;
            }
            continue;
        }
        if dashes == 2 && widths.len() == 3 && line.len() >= widths[2].1 {
            let cell = |k: usize| line[widths[k].0..widths[k].1].trim().to_string();
            section.rows.push((cell(0), cell(2), cell(1)));
            continue;
        }
        for tag in ["OPT", "INF", "WRN", "ERR"] {
            if let Some(rest) = line.strip_prefix(&format!("    {tag}   ")) {
                let speedup = rest
                    .trim()
                    .starts_with("Est.")
                    .then(|| rest.trim().to_string());
                section.rules.push((tag.to_string(), speedup));
            }
        }
    }
    results
}

/// Half a unit of the last printed digit, plus the rounding error of doubles of that size.
pub fn tolerance(decimals: i32, printed: f64) -> f64 {
    0.5 * 10f64.powi(-decimals) + 8.0 * f64::EPSILON * printed.abs()
}

/// Digits after the decimal point of a printed number.
pub fn decimals(text: &str) -> i32 {
    text.split_once('.').map_or(0, |(_, f)| f.len() as i32)
}

pub fn compare_with_details(report_rel: &str, details_rel: &str) -> usize {
    let report = parse_fixture(report_rel);
    let text = String::from_utf8(fixture_bytes(details_rel)).unwrap();
    let printed = read_details(&text);
    assert_eq!(
        printed.len(),
        report.results.len(),
        "{details_rel}: result count"
    );
    let mut compared = 0;
    for (r, sections) in report.results.iter().zip(&printed) {
        let ctx = format!("{report_rel} result {}", r.id);
        let mine: Vec<&str> = r.sections().iter().map(|s| s.name.as_str()).collect();
        let theirs: Vec<&str> = sections.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(mine, theirs, "{ctx}: sections");
        for (s, p) in r.sections().iter().zip(sections) {
            let labels: Vec<&str> = s.rows.iter().map(|x| x.label.as_str()).collect();
            let plabels: Vec<&str> = p.rows.iter().map(|x| x.0.as_str()).collect();
            assert_eq!(labels, plabels, "{ctx}: rows of {}", s.name);
            for (row, (label, value, unit)) in s.rows.iter().zip(&p.rows) {
                let plain = value.replace(',', "");
                match plain.parse::<f64>() {
                    Ok(v) => {
                        let base = to_base(unit);
                        let mine = row
                            .metric
                            .as_f64()
                            .unwrap_or_else(|| panic!("{ctx}: {label}"));
                        let tol = tolerance(decimals(&plain), v);
                        assert!(
                            (mine / base.factor - v).abs() <= tol,
                            "{ctx}: {label}: {mine} vs {value} {unit}"
                        );
                    }
                    Err(_) => assert_eq!(row.metric.value.to_string(), *value, "{ctx}: {label}"),
                }
                compared += 1;
            }
            let kinds: Vec<&str> = s.rules.iter().map(|x| x.kind.tag()).collect();
            let pkinds: Vec<&str> = p.rules.iter().map(|x| x.0.as_str()).collect();
            assert_eq!(kinds, pkinds, "{ctx}: rules of {}", s.name);
            for (rule, (_, line)) in s.rules.iter().zip(&p.rules) {
                match (rule.speedup, line) {
                    (None, None) => {}
                    (Some((kind, v)), Some(line)) => {
                        let prefix = match kind {
                            SpeedupKind::Global => "Est. Speedup: ",
                            SpeedupKind::Local => "Est. Local Speedup: ",
                        };
                        let pct = line
                            .strip_prefix(prefix)
                            .unwrap_or_else(|| panic!("{ctx}: {line}"));
                        let pct = pct.trim_end_matches('%');
                        let shown: f64 = pct.parse().unwrap();
                        let tol = tolerance(decimals(pct), shown);
                        assert!(
                            (v - shown).abs() <= tol.max(v.abs() * 5e-4),
                            "{ctx}: {v} vs {line}"
                        );
                    }
                    other => panic!("{ctx}: speedup {other:?}"),
                }
                compared += 1;
            }
        }
        assert!(r.rules().is_empty(), "{ctx}: rules outside sections");
    }
    println!("{report_rel}: {compared} rows and rules compared with the details page");
    compared
}

/// Compares a text or CSV reading with the native reading of the same report: every metric the
/// text maps to an ncu name equals the native value at the printed digits. Returns the number of
/// values compared.
pub fn compare_printed(native: &Report, text: &Report, what: &str) -> usize {
    assert_eq!(
        native.results.len(),
        text.results.len(),
        "{what}: result count"
    );
    let mut compared = 0;
    for (n, t) in native.results.iter().zip(&text.results) {
        let by_name: BTreeMap<&str, sightline_engine::model::MetricView<'_>> = t
            .metrics()
            .values()
            .filter_map(|m| m.name.map(|k| (k.as_str(), m)))
            .collect();
        for (name, tm) in by_name {
            let Some(nm) = n.metrics().get(name) else {
                continue;
            };
            let Some(printed) = &tm.printed else { continue };
            match (nm.as_f64(), printed.value.as_f64()) {
                (Some(v), Some(p)) if v.is_nan() || p.is_nan() => {
                    assert!(
                        v.is_nan() && p.is_nan(),
                        "{what} result {}: {name}: {v} vs {p}",
                        n.id
                    );
                }
                (Some(v), Some(p)) => {
                    let factor = to_base(&printed.unit).factor;
                    let tol = tolerance(i32::from(printed.decimals), p);
                    assert!(
                        (v / factor - p).abs() <= tol,
                        "{what} result {}: {name}: {v} vs printed {p} {}",
                        n.id,
                        printed.unit
                    );
                }
                (a, b) => {
                    if let (Some(s), Some(ps)) = (nm.value.as_str(), printed.value.as_str()) {
                        assert_eq!(s, ps, "{what}: {name}");
                    } else if nm.value != Value::Missing && printed.value != Value::Missing {
                        // A number on one side only (NaN prints as an empty cell).
                        let nan = a.is_some_and(f64::is_nan) || b.is_some_and(f64::is_nan);
                        assert!(nan, "{what} result {}: {name}: {a:?} vs {b:?}", n.id);
                    }
                }
            }
            compared += 1;
        }
    }
    compared
}
