//! Splits a text at result boundaries so that its parts can be read on several cores, and
//! assembles the parts' results into one report (ids, processes, devices, warnings).
//!
//! A kernel line always starts a new result whatever came before it, so reading the parts
//! separately gives the same results as reading the whole text, once results at the start of
//! a part are given the process of the part before.

use super::heading::{kernel_line, process_line};
use super::layout::leading_spaces;
use super::numbers::{Formats, format_changes, formats_of};
use super::reader::{Part, Reader, Wanted};
use crate::model::section_body::ReportBodies;
use crate::model::{Device, Format, KernelResult, Report};
use crate::parse::ParseError;
use crate::parse::number_format::NumberFormat;
use std::collections::HashMap;

/// Texts smaller than this are read on one core.
pub const PARALLEL_MIN_BYTES: usize = 1 << 20;

/// At most this many parts.
const MAX_PARTS: usize = 16;

/// Reads a whole text (or one part of it) line by line, in decimal points.
#[cfg(test)]
pub fn read_part(text: &str, last_part: bool) -> Part {
    read_part_in(text, last_part, 0, &[], Wanted::Bodies)
}

/// Reads a part that starts `offset` bytes into the whole text, whose number format changes
/// at `formats`.
fn read_part_in(
    text: &str,
    last_part: bool,
    offset: usize,
    formats: &[(usize, NumberFormat)],
    wanted: Wanted,
) -> Part {
    let mut reader = Reader::wanting(wanted);
    // The changes still ahead; the last one at or before the part's start applies now.
    let ahead = formats.partition_point(|&(at, _)| at <= offset);
    if let Some(&(_, format)) = ahead.checked_sub(1).and_then(|i| formats.get(i)) {
        reader.set_number_format(format);
    }
    let mut changes = formats.get(ahead..).unwrap_or_default().iter().peekable();
    let mut rest = text;
    while !rest.is_empty() {
        let pos = offset + (text.len() - rest.len());
        while let Some(&&(at, format)) = changes.peek()
            && at <= pos
        {
            reader.set_number_format(format);
            changes.next();
        }
        let (line, next, unterminated) = match memchr::memchr(b'\n', rest.as_bytes()) {
            Some(i) => (&rest[..i], &rest[i + 1..], false),
            None => (rest, "", true),
        };
        let line = line.strip_suffix('\r').unwrap_or(line);
        reader.line(line, unterminated && last_part);
        rest = next;
    }
    reader.finish(last_part)
}

/// Reads a text, in parallel parts when it is large, and assembles the report.
pub fn read(text: &str) -> Result<Report, ParseError> {
    let workers = if text.len() >= PARALLEL_MIN_BYTES {
        crate::cores::cores().min(MAX_PARTS)
    } else {
        1
    };
    let pieces = split_at_results(text, workers);
    let formats = format_changes(text);
    let formats = formats.as_slice();
    // Pieces are consecutive slices of the text.
    let offsets: Vec<usize> = pieces
        .iter()
        .scan(0, |at, p| {
            let start = *at;
            *at += p.len();
            Some(start)
        })
        .collect();
    let parts: Vec<Part> = if pieces.len() == 1 {
        vec![read_part_in(text, true, 0, formats, Wanted::Bodies)]
    } else {
        let last = pieces.len() - 1;
        std::thread::scope(|scope| {
            // The first part is read on this thread, the others on their own.
            let handles: Vec<_> = pieces
                .iter()
                .enumerate()
                .skip(1)
                .map(|(i, piece)| {
                    let offset = offsets[i];
                    scope.spawn(move || {
                        read_part_in(piece, i == last, offset, formats, Wanted::Bodies)
                    })
                })
                .collect();
            let mut parts = vec![read_part_in(pieces[0], false, 0, formats, Wanted::Bodies)];
            parts.extend(
                handles
                    .into_iter()
                    .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))),
            );
            parts
        })
    };
    merge(parts)
}

/// Cuts a text into at most `parts` pieces, each starting at a process or kernel line.
pub fn split_at_results(text: &str, parts: usize) -> Vec<&str> {
    let mut pieces = Vec::with_capacity(parts);
    let mut start = 0;
    for k in 1..parts {
        let target = text.len() / parts * k;
        if target <= start {
            continue;
        }
        if let Some(at) = next_result_start(text, target)
            && at > start
        {
            pieces.push(&text[start..at]);
            start = at;
        }
    }
    pieces.push(&text[start..]);
    pieces
}

/// The byte offset of the first line after `from` that opens a result or names a process.
fn next_result_start(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut pos = from + bytes.get(from..)?.iter().position(|&b| b == b'\n')? + 1;
    while pos < bytes.len() {
        let end = bytes[pos..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| pos + i);
        if starts_result(text.get(pos..end)?) {
            return Some(pos);
        }
        pos = end + 1;
    }
    None
}

/// Whether a line (cleaned, without its line end) opens a result or names a process: where
/// a text can be cut.
pub fn starts_result(line: &str) -> bool {
    let line = line.strip_suffix('\r').unwrap_or(line);
    let indent = leading_spaces(line);
    if indent > 3 {
        return false;
    }
    let rest = &line[indent..];
    !rest.starts_with("==") && (process_line(rest).is_some() || kernel_line(rest).is_some())
}

