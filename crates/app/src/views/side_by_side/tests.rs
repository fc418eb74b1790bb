//! The side-by-side rows: one metric line against one or several baselines, and whole
//! comparisons of fixture results.

use super::*;
use crate::analysis::compare::metric_diff::Speed;
use crate::model::{Metric, Value, names};

fn m(v: f64, unit: &str) -> Metric {
    Metric::new(None, Value::Double(v), unit)
}

#[test]
fn one_baseline_gives_delta_and_verdict() {
    let (b, c) = (m(418_240.0, "ns"), m(246_110.0, "ns"));
    let line = metric_line(
        "Duration",
        names::DURATION,
        Some(c.view()),
        &[Some(b.view())],
        &[0],
        2.0,
        Speed::Unknown,
    );
    assert_eq!(line.delta, "-172.13 us");
    assert_eq!(line.pct_text, "-41.16%");
    assert_eq!(line.verdict, Some(Verdict::Better));
}

#[test]
fn a_percentage_changes_by_points_under_delta_and_relatively_under_delta_pct() {
    // Compute throughput of 40 % going to 50 %: 10 points, a quarter more.
    let line = metric_line(
        "Compute (SM) Throughput",
        names::SOL_COMPUTE,
        Some(m(50.0, "%").view()),
        &[Some(m(40.0, "%").view())],
        &[0],
        2.0,
        Speed::Unknown,
    );
    assert_eq!(line.delta, "+10.00 pp");
    assert_eq!(line.pct_text, "+25.00%");
}

#[test]
fn several_baselines_give_mean_delta_and_z() {
    // ncu-reference §1.13: 5.73 with baselines 82.73 and 1.57 gives z = −0.65.
    let line = metric_line(
        "Duration",
        names::DURATION,
        Some(m(5.73, "").view()),
        &[Some(m(82.73, "").view()), Some(m(1.57, "").view())],
        &[0, 1],
        2.0,
        Speed::Unknown,
    );
    assert_eq!(line.current, "5.73 (-86.41%, z=-0.65)");
    assert_eq!(line.verdict, Some(Verdict::Better));
    let missing = metric_line(
        "Duration",
        names::DURATION,
        None,
        &[Some(m(1.0, "").view())],
        &[0],
        2.0,
        Speed::Unknown,
    );
    assert_eq!(missing.verdict, None);
    assert_eq!(missing.current, "-");
}

#[test]
fn baselines_out_of_the_mean_change_nothing() {
    let all = metric_line(
        "Duration",
        names::DURATION,
        Some(m(5.73, "").view()),
        &[Some(m(82.73, "").view()), Some(m(1.57, "").view())],
        &[0, 1],
        2.0,
        Speed::Unknown,
    );
    let with_other = metric_line(
        "Duration",
        names::DURATION,
        Some(m(5.73, "").view()),
        &[
            Some(m(82.73, "").view()),
            Some(m(1000.0, "").view()),
            Some(m(1.57, "").view()),
        ],
        &[0, 2],
        2.0,
        Speed::Unknown,
    );
    assert_eq!(with_other.current, all.current);
    assert_eq!(
        with_other.baselines.len(),
        3,
        "every baseline keeps its column"
    );
    let one = metric_line(
        "Duration",
        names::DURATION,
        Some(m(1.57, "").view()),
        &[Some(m(1000.0, "").view()), Some(m(82.73, "").view())],
        &[1],
        2.0,
        Speed::Unknown,
    );
    assert_eq!(one.current, "1.57 (-98.10%)");
}

#[test]
fn signed_values() {
    assert_eq!(signed_value_text(-172_130.0, "ns"), "-172.13 us");
    assert_eq!(signed_value_text(1_500.0, "ns"), "+1.50 us");
}
