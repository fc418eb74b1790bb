//! Nothing silent: every headless command names on stderr what it skipped of a damaged file
//! (as `summary` does), and `--strict` makes that an error (exit code 2).

use crate::common;

use std::path::{Path, PathBuf};

fn run(args: &[&str], files: &[&Path]) -> (i32, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(args)
        .args(files)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A native report cut two thirds of the way in: the results before the cut load, the rest
/// is damage the report warns about.
fn damaged(dir: &Path) -> PathBuf {
    let bytes = common::fixture_bytes("h100/kernels_basic.ncu-rep.xz");
    let path = dir.join("cut.ncu-rep");
    std::fs::write(&path, &bytes[..bytes.len() * 2 / 3]).unwrap();
    path
}

#[test]
fn every_command_names_what_it_skipped_and_strict_fails() {
    let dir = common::temp_dir("cli_warnings");
    let cut = damaged(&dir);
    for command in [
        &["summary"][..],
        &["occupancy"],
        &["roofline"],
        &["sections"],
        &["source"],
        &["diff"],
    ] {
        let files: Vec<&Path> = if command[0] == "diff" {
            vec![&cut, &cut]
        } else {
            vec![&cut]
        };
        let (code, err) = run(command, &files);
        assert_ne!(code, 2, "{command:?}: {err}");
        assert!(
            err.lines()
                .any(|l| l.starts_with("warning: ") && l.contains("cut.ncu-rep")),
            "{command:?}: {err}"
        );
        let mut strict = command.to_vec();
        strict.push("--strict");
        let (code, err) = run(&strict, &files);
        assert_eq!(code, 2, "{command:?} --strict: {err}");
        assert!(err.lines().any(|l| l.starts_with("error: ")), "{err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
