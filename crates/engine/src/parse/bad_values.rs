//! Measured values that are no number: a result whose duration ncu printed or stored as `nan`
//! (or an infinity) is damaged, and its report says so in one warning, whatever form it was
//! read from. The value is kept as it is: every figure built on it shows it as damage and
//! every rule that reads it fails (see `analysis::series::regression` and
//! `analysis::compare::fail_on`).

use crate::model::{Report, Warning, WarningKind, names};

/// Most results a warning names.
const NAMED: usize = 5;

/// Adds a warning to `report` when the duration of any of its results is not a finite number.
/// Reads only what the results table reads (the duration is a head figure of a body read on
/// demand, so no body is decoded).
pub fn check(report: &mut Report) {
    let damaged: Vec<(u64, String, f64)> = report
        .results
        .iter()
        .filter_map(|r| {
            let v = r.number(names::DURATION)?;
            (!v.is_finite()).then(|| (r.id, r.name.function.clone(), v))
        })
        .collect();
    if let Some(warning) = warning(&damaged) {
        report.warnings.push(warning);
    }
}

/// The warning for results `(id, function, duration)` whose durations are no number.
fn warning(damaged: &[(u64, String, f64)]) -> Option<Warning> {
    let (_, _, first) = damaged.first()?;
    let n = damaged.len();
    let named = damaged
        .iter()
        .take(NAMED)
        .map(|(id, function, _)| format!("{id} ({function})"))
        .collect::<Vec<_>>()
        .join(", ");
    let more = match n.saturating_sub(NAMED) {
        0 => String::new(),
        more => format!(" and {more} more"),
    };
    let (what, plural) = if n == 1 {
        ("result's duration is not a number", "")
    } else {
        ("results' durations are not numbers", "s")
    };
    Some(Warning::new(
        WarningKind::BadValue,
        format!("{n} {what} ({first}), damaged: result{plural} {named}{more}"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damaged_durations_are_counted_and_named() {
        assert_eq!(warning(&[]), None);
        let one = warning(&[(3, "gemm".into(), f64::NAN)]).unwrap();
        assert_eq!(one.kind, WarningKind::BadValue);
        assert_eq!(
            one.message,
            "1 result's duration is not a number (NaN), damaged: result 3 (gemm)"
        );
        let many: Vec<(u64, String, f64)> = (0..7).map(|i| (i, "k".into(), f64::NAN)).collect();
        assert_eq!(
            warning(&many).unwrap().message,
            "7 results' durations are not numbers (NaN), damaged: results 0 (k), 1 (k), 2 (k), \
             3 (k), 4 (k) and 2 more"
        );
    }
}
