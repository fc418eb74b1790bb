//! A valid report that is a bomb: `kernels_basic` whose first result carries a comment of a
//! gigabyte, written as a sparse file (the comment a hole of zeros), so a test writes no
//! gigabyte.

use prost::Message;
use prost::encoding::encode_varint;
use sightline_engine::parse::ncu_rep::messages::BlockHeader;
use std::io::{Seek, SeekFrom, Write};

/// The comment's size: a gigabyte.
pub const COMMENT: u64 = 1 << 30;

fn u32_at(bytes: &[u8], at: usize) -> usize {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
}

/// `kernels_basic` with a comment (`ProfileResult` field 12) of `len` bytes appended to its
/// first result: the bytes before the comment's content and those after it. Every length
/// around it (the result's prefix, its block's payload size) counts the comment.
pub fn with_comment(report: &[u8], len: u64) -> (Vec<u8>, Vec<u8>) {
    let mut pos = 8 + u32_at(report, 4);
    while pos < report.len() {
        let header_len = u32_at(report, pos);
        let header_at = pos + 4;
        let mut header = BlockHeader::decode(&report[header_at..header_at + header_len]).unwrap();
        let payload = header_at + header_len;
        let end = payload + header.payload_size.unwrap_or(0) as usize;
        if header.num_results.unwrap_or(0) == 0 {
            pos = end;
            continue;
        }
        // The first result follows the block's sources.
        let mut at = payload;
        for _ in 0..header.num_sources.unwrap_or(0) {
            at += 4 + u32_at(report, at);
        }
        let result_len = u32_at(report, at);
        let mut field = Vec::new();
        encode_varint((12 << 3) | 2, &mut field);
        encode_varint(len, &mut field);
        let grown = field.len() as u64 + len;
        header.payload_size = Some(header.payload_size.unwrap() + u32::try_from(grown).unwrap());
        let header = header.encode_to_vec();
        let mut before = report[..pos].to_vec();
        before.extend_from_slice(&(header.len() as u32).to_le_bytes());
        before.extend_from_slice(&header);
        before.extend_from_slice(&report[payload..at]);
        let new_len = result_len as u64 + grown;
        before.extend_from_slice(&u32::try_from(new_len).unwrap().to_le_bytes());
        before.extend_from_slice(&report[at + 4..at + 4 + result_len]);
        before.extend_from_slice(&field);
        return (before, report[at + 4 + result_len..].to_vec());
    }
    panic!("no block with results");
}

/// Writes the report with its comment as a sparse file: the comment is a hole of zeros.
pub fn sparse_report(path: &std::path::Path, before: &[u8], after: &[u8]) {
    let mut file = std::fs::File::create(path).unwrap();
    file.write_all(before).unwrap();
    file.seek(SeekFrom::Current(COMMENT as i64)).unwrap();
    file.write_all(after).unwrap();
}
