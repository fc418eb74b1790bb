//! `sightline trend --watch DIR`, the real binary read line by line while reports arrive: the
//! reports already there, ncu's appends replayed while a stand-in ncu runs (nothing printed
//! until ncu ends, said on standard error meanwhile), a copy under a temporary name renamed,
//! a report written again (the same run, printed again); each run printed with NVIDIA's mean
//! durations and its steps. A folder of more reports than the open-file limit prints every
//! run, and waiting for the next costs no CPU.

use crate::common;

use common::arrival::{FakeNcu, fixture_capture, linked_copies, replay, truth_mean_ns};
use common::{fixture_bytes, fixture_file, load_truth, temp_dir};
use sightline_engine::model::format::measured_text;
use std::io::BufRead;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// Long enough for any step on a loaded machine; waits end as soon as the line comes.
const PATIENCE: Duration = Duration::from_secs(120);

/// A running `trend --watch`, its output read line by line.
struct Watch {
    child: Child,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
    /// Every line read from standard output so far.
    seen: Vec<String>,
}

impl Watch {
    /// `sightline trend --watch ARGS DIR`, under a shell that runs `setup` first.
    fn start(setup: &str, args: &[&str], dir: &Path) -> Watch {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("{setup}\nexec \"$0\" trend --watch \"$@\""))
            .arg(env!("CARGO_BIN_EXE_sightline"))
            .args(args)
            .arg(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let lines = |pipe: Box<dyn std::io::Read + Send>| {
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                for line in std::io::BufReader::new(pipe).lines() {
                    let Ok(line) = line else { return };
                    if tx.send(line).is_err() {
                        return;
                    }
                }
            });
            rx
        };
        let stdout = lines(Box::new(child.stdout.take().unwrap()));
        let stderr = lines(Box::new(child.stderr.take().unwrap()));
        Watch {
            child,
            stdout,
            stderr,
            seen: Vec::new(),
        }
    }

    /// Reads standard output until a line starts with `start`; that line and the lines of
    /// its block (up to the empty line after it).
    #[track_caller]
    fn block(&mut self, start: &str) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut block: Option<Vec<String>> = None;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .stdout
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no {start:?} in {:#?}", self.seen));
            self.seen.push(line.clone());
            match &mut block {
                None if line.starts_with(start) => block = Some(vec![line]),
                None => {}
                Some(b) if line.is_empty() => return std::mem::take(b),
                Some(b) => b.push(line),
            }
        }
    }

    /// Reads standard error until a line holds `part`.
    #[track_caller]
    fn said(&mut self, part: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .stderr
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no {part:?} on standard error"));
            if line.contains(part) {
                return line;
            }
        }
    }

    /// No line on standard output for `quiet`.
    fn prints_nothing_for(&mut self, quiet: Duration) -> bool {
        match self.stdout.recv_timeout(quiet) {
            Ok(line) => {
                self.seen.push(line);
                false
            }
            Err(_) => true,
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The block's line of kernel `function`, its mean duration and its step.
#[track_caller]
fn kernel_line<'a>(block: &'a [String], function: &str) -> &'a str {
    block
        .iter()
        .find(|l| l.trim_start().starts_with(&format!("{function} ")))
        .unwrap_or_else(|| panic!("no {function} in {block:#?}"))
}

/// A step as the lines print it, from NVIDIA's means.
fn step_text(before: f64, after: f64, label: &str) -> String {
    format!("{:+.1}% from {label}", (after - before) / before * 100.0)
}

