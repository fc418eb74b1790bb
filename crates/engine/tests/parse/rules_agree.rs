//! Rule kinds and estimated speedups agree between the details text and the details CSV of
//! the same report.

use sightline_engine::model::{KernelResult, SpeedupKind};

fn rule_keys(r: &KernelResult) -> Vec<(String, Option<SpeedupKind>, Option<String>)> {
    let mut keys: Vec<_> = r
        .all_rules()
        .map(|rule| {
            (
                rule.kind.tag().to_string(),
                rule.speedup.map(|s| s.0),
                rule.speedup.map(|s| format!("{:.6e}", s.1)),
            )
        })
        .collect();
    keys.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
    keys
}

fn check(text: &str, csv: &str) {
    let text = sightline_testkit::load_fixture(text);
    let csv = sightline_testkit::load_fixture(csv);
    assert_eq!(text.results.len(), csv.results.len());
    let mut compared = 0;
    for (t, c) in text.results.iter().zip(&csv.results) {
        assert_eq!(t.name.demangled, c.name.demangled);
        let (kt, kc) = (rule_keys(t), rule_keys(c));
        assert_eq!(
            kt, kc,
            "rules of result {} ({}) differ",
            t.id, t.name.function
        );
        compared += kt.len();
    }
    println!("{compared} rule results agree");
    assert!(compared > 20, "too few rules compared: {compared}");
}

#[test]
fn basic_rules_agree_between_text_and_csv() {
    check(
        "h100/kernels_basic.details.txt",
        "h100/kernels_basic.details.csv",
    );
}

#[test]
fn full_rules_agree_between_text_and_csv() {
    check(
        "h100/kernels_full.details.txt",
        "h100/kernels_full.details.csv.xz",
    );
}
