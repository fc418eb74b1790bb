//! The CSV of a comparison: one row per kernel and metric.

use crate::analysis::compare::{MatchKind, MatchedDiff, ReportDiff, UnmatchedResult};
use crate::model::names;
use std::io::Write;

/// The CSV columns of [`to_csv`].
pub const CSV_HEADER: [&str; 13] = [
    "status",
    "base_id",
    "current_id",
    "kernel",
    "metric",
    "label",
    "unit",
    "direction",
    "base",
    "current",
    "delta_pct",
    "verdict",
    "time_delta_ns",
];

fn opt_text(v: Option<f64>) -> String {
    v.map_or_else(String::new, |v| format!("{v}"))
}

/// The comparison as CSV: one row per matched kernel and metric (the duration first), then one
/// row per result only one side has.
pub fn to_csv(diff: &ReportDiff) -> String {
    let mut bytes = Vec::new();
    // Writing into memory cannot fail for I/O reasons.
    let _ = write_csv_with_pairs(&mut bytes, diff, &mut |each| {
        for k in &diff.matched {
            each(k);
        }
    });
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Hands each matched pair of a comparison to the callback it is given, in order.
pub type PairSource<'a> = dyn FnMut(&mut dyn FnMut(&MatchedDiff)) + 'a;

/// Writes [`to_csv`] of `diff` with the rows of the matched pairs taken from `pairs` (the
/// pairs of `diff`, with every metric difference), one pair at a time.
pub fn write_csv_with_pairs(
    w: &mut dyn Write,
    diff: &ReportDiff,
    pairs: &mut PairSource<'_>,
) -> std::io::Result<()> {
    w.write_all(&csv_header())?;
    let mut failed = None;
    pairs(&mut |k| {
        if failed.is_some() {
            return;
        }
        failed = pair_csv(k).and_then(|rows| w.write_all(&rows)).err();
    });
    if let Some(e) = failed {
        return Err(e);
    }
    write_csv_unmatched(w, diff)
}

/// The header line of [`to_csv`].
pub fn csv_header() -> Vec<u8> {
    csv_rows([CSV_HEADER.iter().map(|s| s.to_string()).collect()]).unwrap_or_default()
}

/// Rows as CSV text.
fn csv_rows(rows: impl IntoIterator<Item = Vec<String>>) -> std::io::Result<Vec<u8>> {
    let mut w = ::csv::Writer::from_writer(Vec::new());
    for row in rows {
        w.write_record(&row)?;
    }
    w.into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))
}

/// The rows of [`to_csv`] of one matched pair: the duration, then every other metric. The
/// same cells as one `String` each would give, written from reused buffers instead of a `String` per cell.
pub fn pair_csv(k: &MatchedDiff) -> std::io::Result<Vec<u8>> {
    use std::fmt::Write as _;
    let mut w = ::csv::Writer::from_writer(Vec::with_capacity(256 * (k.diff.metrics.len() + 1)));
    let (base_id, current_id) = (k.base_id.to_string(), k.current_id.to_string());
    // A pair the comparison made of a renamed kernel says so.
    let status = if k.kind == MatchKind::Renamed {
        "renamed"
    } else {
        "matched"
    };
    let (mut base, mut current, mut pct, mut delta) =
        (String::new(), String::new(), String::new(), String::new());
    let metrics = k
        .diff
        .duration
        .iter()
        .chain(k.diff.metrics.iter().filter(|m| m.key != names::DURATION));
    for m in metrics {
        for (cell, v) in [(&mut base, m.base), (&mut current, m.current)] {
            cell.clear();
            let _ = write!(cell, "{v}");
        }
        pct.clear();
        if let Some(v) = m.delta_pct {
            let _ = write!(pct, "{v:.4}");
        }
        delta.clear();
        if m.key == names::DURATION
            && let Some(v) = m.delta()
        {
            let _ = write!(delta, "{v}");
        }
        w.write_record([
            status,
            &base_id,
            &current_id,
            &k.name,
            m.key.as_str(),
            key_label(m.key.as_str()),
            m.unit.as_str(),
            m.direction.name(),
            &base,
            &current,
            &pct,
            m.verdict.name(),
            &delta,
        ])?;
    }
    w.into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))
}

/// [`super::metric_diff::metric_label`] of a key that lives for the whole process, without copying it.
fn key_label(key: &'static str) -> &'static str {
    if let Some((_, label)) = crate::model::catalog::label_for(key) {
        return label;
    }
    match key.split_once('/') {
        Some((_, label)) if !key.contains("__") => label,
        _ => key,
    }
}

/// The rows of [`to_csv`] after the matched pairs: the results only one side has.
pub fn write_csv_unmatched(w: &mut dyn Write, diff: &ReportDiff) -> std::io::Result<()> {
    let unmatched = |status: &str, u: &UnmatchedResult, base_side: bool| -> Vec<String> {
        let duration = opt_text(u.duration_ns);
        let (base_id, current_id, base, current) = if base_side {
            (u.id.to_string(), String::new(), duration, String::new())
        } else {
            (String::new(), u.id.to_string(), String::new(), duration)
        };
        vec![
            status.into(),
            base_id,
            current_id,
            u.name.clone(),
            names::DURATION.into(),
            "Duration".into(),
            "ns".into(),
            "lower".into(),
            base,
            current,
            String::new(),
            String::new(),
            String::new(),
        ]
    };
    let rows = diff
        .only_in_base
        .iter()
        .map(|u| unmatched("only_in_base", u, true))
        .chain(
            diff.only_in_current
                .iter()
                .map(|u| unmatched("only_in_current", u, false)),
        );
    w.write_all(&csv_rows(rows)?)?;
    w.flush()
}
