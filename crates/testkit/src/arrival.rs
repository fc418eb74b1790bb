//! Reports as ncu writes them, for the tests of followed folders and `trend --watch`: the
//! states ncu left on disk while it appended ten results (the fixture `fixtures/arrival`, and
//! the corpus' `../shared/corpus/arrival/ncu_appending.tar.xz`), replayed into a folder with
//! their timing; a stand-in ncu process whose command line names the report it writes; and
//! NVIDIA's reading of each result to check what was opened against.

use crate::{TruthResult, fixture_bytes, load_truth};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A report as ncu wrote it: its final bytes, each state left on disk (the time since the
/// first state, and its size: every state is the start of the final file, one whole result
/// more each time), and NVIDIA's reading of every result.
pub struct NcuCapture {
    pub bytes: Vec<u8>,
    pub states: Vec<(Duration, usize)>,
    pub truth: Vec<TruthResult>,
}

/// The states of a `states.txt` (a line per change: time, then size, modification time and
/// name of each file), timed from the first.
fn states_of(text: &str) -> Vec<(Duration, usize)> {
    let rows: Vec<(f64, usize)> = text
        .lines()
        .filter_map(|l| {
            let (time, rest) = l.split_once(' ')?;
            let time: f64 = time.parse().ok()?;
            // The report's own entry: the one named `slow.ncu-rep`.
            let entries: Vec<&str> = rest.split(';').collect();
            let size = entries
                .iter()
                .find(|e| e.trim_end().ends_with(" slow.ncu-rep"))?
                .split(' ')
                .next()?
                .parse()
                .ok()?;
            Some((time, size))
        })
        .collect();
    let start = rows.first().map_or(0.0, |r| r.0);
    rows.into_iter()
        .map(|(t, size)| (Duration::from_secs_f64(t - start), size))
        .collect()
}

/// `fixtures/arrival`: ten results appended by ncu 2025.3.1 on an H200, with NVIDIA's
/// reading of the final report (each state's own reading is the first results of it).
pub fn fixture_capture() -> NcuCapture {
    let bytes = fixture_bytes("arrival/slow.ncu-rep.xz");
    let text = String::from_utf8(fixture_bytes("arrival/slow.states")).unwrap();
    NcuCapture {
        states: states_of(&text),
        truth: load_truth("arrival/slow.truth.json.xz"),
        bytes,
    }
}

/// The files of a tar archive (ustar: 512-byte headers, contents padded to 512 bytes).
pub fn untar(bytes: &[u8]) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 512 <= bytes.len() {
        let header = &bytes[at..at + 512];
        if header.iter().all(|&b| b == 0) {
            break;
        }
        let field = |range: std::ops::Range<usize>| {
            let f = &header[range];
            let end = f.iter().position(|&b| b == 0).unwrap_or(f.len());
            String::from_utf8_lossy(&f[..end]).trim().to_string()
        };
        let name = field(0..100);
        let prefix = field(345..500);
        let size = usize::from_str_radix(&field(124..136), 8).expect("tar size");
        let kind = header[156];
        at += 512;
        if kind == b'0' || kind == 0 {
            let name = if prefix.is_empty() {
                name
            } else {
                format!("{prefix}/{name}")
            };
            out.push((name, bytes[at..at + size].to_vec()));
        }
        at += size.div_ceil(512) * 512;
    }
    out
}

