//! The headless commands, driven through the real binary or their library entry points:
//! `summary`, `diff` (text, Markdown, HTML), `trend` (also `--by-size`), `mcp`, the warnings
//! every command prints for what it skipped, that every command writes its output as it reads,
//! and the snapshot of what agents see (the MCP tool list, every `--help`). One test binary;
//! each module was a test file of its own and keeps its name.

#[path = "../common/mod.rs"]
mod common;

mod agent_surface;
mod cli_warnings;
mod crowded_line_table;
mod diff_output;
mod hostile_names;
mod html_pages;
mod mcp_client;
mod mcp_hardening;
mod mcp_server;
mod output_errors;
mod streaming_output;
mod summary_cli;
mod sweep_cli;
mod trend_cli;
mod trend_watch;
