//! Short texts every surface spells the same way: a rule's title and speedup label, a rule
//! message without its link markup, the first words of a message, a byte count, a file name
//! and a file stem safe for any file system. Values are spelled by `model::format`.

use crate::model::{RuleResult, SpeedupKind};

/// The name a rule is shown under: its heading (title, rule name, identifier), else the start of
/// its message.
pub fn rule_title(rule: &RuleResult) -> String {
    // The catalogue's heading, the same whatever form the result was read from.
    let heading = rule.heading();
    let heading = heading.trim();
    if heading.is_empty() {
        first_words(&rule.message, 60)
    } else {
        heading.to_string()
    }
}

/// The speedup label of a rule (`Est. Speedup: 43.64%`), when it has one.
pub fn speedup_text(rule: &RuleResult) -> Option<String> {
    rule.speedup.map(|(kind, pct)| match kind {
        SpeedupKind::Global => format!("Est. Speedup: {pct:.2}%"),
        SpeedupKind::Local => format!("Est. Local Speedup: {pct:.2}%"),
    })
}

/// At most `max_chars` characters of `text`, cut at a word boundary, with `…` when cut.
pub fn first_words(text: &str, max_chars: usize) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= max_chars {
        return one_line;
    }
    let cut: String = one_line.chars().take(max_chars).collect();
    let cut = match cut.rfind(' ') {
        Some(i) if i > max_chars / 2 => &cut[..i],
        _ => cut.as_str(),
    };
    format!("{}…", cut.trim_end_matches([',', ';', ':', '.']))
}

/// Rule message markup as plain text: `@url:text:url@`, `@section:id:text@`,
/// `@sass:addr:text@` and `@source:file:line:text@` become their text.
pub fn clean_markup(message: &str) -> String {
    const KINDS: [(&str, usize); 4] = [("url:", 1), ("section:", 1), ("sass:", 1), ("source:", 2)];
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(start) = rest.find('@') {
        let after = &rest[start + 1..];
        let kind = KINDS.iter().find(|(k, _)| after.starts_with(k));
        let end = after.find('@');
        match (kind, end) {
            (Some((k, skip)), Some(end)) => {
                out.push_str(&rest[..start]);
                let body = &after[k.len()..end];
                let text = if *k == "url:" {
                    body.split(':').next().unwrap_or(body)
                } else {
                    body.splitn(skip + 1, ':').nth(*skip).unwrap_or(body)
                };
                out.push_str(text);
                rest = &after[end + 1..];
            }
            _ => {
                out.push_str(&rest[..=start]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A byte count for people (`1.25 MB`).
pub fn size_text(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.0} KB", b / 1e3)
    } else {
        format!("{bytes} B")
    }
}

/// The file name of a path, or the whole path when it has none.
pub fn file_name(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// A file name made of letters, digits, `-`, `_` and `.` only.
pub fn safe_file_stem(text: &str) -> String {
    let stem: String = text
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let stem = stem.trim_matches('_');
    if stem.is_empty() {
        "comparison".into()
    } else {
        stem.chars().take(100).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_link_markup() {
        assert_eq!(
            clean_markup(
                "See @section:WarpStateStats:Warp State@ and @url:the guide:https://x.y/z@."
            ),
            "See Warp State and the guide."
        );
        assert_eq!(clean_markup("mail a@b and 50@"), "mail a@b and 50@");
    }

    #[test]
    fn cuts_long_messages() {
        assert_eq!(first_words("short   text", 20), "short text");
        assert_eq!(
            first_words("All compute pipelines are under-utilized. Either", 30),
            "All compute pipelines are…"
        );
    }
}
