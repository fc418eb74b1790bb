//! The before/after pair of `fixtures/pair` (`pair/README.md`): the launch of `saxpy_strided`
//! in both reports, its section bodies paired, and the oracle's readings of both sides.

use crate::{TruthResult, load_fixture, load_truth};
use sightline_engine::analysis::sections::bodies_of;
use sightline_engine::analysis::sections::paired::{PairedSection, pair};

/// The launch of `saxpy_strided` in both reports (`pair/README.md`): scattered loads before,
/// coalesced after.
pub const SAXPY: usize = 1;

/// Equal, or within a relative 1e-9.
pub fn close(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// A numeric value of the oracle's metric, if it has one.
pub fn truth_value(t: &TruthResult, name: &str) -> Option<f64> {
    t.metrics.get(name).and_then(|m| m.value.as_f64())
}

/// The section bodies of `saxpy_strided` before and after, paired, and the oracle's readings
/// of both launches.
pub fn paired_saxpy() -> (Vec<PairedSection>, TruthResult, TruthResult) {
    let before = load_fixture("pair/before.ncu-rep.xz");
    let after = load_fixture("pair/after.ncu-rep.xz");
    let mut tb = load_truth("pair/before.truth.json.xz");
    let mut ta = load_truth("pair/after.truth.json.xz");
    let (tb, ta) = (tb.swap_remove(SAXPY), ta.swap_remove(SAXPY));
    assert_eq!(
        (tb.function.as_str(), ta.function.as_str()),
        ("saxpy_strided", "saxpy_strided")
    );
    let paired = pair(&bodies_of(&before, SAXPY), &bodies_of(&after, SAXPY));
    (paired, tb, ta)
}
