//! The command line: `sightline [FILE...]` opens the app; subcommands run headless.

use sightline_engine::{analysis, model, output, parse};

pub mod choice_arg;
pub mod diff;
pub mod loading;
pub mod mcp;
pub mod occupancy;
pub mod roofline;
pub mod sections;
pub mod source;
pub mod summary;
pub mod sweep;
pub mod trend;
pub mod trend_watch;
pub mod warnings;

use analysis::occupancy::request::ResultsFormat;
use choice_arg::choice_parser;
use clap::Parser;
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
    pub command: Option<Subcommand>,
    /// Reports to open in the app (any form: .ncu-rep, CLI text, CSV, GUI copy, session page).
    pub files: Vec<PathBuf>,
    /// Follow a folder in the app: its reports open now, and those written there later as
    /// they arrive, shown as being written until they settle (the Trend page shows the
    /// series of those settled).
    #[arg(long, value_name = "DIR")]
    pub follow: Option<PathBuf>,
    /// Register the app, its icon and the .ncu-rep file type for the current user, then exit.
    #[arg(long)]
    pub install_desktop: bool,
    /// For benchmarks: open the files, print how long the results table took to show every
    /// result, and exit.
    #[arg(long, hide = true)]
    pub time_to_table: bool,
    /// For benchmarks: as `--time-to-table`, then select the table's first N rows one per
    /// frame on the Details page, print how long that took, and exit.
    #[arg(long, hide = true, value_name = "N")]
    pub click_through: Option<usize>,
}

/// The headless commands, one subcommand each (the window's requests are
/// `app::core::commands::Command`).
#[derive(Debug, clap::Subcommand)]
pub enum Subcommand {
    /// One row per result: ID, kernel, grid×block, duration, SOL %, occupancy, top rule.
    Summary(summary::SummaryArgs),
    /// Compares two reports kernel by kernel (Δ duration, SOL, occupancy, every shared metric);
    /// exits 1 when a kernel got worse beyond the threshold, 2 when an input cannot be read.
    Diff(diff::DiffArgs),
    /// A series of reports (files, or folders of reports) as one table of every kernel over
    /// the runs, renames followed: mean duration per run, the biggest steps with their why,
    /// and `--fail-on` rules against the history; exits 1 when a rule fired, 2 when an input
    /// cannot be read.
    Trend(trend::TrendArgs),
    /// Occupancy per result: block limit of each resource, limiter, theoretical and achieved
    /// occupancy, and the occupancy curves.
    Occupancy(AnalysisArgs),
    /// Roofline per result: peak and achieved FLOP/s, memory traffic and arithmetic
    /// intensity; estimated (and marked) where the report lacks the roofline metrics.
    Roofline(AnalysisArgs),
    /// Every section body (charts and tables: memory chart and tables, stall reasons, pipe
    /// utilization, instruction mix, occupancy graphs) with its values, per result.
    Sections(sections::SectionsArgs),
    /// The Source page per result: CUDA lines and SASS instructions with Nsight Compute's
    /// Source page metric columns (warp-stall samples, instructions executed, memory traffic).
    Source(source::SourceArgs),
    /// A Model Context Protocol server on stdin/stdout for agents: list results, details,
    /// compare, source hot spots, occupancy (with a what-if) and roofline of the reports under
    /// the given directories.
    Mcp(mcp::McpArgs),
}

/// The arguments of `occupancy` and `roofline`.
#[derive(Debug, clap::Args)]
pub struct AnalysisArgs {
    /// Output form: a table, or JSON.
    #[arg(
        long,
        default_value = "table",
        value_parser = choice_parser::<ResultsFormat>()
    )]
    pub format: ResultsFormat,
    /// Print JSON instead of a table (the same as `--format json`).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Compute capability (such as 8.6) for sources that do not say, marked as assumed.
    #[arg(long, value_name = "MAJOR.MINOR")]
    pub arch: Option<String>,
    /// Treat every warning (a skipped result, section, metric or line) as an error.
    #[arg(long)]
    pub strict: bool,
    /// Files to read.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
}

impl AnalysisArgs {
    /// The form asked for, by `--format` or `--json`.
    pub fn format(&self) -> ResultsFormat {
        self.format.or_json(self.json)
    }
}

/// Runs a headless command and returns the process exit code.
pub fn run(command: Subcommand) -> i32 {
    match command {
        Subcommand::Summary(args) => summary::run(&args.request()),
        Subcommand::Diff(args) => diff::run(&args),
        Subcommand::Trend(args) if args.by_size => sweep::run(&args),
        Subcommand::Trend(args) => trend::run(&args),
        Subcommand::Occupancy(a) => occupancy::run(&a),
        Subcommand::Roofline(a) => roofline::run(&a),
        Subcommand::Sections(args) => sections::run(&args.request()),
        Subcommand::Source(a) => source::run(&a.request()),
        Subcommand::Mcp(a) => mcp::run(&a),
    }
}
