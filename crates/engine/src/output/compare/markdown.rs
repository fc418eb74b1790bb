//! The Markdown of a comparison, for pull-request comments.

use crate::analysis::compare::export::*;
use crate::analysis::compare::{MatchedDiff, ReportDiff};
use crate::model::format::NOT_MEASURED;
use crate::model::format::stored_value_text;
use crate::model::format::value_text;

/// Options of [`to_markdown`].
#[derive(Debug, Clone, PartialEq)]
pub struct MarkdownOptions {
    /// A heading line (`Comparison: a.ncu-rep → b.ncu-rep`); none when empty.
    pub title: String,
    /// How many metric changes to list when the comparison was not restricted.
    pub max_changes: usize,
}

impl Default for MarkdownOptions {
    fn default() -> Self {
        MarkdownOptions {
            title: String::new(),
            max_changes: DEFAULT_MAX_CHANGES,
        }
    }
}

/// Escapes text for a Markdown table cell inside a code span.
fn md_code(s: &str) -> String {
    crate::model::safe_text::markdown_code(s)
}

fn md_text(s: &str) -> String {
    crate::model::safe_text::markdown_text(s)
}

/// The comparison as Markdown: warnings, a table of matched kernels sorted by impact, the time
/// totals, the biggest changes (or the chosen metrics), and the unmatched results.
pub fn to_markdown(diff: &ReportDiff, opts: &MarkdownOptions) -> String {
    let mut out = String::new();
    if !opts.title.is_empty() {
        out.push_str(&format!("### {}\n\n", md_text(&opts.title)));
    }
    let regressions = diff.regressions().count();
    out.push_str(&if regressions == 0 {
        format!(
            "**No regression** beyond {}% ({} matched).\n\n",
            diff.threshold_pct,
            count_text(diff.matched.len(), "kernel", "kernels")
        )
    } else {
        format!(
            "**{} got worse** beyond {}% ({} matched).\n\n",
            count_text(regressions, "kernel", "kernels"),
            diff.threshold_pct,
            count_text(diff.matched.len(), "kernel", "kernels")
        )
    });
    if !diff.warnings.is_empty() {
        out.push_str("> [!WARNING]\n");
        for w in &diff.warnings {
            out.push_str(&format!("> - {}\n", md_text(&w.to_string())));
        }
        out.push('\n');
    }
    if !diff.matched.is_empty() {
        out.push_str(
            "| Kernel | IDs | Duration base | Duration current | Δ duration | Verdict | Time |",
        );
        for (_, label) in HEADLINE_METRICS {
            out.push_str(&format!(" Δ {label} |"));
        }
        out.push_str("\n|---|---|--:|--:|--:|---|--:|");
        out.push_str(&"--:|".repeat(HEADLINE_METRICS.len()));
        out.push('\n');
        for k in diff.by_impact() {
            let d = k.diff.duration.as_ref();
            let value =
                |v: Option<f64>| v.map_or_else(|| NOT_MEASURED.into(), |x| value_text(x, "ns"));
            out.push_str(&format!(
                "| {} | {} → {} | {} | {} | {} | {} | {} |",
                md_code(&short_name(&k.name, MAX_NAME_CHARS)),
                k.base_id,
                k.current_id,
                value(k.base_duration_ns),
                value(k.current_duration_ns),
                delta_text(d),
                d.map_or(NOT_MEASURED, |d| d.verdict.name()),
                k.time_delta_ns()
                    .map_or_else(|| NOT_MEASURED.into(), time_delta_text),
            ));
            for (key, _) in HEADLINE_METRICS {
                out.push_str(&format!(" {} |", delta_text(k.diff.get(key))));
            }
            out.push('\n');
        }
        out.push('\n');
        for line in totals_lines(diff) {
            match line.split_once(": ") {
                Some((head, rest)) => out.push_str(&format!("- **{head}:** {rest}\n")),
                None => out.push_str(&format!("- {line}\n")),
            }
        }
    }
    let changes = listed_changes(diff, opts.max_changes);
    if !changes.is_empty() {
        out.push_str(if diff.restricted {
            "\n#### Selected metrics\n\n"
        } else {
            "\n#### Biggest metric changes\n\n"
        });
        out.push_str(
            "| Kernel | Metric | Base | Current | Δ | Verdict |\n|---|---|--:|--:|--:|---|\n",
        );
        for c in changes {
            let m = c.metric;
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                md_code(&short_name(&c.kernel.name, 50)),
                md_code(&m.key),
                md_text(&stored_value_text(&m.base, &m.unit)),
                md_text(&stored_value_text(&m.current, &m.unit)),
                delta_text(Some(m)),
                m.verdict.name(),
            ));
        }
    }
    for (title, list) in [
        ("Only in base", &diff.only_in_base),
        ("Only in current", &diff.only_in_current),
    ] {
        if list.is_empty() {
            continue;
        }
        out.push_str(&format!("\n#### {title}\n\n"));
        for u in list {
            let duration = u
                .duration_ns
                .map_or_else(String::new, |d| format!(", {}", value_text(d, "ns")));
            out.push_str(&format!(
                "- {} (ID {}{duration})\n",
                md_code(&short_name(&u.name, MAX_NAME_CHARS)),
                u.id
            ));
        }
    }
    if !diff.renamed.is_empty() {
        out.push_str("\n#### Paired as renamed\n\n");
        for line in renamed_lines_with(diff, &md_code, &md_text) {
            out.push_str(&format!("- {line}\n"));
        }
    }
    if !diff.suggested_pairs.is_empty() {
        out.push_str("\n#### Renamed?\n\n");
        for line in suggested_lines_with(diff, &md_code, &md_text) {
            out.push_str(&format!("- {line}\n"));
        }
    }
    let explained: Vec<&MatchedDiff> = diff
        .by_impact()
        .into_iter()
        .filter(|k| !k.why.is_empty() || !k.changes.is_empty())
        .take(opts.max_changes)
        .collect();
    if !explained.is_empty() {
        out.push_str("\n#### Why it changed\n\n");
        for k in explained {
            out.push_str(&format!(
                "- {} ({} → {})\n",
                md_code(&short_name(&k.name, MAX_NAME_CHARS)),
                k.base_id,
                k.current_id
            ));
            for c in &k.changes {
                out.push_str(&format!("  - {}\n", md_text(c)));
            }
            for w in listed_why(&k.why) {
                out.push_str(&format!("  - {}\n", md_text(&w.text)));
            }
        }
    }
    out
}
