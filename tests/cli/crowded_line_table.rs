//! A line table is input like any other: a report whose cubin's line program gives the first
//! address of a kernel 80,000 lines (80 KB of rows, where compilers write a few for each level
//! of inlining) opens on the Source page with at most 256 lines at that address and a note of
//! the rows left out, instead of attributing the code to every one of them (which took gigabytes
//! of memory and of JSON). Built from a real report (`fixtures/sweep`): its `.debug_line` is
//! copied to the end of the cubin with the rows inserted after the kernel's first
//! `DW_LNE_set_address`, its relocations moved with it, and every length around it rewritten.

use crate::common;

use prost::Message;
use prost::encoding::{encode_varint, encoded_len_varint};
use sightline_engine::parse::ncu_rep::messages::BlockHeader;
use sightline_engine::parse::ncu_rep::wire::{FieldIter, WireValue};

/// Rows inserted at the kernel's first address.
const ROWS: usize = 80_000;

fn u16_at(b: &[u8], at: usize) -> usize {
    u16::from_le_bytes(b[at..at + 2].try_into().unwrap()) as usize
}
fn u32_at(b: &[u8], at: usize) -> usize {
    u32::from_le_bytes(b[at..at + 4].try_into().unwrap()) as usize
}
fn u64_at(b: &[u8], at: usize) -> usize {
    u64::from_le_bytes(b[at..at + 8].try_into().unwrap()) as usize
}

/// The section header offset of the ELF64 section called `name`.
fn section_header(elf: &[u8], name: &str) -> usize {
    let shoff = u64_at(elf, 0x28);
    let (size, count, names) = (u16_at(elf, 0x3a), u16_at(elf, 0x3c), u16_at(elf, 0x3e));
    let strings = u64_at(elf, shoff + names * size + 0x18);
    (0..count)
        .map(|i| shoff + i * size)
        .find(|&h| {
            let at = strings + u32_at(elf, h);
            let end = at + elf[at..].iter().position(|&b| b == 0).unwrap();
            &elf[at..end] == name.as_bytes()
        })
        .unwrap_or_else(|| panic!("no section {name}"))
}

/// The cubin with `rows` rows (each a line further on, at the same address) inserted after
/// the first `DW_LNE_set_address` of its `.debug_line`, then the line put back.
fn crowded_cubin(elf: &[u8], rows: usize) -> Vec<u8> {
    let line = section_header(elf, ".debug_line");
    let (off, size) = (u64_at(elf, line + 0x18), u64_at(elf, line + 0x20));
    let program = &elf[off..off + size];
    // DWARF 2 to 4: unit length, version, header length, then the opcode parameters.
    let version = u16_at(program, 4);
    let params = 10 + usize::from(version >= 4);
    let line_base = program[params + 2] as i8 as i64;
    let opcode_base = program[params + 4] as i64;
    let instructions = 10 + u32_at(program, 6);
    let set_address = instructions
        + program[instructions..]
            .windows(3)
            .position(|w| w == [0x00, 0x09, 0x02])
            .expect("a DW_LNE_set_address");
    let insert_at = set_address + 11;
    // A special opcode adding one line and no address emits a row.
    let special = (1 - line_base + opcode_base) as u8;
    let mut inserted = vec![special; rows];
    inserted.push(0x03); // DW_LNS_advance_line -rows (SLEB128)
    let mut v = -(rows as i64);
    loop {
        let byte = (v & 0x7f) as u8;
        v >>= 7;
        let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
        inserted.push(if done { byte } else { byte | 0x80 });
        if done {
            break;
        }
    }
    let mut grown = program[..insert_at].to_vec();
    grown.extend_from_slice(&inserted);
    grown.extend_from_slice(&program[insert_at..]);
    let unit_length = u32_at(program, 0) + inserted.len();
    grown[..4].copy_from_slice(&(unit_length as u32).to_le_bytes());
    assert_eq!(unit_length + 4, grown.len(), "one unit");
    // The new program goes at the end of the cubin; the relocations after the insertion move.
    let mut out = elf.to_vec();
    let new_off = out.len();
    out.extend_from_slice(&grown);
    out[line + 0x18..line + 0x20].copy_from_slice(&(new_off as u64).to_le_bytes());
    out[line + 0x20..line + 0x28].copy_from_slice(&(grown.len() as u64).to_le_bytes());
    let rela = section_header(elf, ".rela.debug_line");
    let (roff, rsize) = (u64_at(elf, rela + 0x18), u64_at(elf, rela + 0x20));
    for entry in (roff..roff + rsize).step_by(24) {
        let at = u64_at(elf, entry);
        if at >= insert_at {
            let moved = (at + inserted.len()) as u64;
            out[entry..entry + 8].copy_from_slice(&moved.to_le_bytes());
        }
    }
    out
}

