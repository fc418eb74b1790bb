//! The command line: `sightline [FILE...]` opens the app; subcommands run headless.

pub mod summary;

use clap::{Parser, Subcommand};
use std::path::PathBuf;

/// A viewer for NVIDIA Nsight Compute kernel profiles.
#[derive(Debug, Parser)]
#[command(
    name = "sightline",
    version,
    about,
    args_conflicts_with_subcommands = true
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Reports to open in the app (any form: .ncu-rep, CLI text, CSV, GUI copy, session page).
    pub files: Vec<PathBuf>,
    /// Register the app, its icon and the .ncu-rep file type for the current user, then exit.
    #[arg(long)]
    pub install_desktop: bool,
}

/// Headless commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// One row per result: ID, kernel, grid×block, duration, SOL %, occupancy, top rule.
    Summary {
        /// Print JSON instead of a table.
        #[arg(long)]
        json: bool,
        /// Files to read.
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
}

/// Runs a headless command and returns the process exit code.
pub fn run(command: Command) -> i32 {
    match command {
        Command::Summary { json, files } => summary::run(&files, json),
    }
}
