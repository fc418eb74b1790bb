//! The sightline binary: parses the command line and starts the app or a headless command.
//!
//! `sightline --time-to-table FILE...` (for benchmarks, not in `--help`) opens the files in the
//! window, prints how long the results table took to show every result, and exits;
//! `sightline --click-through N FILE...` then also selects the first N rows one per frame on
//! the Details page before it exits (the peak memory of walking through N results).

#![deny(unsafe_code)]

use clap::Parser;
use sightline_cli::{self as cli, Args};
use std::time::Instant;

fn main() {
    let started = Instant::now();
    bound_heaps();
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

/// The most heaps (arenas) glibc's allocator keeps: one per core. By default it keeps up to
/// eight per core and gives one to nearly every thread, and what a thread freed stays in its
/// heap: a command's resident memory then grew with its worker threads, not with its work (a
/// 111 MB text written as JSON with 16 threads on 2 cores: 228 MB resident for 19 MB of live
/// heap; 59 MB with two heaps). Fewer heaps than cores make threads wait for one another (a
/// comparison of two 909 MB reports on 16 cores took 4.1 s with eight heaps).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn bound_heaps() {
    let heaps = std::thread::available_parallelism().map_or(1, |n| n.get());
    // SAFETY: mallopt sets one of the allocator's parameters; it is called first thing in
    // `main`, before any other thread is started, and takes no pointer.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, heaps as libc::c_int);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn bound_heaps() {}
