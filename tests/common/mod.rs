//! What the root package's tests share beyond crates/testkit (re-exported here whole): running
//! the built binary, and the window driven headless (`app_harness`).
#![allow(dead_code)]

#[cfg(feature = "app")]
pub mod app_harness;

pub use sightline_testkit::*;

use std::path::Path;

/// Runs `sightline diff ARGS BASE CURRENT` (the built binary) and returns what it printed.
pub fn run_diff(args: &[&str], base: &Path, current: &Path) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_sightline"))
        .arg("diff")
        .args(args)
        .arg(base)
        .arg(current)
        .output()
        .unwrap()
}
