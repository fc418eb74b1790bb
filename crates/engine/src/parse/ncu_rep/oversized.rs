//! Result messages with a field far larger than any report holds (a crafted comment of a
//! gigabyte in a report of kilobytes) are read without that field: the message is walked field
//! by field through a bounded window, fields up to [`MAX_FIELD_BYTES`] are copied, and each
//! larger one is replaced by a short note ([`LEFT_OUT_FIELD`]) naming its number and size, which
//! the decoder turns into a warning. Only messages longer than the bound are walked this way;
//! every other message is read whole as before.
//!
//! The largest top-level field of a result in the public corpus is a section template of
//! 550 KB, the largest result message 2.2 MB: the bound is over a hundred times that.

use crate::model::{Warning, WarningKind};
use prost::encoding::encode_varint;
use std::collections::BTreeMap;
use std::io;

/// The most bytes one top-level field of a result may hold and still be read.
pub const MAX_FIELD_BYTES: u64 = 64 << 20;

/// The field number of the note left where a field was too large to read: the largest field
/// number protobuf allows, which no schema uses.
pub const LEFT_OUT_FIELD: u32 = (1 << 29) - 1;

/// Bytes of the message read at a time.
const WINDOW: usize = 1 << 20;

/// The most bytes a field's tag and length take (two varints of at most 10 bytes).
const HEADER_MAX: usize = 20;

/// What a malformed field header keeps after it: enough for the decoder to report the damage
/// as it would in the whole message.
const DAMAGE_KEPT: u64 = 64 << 10;

/// Reads positioned bytes of the message: `read_at(offset in the message, buffer)`, returning
/// how many bytes it read (0 at the end of the file).
pub type ReadAt<'r> = dyn FnMut(u64, &mut [u8]) -> io::Result<usize> + 'r;

/// Reads a message of `len` bytes, leaving out each top-level length-delimited field larger
/// than [`MAX_FIELD_BYTES`] (a note stands in its place). A message that ends early (a file
/// cut short) or whose framing breaks is copied up to the damage, plus a little after it,
/// for the decoder to report.
pub fn read_compacted(read_at: &mut ReadAt<'_>, len: u64) -> io::Result<Vec<u8>> {
    let mut window = Window {
        read_at,
        len,
        start: 0,
        data: Vec::new(),
    };
    let mut out = Vec::new();
    let mut pos = 0u64;
    while pos < len {
        let head = window.at(pos)?;
        let Some((number, wire, header, field_len)) = field_header(head) else {
            window.copy(pos, (pos + DAMAGE_KEPT).min(len), &mut out)?;
            break;
        };
        let value = pos + header as u64;
        let end = match wire {
            0 => value,
            1 => value + 8,
            5 => value + 4,
            2 => value.saturating_add(field_len),
            _ => {
                window.copy(pos, (pos + DAMAGE_KEPT).min(len), &mut out)?;
                break;
            }
        };
        if wire == 2 && field_len > MAX_FIELD_BYTES && end <= len {
            out.extend_from_slice(&note(number, field_len));
        } else if end > len {
            // The field runs past the message: the decoder says so.
            window.copy(pos, (pos + DAMAGE_KEPT).min(len), &mut out)?;
            break;
        } else {
            window.copy(pos, end, &mut out)?;
        }
        pos = end;
    }
    Ok(out)
}

/// [`read_compacted`] of the message of `len` bytes at `offset` in `file`, read with
/// positioned reads (the file's own position is left as it is).
pub fn read_compacted_at(file: &std::fs::File, offset: u64, len: u32) -> io::Result<Vec<u8>> {
    let mut read_at = |at: u64, buf: &mut [u8]| {
        crate::parse::reopen::read_at(file, buf, offset.saturating_add(at))
    };
    read_compacted(&mut read_at, u64::from(len))
}

/// The fields of a report's messages left out for their size.
#[derive(Debug, Default)]
pub struct LeftOut {
    /// Per (message, field number): how many messages, and the largest field's bytes.
    fields: BTreeMap<(&'static str, u32), (u64, u64)>,
}

impl LeftOut {
    /// Counts the fields (number, bytes) left out of one message of type `message`.
    pub fn add(&mut self, message: &'static str, fields: &[(u32, u64)]) {
        for &(number, bytes) in fields {
            let (count, largest) = self.fields.entry((message, number)).or_default();
            *count += 1;
            *largest = (*largest).max(bytes);
        }
    }

