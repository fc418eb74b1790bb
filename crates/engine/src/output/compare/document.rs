//! The whole JSON document of `diff --format json`: the comparison with both reports, the
//! `--fail-on` rules and their failures and the groups of repeated kernels, its "matched"
//! list written from the file the pairs' items were kept in while they were compared.

use crate::analysis::compare::ReportDiff;
use crate::analysis::compare::fail_on::{FailOn, Failure};
use crate::analysis::compare::groups::groups;
use crate::model::Report;
use std::io::{Seek, Write};

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

/// Writes the JSON document with its "matched" list taken from `pairs`, the file the pairs'
/// items were written to (separated as the list separates them; `none` says none was).
pub fn write_json<W: Write>(
    out: &mut W,
    doc: serde_json::Value,
    pairs: Option<std::io::BufWriter<std::fs::File>>,
    none: bool,
) -> std::io::Result<()> {
    let (head, tail) = super::json_around_pairs(doc)?;
    out.write_all(head.as_bytes())?;
    let Some(tail) = tail else {
        return out.write_all(b"\n");
    };
    out.write_all(b"[")?;
    if let Some(pairs) = pairs {
        let mut file = pairs.into_inner().map_err(|e| e.into_error())?;
        file.seek(std::io::SeekFrom::Start(0))?;
        // From file to standard output by the kernel where it can (the writer's concrete type
        // lets the copy see both ends): gigabytes for a large pair of reports.
        std::io::copy(&mut file, out)?;
    }
    if !none {
        out.write_all(b"\n  ")?;
    }
    out.write_all(b"]")?;
    out.write_all(tail.as_bytes())?;
    out.write_all(b"\n")
}
