//! What agents and scripts see of sightline, kept as text under
//! `tests/snapshots/agent_surface/`: the MCP server's `tools/list` answer (each tool's name,
//! title, description, annotations, input and output schemas, as pretty JSON) and the `--help`
//! of the binary and of every subcommand. A change to a description, a schema or an option
//! then shows in review as a change of these files.
//!
//! When a change is meant, `UPDATE_SNAPSHOTS=1` writes the snapshots anew (and removes those of
//! subcommands that are gone), as it does for the window's image snapshots; without it a
//! difference fails the test, naming each file and its first differing line.

use crate::common;
use crate::mcp_client::Client;

use clap::CommandFactory;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The folder of the snapshots.
fn snapshot_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/agent_surface")
}

/// Whether `UPDATE_SNAPSHOTS` asks for the snapshots to be written (the values egui_kittest
/// takes: `1`, `true`, `yes`, `on`, `force`; `0`, `false`, `no`, `off` or unset compare).
fn updating() -> bool {
    match std::env::var("UPDATE_SNAPSHOTS").as_deref() {
        Err(_) | Ok("0" | "false" | "no" | "off") => false,
        Ok("1" | "true" | "yes" | "on" | "force") => true,
        Ok(other) => panic!("UPDATE_SNAPSHOTS={other:?}: use 1 to write the snapshots"),
    }
}

/// Compares `actual` with the snapshot at `path` (or writes it when updating); a difference is
/// added to `problems`.
fn check(path: &Path, actual: &str, problems: &mut Vec<String>) {
    let expected = std::fs::read_to_string(path).ok();
    if expected.as_deref() == Some(actual) {
        return;
    }
    if updating() {
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("snapshot folder");
        std::fs::write(path, actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let shown = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path);
    let Some(expected) = expected else {
        problems.push(format!("{}: no snapshot", shown.display()));
        return;
    };
    let line = expected
        .lines()
        .zip(actual.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
    problems.push(format!(
        "{}: differs from line {}:\n  snapshot: {:?}\n  now:      {:?}",
        shown.display(),
        line + 1,
        expected.lines().nth(line).unwrap_or("(end)"),
        actual.lines().nth(line).unwrap_or("(end)"),
    ));
}

#[track_caller]
fn assert_no_problems(problems: &[String]) {
    assert!(
        problems.is_empty(),
        "the agent surface changed; if that is meant, run the test with UPDATE_SNAPSHOTS=1 and \
         review the files:\n{}",
        problems.join("\n")
    );
}

#[test]
fn the_mcp_tool_list_is_its_snapshot() {
    let dir = common::TempFixtures::new("agent_surface");
    let mut client = Client::start(&[&dir.0]);
    client.initialize();
    let reply = client.request("tools/list", json!({}));
    let answer = &reply["result"];
    assert!(
        answer["tools"].as_array().is_some_and(|t| !t.is_empty()),
        "{reply}"
    );
    let text = serde_json::to_string_pretty(answer).expect("JSON") + "\n";
    let mut problems = Vec::new();
    check(
        &snapshot_dir().join("tools_list.json"),
        &text,
        &mut problems,
    );
    assert_no_problems(&problems);
}

/// `sightline ARGS --help` as the binary prints it.
fn help_of(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(args)
        .arg("--help")
        // Plain text whatever the terminal asks for.
        .env_remove("CLICOLOR_FORCE")
        .env("NO_COLOR", "1")
        .output()
        .expect("run sightline");
    assert!(out.status.success(), "{args:?} --help: {out:?}");
    assert!(out.stderr.is_empty(), "{args:?} --help wrote to stderr");
    String::from_utf8(out.stdout).expect("UTF-8 help")
}

#[test]
fn every_help_text_is_its_snapshot() {
    let folder = snapshot_dir().join("help");
    let subcommands: Vec<String> = sightline_cli::Args::command()
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    assert!(subcommands.iter().any(|s| s == "mcp"), "{subcommands:?}");
    let mut problems = Vec::new();
    let mut written = vec!["sightline.txt".to_string()];
    check(&folder.join("sightline.txt"), &help_of(&[]), &mut problems);
    for sub in &subcommands {
        let name = format!("{sub}.txt");
        check(&folder.join(&name), &help_of(&[sub]), &mut problems);
        written.push(name);
    }
    // A snapshot of a subcommand that is gone.
    let entries = std::fs::read_dir(&folder).into_iter().flatten();
    for entry in entries {
        let entry = entry.expect("a snapshot");
        let name = entry.file_name().to_string_lossy().into_owned();
        if written.contains(&name) {
            continue;
        }
        if updating() {
            std::fs::remove_file(entry.path()).expect("remove a stale snapshot");
        } else {
            problems.push(format!("{name}: a snapshot of no subcommand"));
        }
    }
    assert_no_problems(&problems);
}
