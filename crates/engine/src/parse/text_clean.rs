//! Normalises captured terminal text: a byte-order mark, invalid UTF-8, CRLF line ends, ANSI
//! escape codes, backspaces. Borrows the input when nothing needs changing.
//!
//! Valid text is read once: each block of the input is searched for the bytes that need
//! cleaning (CR, ESC, BS) and then checked as UTF-8 while it is still in the cache. Cleaning
//! copies the runs between those bytes; as they are all ASCII, a run never splits a character.

use std::borrow::Cow;

const CR: u8 = b'\r';
const ESC: u8 = 0x1b;
const BS: u8 = 0x08;
const BEL: u8 = 0x07;

/// The UTF-8 byte-order mark some editors write at the start of a file.
const BOM: &[u8] = b"\xef\xbb\xbf";

/// Decodes bytes as text and removes what a terminal capture or an editor adds: a leading
/// byte-order mark is dropped, CRLF becomes LF, a lone CR ends the line, ANSI CSI and OSC
/// escapes are dropped, a backspace erases the character before it, and invalid UTF-8 becomes
/// U+FFFD.
pub fn clean(bytes: &[u8]) -> Cow<'_, str> {
    let bytes = bytes.strip_prefix(BOM).unwrap_or(bytes);
    match decode_and_find_noise(bytes) {
        Some((text, None)) => Cow::Borrowed(text),
        Some((text, Some(first))) => Cow::Owned(strip_noise(text, first)),
        None => {
            let text = String::from_utf8_lossy(bytes).into_owned();
            match first_noise(text.as_bytes()) {
                None => Cow::Owned(text),
                Some(first) => Cow::Owned(strip_noise(&text, first)),
            }
        }
    }
}

/// Whether `bytes` hold a CR, ESC or BS byte that [`clean`] removes or turns into a line end.
pub fn has_noise(bytes: &[u8]) -> bool {
    first_noise(bytes).is_some()
}

/// The offset of the first CR, ESC or BS byte.
fn first_noise(bytes: &[u8]) -> Option<usize> {
    memchr::memchr3(CR, ESC, BS, bytes)
}

/// The bytes as text and the offset of the first byte to clean; `None` when they are not UTF-8.
fn decode_and_find_noise(bytes: &[u8]) -> Option<(&str, Option<usize>)> {
    let text = std::str::from_utf8(bytes).ok()?;
    Some((text, first_noise(bytes)))
}

/// Rebuilds `text` without its terminal noise; `first` is the offset of the first CR, ESC or BS.
fn strip_noise(text: &str, first: usize) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut run_start = 0;
    let mut noise_at = first;
    loop {
        // Noise bytes are ASCII, so both ends of the run are character boundaries.
        out.push_str(text.get(run_start..noise_at).unwrap_or_default());
        run_start = match bytes.get(noise_at) {
            Some(&CR) => {
                // CRLF becomes LF (the LF starts the next run); a lone CR (progress redraw)
                // ends the line too.
                if bytes.get(noise_at + 1) != Some(&b'\n') {
                    out.push('\n');
                }
                noise_at + 1
            }
            Some(&BS) => {
                out.pop();
                noise_at + 1
            }
            Some(_) => escape_end(bytes, noise_at + 1),
            None => break,
        };
        let rest = bytes.get(run_start..).unwrap_or_default();
        match first_noise(rest) {
            Some(at) => noise_at = run_start + at,
            None => {
                out.push_str(text.get(run_start..).unwrap_or_default());
                break;
            }
        }
    }
    out
}

/// The offset just past an escape sequence whose ESC byte came right before `from`.
fn escape_end(bytes: &[u8], from: usize) -> usize {
    let rest = bytes.get(from..).unwrap_or_default();
    let body = rest.get(1..).unwrap_or_default();
    let end = match rest.first() {
        // CSI: parameters, then one final byte in @..~ (no byte of a multi-byte character is).
        Some(b'[') => body
            .iter()
            .position(|b| (b'@'..=b'~').contains(b))
            .map_or(bytes.len(), |at| from + 1 + at + 1),
        // OSC: up to BEL, or ESC and the one character after it (`ESC \`).
        Some(b']') => match memchr::memchr2(BEL, ESC, body) {
            Some(at) if body.get(at) == Some(&BEL) => from + 1 + at + 1,
            Some(at) => {
                let after = from + 1 + at + 1;
                after + char_len(bytes.get(after).copied())
            }
            None => bytes.len(),
        },
        // Any other escape: ESC and one character.
        lead => from + char_len(lead.copied()),
    };
    end.min(bytes.len())
}

