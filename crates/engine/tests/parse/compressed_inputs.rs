//! Compressed inputs (`.ncu-repz`, and `.gz`, `.xz`, `.zst` copies of any form): each
//! compressed form of several fixtures opens equal to the plain file (same results, same
//! metric values, same bodies read on demand), damaged and oversized streams are refused with
//! an error naming the file, and a report's decompressed copy is never left behind (it loses
//! its name once open).

use sightline_engine::model::Report;
use sightline_engine::parse::{self, LoadError, compressed};
use sightline_testkit::zstd_frames::{skippable, zstd_frames};
use sightline_testkit::{fixture_bytes, temp_dir};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The tests of this file count the temporary files of this process: one at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// The fixtures checked, relative to `fixtures/`: a native report, its details text, a CSV.
const FIXTURES: [&str; 4] = [
    "h100/kernels_basic.ncu-rep.xz",
    "h100/kernels_basic.details.txt",
    "h100/kernels_basic.details.csv",
    "h100/kernels_basic.raw.csv",
];

/// gzip of two members.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let half = bytes.len() / 2;
    for part in [&bytes[..half], &bytes[half..]] {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        e.write_all(part).unwrap();
        out.extend(e.finish().unwrap());
    }
    out
}

fn xz(bytes: &[u8]) -> Vec<u8> {
    let mut e = xz2::write::XzEncoder::new(Vec::new(), 1);
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

/// Every compressed form of `bytes`, by name.
fn forms(bytes: &[u8]) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("zst", zstd_frames(bytes)),
        ("gz", gzip(bytes)),
        ("xz", xz(bytes)),
    ]
}

/// Everything a report shows of each result: identity, launch, every metric with its value,
/// sections and rules (bodies read on demand for a native report).
fn fingerprint(report: &Report) -> String {
    let mut out = format!("{:?} {}\n", report.format, report.results.len());
    for r in &report.results {
        out.push_str(&format!(
            "{} {:?} {:?} {:?}\n{:?}\n",
            r.id,
            r.name,
            r.grid,
            r.block,
            r.body()
        ));
    }
    out
}

/// Temporary files this process has made.
fn temp_files() -> Vec<PathBuf> {
    let prefix = format!("sightline-{}-", std::process::id());
    std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with(&prefix))
        })
        .collect()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn every_compressed_form_opens_equal_to_the_plain_file() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = temp_dir("compressed_forms");
    for rel in FIXTURES {
        let plain_bytes = fixture_bytes(rel);
        let name = Path::new(rel.trim_end_matches(".xz"))
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        let plain = write(&dir, &name, &plain_bytes);
        let expected = fingerprint(&parse::load_path(&plain).unwrap());
        assert!(expected.lines().count() > 4, "{rel}");
        for (ext, packed) in forms(&plain_bytes) {
            // The file name says nothing: the content decides.
            let path = write(&dir, &format!("{name}.{ext}.bin"), &packed);
            let mut seen = Vec::new();
            let report = parse::load_path_with_progress(&path, &mut |done, total| {
                seen.push((done, total));
            })
            .unwrap_or_else(|e| panic!("{rel} ({ext}): {e}"));
            assert_eq!(report.source, path, "{rel} ({ext})");
            assert_eq!(fingerprint(&report), expected, "{rel} ({ext})");
            // Progress counts the compressed file, never goes back, and ends at its size.
            assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "{rel} ({ext})");
            let size = packed.len() as u64;
            assert_eq!(seen.last(), Some(&(size, size)), "{rel} ({ext})");
            // The same bytes in memory (a drop or a paste).
            let in_memory = parse::parse_bytes(&path, &packed).unwrap();
            assert_eq!(fingerprint(&in_memory), expected, "{rel} ({ext}) in memory");
            drop(report);
            assert!(temp_files().is_empty(), "{rel} ({ext}): {:?}", temp_files());
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_compressed_report_reads_bodies_from_its_copy_until_dropped() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = temp_dir("compressed_copy");
    let bytes = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let path = write(&dir, "kernels_basic.ncu-repz", &zstd_frames(&bytes));
    let report = parse::load_path(&path).unwrap();
    // The decompressed copy loses its name once open (the open file stays readable), so no
    // process leaves it behind, even one that exits without dropping the report.
    assert!(temp_files().is_empty(), "{:?}", temp_files());
    // The Source page reads the report's code (modules and sources) through the open report,
    // from the decompressed copy: the same code as from the plain report.
    let plain = write(&dir, "kernels_basic.ncu-rep", &bytes);
    let plain_code = parse::ncu_rep::read_code(&plain).unwrap();
    assert!(!plain_code.bytes.is_empty());
    // The compressed file is not read again: moved away, its code still reads.
    let moved = dir.join("moved.ncu-repz");
    std::fs::rename(&path, &moved).unwrap();
    let through_copy = parse::ncu_rep::read_code_of(&path, &report.results[0]).unwrap();
    assert!(parse::ncu_rep::read_code(&path).is_err());
    std::fs::rename(&moved, &path).unwrap();
    assert_eq!(through_copy.bytes, plain_code.bytes);
    assert_eq!(
        through_copy.index.modules.len(),
        plain_code.index.modules.len()
    );
    let result = report.results[3].clone();
    drop(report);
    assert!(
        result.metrics().len() > 100,
        "a result still reads from the copy"
    );
    drop(result);
    // Without the open report, the code is read from the file, decompressing as it goes.
    assert_eq!(
        parse::ncu_rep::read_code(&path).unwrap().bytes,
        plain_code.bytes
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn damaged_streams_are_refused_naming_the_file() {
    let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let dir = temp_dir("compressed_damaged");
    let bytes = fixture_bytes("h100/kernels_basic.details.txt");
    for (ext, packed) in forms(&bytes) {
        // Cut short.
        let path = write(&dir, &format!("cut.{ext}"), &packed[..packed.len() * 2 / 3]);
        match parse::load_path(&path) {
            Err(e @ LoadError::Decompress { .. }) => {
                assert_eq!(e.path(), path, "{ext}");
                let text = e.to_string();
                assert!(text.starts_with(&path.display().to_string()), "{text}");
                assert!(text.contains("damaged"), "{text}");
            }
            other => panic!("{ext}: {:?}", other.map(|r| r.results.len())),
        }
        // Bytes changed in the middle.
        let mut flipped = packed.clone();
        let mid = flipped.len() / 2;
        for b in &mut flipped[mid..mid + 16] {
            *b ^= 0x5A;
        }
        let path = write(&dir, &format!("flipped.{ext}"), &flipped);
        assert!(
            matches!(parse::load_path(&path), Err(LoadError::Decompress { .. })),
            "{ext}"
        );
        assert!(parse::parse_any(&flipped).is_err(), "{ext}");
    }
    // Only a skippable frame: no data.
    let path = write(&dir, "empty.zst", &skippable(0x184D_2A50, b"x"));
    assert!(matches!(
        parse::load_path(&path),
        Err(LoadError::Decompress { .. })
    ));
    assert!(temp_files().is_empty(), "{:?}", temp_files());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn output_is_bounded() {
    let zeros = vec![0u8; 4 << 20];
    for (ext, packed) in forms(&zeros) {
        let kind = compressed::detect(&packed).unwrap();
        match compressed::decompress_bytes(kind, &packed, 1 << 20) {
            Err(compressed::DecompressError::TooLarge { limit, .. }) => {
                assert_eq!(limit, 1 << 20, "{ext}")
            }
            other => panic!("{ext}: {:?}", other.map(|v| v.len())),
        }
    }
    const { assert!(compressed::MAX_DECOMPRESSED >= 64 << 30) };
}
