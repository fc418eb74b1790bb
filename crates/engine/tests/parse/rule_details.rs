//! `--print-rule-details`: the guidance printed with every key performance indicator is kept
//! with its rule, and equals what NVIDIA's module reads from the `.ncu-rep`; the `.ncu-rep`
//! reader keeps the same guidance.

use sightline_engine::model::Report;
use sightline_testkit::{fixture_files, fixture_path, load_fixture, load_truth};

/// The `*.rule_details.txt` fixtures, each with the stem of its `.ncu-rep` and truth file.
fn rule_detail_fixtures() -> Vec<(String, String)> {
    fixture_files()
        .into_iter()
        .filter_map(|rel| {
            let stem = rel
                .trim_end_matches(".xz")
                .strip_suffix(".rule_details.txt")?
                .to_string();
            Some((rel, stem))
        })
        .collect()
}

/// Every result's (metric, guidance) pairs, sorted (sections are printed in another order
/// than the report stores their rules).
fn guidance_of(report: &Report) -> Vec<Vec<(String, String)>> {
    report
        .results
        .iter()
        .map(|r| {
            let mut g: Vec<(String, String)> = r
                .all_rules()
                .flat_map(|rule| rule.guidance.clone())
                .collect();
            g.sort();
            g
        })
        .collect()
}

#[test]
fn guidance_of_every_key_performance_indicator_equals_the_report() {
    let fixtures = rule_detail_fixtures();
    assert!(fixtures.len() >= 5, "{fixtures:?}");
    let mut pairs = 0;
    for (text, stem) in fixtures {
        let truth_rel = format!("{stem}.truth.json.xz");
        if !fixture_path(&truth_rel).exists() {
            continue;
        }
        let truth = load_truth(&truth_rel);
        let expected: Vec<Vec<(String, String)>> = truth.iter().map(|t| t.guidance()).collect();
        pairs += expected.iter().map(Vec::len).sum::<usize>();
        let from_text = guidance_of(&load_fixture(&text));
        assert_eq!(from_text, expected, "{text}");
        let from_rep = guidance_of(&load_fixture(&format!("{stem}.ncu-rep.xz")));
        assert_eq!(from_rep, expected, "{stem}.ncu-rep");
    }
    assert!(pairs >= 100, "only {pairs} indicators with guidance");
}
