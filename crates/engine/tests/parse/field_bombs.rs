//! A valid report can be a bomb: `kernels_basic` whose first result carries a comment of a
//! gigabyte. Compressed (a `.ncu-repz` of kilobytes), the stream is refused once one byte has
//! repeated far longer than any report holds, before more than that is written to the
//! temporary folder. Plain (a sparse file, so the test writes no gigabyte), the report opens
//! with every value NVIDIA's module reads, and the comment is left out and named in a warning.
//! (That the commands reading it never hold the field, a child process staying far below its
//! size, is a test of the binary: `tests/cli/reading_inputs.rs` of the root package.)

use sightline_engine::parse::{self, LoadError};
use sightline_testkit::comment_bomb::{COMMENT, sparse_report, with_comment};
use sightline_testkit::zstd_frames::{Block, zstd};
use sightline_testkit::{fixture_bytes, temp_dir};

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
        sightline_engine::parse::ncu_rep::oversized::MAX_FIELD_BYTES
    );
    let at = opened.warnings.iter().position(|w| w.message == note);
    assert!(at.is_some(), "{:?}", opened.warnings);
    opened.warnings.remove(at.unwrap());
    // Every value of every result, the first one's body included, as NVIDIA's module reads
    // the report without the comment.
    let compared = sightline_testkit::oracle::compare_report_with_truth(
        &mut opened,
        "h100/kernels_basic.ncu-rep.xz",
        "h100/kernels_basic.truth.json.xz",
    );
    assert!(compared > 10_000, "{compared}");
    let _ = std::fs::remove_dir_all(&dir);
}