/// The corpus' capture (ncu 2025.3.1 on an H200, `--set basic`): each state copied as it was
/// seen, checked here to be the start of the final report; NVIDIA's reading of the final
/// report is `fixtures/arrival/corpus_slow.truth.json.xz`.
pub fn corpus_capture() -> NcuCapture {
    let path = crate::corpus_path("arrival/ncu_appending.tar.xz");
    let raw = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut tar = Vec::new();
    xz2::read::XzDecoder::new(&raw[..])
        .read_to_end(&mut tar)
        .expect("xz");
    let files = untar(&tar);
    let file = |name: &str| {
        files
            .iter()
            .find(|(n, _)| n.trim_start_matches("./") == name)
            .map(|(_, b)| b.clone())
            .unwrap_or_else(|| panic!("{name} in the capture"))
    };
    let bytes = file("out/slow.ncu-rep");
    let states = states_of(&String::from_utf8(file("states.txt")).unwrap());
    let mut snaps: Vec<&(String, Vec<u8>)> =
        files.iter().filter(|(n, _)| n.contains("snap/")).collect();
    snaps.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(snaps.len(), states.len());
    for ((name, snap), (_, size)) in snaps.iter().zip(&states) {
        assert_eq!(snap.len(), *size, "{name}");
        assert!(
            bytes.starts_with(snap),
            "{name} is the start of the final report"
        );
    }
    NcuCapture {
        bytes,
        states,
        truth: load_truth("arrival/corpus_slow.truth.json.xz"),
    }
}

/// Writes `capture` into `path` as ncu does, appending each state's new bytes once its time
/// (times `scale`) has come, and calls `after(k)` once state `k` (1-based: `k` results so far)
/// is on disk.
pub fn replay(capture: &NcuCapture, path: &Path, scale: f64, mut after: impl FnMut(usize)) {
    let started = std::time::Instant::now();
    let mut written = 0;
    for (k, (at, size)) in capture.states.iter().enumerate() {
        let due = at.mul_f64(scale);
        if let Some(wait) = due.checked_sub(started.elapsed()) {
            std::thread::sleep(wait);
        }
        // ncu opens the report for each result it appends and closes it again.
        let mut file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .unwrap();
        file.write_all(&capture.bytes[written..*size]).unwrap();
        drop(file);
        written = *size;
        after(k + 1);
    }
}

/// A stand-in for ncu while it profiles into `report` (without `.ncu-rep`, as given to
/// `-o`): a script named `ncu` run by the shell, so that its command line and name are
/// ncu's; it waits until dropped.
pub struct FakeNcu(std::process::Child);

impl FakeNcu {
    pub fn start(scratch: &Path, report: &Path) -> FakeNcu {
        let bin = scratch.join("ncu-bin");
        std::fs::create_dir_all(&bin).unwrap();
        let script = bin.join("ncu");
        std::fs::write(&script, "#!/bin/sh\nread line\n").unwrap();
        let child = std::process::Command::new("/bin/sh")
            .arg(&script)
            .args(["--set", "basic", "-o"])
            .arg(report)
            .arg("./app")
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        FakeNcu(child)
    }

    pub fn pid(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for FakeNcu {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Each result's kernel and duration are NVIDIA's (the first `results.len()` of `truth`).
#[track_caller]
pub fn assert_results_are_truths(
    results: &[sightline_engine::model::KernelResult],
    truth: &[TruthResult],
) {
    assert!(results.len() <= truth.len());
    for (i, (r, t)) in results.iter().zip(truth).enumerate() {
        assert_eq!(r.name.function, t.function, "result {i}");
        let duration = r.number(sightline_engine::model::names::DURATION);
        assert_eq!(
            duration,
            Some(t.number("gpu__time_duration.sum")),
            "result {i}"
        );
    }
}

/// The mean duration of NVIDIA's results of kernel `function`, in nanoseconds.
pub fn truth_mean_ns(truth: &[TruthResult], function: &str) -> f64 {
    let ds: Vec<f64> = truth
        .iter()
        .filter(|t| t.function == function)
        .map(|t| t.number("gpu__time_duration.sum"))
        .collect();
    ds.iter().sum::<f64>() / ds.len() as f64
}

/// `count` names of one report (`r00000.ncu-rep` …) in `dir`, hard links of one file holding
/// `bytes` (plain, or a compressed fixture as it is when `ending` is `.ncu-rep.xz`).
pub fn linked_copies(dir: &Path, bytes: &[u8], count: usize, ending: &str) -> Vec<PathBuf> {
    let first = dir.join(format!(".original{ending}"));
    std::fs::write(&first, bytes).unwrap();
    (0..count)
        .map(|i| {
            let path = dir.join(format!("r{i:05}{ending}"));
            std::fs::hard_link(&first, &path).unwrap();
            path
        })
        .collect()
}
