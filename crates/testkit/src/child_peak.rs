//! The peak resident memory of a child process, measured from outside: the command runs with
//! its standard input fed by a thread and its output collected, while its `VmHWM` (the high
//! water mark of its resident set, which starts afresh when it executes the command) is read
//! from `/proc` every few milliseconds until it exits (Linux). The mark only grows, so the
//! last reading holds every peak but one in the last milliseconds of the command.
//!
//! (`wait4`'s `ru_maxrss` cannot stand in: a child started by `posix_spawn` shares the parent's
//! memory until it executes, and the kernel folds the parent's mark into the child's.)

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

/// What a child did: its exit code, its output, and its peak resident set in bytes.
pub struct Ran {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub peak_bytes: u64,
}

/// The `VmHWM` of process `pid` in bytes, while it runs.
fn high_water(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Runs `command` with `input` written to its standard input, and measures it.
#[cfg(target_os = "linux")]
pub fn run_with_input(command: &mut Command, input: Vec<u8>) -> Ran {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start the command");
    let pid = child.id();
    let watching = std::thread::spawn(move || {
        // Until the command exits (a process that has exited has no memory to report).
        let mut peak = 0;
        while let Some(now) = high_water(pid) {
            peak = peak.max(now);
            std::thread::sleep(Duration::from_millis(2));
        }
        peak
    });
    let mut stdin = child.stdin.take().unwrap();
    let feeding = std::thread::spawn(move || {
        // The command may stop reading early: a closed pipe is its answer, not ours.
        let _ = stdin.write_all(&input);
    });
    let mut out = child.stdout.take().unwrap();
    let reading = std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = out.read_to_end(&mut bytes);
        bytes
    });
    let mut stderr = Vec::new();
    let _ = child.stderr.take().unwrap().read_to_end(&mut stderr);
    let stdout = reading.join().unwrap();
    feeding.join().unwrap();
    let peak_bytes = watching.join().unwrap();
    let status = child.wait().expect("wait for the command");
    Ran {
        code: status.code(),
        stdout,
        stderr,
        peak_bytes,
    }
}
