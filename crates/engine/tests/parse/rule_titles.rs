//! One rule catalogue for every form: the top rule of each result has the same heading whether
//! the result was read from the `.ncu-rep`, the details text or the details CSV, and every rule
//! message of the text and CSV exports is found in the catalogue.

use sightline_engine::model::Report;
use sightline_testkit::oracle::parse_fixture;
use sightline_testkit::{fixture_path, load_fixture};

/// (report stem, details text, details CSV) of every fixture with both exports.
const REPORTS: [&str; 9] = [
    "h100/kernels_basic",
    "range/range_profiler",
    "range/range_nvtx",
    "range/apprange",
    "range/range_kernels",
    "graph/graph_graph",
    "graph/graph_node",
    "variants/multiproc",
    "pair/after",
];

fn export(stem: &str, variant: &str) -> String {
    let plain = format!("{stem}.{variant}");
    if fixture_path(&plain).exists() {
        plain
    } else {
        format!("{plain}.xz")
    }
}

/// The headings of each result's rules, in order, and of its top rule.
fn headings(report: &Report) -> Vec<(Vec<String>, Option<String>)> {
    report
        .results
        .iter()
        .map(|r| {
            (
                r.all_rules().map(|x| x.heading()).collect(),
                r.top_rule().map(|x| x.heading()),
            )
        })
        .collect()
}

#[test]
fn top_rules_read_the_same_in_every_form() {
    let mut compared = 0;
    for stem in REPORTS {
        let native = parse_fixture(&format!("{stem}.ncu-rep.xz"));
        let want = headings(&native);
        for variant in ["details.txt", "details.csv"] {
            let path = export(stem, variant);
            let text = load_fixture(&path);
            let got = headings(&text);
            assert_eq!(got.len(), want.len(), "{path}: result count");
            for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                let mut a = g.0.clone();
                let mut b = w.0.clone();
                a.sort();
                b.sort();
                assert_eq!(a, b, "{path} result {i}: rule headings");
                assert_eq!(g.1, w.1, "{path} result {i}: top rule");
                compared += 1;
            }
            for r in &text.results {
                for rule in r.all_rules() {
                    assert!(
                        rule.identifier.is_some(),
                        "{path}: rule not in the catalogue: {}",
                        rule.message
                    );
                }
            }
        }
    }
    assert!(compared > 50, "{compared}");
}
