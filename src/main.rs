//! The sightline binary: parses the command line and starts the app or a headless command.
//!
//! `sightline --time-to-table FILE...` (for benchmarks, not in `--help`) opens the files in the
//! window, prints how long the results table took to show every result, and exits;
//! `sightline --click-through N FILE...` then also selects the first N rows one per frame on
//! the Details page before it exits (the peak memory of walking through N results).

use clap::Parser;
use sightline_cli::{self as cli, Args};
use std::time::Instant;

/// mimalloc rather than the system allocator: text reports and comparisons build and drop
/// millions of small values on every core, and glibc's allocator spent a quarter of the time
/// of `summary --json` of a large text in `malloc` and `free` and in waits on its heap locks.
/// Its version 2, without transparent huge pages (Cargo.toml): freed pages go back to the
/// system within 10 ms, and no heap is rounded up to a huge page. See "Allocator, series
/// copies and the window's spinner" in docs/benchmarks.md.
#[global_allocator]
static HEAP: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let started = Instant::now();
    let args = Args::parse();
    let code = if args.install_desktop {
        install_desktop()
    } else {
        match args.command {
            Some(command) => cli::run(command),
            None if args.time_to_table || args.click_through.is_some() => {
                run_time_to_table(args.files, started, args.click_through.unwrap_or(0))
            }
            None => run_app(args.files, args.follow),
        }
    };
    std::process::exit(code);
}

#[cfg(feature = "app")]
fn run_time_to_table(files: Vec<std::path::PathBuf>, started: Instant, rows: usize) -> i32 {
    match sightline_ui::run_time_to_table(files, started, rows) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("sightline: {e}");
            1
        }
    }
}

#[cfg(not(feature = "app"))]
fn run_time_to_table(_files: Vec<std::path::PathBuf>, _started: Instant, _rows: usize) -> i32 {
    run_app(Vec::new(), None)
}

#[cfg(feature = "app")]
fn install_desktop() -> i32 {
    sightline_ui::desktop::run_install()
}

#[cfg(feature = "app")]
fn run_app(files: Vec<std::path::PathBuf>, follow: Option<std::path::PathBuf>) -> i32 {
    match sightline_ui::run(files, follow) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("sightline: {e}");
            1
        }
    }
}

#[cfg(not(feature = "app"))]
fn install_desktop() -> i32 {
    eprintln!("sightline: built without the desktop app (feature `app`)");
    1
}

#[cfg(not(feature = "app"))]
fn run_app(_files: Vec<std::path::PathBuf>, _follow: Option<std::path::PathBuf>) -> i32 {
    eprintln!(
        "sightline: built without the desktop app (feature `app`); use a subcommand, see --help"
    );
    1
}
