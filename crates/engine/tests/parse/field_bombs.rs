//! A valid report can be a bomb: `kernels_basic` whose first result carries a comment of a
//! gigabyte. Compressed (a `.ncu-repz` of kilobytes), the stream is refused once one byte has
//! repeated far longer than any report holds, before more than that is written to the
//! temporary folder. Plain (a sparse file, so the test writes no gigabyte), the report opens
//! with every value NVIDIA's module reads, the comment is left out and named in a warning, and
//! the reading never holds the field: a child process reading it stays far below its size.

use crate::bombs::{Block, zstd};
use crate::common;

use common::{fixture_bytes, temp_dir};
use prost::Message;
use prost::encoding::encode_varint;
use sightline::parse::ncu_rep::messages::BlockHeader;
use sightline::parse::{self, LoadError};
use std::io::{Seek, SeekFrom, Write};

/// The comment's size: a gigabyte.
const COMMENT: u64 = 1 << 30;

fn u32_at(bytes: &[u8], at: usize) -> usize {
    u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize
}

/// `kernels_basic` with a comment (`ProfileResult` field 12) of `len` bytes appended to its
/// first result: the bytes before the comment's content and those after it. Every length
/// around it (the result's prefix, its block's payload size) counts the comment.
fn with_comment(report: &[u8], len: u64) -> (Vec<u8>, Vec<u8>) {
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

#[test]
fn a_compressed_comment_of_a_gigabyte_is_refused_as_a_bomb() {
    let dir = temp_dir("field_bombs_zst");
    let report = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let (before, after) = with_comment(&report, COMMENT);
    let bomb = zstd(&[
        Block::Raw(&before),
        Block::Rle(b'A', COMMENT as usize),
        Block::Raw(&after),
    ]);
    assert!(bomb.len() < report.len() + 100_000, "{} bytes", bomb.len());
    let path = dir.join("comment.ncu-repz");
    std::fs::write(&path, &bomb).unwrap();
    let err = parse::load_path(&path).expect_err("refused");
    let text = err.to_string();
    assert!(matches!(err, LoadError::Decompress { .. }), "{text}");
    assert!(text.contains("comment.ncu-repz"), "{text}");
    assert!(
        text.contains("one byte repeated over 64 MiB, far beyond what any report holds"),
        "{text}"
    );
    // Refused once the run passed the bound: not a gigabyte later.
    let seen: u64 = text
        .split("refused after its first ")
        .nth(1)
        .and_then(|t| t.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    let bound = parse::compressed::MAX_RUN + before.len() as u64 + (2 << 20);
    assert!(seen <= bound, "{seen} bytes written before the refusal");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes the report with its comment as a sparse file: the comment is a hole of zeros.
fn sparse_report(path: &std::path::Path, before: &[u8], after: &[u8]) {
    let mut file = std::fs::File::create(path).unwrap();
    file.write_all(before).unwrap();
    file.seek(SeekFrom::Current(COMMENT as i64)).unwrap();
    file.write_all(after).unwrap();
}

#[test]
fn a_plain_comment_of_a_gigabyte_is_left_out_and_named() {
    let dir = temp_dir("field_bombs_plain");
    let report = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let (before, after) = with_comment(&report, COMMENT);
    let path = dir.join("comment.ncu-rep");
    sparse_report(&path, &before, &after);
    let mut opened = parse::load_path(&path).unwrap();
    let note = format!(
        "ProfileResult field 12 of {COMMENT} bytes is larger than any report holds ({} bytes \
         at most are read): left out of 1 message",
        sightline::parse::ncu_rep::oversized::MAX_FIELD_BYTES
    );
    let at = opened.warnings.iter().position(|w| w.message == note);
    assert!(at.is_some(), "{:?}", opened.warnings);
    opened.warnings.remove(at.unwrap());
    // Every value of every result, the first one's body included, as NVIDIA's module reads
    // the report without the comment.
    let compared = common::oracle::compare_report_with_truth(
        &mut opened,
        "h100/kernels_basic.ncu-rep.xz",
        "h100/kernels_basic.truth.json.xz",
    );
    assert!(compared > 10_000, "{compared}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(target_os = "linux")]
#[test]
fn reading_a_report_with_a_comment_of_a_gigabyte_never_holds_it() {
    let dir = temp_dir("field_bombs_peak");
    let report = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let (before, after) = with_comment(&report, COMMENT);
    let path = dir.join("comment.ncu-rep");
    sparse_report(&path, &before, &after);
    for args in [&["summary"][..], &["summary", "--format", "json"]] {
        let ran = common::child_peak::run_with_input(
            std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
                .args(args)
                .arg(&path),
            Vec::new(),
        );
        let out = String::from_utf8_lossy(&ran.stdout);
        assert_eq!(
            ran.code,
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&ran.stderr)
        );
        assert!(out.contains("tiny_grid"), "{args:?}: {out}");
        // Well under a tenth of the comment (reading it whole took 2.1 GB).
        assert!(
            ran.peak_bytes < COMMENT / 10,
            "{args:?}: peak {} bytes",
            ran.peak_bytes
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
