//! Normalises captured terminal text: invalid UTF-8, CRLF line ends, ANSI escape codes,
//! backspaces. Borrows the input when nothing needs changing.

use std::borrow::Cow;

/// Decodes bytes as text and removes what a terminal capture adds.
pub fn clean(bytes: &[u8]) -> Cow<'_, str> {
    let text = String::from_utf8_lossy(bytes);
    if !text.bytes().any(|b| b == b'\r' || b == 0x1b || b == 0x08) {
        return text;
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                // CRLF becomes LF; a lone CR (progress redraw) ends the line too.
                if chars.peek() != Some(&'\n') {
                    out.push('\n');
                }
            }
            '\u{1b}' => skip_escape(&mut chars),
            '\u{8}' => {
                out.pop();
            }
            _ => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn skip_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    match chars.peek() {
        Some('[') => {
            chars.next();
            // CSI: parameters then one final byte in @..~
            for c in chars.by_ref() {
                if ('@'..='~').contains(&c) {
                    break;
                }
            }
        }
        Some(']') => {
            chars.next();
            // OSC: until BEL or ESC \
            while let Some(c) = chars.next() {
                if c == '\u{7}' {
                    break;
                }
                if c == '\u{1b}' {
                    chars.next();
                    break;
                }
            }
        }
        Some(_) => {
            chars.next();
        }
        None => {}
    }
}

#[cfg(test)]
mod tests {
    use super::clean;

    #[test]
    fn strips_terminal_noise() {
        assert_eq!(clean(b"a\r\nb\x1b[1;32mc\x1b[0m\n"), "a\nbc\n");
        assert_eq!(clean(b"plain\n"), "plain\n");
    }
}
