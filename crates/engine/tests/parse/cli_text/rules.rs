//! Rules (kind, message, estimated speedup) against the oracle, and their identifiers and
//! titles from the rule catalogue.

use sightline_engine::model::{RuleKind, SpeedupKind};
use sightline_testkit::{load_fixture, load_truth};

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
