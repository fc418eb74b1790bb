//! nvdisasm is bounded: a run that hangs is stopped after the time limit and the page says
//! so, and a `sightline source` ended by SIGTERM while nvdisasm runs leaves nothing of the
//! user's code in the temporary folder (nvdisasm reads the cubin from a file without a name).
//! The hanging nvdisasm is a stand-in that answers `--version` as CUDA 13.0's does and then
//! never finishes.

use crate::common;

use sightline::parse::sass::Disassembler;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// A folder holding an `nvdisasm` that prints CUDA 13.0's version and hangs on anything else.
fn hanging_nvdisasm(dir: &Path) -> PathBuf {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).expect("bin");
    let tool = bin.join("nvdisasm");
    std::fs::write(
        &tool,
        "#!/bin/sh\ncase \"$1\" in\n  --version) echo 'Cuda compilation tools, release 13.0, V13.0.88';;\n  *) exec sleep 600;;\nesac\n",
    )
    .expect("write");
    let mut perms = std::fs::metadata(&tool).expect("meta").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
    std::fs::set_permissions(&tool, perms).expect("chmod");
    tool
}

#[test]
fn a_hanging_nvdisasm_is_stopped_and_the_page_says_so() {
    let dir = common::temp_dir("sass_hang");
    let tool = hanging_nvdisasm(&dir);
    let report = common::fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let parsed = sightline::parse::load_path(&report).expect("report");
    let disassembler = Disassembler::only([tool])
        .with_cache(None)
        .with_time_limit(Duration::from_secs(1));
    let started = Instant::now();
    let view = sightline::app::views::source::load(
        Some(&report),
        &parsed.results[3],
        Default::default(),
        &disassembler,
    )
    .expect("view");
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "{:?}",
        started.elapsed()
    );
    assert!(
        view.notes
            .iter()
            .any(|n| n.contains("gave no answer in 1 s and was stopped")),
        "{:?}",
        view.notes
    );
    assert!(view.instructions.iter().all(|i| i.sass.is_none()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sigterm_while_nvdisasm_runs_leaves_nothing_in_the_temporary_folder() {
    let dir = common::temp_dir("sass_sigterm");
    let tool = hanging_nvdisasm(&dir);
    let report = common::fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
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