/// Reads one window of a larger text cut at [`starts_result`] lines, each block in the number
/// format its own values tell, and blocks that tell nothing in `fallback` (the whole file's
/// format, once known) or else the window's; `last` for the window that ends the text. Also
/// says what the window's numbers told.
pub fn read_window(
    text: &str,
    last: bool,
    fallback: Option<NumberFormat>,
    wanted: Wanted,
) -> (Part, Formats) {
    let formats = formats_of(text, fallback);
    let part = read_part_in(text, last, 0, &formats.changes, wanted);
    (part, formats)
}

/// Joins parts in order: renumbers results, gives results at the start of a part the process
/// of the part before, collects warnings and fills the device list.
pub fn merge(parts: Vec<Part>) -> Result<Report, ParseError> {
    let mut parts = parts.into_iter();
    let Some(first) = parts.next() else {
        return Err(no_result());
    };
    let mut carry = first.last_process;
    let mut report = first.report;
    let mut skipped = first.skipped;
    let mut not_ncu = first.other;
    let mut lines_before = first.lines;
    for part in parts {
        skipped.append_shifted(part.skipped, lines_before);
        not_ncu.append_shifted(part.other, lines_before);
        lines_before += part.lines;
        let mut r = part.report;
        for result in &mut r.results {
            if result.process_id.is_some() {
                break;
            }
            if let Some((pid, name)) = &carry {
                result.process_id = Some(*pid);
                result.process_name = Some(name.clone());
            }
        }
        if part.last_process.is_some() {
            carry = part.last_process;
        }
        match std::mem::take(&mut r.bodies) {
            ReportBodies::Printed(part_bodies) => {
                let offset = report.results.len();
                let shifted = part_bodies.into_iter().map(|(i, b)| (i + offset, b));
                match &mut report.bodies {
                    ReportBodies::Printed(all) => all.extend(shifted),
                    other => *other = ReportBodies::Printed(shifted.collect()),
                }
            }
            ReportBodies::InResults => report.bodies = ReportBodies::InResults,
            ReportBodies::None | ReportBodies::Templates(_) => {}
        }
        report.results.append(&mut r.results);
        report.warnings.append(&mut r.warnings);
        if r.format == Format::Summary {
            report.format = Format::Summary;
        }
        if report.tool_version.is_none() {
            report.tool_version = r.tool_version;
        }
    }
    if report.results.is_empty() {
        return Err(no_result());
    }
    report.warnings.extend(skipped.warnings());
    report.notes.extend(not_ncu.note());
    for (id, result) in (0u64..).zip(report.results.iter_mut()) {
        result.id = id;
    }
    report.devices = devices_of(&report.results);
    Ok(report)
}

fn no_result() -> ParseError {
    ParseError::NotAResult(
        "no ncu kernel line (`name (grid)x(block), Context C, Stream S, ...`) found".into(),
    )
}

/// The devices results ran on, with the attributes a raw page prints.
fn devices_of(results: &[KernelResult]) -> Vec<Device> {
    use crate::model::names::{CC_MAJOR, CC_MINOR, DEVICE_NAME, SM_COUNT};
    let mut devices: Vec<Device> = Vec::new();
    let mut position: HashMap<u64, usize> = HashMap::new();
    for r in results {
        let Some(index) = r.device else {
            continue;
        };
        let pos = *position.entry(index).or_insert_with(|| {
            devices.push(Device {
                index,
                ..Device::default()
            });
            devices.len() - 1
        });
        let d = &mut devices[pos];
        if d.cc.is_none() {
            d.cc = r.cc;
        }
        if d.attributes.is_empty() {
            for (name, m) in r.metrics().with_prefix("device__attribute_") {
                let Some(attr) = name.strip_prefix("device__attribute_") else {
                    break;
                };
                d.attributes.push((attr.to_string(), m.value.to_string()));
            }
        }
        if d.name.is_none() {
            d.name = r
                .metric(DEVICE_NAME)
                .and_then(|m| m.value.as_str().map(str::to_string));
        }
        if d.sm_count.is_none() {
            d.sm_count = r.number(SM_COUNT).map(|v| v as u64);
        }
        if d.cc.is_none()
            && let (Some(a), Some(b)) = (r.number(CC_MAJOR), r.number(CC_MINOR))
        {
            d.cc = Some((a as u32, b as u32));
        }
    }
    devices
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_only_at_result_lines() {
        let text = "[1] a@h\n  k(int) (1, 1, 1)x(1, 1, 1), Context 1, Stream 7, Device 0, CC 9.0\n    Section: S\n    x\n  k(int) (1, 1, 1)x(1, 1, 1), Context 1, Stream 7, Device 0, CC 9.0\n    Section: S\n";
        let pieces = split_at_results(text, 2);
        assert_eq!(pieces.len(), 2);
        assert_eq!(pieces.concat(), text);
        assert!(pieces[1].starts_with("  k(int)"));
        let report = merge(
            pieces
                .iter()
                .enumerate()
                .map(|(i, p)| read_part(p, i == 1))
                .collect(),
        )
        .unwrap();
        assert_eq!(report.results.len(), 2);
        assert_eq!(report.results[1].id, 1);
        assert_eq!(report.results[1].process_id, Some(1));
        assert_eq!(
            split_at_results("no results\nhere\n", 4),
            ["no results\nhere\n"]
        );
    }
}
