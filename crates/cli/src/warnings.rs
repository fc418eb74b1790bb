//! What the headless commands say about reports that loaded with problems: each report's
//! warnings on stderr, files that yielded no result at all, and `--strict`, which makes any
//! warning an error. Notes (text passed over that is not ncu's) are printed too, and are never
//! errors: nothing of a result is lost.

use crate::model::safe_text::visible;
use crate::model::{Format, Report};
use std::path::Path;

/// Prints one line on stderr, `tag: line`, with the control and bidirectional characters of
/// file and kernel names shown by code point (as every output shows them) instead of obeyed
/// by the terminal.
pub fn tell(tag: &str, line: impl std::fmt::Display) {
    eprintln!("{tag}: {}", visible(&line.to_string()));
}

/// The file name of a report's source, or the whole path when it has none.
fn file_of(path: &Path) -> String {
    path.display().to_string()
}

/// Why a report that loaded holds no result, or `None` when it holds some.
pub fn why_empty(report: &Report) -> Option<String> {
    if !report.results.is_empty() {
        return None;
    }
    let mut why = match report.format {
        Format::Session => "the file is a session page: it holds session information only".into(),
        _ => format!(
            "no result could be read from this {} file",
            report.format.name()
        ),
    };
    if !report.warnings.is_empty() {
        why.push_str(" (");
        why.push_str(&crate::model::warning::join(&report.warnings, "; "));
        why.push(')');
    }
    Some(why)
}

/// The problems of the reports that loaded, as `(is_error, line)`: a file without results is
/// always an error; a warning is one under `strict`.
pub fn problems<'a>(
    reports: impl IntoIterator<Item = &'a Report>,
    strict: bool,
) -> Vec<(bool, String)> {
    let mut out = Vec::new();
    for r in reports {
        let file = file_of(&r.source);
        if let Some(why) = why_empty(r) {
            out.push((true, format!("{file}: {why}")));
            continue;
        }
        for w in &r.warnings {
            out.push((strict, format!("{file}: {w}")));
        }
    }
    out
}

/// The notes of the reports that loaded with results, one line each.
pub fn notes<'a>(reports: impl IntoIterator<Item = &'a Report>) -> Vec<String> {
    reports
        .into_iter()
        .filter(|r| !r.results.is_empty())
        .flat_map(|r| {
            let file = file_of(&r.source);
            r.all_notes()
                .into_iter()
                .map(move |n| format!("{file}: {n}"))
        })
        .collect()
}

/// Prints the problems of the reports on stderr (`warning: ...` or `error: ...`), then their
/// notes (`note: ...`), and says whether any of them is an error.
pub fn report_problems<'a>(
    reports: impl IntoIterator<Item = &'a Report> + Clone,
    strict: bool,
) -> bool {
    let list = problems(reports.clone(), strict);
    for (is_error, line) in &list {
        tell(if *is_error { "error" } else { "warning" }, line);
    }
    for line in notes(reports) {
        tell("note", line);
    }
    list.iter().any(|(e, _)| *e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{KernelResult, Warning, WarningKind};

    #[test]
    fn empty_reports_are_errors_and_strict_makes_warnings_errors() {
        let mut session = Report::new("a/s.txt", Format::Session);
        session
            .warnings
            .push(Warning::new(WarningKind::Skipped, "skipped 2 lines"));
        let mut text = Report::new("b/k.txt", Format::CliText);
        text.results.push(KernelResult::default());
        text.warnings
            .push(Warning::new(WarningKind::Skipped, "skipped 1 line"));
        let p = problems([&session, &text], false);
        assert_eq!(p.len(), 2);
        assert!(p[0].0 && p[0].1.starts_with("a/s.txt: the file is a session page"));
        assert!(p[0].1.ends_with("(skipped 2 lines)"));
        assert_eq!(p[1], (false, "b/k.txt: skipped 1 line".to_string()));
        assert!(problems([&text], true)[0].0);
        assert!(problems([&text], false).iter().all(|(e, _)| !e));
    }

    #[test]
    fn notes_are_never_problems() {
        let mut text = Report::new("k.txt", Format::CliText);
        text.results.push(KernelResult::default());
        text.notes.push("3 lines passed over".into());
        assert!(problems([&text], true).is_empty());
        assert_eq!(notes([&text]), ["k.txt: 3 lines passed over"]);
    }
}
