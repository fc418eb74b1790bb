//! Every command's output errors: writing into a full device (`/dev/full`) is an error named
//! on stderr with exit code 2, never a silent partial output with exit 0; a reader that stops
//! early (`| head`) is no error. The older `--json` flags print what `--format json` prints.

use crate::common;

use common::{fixture_file, temp_dir};
use std::io::Read;
use std::process::{Command, Stdio};

/// The commands with their arguments before the report file(s).
fn commands(report: &str, other: &str) -> Vec<Vec<String>> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    vec![
        s(&["summary", report]),
        s(&["summary", "--json", report]),
        s(&["summary", "--csv", report]),
        s(&["summary", "--format", "html", report]),
        s(&["sections", report]),
        s(&["sections", "--json", report]),
        s(&["occupancy", report]),
        s(&["occupancy", "--format", "json", report]),
        s(&["roofline", report]),
        s(&["roofline", "--format", "json", report]),
        s(&["trend", "--format", "md", report, other]),
        s(&["source", "--json", report]),
        s(&["diff", report, other]),
        s(&["diff", "--format", "json", report, other]),
        s(&["diff", "--format", "csv", report, other]),
        s(&["diff", "--format", "md", report, other]),
        s(&["diff", "--format", "html", report, other]),
    ]
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_device_is_an_error_with_exit_code_2() {
    let dir = temp_dir("output_full");
    let report = fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let other = fixture_file(&dir, "h100/kernels_basic.ncu-rep.xz");
    let (report, other) = (report.to_str().unwrap(), other.to_str().unwrap());
    for args in commands(report, other) {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full");
        let out = Command::new(env!("CARGO_BIN_EXE_sightline"))
            .args(&args)
            .stdout(Stdio::from(full))
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("error: writing the output: No space left on device"),
            "{args:?}: {stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every output form of `summary` and `trend`, and the commands of [`commands`]: with its
/// output pipe closed before it writes (`| head` that has read enough), a command ends as it
/// does writing into `/dev/null`, with nothing about the pipe on stderr.
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_every_form_quietly() {
    let dir = temp_dir("output_pipe_closed");
    let report = fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let other = fixture_file(&dir, "h100/kernels_basic.ncu-rep.xz");
    let series: Vec<String> = (1..=3)
        .map(|v| {
            let path = fixture_file(&dir, &format!("series/v{v}.ncu-rep.xz"));
            path.to_str().unwrap().to_string()
        })
        .collect();
    let (report, other) = (report.to_str().unwrap(), other.to_str().unwrap());
    let mut all = commands(report, other);
    for form in ["table", "json", "csv", "html"] {
        all.push(vec![
            "summary".into(),
            "--format".into(),
            form.into(),
            report.into(),
        ]);
    }
    for form in ["text", "json", "csv", "md", "html"] {
        let mut args = vec!["trend".to_string(), "--format".into(), form.into()];
        args.extend(series.iter().cloned());
        all.push(args);
    }
    for args in all {
        let into_null = Command::new(env!("CARGO_BIN_EXE_sightline"))
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_sightline"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reading end closes before the command writes a byte.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), into_null.code(), "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
        assert!(!stderr.contains("writing the output"), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reader_that_stops_early_is_no_error() {
    let dir = temp_dir("output_closed");
    let report = fixture_file(&dir, "big/many_basic.ncu-rep.xz");
    let mut child = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(["summary", report.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read the first bytes, then close the pipe as `head` does.
    let mut first = [0u8; 64];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("writing the output"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `occupancy --json` and `roofline --json` are `--format json` by their older name: the same
/// bytes and exit code, and a table by default; the two spellings together are refused.
#[test]
fn the_json_flag_prints_what_format_json_prints() {
    let dir = temp_dir("output_json_flag");
    let report = fixture_file(&dir, "h100/kernels_full.ncu-rep.xz");
    let report = report.to_str().unwrap();
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_sightline"))
            .args(args)
            .arg(report)
            .output()
            .unwrap()
    };
    for command in ["occupancy", "roofline"] {
        let flag = run(&[command, "--json"]);
        let format = run(&[command, "--format", "json"]);
        assert_eq!(flag.status.code(), Some(0), "{command}");
        assert_eq!(format.status.code(), Some(0), "{command}");
        assert!(
            flag.stdout
                .starts_with(b"{\n  \"errors\": [],\n  \"reports\": [\n    {\n"),
            "{command}"
        );
        assert_eq!(flag.stdout, format.stdout, "{command}");
        let table = run(&[command, "--format", "table"]);
        assert!(table.stdout.starts_with(b"REPORT"), "{command}");
        assert_eq!(run(&[command]).stdout, table.stdout, "{command}");
        let both = run(&[command, "--json", "--format", "json"]);
        assert_eq!(both.status.code(), Some(2), "{command}");
        assert!(
            String::from_utf8_lossy(&both.stderr).contains("cannot be used with"),
            "{command}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