    /// One warning per kind of field left out.
    pub fn warnings(&self) -> Vec<Warning> {
        self.fields
            .iter()
            .map(|(&(message, number), &(count, largest))| {
                Warning::new(
                    WarningKind::Skipped,
                    format!(
                        "{message} field {number} of {largest} bytes is larger than any report \
                         holds ({MAX_FIELD_BYTES} bytes at most are read): left out of {count} {}",
                        if count == 1 { "message" } else { "messages" }
                    ),
                )
            })
            .collect()
    }
}

/// The note standing for a field `number` of `len` bytes that was left out.
fn note(number: u32, len: u64) -> Vec<u8> {
    let mut payload = Vec::new();
    encode_varint(u64::from(number), &mut payload);
    encode_varint(len, &mut payload);
    let mut out = Vec::new();
    encode_varint((u64::from(LEFT_OUT_FIELD) << 3) | 2, &mut out);
    encode_varint(payload.len() as u64, &mut out);
    out.extend_from_slice(&payload);
    out
}

/// The field number and size a note (the payload of a [`LEFT_OUT_FIELD`]) names.
pub fn note_of(payload: &[u8]) -> Option<(u32, u64)> {
    let (number, used) = varint(payload)?;
    let (len, _) = varint(payload.get(used..)?)?;
    Some((u32::try_from(number).ok()?, len))
}

/// The field number, wire type, header size and (for length-delimited fields) length of the
/// field starting at `bytes`.
fn field_header(bytes: &[u8]) -> Option<(u32, u8, usize, u64)> {
    let (key, used) = varint(bytes)?;
    let number = u32::try_from(key >> 3).ok().filter(|&n| n > 0)?;
    let wire = (key & 7) as u8;
    match wire {
        0 => {
            let (_, n) = varint(bytes.get(used..)?)?;
            Some((number, wire, used + n, 0))
        }
        2 => {
            let (len, n) = varint(bytes.get(used..)?)?;
            Some((number, wire, used + n, len))
        }
        _ => Some((number, wire, used, 0)),
    }
}

/// A varint at the start of `bytes` and the bytes it takes.
fn varint(bytes: &[u8]) -> Option<(u64, usize)> {
    let mut rest = bytes;
    let value = prost::encoding::decode_varint(&mut rest).ok()?;
    Some((value, bytes.len() - rest.len()))
}

/// A window of at most [`WINDOW`] bytes of the message, read as the walk moves on.
struct Window<'a, 'r> {
    read_at: &'a mut ReadAt<'r>,
    len: u64,
    /// Offset in the message of `data[0]`.
    start: u64,
    data: Vec<u8>,
}

impl Window<'_, '_> {
    /// The bytes of the message from `pos` on that the window holds after reading on where
    /// fewer than a field header's worth are held (fewer at the end of the message or file).
    fn at(&mut self, pos: u64) -> io::Result<&[u8]> {
        let end = self.start + self.data.len() as u64;
        if pos < self.start || pos >= end || (pos + HEADER_MAX as u64 > end && end < self.len) {
            let want = usize::try_from((self.len - pos).min(WINDOW as u64)).unwrap_or(WINDOW);
            self.data.resize(want, 0);
            let mut got = 0;
            while got < want {
                match (self.read_at)(pos + got as u64, &mut self.data[got..]) {
                    Ok(0) => break,
                    Ok(n) => got += n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            }
            self.data.truncate(got);
            self.start = pos;
        }
        let from = usize::try_from(pos - self.start).unwrap_or(usize::MAX);
        Ok(self.data.get(from..).unwrap_or(&[]))
    }

    /// Appends the message's bytes `from..to` to `out` (fewer where the file ends first).
    fn copy(&mut self, from: u64, to: u64, out: &mut Vec<u8>) -> io::Result<()> {
        let mut pos = from;
        while pos < to {
            let held = self.at(pos)?;
            let n = held
                .len()
                .min(usize::try_from(to - pos).unwrap_or(usize::MAX));
            if n == 0 {
                break;
            }
            out.extend_from_slice(&held[..n]);
            pos += n as u64;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(number: u32, payload: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        encode_varint((u64::from(number) << 3) | 2, &mut out);
        encode_varint(payload.len() as u64, &mut out);
        out.extend_from_slice(payload);
        out
    }

    fn read(message: &[u8]) -> Vec<u8> {
        let mut read_at = |at: u64, buf: &mut [u8]| -> io::Result<usize> {
            let from = (at as usize).min(message.len());
            let n = buf.len().min(message.len() - from);
            buf[..n].copy_from_slice(&message[from..from + n]);
            Ok(n)
        };
        read_compacted(&mut read_at, message.len() as u64).unwrap()
    }

    #[test]
    fn small_fields_are_copied_and_a_large_one_becomes_a_note() {
        let big = vec![b'A'; MAX_FIELD_BYTES as usize + 1];
        let mut message = vec![0x08, 0x96, 0x01]; // 1: 150
        message.extend(field(6, b"gemm"));
        message.extend(field(12, &big));
        message.extend([0x11, 1, 2, 3, 4, 5, 6, 7, 8]); // 2: fixed64
        message.extend(field(13, &[0x08, 0x01]));
        let mut expected = vec![0x08, 0x96, 0x01];
        expected.extend(field(6, b"gemm"));
        expected.extend(note(12, big.len() as u64));
        expected.extend([0x11, 1, 2, 3, 4, 5, 6, 7, 8]);
        expected.extend(field(13, &[0x08, 0x01]));
        assert_eq!(read(&message), expected);
        let kept = read(&message);
        let note_field = &kept[3 + 6..];
        let (_, used) = varint(note_field).unwrap();
        let (n, len_used) = varint(&note_field[used..]).unwrap();
        let payload = &note_field[used + len_used..used + len_used + n as usize];
        assert_eq!(note_of(payload), Some((12, big.len() as u64)));
    }

    #[test]
    fn a_message_of_small_fields_reads_as_it_is() {
        let mut message = Vec::new();
        for i in 0..5000u32 {
            message.extend(field(13, &i.to_le_bytes().repeat(100)));
        }
        assert_eq!(read(&message), message);
    }

    #[test]
    fn damage_is_kept_for_the_decoder() {
        let mut message = field(6, b"gemm");
        message.extend([0x0f, 0xff]); // wire type 7
        message.extend(vec![0u8; 200 << 10]);
        let kept = read(&message);
        assert_eq!(kept.len(), field(6, b"gemm").len() + (64 << 10));
        assert_eq!(kept[..], message[..kept.len()]);
        // A field that runs past the message.
        let mut cut = field(6, b"gemm");
        cut.extend([0x62, 0x80, 0x80, 0x80, 0x40]);
        assert_eq!(read(&cut), cut);
    }
}
