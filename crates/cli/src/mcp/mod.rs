//! `sightline mcp`: a Model Context Protocol server over stdio, so that agents can read
//! Nsight Compute reports: list results, one result's details, compare reports, source hot
//! spots, occupancy with a what-if, roofline. Built on the official SDK (`rmcp`).
//!
//! - [`confinement`]: which files it may read (report files under its roots, nothing else);
//! - [`cache`]: the reports opened lately, a bounded number, by canonical path and
//!   modification time;
//! - [`source_files`]: the CUDA source files it may show, under the roots only;
//! - [`tools`]: the tools, their schemas and their answers;
//! - [`framing`]: the stdio lines, read to a bound and checked before the handler;
//! - [`server`]: the protocol handler.

pub mod cache;
pub mod confinement;
pub mod framing;
pub mod server;
pub mod source_files;
pub mod tools;

use std::path::PathBuf;

/// Arguments of `sightline mcp`.
#[derive(Debug, clap::Args)]
pub struct McpArgs {
    /// A directory whose report files the server may read (repeatable; default: the current
    /// directory). Relative paths in tool calls start from the first.
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,
}

/// Why the server could not run.
#[derive(Debug, thiserror::Error)]
pub enum McpError {
    #[error(transparent)]
    Roots(#[from] confinement::ConfinementError),
    #[error("cannot start the runtime: {0}")]
    Runtime(std::io::Error),
    #[error("the connection could not be set up: {0}")]
    Initialize(String),
    #[error("the server stopped: {0}")]
    Stopped(String),
}

/// Serves on stdin and stdout until the client closes the connection; returns the exit code.
pub fn run(args: &McpArgs) -> i32 {
    match serve(args) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("error: {e}");
            2
        }
    }
}

fn serve(args: &McpArgs) -> Result<(), McpError> {
    use rmcp::ServiceExt;
    let roots = confinement::Roots::new(&args.roots)?;
    let parallel = std::thread::available_parallelism().map_or(2, |n| n.get());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        // Tool calls take at most `parallel` of these (the server's own bound); standard input
        // and output are read and written on the others, so they never wait for a call.
        .max_blocking_threads(parallel + 4)
        .build()
        .map_err(McpError::Runtime)?;
    let served = runtime.block_on(async {
        // The client's lines reach the handler through `framing`, which answers what it
        // refuses; the handler's answers go out through it too, a whole line at a time.
        let (to_handler, handler_reads) = tokio::io::duplex(1 << 16);
        let (handler_writes, from_handler) = tokio::io::duplex(1 << 16);
        let (answers, refused) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(framing::forward_requests(
            tokio::io::stdin(),
            to_handler,
            answers,
        ));
        let output = tokio::spawn(framing::write_answers(
            from_handler,
            tokio::io::stdout(),
            refused,
        ));
        let running = server::SightlineServer::new(roots, parallel)
            .serve((handler_reads, handler_writes))
            .await
            .map_err(|e| McpError::Initialize(e.to_string()))?;
        let done = running
            .waiting()
            .await
            .map(|_| ())
            .map_err(|e| McpError::Stopped(e.to_string()));
        let _ = output.await;
        done
    });
    // The input closed: the server ends now, whatever calls are still running.
    runtime.shutdown_background();
    served
}
