//! Loading files that change between and during reads: a report that is still being copied
//! grows or is cut short, and loading it must give a result or an error, never kill the process.

use sightline_engine::model::WarningKind;
use sightline_engine::parse::{LoadError, ParseError, load_path, ncu_rep};
use sightline_testkit::{fixture_bytes, load_truth};
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A file of its own in the temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str) -> TempFile {
        TempFile(std::env::temp_dir().join(format!("sightline-load-{}-{name}", std::process::id())))
    }

    fn write(&self, bytes: &[u8]) {
        std::fs::write(&self.0, bytes).unwrap();
    }

    fn append(&self, bytes: &[u8]) {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&self.0)
            .unwrap();
        f.write_all(bytes).unwrap();
    }

    fn cut(&self, len: usize) {
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(&self.0)
            .unwrap();
        f.set_len(len as u64).unwrap();
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn report_cut_and_grown_between_loads() {
    let full = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let truth = load_truth("h100/kernels_basic.truth.json.xz");
    assert_eq!(truth.len(), 13);
    let file = TempFile::new("report.ncu-rep");

    file.write(&full);
    let report = load_path(&file.0).unwrap();
    assert_eq!(report.results.len(), truth.len());
    assert_eq!(report.source, file.0);
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);

    // Cut inside the tenth result: the nine before it, and a warning that says so.
    let entries = ncu_rep::container(&full).unwrap().results;
    file.cut(entries[9].offset + 1000);
    let report = load_path(&file.0).unwrap();
    assert_eq!(report.results.len(), 9);
    assert_eq!(report.warnings.len(), 1, "{:?}", report.warnings);
    assert_eq!(report.warnings[0].kind, WarningKind::Damaged);
    for (got, want) in report.results.iter().zip(&truth) {
        assert_eq!(got.name.mangled.as_deref(), Some(want.mangled.as_str()));
    }

    // Cut inside the first result: an error that names the file.
    file.cut(entries[0].offset + 100);
    match load_path(&file.0) {
        Err(LoadError::Parse {
            path,
            source: ParseError::Corrupt { .. },
        }) => assert_eq!(path, file.0),
        other => panic!("{:?}", other.map(|r| r.results.len())),
    }

    // Emptied, then written again in two steps.
    file.cut(0);
    match load_path(&file.0) {
        Err(LoadError::Parse {
            source: ParseError::NotAResult(message),
            ..
        }) => assert!(message.contains("empty"), "{message}"),
        other => panic!("{:?}", other.map(|r| r.results.len())),
    }
    file.append(&full[..entries[5].offset]);
    let report = load_path(&file.0).unwrap();
    assert_eq!(report.results.len(), 5);
    file.append(&full[entries[5].offset..]);
    let report = load_path(&file.0).unwrap();
    assert_eq!(report.results.len(), truth.len());
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
}

#[test]
fn text_cut_and_grown_between_loads() {
    let text = fixture_bytes("h100/kernels_basic.details.txt");
    let file = TempFile::new("details.txt");
    file.write(&text);
    let whole = load_path(&file.0).unwrap();
    assert_eq!(whole.results.len(), 13);

    // Cut before the sixth result's kernel line (the lines indented by two spaces).
    let kernel_lines: Vec<usize> = text
        .windows(4)
        .enumerate()
        .filter(|(_, w)| w[..3] == *b"\n  " && w[3] != b' ')
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(kernel_lines.len(), 13);
    let cut = kernel_lines[5];
    file.cut(cut);
    let part = load_path(&file.0).unwrap();
    assert_eq!(part.results.len(), 5);
    for (a, b) in part.results.iter().zip(&whole.results) {
        assert_eq!(a.name, b.name);
    }

    // Cut in the middle of a line: still a clean load.
    file.cut(cut + 37);
    let report = load_path(&file.0).unwrap();
    assert!((5..=6).contains(&report.results.len()));

    file.cut(cut);
    file.append(&text[cut..]);
    let report = load_path(&file.0).unwrap();
    assert_eq!(report.results.len(), 13);
}

/// A report that another thread keeps cutting short and writing again while it is loaded: every
/// load gives a report or an error. (Reading through a memory map dies here with SIGBUS.)
#[test]
fn report_cut_while_it_is_read() {
    let full = fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let file = TempFile::new("racing.ncu-rep");
    file.write(&full);
    let stop = AtomicBool::new(false);
    // The writer's rounds so far: loads go on until both sides did enough, so how often the
    // threads get a core (a busy machine) changes how long this takes, never what it checks.
    let written = AtomicU64::new(0);
    let (mut ok, mut failed) = (0, 0);
    std::thread::scope(|s| {
        let writer = s.spawn(|| {
            let mut cut = full.len();
            let mut rounds = 0u64;
            while !stop.load(Ordering::Relaxed) {
                // Cut the file short, then write it whole again.
                cut = (cut * 7 + 12_345) % full.len();
                file.cut(cut);
                std::thread::sleep(Duration::from_micros(200));
                file.write(&full);
                rounds += 1;
                written.store(rounds, Ordering::Relaxed);
            }
            rounds
        });
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(2)
            || ok + failed < 50
            || written.load(Ordering::Relaxed) <= 10
        {
            assert!(
                start.elapsed() < sightline_testkit::cpu_time::HANG_TIMEOUT,
                "the writer made {} rounds",
                written.load(Ordering::Relaxed)
            );
            match load_path(&file.0) {
                Ok(report) => {
                    assert!(report.results.len() <= 13);
                    ok += 1;
                }
                Err(LoadError::Parse { path, .. }) => {
                    assert_eq!(path, file.0);
                    failed += 1;
                }
                Err(e) => panic!("{e}"),
            }
        }
        stop.store(true, Ordering::Relaxed);
        let rounds = writer.join().unwrap();
        assert!(rounds > 10, "{rounds}");
    });
    assert!(ok + failed >= 50);
}
