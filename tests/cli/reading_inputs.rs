//! What the binary does with the inputs the engine's tests read (crates/engine/tests/parse and
//! text_memory.rs): commands leave no decompressed copy of a compressed report behind, a report
//! with a comment of a gigabyte is read without holding it, files without results exit 2
//! naming the report their log sent the results to, and standard input is read as the file it
//! is, at the same memory.

use sightline_testkit::comment_bomb::{COMMENT, sparse_report, with_comment};
use sightline_testkit::text_public::{corpus_bytes, expected, named_reports};
use sightline_testkit::zstd_frames::zstd_frames;
use sightline_testkit::{fixture_bytes, temp_dir};
use std::process::Command;

const MB: f64 = 1024.0 * 1024.0;

/// The command line exits without freeing its reports: nothing of a compressed report stays in
/// its temporary folder.
#[test]
fn commands_leave_no_copy_of_a_compressed_report() {
    let dir = temp_dir("compressed_commands");
    let bytes = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let path = dir.join("kernels_basic.ncu-repz");
    std::fs::write(&path, zstd_frames(&bytes)).unwrap();
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    for args in [&["summary"][..], &["summary", "--json"], &["sections"]] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
            .args(args)
            .arg(&path)
            .env("TMPDIR", &tmp)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let left: Vec<_> = std::fs::read_dir(&tmp)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect();
        assert!(left.is_empty(), "{args:?} left {left:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A valid report whose first result carries a comment of a gigabyte (a sparse file): the
/// commands print its results, and a child process reading it stays far below its size.
#[cfg(target_os = "linux")]
#[test]
fn reading_a_report_with_a_comment_of_a_gigabyte_never_holds_it() {
    let dir = temp_dir("field_bombs_peak");
    let report = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let (before, after) = with_comment(&report, COMMENT);
    let path = dir.join("comment.ncu-rep");
    sparse_report(&path, &before, &after);
    for args in [&["summary"][..], &["summary", "--format", "json"]] {
        let ran = sightline_testkit::child_peak::run_with_input(
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

#[test]
fn files_without_results_exit_2_with_a_reason() {
    let rows = expected();
    let dir = sightline_testkit::temp_dir("text-public");
    for e in rows.iter().filter(|e| e.results == 0) {
        let path = dir.join(&e.file);
        let bytes = corpus_bytes(&e.file);
        std::fs::write(&path, &bytes).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_sightline"))
            .arg("summary")
            .arg(&path)
            .output()
            .expect("run sightline");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{}: {stderr}", e.file);
        assert!(stderr.contains(&e.file), "{}: {stderr}", e.file);
        for rep in named_reports(&String::from_utf8_lossy(&bytes)) {
            assert!(stderr.contains(rep), "{}: {stderr}", e.file);
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Standard input (`-`) is read as the file it is: `summary` of a 29 MB details text through a
/// pipe gives what it gives for the file, at no more memory (peak resident set of the
/// command) than reading the file by name.
#[cfg(target_os = "linux")]
#[test]
fn standard_input_is_read_as_the_file_it_is() {
    let dir = temp_dir("text-memory-stdin");
    let text = fixture_bytes("big/many_basic.details.txt.xz").repeat(10);
    let file = dir.join("many.details.txt");
    std::fs::write(&file, &text).unwrap();
    let summary = || {
        let mut c = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"));
        c.args(["summary", "--format", "csv"]);
        c
    };
    let by_name = sightline_testkit::child_peak::run_with_input(summary().arg(&file), Vec::new());
    let piped = sightline_testkit::child_peak::run_with_input(summary().arg("-"), text);
    let mb = |b: u64| b as f64 / MB;
    println!(
        "stdin: peak RSS {:.2} MB; the file by name: {:.2} MB",
        mb(piped.peak_bytes),
        mb(by_name.peak_bytes)
    );
    assert_eq!(
        by_name.code,
        Some(0),
        "{}",
        String::from_utf8_lossy(&by_name.stderr)
    );
    assert_eq!(
        piped.code,
        Some(0),
        "{}",
        String::from_utf8_lossy(&piped.stderr)
    );
    // The same rows but for the report's name.
    let rows = |out: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(out)
            .lines()
            .skip(1)
            .map(|l| l.split_once(',').map_or(l, |(_, rest)| rest).to_string())
            .collect()
    };
    assert_eq!(rows(&piped.stdout).len(), 4_000);
    assert_eq!(rows(&piped.stdout), rows(&by_name.stdout));
    assert!(
        piped.peak_bytes < by_name.peak_bytes + (8 << 20),
        "stdin {:.1} MB, by name {:.1} MB",
        mb(piped.peak_bytes),
        mb(by_name.peak_bytes)
    );
    let _ = std::fs::remove_dir_all(dir);
}
