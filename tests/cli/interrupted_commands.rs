//! Commands ended by a signal leave nothing in the temporary folder: not in the middle of a
//! long decompression (the copy never has a name), and not while nvdisasm runs (it reads the
//! cubin from a file without a name).

use sightline_testkit::zstd_frames::{Block, zstd};
use sightline_testkit::{hanging_nvdisasm, temp_dir};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A signal in the middle of a long decompression (gigabytes of text) leaves nothing in the
/// temporary folder, at any moment: the copy never has a name.
#[cfg(target_os = "linux")]
#[test]
fn a_signal_during_decompression_leaves_no_temporary_file() {
    let dir = temp_dir("bombs_signal");
    let tmp = dir.join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let path = dir.join("long.txt.zst");
    std::fs::write(&path, zstd(&[Block::Rle(b'a', 3 << 30)])).unwrap();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .arg("summary")
        .arg(&path)
        .env("TMPDIR", &tmp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let listing = || -> Vec<std::path::PathBuf> {
        std::fs::read_dir(&tmp)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .collect()
    };
    for _ in 0..20 {
        std::thread::sleep(std::time::Duration::from_millis(25));
        assert!(listing().is_empty(), "named while running: {:?}", listing());
    }
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    assert!(!out.status.success(), "stopped by the signal");
    assert!(listing().is_empty(), "left {:?}", listing());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_while_nvdisasm_runs_leaves_nothing_in_the_temporary_folder() {
    let dir = sightline_testkit::temp_dir("sass_sigterm");
    let tool = hanging_nvdisasm(&dir);
    let report = sightline_testkit::fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let tmp = dir.join("tmp");
    let home = dir.join("home");
    std::fs::create_dir_all(&tmp).expect("tmp");
    std::fs::create_dir_all(&home).expect("home");
    let bin = tool.parent().expect("bin").to_path_buf();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["source", "--json"])
        .arg(&report)
        .env_clear()
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("HOME", &home)
        .env("TMPDIR", &tmp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("sightline runs");
    // Until nvdisasm runs: its `sleep` is a child of sightline.
    let started = Instant::now();
    let sleeper = loop {
        let found = std::process::Command::new("pgrep")
            .args(["-P", &child.id().to_string(), "sleep"])
            .output()
            .expect("pgrep");
        let pid = String::from_utf8_lossy(&found.stdout).trim().to_string();
        if !pid.is_empty() {
            break pid;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "nvdisasm never ran"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    let status = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let _ = child.wait();
    let left: Vec<PathBuf> = std::fs::read_dir(&tmp)
        .expect("tmp")
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "left in TMPDIR: {left:?}");
    let _ = std::process::Command::new("kill")
        .args(["-KILL", &sleeper])
        .status();
    let _ = std::fs::remove_dir_all(&dir);
}
