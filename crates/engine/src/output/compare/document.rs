//! The whole JSON document of `diff --format json`: the comparison with both reports, the
//! `--fail-on` rules and their failures and the groups of repeated kernels, its "matched"
//! list written from the files the pairs' items were kept in while they were compared.

use crate::analysis::compare::ReportDiff;
use crate::analysis::compare::fail_on::{FailOn, Failure};
use crate::analysis::compare::groups::groups;
use crate::model::Report;
use crate::output::spill::{Pieces, Spill};
use std::io::Write;

/// The JSON document of the comparison without its pairs
/// ([`super::to_json_without_pairs`]), with both sides, the failures and the groups of
/// repeated kernels; [`write_json`] writes the pairs into its "matched" list.
pub fn json_document(
    diff: &ReportDiff,
    base: &Report,
    current: &Report,
    fail_on: &FailOn,
    failures: &[Failure],
) -> serde_json::Value {
    let mut doc = super::to_json_without_pairs(diff);
    let side = |r: &Report| {
        serde_json::json!({
            "path": r.source.display().to_string(),
            "format": r.format.name(),
            "tool_version": r.tool_version,
            "results": r.results.len(),
        })
    };
    if let Some(obj) = doc.as_object_mut() {
        obj.insert("base".into(), side(base));
        obj.insert("current".into(), side(current));
        obj.insert("failed".into(), (!failures.is_empty()).into());
        obj.insert(
            "base_captured_after_current".into(),
            super::text::capture_order_note(base, current)
                .is_some()
                .into(),
        );
        obj.insert(
            "groups".into(),
            serde_json::to_value(groups(&base.results, &current.results, &diff.renamed))
                .unwrap_or(serde_json::Value::Null),
        );
        obj.insert(
            "fail_on".into(),
            serde_json::json!({
                "rules": fail_on.rules.iter().map(|(t, _)| t).collect::<Vec<_>>(),
                "failures": failures,
            }),
        );
    }
    doc
}

/// Writes the JSON document with its "matched" list taken from `pairs`, the pieces the pairs'
/// items were kept in while they were compared, each an item after the separator that comes
/// between two ([`super::pair_json::append_pair_json_item`]); `None` when no pair was written.
pub fn write_json<W: Write>(
    out: &mut W,
    doc: serde_json::Value,
    pairs: Option<(Spill, Pieces)>,
) -> std::io::Result<()> {
    let (head, tail) = super::json_around_pairs(doc)?;
    out.write_all(head.as_bytes())?;
    let Some(tail) = tail else {
        return out.write_all(b"\n");
    };
    out.write_all(b"[")?;
    if let Some((spill, pieces)) = pairs.filter(|(_, pieces)| !pieces.is_empty()) {
        // The first item's comma left out. From the files to standard output by the kernel
        // where it can (the writer's concrete type lets the copy see both ends): gigabytes for
        // a large pair of reports.
        spill.copy_to(&pieces, out, 1)?;
        out.write_all(b"\n  ")?;
    }
    out.write_all(b"]")?;
    out.write_all(tail.as_bytes())?;
    out.write_all(b"\n")
}