/// The length of the UTF-8 character that starts with `lead` (0 at the end of the text).
fn char_len(lead: Option<u8>) -> usize {
    match lead {
        None => 0,
        Some(b) if b < 0x80 => 1,
        Some(b) if b < 0xe0 => 2,
        Some(b) if b < 0xf0 => 3,
        Some(_) => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::clean;

    /// A size past which a reader working in blocks would split the text.
    const BLOCK: usize = 64 * 1024;
    use std::borrow::Cow;

    #[test]
    fn strips_terminal_noise() {
        assert_eq!(clean(b"a\r\nb\x1b[1;32mc\x1b[0m\n"), "a\nbc\n");
        assert_eq!(clean(b"plain\n"), "plain\n");
    }

    #[test]
    fn borrows_clean_text() {
        assert!(matches!(
            clean("plain \u{e9}\u{20ac}\n".as_bytes()),
            Cow::Borrowed(_)
        ));
        assert!(matches!(clean(b""), Cow::Borrowed("")));
        assert!(matches!(clean(b"a\r\n"), Cow::Owned(_)));
    }

    #[test]
    fn a_byte_order_mark_is_dropped() {
        assert!(matches!(
            clean(b"\xef\xbb\xbfa,b\n"),
            Cow::Borrowed("a,b\n")
        ));
        assert_eq!(clean(b"\xef\xbb\xbfa\r\n"), "a\n");
        // Only at the start: elsewhere it is text.
        assert_eq!(clean("a\u{feff}b".as_bytes()), "a\u{feff}b");
    }

    #[test]
    fn crlf_becomes_lf() {
        assert_eq!(clean(b"one\r\ntwo\r\n"), "one\ntwo\n");
        assert_eq!(clean(b"\r\r\n"), "\n\n");
    }

    #[test]
    fn lone_cr_ends_the_line() {
        assert_eq!(clean(b"10%\r50%\r100%\n"), "10%\n50%\n100%\n");
        assert_eq!(clean(b"end\r"), "end\n");
    }

    #[test]
    fn csi_escapes_are_dropped() {
        assert_eq!(clean(b"\x1b[1;32mgreen\x1b[0m"), "green");
        assert_eq!(clean(b"a\x1b[2Kb\x1b[?25lc"), "abc");
        // A CSI runs to its final byte, across anything before it.
        assert_eq!(clean("x\x1b[1\u{e9}\n2Ay".as_bytes()), "xy");
    }

    #[test]
    fn osc_escapes_are_dropped() {
        assert_eq!(clean(b"\x1b]0;title\x07text"), "text");
        assert_eq!(clean(b"\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"), "link");
        // The character after the ESC that ends an OSC goes with it, even a multi-byte one.
        assert_eq!(clean("\x1b]0;t\x1b\u{20ac}rest".as_bytes()), "rest");
    }

    #[test]
    fn other_escapes_drop_one_character() {
        assert_eq!(clean(b"a\x1b7b\x1b8c"), "abc");
        assert_eq!(clean("a\x1b\u{e9}b".as_bytes()), "ab");
        assert_eq!(clean(b"a\x1b\nb"), "ab");
    }

    #[test]
    fn escapes_cut_at_the_end_are_dropped() {
        assert_eq!(clean(b"done\x1b"), "done");
        assert_eq!(clean(b"done\x1b["), "done");
        assert_eq!(clean(b"done\x1b[1;3"), "done");
        assert_eq!(clean(b"done\x1b]0;tit"), "done");
        assert_eq!(clean(b"done\x1b]0;title\x1b"), "done");
    }

    #[test]
    fn backspace_erases_the_character_before() {
        assert_eq!(clean(b"abc\x08\x08d"), "ad");
        assert_eq!(clean(b"\x08\x08a"), "a");
        // A multi-byte character goes whole.
        assert_eq!(clean("caf\u{e9}\x08e".as_bytes()), "cafe");
        assert_eq!(clean("x\u{1f600}\x08y".as_bytes()), "xy");
        // So does a line end (CRLF counts as one).
        assert_eq!(clean(b"a\r\n\x08b"), "ab");
    }

    #[test]
    fn invalid_utf8_is_replaced() {
        assert_eq!(clean(b"a\xffb"), "a\u{fffd}b");
        assert_eq!(clean(b"cut \xe2\x82"), "cut \u{fffd}");
        // Replacement characters are cleaned like any other character.
        assert_eq!(clean(b"a\xff\x08b\r\n"), "ab\n");
        assert_eq!(clean(b"a\x1b\xffb"), "ab");
    }

    #[test]
    fn characters_across_block_ends_are_kept() {
        // Multi-byte characters at every position around the end of the first block.
        for shift in 0..6 {
            let mut bytes = vec![b'x'; BLOCK - 4 + shift];
            bytes.extend_from_slice("\u{e9}\u{20ac}\u{1f600}\r\n".as_bytes());
            bytes.extend(std::iter::repeat_n(b'y', BLOCK));
            bytes.extend_from_slice("\u{1f600}\x1b[0m".as_bytes());
            let text = clean(&bytes);
            let expected = String::from_utf8(bytes.clone())
                .unwrap()
                .replace("\r\n", "\n")
                .replace("\x1b[0m", "");
            assert_eq!(text, expected, "shift {shift}");

            bytes.push(0xff);
            assert!(
                clean(&bytes).ends_with("\u{1f600}\u{fffd}"),
                "shift {shift}"
            );
        }
    }
}