/// A message with its field `number` (bytes) replaced by `value`.
fn with_field(message: &[u8], number: u32, value: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = 0;
    for field in FieldIter::new(message) {
        let field = field.unwrap();
        let WireValue::Bytes(old) = field.value else {
            continue;
        };
        if field.number != number {
            continue;
        }
        // The tag (one byte) and length before the value are rewritten; the rest is kept.
        let start = field.offset - encoded_len_varint(old.len() as u64) - 1;
        out.extend_from_slice(&message[at..start]);
        encode_varint((u64::from(number) << 3) | 2, &mut out);
        encode_varint(value.len() as u64, &mut out);
        out.extend_from_slice(value);
        at = field.offset + old.len();
    }
    out.extend_from_slice(&message[at..]);
    out
}

/// The report with the cubin of its module (`SourceData` field 4) replaced by `f(cubin)`.
fn with_cubin(report: &[u8], f: impl Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    let mut out = report[..8 + u32_at(report, 4)].to_vec();
    let mut pos = out.len();
    while pos < report.len() {
        let header_len = u32_at(report, pos);
        let mut header = BlockHeader::decode(&report[pos + 4..pos + 4 + header_len]).unwrap();
        let payload = pos + 4 + header_len;
        let end = payload + header.payload_size.unwrap_or(0) as usize;
        let mut entries = Vec::new();
        let mut at = payload;
        while at < end {
            let len = u32_at(report, at);
            let mut message = report[at + 4..at + 4 + len].to_vec();
            if entries.len() < header.num_sources.unwrap_or(0) as usize {
                let cubin = FieldIter::new(&message).find_map(|f| match f.unwrap() {
                    field if field.number == 4 => match field.value {
                        WireValue::Bytes(b) => Some(b.to_vec()),
                        _ => None,
                    },
                    _ => None,
                });
                if let Some(cubin) = cubin {
                    message = with_field(&message, 4, &f(&cubin));
                }
            }
            entries.extend_from_slice(&(message.len() as u32).to_le_bytes());
            entries.extend_from_slice(&message);
            at += 4 + len;
        }
        header.payload_size = Some(entries.len() as u32);
        let header = header.encode_to_vec();
        out.extend_from_slice(&(header.len() as u32).to_le_bytes());
        out.extend_from_slice(&header);
        out.extend_from_slice(&entries);
        pos = end;
    }
    out
}

fn source_json(path: &std::path::Path) -> serde_json::Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["source", "--json"])
        .arg(path)
        .output()
        .unwrap();
    common::printed_json(&out)
}

#[test]
fn many_rows_at_one_address_are_bounded_and_said() {
    let dir = common::temp_dir("crowded_line_table");
    let report = common::fixture_bytes("sweep/N=256/v1.ncu-rep.xz");
    let plain = dir.join("plain.ncu-rep");
    std::fs::write(&plain, &report).unwrap();
    let crowded = dir.join("crowded.ncu-rep");
    std::fs::write(&crowded, with_cubin(&report, |c| crowded_cubin(c, ROWS))).unwrap();
    let before = source_json(&plain);
    let after = source_json(&crowded);
    let result = |v: &serde_json::Value| v["reports"][0]["results"][0].clone();
    let (before, after) = (result(&before), result(&after));
    assert!(before["kernel"].as_str().unwrap().starts_with("gemm_step("));
    assert_eq!(after["kernel"], before["kernel"]);
    // The note says how many rows were left out: all but 256 lines of the inserted ones, and
    // the rows the kernel's first address had of its own.
    let note = after["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|n| n.as_str())
        .find(|n| n.contains("line-table rows were left out"))
        .unwrap_or_else(|| panic!("{:?}", after["notes"]));
    let left_out: usize = note.split(' ').next().unwrap().parse().unwrap();
    assert!((ROWS - 256..ROWS - 256 + 8).contains(&left_out), "{note}");
    assert!(
        note.ends_with("more than 256 lines, more than any compiler writes"),
        "{note}"
    );
    // At most 256 lines more than the kernel has; every instruction after the first keeps its
    // line.
    let lines = |v: &serde_json::Value| v["lines"].as_array().unwrap().len();
    assert!(lines(&after) <= lines(&before) + 256, "{}", lines(&after));
    assert!(
        lines(&after) > lines(&before),
        "the inserted lines are kept up to the bound"
    );
    let of = |v: &serde_json::Value| -> Vec<(String, String)> {
        v["instructions"]
            .as_array()
            .unwrap()
            .iter()
            .skip(1)
            .map(|i| (i["address"].to_string(), i["line"].to_string()))
            .collect()
    };
    assert_eq!(of(&before), of(&after));
    let _ = std::fs::remove_dir_all(&dir);
}
