//! Decompression bombs and damaged streams stop early: zeros in every compression are
//! refused at their first bytes; a report followed by gigabytes of zeros opens with its
//! results and stops at the first damaged block; text followed by binary content stops where
//! that starts. (That no signal during a long decompression leaves a temporary file behind is
//! a test of the binary: `tests/cli/interrupted_commands.rs` of the root package.)

use sightline_engine::model::WarningKind;
use sightline_engine::parse::{self, LoadError, compressed};
use sightline_testkit::zstd_frames::{Block, zstd};
use sightline_testkit::{fixture_bytes, temp_dir};
use std::io::Write;

fn gzip_zeros(n: usize) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..n >> 20 {
        e.write_all(&zeros).unwrap();
    }
    e.finish().unwrap()
}

fn xz_zeros(n: usize) -> Vec<u8> {
    let mut e = xz2::write::XzEncoder::new(Vec::new(), 0);
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..n >> 20 {
        e.write_all(&zeros).unwrap();
    }
    e.finish().unwrap()
}

#[test]
fn zeros_in_every_compression_are_refused_at_their_first_bytes() {
    let dir = temp_dir("bombs_zeros");
    for (name, bytes) in [
        ("zeros.zst", zstd(&[Block::Rle(0, 2 << 30)])),
        ("zeros.gz", gzip_zeros(256 << 20)),
        ("zeros.xz", xz_zeros(64 << 20)),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, &bytes).unwrap();
        let err = parse::load_path(&path).expect_err(name);
        let text = err.to_string();
        assert!(
            matches!(err, LoadError::Decompress { .. }),
            "{name}: {text}"
        );
        assert!(
            text.contains("binary content that is not an .ncu-rep report; refused after its first"),
            "{name}: {text}"
        );
        assert!(
            text.contains(name),
            "{name}: the error names the file: {text}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_report_followed_by_zeros_opens_and_stops_at_the_first_damaged_block() {
    let dir = temp_dir("bombs_report_zeros");
    let report = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let bomb = zstd(&[Block::Raw(&report), Block::Rle(0, 1 << 30)]);
    let path = dir.join("kernels_basic.ncu-repz");
    std::fs::write(&path, &bomb).unwrap();
    // The copy ends within a chunk of the damaged block, not a gigabyte later.
    let copy = compressed::decompress_file(
        &path,
        compressed::Compression::Zstd,
        compressed::MAX_DECOMPRESSED,
        &mut |_, _| {},
    )
    .unwrap();
    assert!(
        copy.size <= report.len() as u64 + (2 << 20),
        "{} bytes written",
        copy.size
    );
    assert_eq!(
        copy.damage.as_deref(),
        Some(format!("the block at byte {} has an empty header", report.len()).as_str())
    );
    drop(copy);
    // The report opens with every result before the damage, and says where it stopped.
    let opened = parse::load_path(&path).unwrap();
    let plain = parse::parse_bytes(&path, &report).unwrap();
    assert_eq!(opened.results.len(), plain.results.len());
    assert!(
        opened
            .warnings
            .iter()
            .any(|w| w.kind == WarningKind::Damaged
                && w.message.contains("decompressed up to a damaged block")),
        "{:?}",
        opened.warnings
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn text_followed_by_binary_content_stops_where_it_starts() {
    let dir = temp_dir("bombs_text_zeros");
    let text = fixture_bytes("h100/kernels_basic.details.txt");
    let bomb = zstd(&[Block::Raw(&text), Block::Rle(0, 1 << 30)]);
    let path = dir.join("details.txt.zst");
    std::fs::write(&path, &bomb).unwrap();
    let err = parse::load_path(&path).unwrap_err().to_string();
    assert!(err.contains("binary content after text"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_zstd_streams_are_told_in_words() {
    let dir = temp_dir("bombs_words");
    let report = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let whole = zstd(&[Block::Raw(&report)]);
    // Cut off inside a block; then a whole frame followed by bytes that are no frame.
    let cut = whole[..whole.len() / 2].to_vec();
    let mut trailing = whole.clone();
    trailing.extend_from_slice(b"\x1f\x8b not zstd at all");
    for (name, bytes, words) in [
        ("cut.ncu-repz", cut, "the stream is cut off"),
        ("trailing.ncu-repz", trailing, "no zstd frame starts here"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, &bytes).unwrap();
        let text = match parse::load_path(&path) {
            Err(e) => e.to_string(),
            Ok(r) => sightline_engine::model::warning::join(&r.warnings, "; "),
        };
        assert!(text.contains(words), "{name}: {text}");
        for debug in [
            "Error {",
            "kind:",
            "BadMagicNumber",
            "BlockContentReadError",
        ] {
            assert!(!text.contains(debug), "{name}: {text}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A pipe is read to the bound and refused past it with an error that names it.
#[cfg(unix)]
#[test]
fn a_pipe_is_read_to_a_bound() {
    let dir = temp_dir("bombs_pipe");
    let fifo = dir.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            // The reader stops at its bound and closes the pipe: the writer's last writes fail.
            if let Ok(mut f) = std::fs::OpenOptions::new().write(true).open(&fifo) {
                for _ in 0..48 {
                    if f.write_all(&[b'x'; 1 << 16]).is_err() {
                        break;
                    }
                }
            }
        })
    };
    let err = parse::read::read_file(&fifo, 1 << 20).unwrap_err();
    writer.join().unwrap();
    assert!(matches!(err, LoadError::TooLarge { .. }), "{err}");
    assert!(err.to_string().contains("pipe"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_second_layer_of_compression_is_refused_at_its_first_bytes() {
    let dir = temp_dir("bombs_twice");
    let inner = gzip_zeros(1 << 20);
    let path = dir.join("twice.gz.zst");
    std::fs::write(&path, zstd(&[Block::Raw(&inner)])).unwrap();
    let err = parse::load_path(&path).unwrap_err().to_string();
    assert!(
        err.contains("another layer of compression (decompress the outer layer first)"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
