//! The `--fail-on` rules that fired in a comparison, as each form of `diff` lists them: a
//! line per failure (text), a Markdown section and an HTML section of the page.

use crate::analysis::compare::export::{MAX_NAME_CHARS, short_name};
use crate::analysis::compare::fail_on::Failure;
use crate::model::format::NOT_MEASURED;
use crate::output::html_page::escape;

/// One failure: the result IDs of both sides, the kernel, what failed and the rule.
pub fn failure_line(f: &Failure) -> String {
    let ids = match (f.base_id, f.current_id) {
        (Some(b), Some(c)) => format!("{b}→{c}"),
        (Some(b), None) => format!("{b}→-"),
        (None, Some(c)) => format!("-→{c}"),
        (None, None) => NOT_MEASURED.into(),
    };
    format!(
        "{ids} {}: {} [{}]",
        short_name(&f.kernel, MAX_NAME_CHARS),
        f.detail,
        f.rule
    )
}

/// The Markdown section that says which rules fired.
pub fn failures_markdown(failures: &[Failure]) -> String {
    let mut out = String::from("\n#### Result\n\n");
    if failures.is_empty() {
        out.push_str("No `--fail-on` rule fired.\n");
    } else {
        for f in failures {
            out.push_str(&format!("- {}\n", failure_line(f)));
        }
    }
    out
}

/// The HTML page `page` with a section that says which `--fail-on` rules fired before its end
/// (the page unchanged when none did).
pub fn with_failures_html(mut page: String, failures: &[Failure]) -> String {
    if !failures.is_empty() {
        let list: String = failures
            .iter()
            .map(|f| format!("<li>{}</li>\n", escape(&failure_line(f))))
            .collect();
        let section = format!("<h2>Result</h2>\n<ul class=\"failures\">\n{list}</ul>\n");
        if let Some(at) = page.rfind("<p class=\"muted\">Made by") {
            page.insert_str(at, &section);
        }
    }
    page
}