#[test]
fn each_run_is_printed_once_it_settles_with_nvidias_durations() {
    let dir = temp_dir("watch-runs");
    let runs = dir.join("runs");
    std::fs::create_dir_all(&runs).unwrap();
    // Written an hour ago: both settle at the first look, one batch.
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    for v in 1..=2 {
        let path = fixture_file(&runs, &format!("series/v{v}.ncu-rep.xz"));
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(old)
            .unwrap();
    }
    let mut w = Watch::start("", &["--settle", "0.6"], &runs);
    let v1 = load_truth("series/v1.truth.json.xz");
    let v2 = load_truth("series/v2.truth.json.xz");
    let first = w.block("run 1 of ");
    assert!(
        first[0].starts_with("run 1 of 2: v1 (4 results; settled: no growth for 0.6 s)"),
        "{first:?}"
    );
    let gemm1 = truth_mean_ns(&v1, "gemm_step");
    assert!(kernel_line(&first, "gemm_step").contains(&measured_text(gemm1, "ns")));
    let second = w.block("run 2 of ");
    assert!(
        second[0].starts_with("run 2 of 2: v2 (4 results; settled: no growth for 0.6 s)"),
        "{second:?}"
    );
    let gemm2 = truth_mean_ns(&v2, "gemm_step");
    let line = kernel_line(&second, "gemm_step");
    assert!(line.contains(&measured_text(gemm2, "ns")), "{line}");
    assert!(line.contains(&step_text(gemm1, gemm2, "v1")), "{line}");
    assert_eq!(second.last().unwrap().trim(), "No regression in v2.");

    // ncu appends ten results: said on standard error, no run until ncu ends.
    let capture = fixture_capture();
    let ncu = FakeNcu::start(&dir, &runs.join("slow"));
    replay(&capture, &runs.join("slow.ncu-rep"), 0.25, |_| {});
    let growing = w.said("slow.ncu-rep: being written");
    assert!(
        growing.ends_with(&format!(
            "being written by ncu (process {}); a run once it has settled",
            ncu.pid()
        )),
        "{growing}"
    );
    assert!(
        w.prints_nothing_for(Duration::from_secs(2)),
        "{:#?}",
        w.seen
    );
    drop(ncu);
    let slow = w.block("run 3 of ");
    assert!(
        slow[0].starts_with("run 3 of 3: slow (10 results; settled: ncu finished)"),
        "{slow:?}"
    );
    let step = truth_mean_ns(&capture.truth, "step");
    let line = kernel_line(&slow, "step");
    assert!(line.contains(&measured_text(step, "ns")), "{line}");

    // A copy under a hidden temporary name, renamed once done.
    let tmp = runs.join(".v3.ncu-rep.part");
    let bytes = fixture_bytes("series/v3.ncu-rep.xz");
    std::fs::write(&tmp, &bytes[..bytes.len() / 2]).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    std::fs::write(&tmp, &bytes).unwrap();
    std::fs::rename(&tmp, runs.join("v3.ncu-rep")).unwrap();
    let third = w.block("run 4 of ");
    assert!(
        third[0].starts_with("run 4 of 4: v3 (4 results;"),
        "{third:?}"
    );
    let gemm3 = truth_mean_ns(&load_truth("series/v3.truth.json.xz"), "gemm_step");
    let line = kernel_line(&third, "gemm_step");
    assert!(line.contains(&measured_text(gemm3, "ns")), "{line}");
    // The run before that launches it is v2 (slow has no gemm_step).
    assert!(line.contains(&step_text(gemm2, gemm3, "v2")), "{line}");

    // v2 written again with v5's profile: the same run, printed again.
    std::fs::write(
        runs.join("v2.ncu-rep"),
        fixture_bytes("series/v5.ncu-rep.xz"),
    )
    .unwrap();
    let again = w.block("run 2 of ");
    assert!(
        again[0].starts_with("run 2 of 4: v2, written again (4 results;"),
        "{again:?}"
    );
    let gemm5 = truth_mean_ns(&load_truth("series/v5.truth.json.xz"), "gemm_tiled_2d");
    let line = kernel_line(&again, "gemm_tiled_2d");
    assert!(line.contains(&measured_text(gemm5, "ns")), "{line}");
    let runs_printed = w.seen.iter().filter(|l| l.starts_with("run ")).count();
    assert_eq!(runs_printed, 5, "{:#?}", w.seen);
    drop(w);
    let _ = std::fs::remove_dir_all(dir);
}

/// 1,000 reports under an open-file limit of 64: `trend --watch` prints every run, then
/// waits for the next at no CPU cost; `trend` of the folder lists every run too.
#[cfg(target_os = "linux")]
#[test]
fn more_reports_than_the_open_file_limit_are_every_one_a_run() {
    const COUNT: usize = 1000;
    let dir = temp_dir("watch-many");
    let files = linked_copies(
        &dir,
        &fixture_bytes("series/v1.ncu-rep.xz"),
        COUNT,
        ".ncu-rep",
    );
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(&files[0])
        .unwrap()
        .set_modified(old)
        .unwrap();
    let mut w = Watch::start("ulimit -n 64", &[], &dir);
    let last = w.block(&format!("run {COUNT} of {COUNT}: "));
    assert!(last[0].contains("settled: no growth for 3 s"), "{last:?}");
    for i in 1..=COUNT {
        let start = format!("run {i} of {COUNT}: r{:05} ", i - 1);
        assert!(w.seen.iter().any(|l| l.starts_with(&start)), "no {start:?}");
    }
    let pid = w.child.id();
    std::thread::sleep(Duration::from_millis(500));
    let before = common::cpu_time::cpu_time_of(pid);
    std::thread::sleep(Duration::from_secs(3));
    let used = common::cpu_time::cpu_time_of(pid) - before;
    println!("trend --watch of {COUNT} reports under ulimit -n 64: {used:?} of CPU in 3 s idle");
    assert!(
        used < Duration::from_millis(150),
        "{used:?} of CPU while idle"
    );
    drop(w);
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -n 64\nexec \"$0\" trend --format json \"$1\"")
        .arg(env!("CARGO_BIN_EXE_sightline"))
        .arg(&dir)
        .output()
        .unwrap();
    let doc = common::printed_json(&out);
    assert_eq!(doc["runs"].as_array().unwrap().len(), COUNT);
    let _ = std::fs::remove_dir_all(dir);
}

/// `--watch` follows one folder, in text: anything else is refused in words, exit 2.
#[test]
fn watch_takes_one_folder_in_text() {
    let dir = temp_dir("watch-args");
    let file = fixture_file(&dir, "series/v1.ncu-rep.xz");
    for (args, said) in [
        (
            vec!["--watch".to_string(), file.display().to_string()],
            "--watch follows one folder",
        ),
        (
            vec![
                "--watch".into(),
                "--format".into(),
                "json".into(),
                dir.display().to_string(),
            ],
            "--watch prints text only",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_sightline"))
            .arg("trend")
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(said), "{err}");
    }
    let _ = std::fs::remove_dir_all(dir);
}
