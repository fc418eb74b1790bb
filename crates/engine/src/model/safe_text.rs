//! Text from reports (kernel names, rule messages, file names) made safe for the places it is
//! written to: terminal control characters and the Unicode bidirectional controls, which can
//! make a name read as another (`U+202E` reverses what follows), are shown as `<U+202E>`;
//! Markdown gets its active characters escaped and its code spans fenced so that no name ends
//! them early. HTML escaping ([`crate::output::html_page::escape`]) shows them the same way.

use std::borrow::Cow;

/// Whether `c` is shown by its code point: a control character (tab and line feed aside) or a
/// bidirectional formatting character.
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// How a hidden character is shown: `<U+202E>`.
pub fn code_point(c: char) -> String {
    format!("<U+{:04X}>", c as u32)
}

/// `text` with every hidden character ([`is_hidden`]) shown by its code point.
pub fn visible(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_hidden(c) {
            out.push_str(&code_point(c));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` as Markdown that reads as the text itself: hidden characters shown, HTML's `<`, `>`
/// and `&` as entities, Markdown's active characters behind a backslash (not `_`: kernel and
/// file names are full of it, and inside a word it emphasises nothing).
pub fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in visible(text).chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '`' | '*' | '[' | ']' | '|' | '#' | '~' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// `text` as one Markdown code span (fit for a table cell): fenced by more backticks than
/// any run inside it, hidden characters shown, `|` escaped, line breaks as spaces.
pub fn markdown_code(text: &str) -> String {
    let shown = visible(text).replace(['\n', '\r'], " ").replace('|', "\\|");
    let longest = shown.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if shown.starts_with('`') || shown.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{shown}{pad}{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_shown_by_code_point() {
        assert_eq!(visible("k\u{202E}lanigiro"), "k<U+202E>lanigiro");
        assert_eq!(visible("a\u{1b}[31mred"), "a<U+001B>[31mred");
        assert_eq!(visible("\u{2066}x\u{2069}"), "<U+2066>x<U+2069>");
        assert!(matches!(visible("plain(int)\ttab\n"), Cow::Borrowed(_)));
    }

    #[test]
    fn markdown_keeps_names_inert() {
        assert_eq!(
            markdown_text("q\"><img src=x onerror=alert(1)>"),
            "q\"&gt;&lt;img src=x onerror=alert(1)&gt;"
        );
        assert_eq!(markdown_text("a_b*c|d"), "a_b\\*c\\|d");
        assert_eq!(markdown_code("k<int>"), "`k<int>`");
        assert_eq!(markdown_code("a`b``c"), "```a`b``c```");
        assert_eq!(markdown_code("`x"), "`` `x ``");
        assert_eq!(markdown_code("a|b"), "`a\\|b`");
        assert_eq!(markdown_code("r\u{202E}x"), "`r<U+202E>x`");
    }
}
