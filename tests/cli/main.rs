//! The headless commands, driven through the real binary or their library entry points:
//! `summary`, `diff` (text, Markdown, HTML, exit codes), `sections` (also `--baseline`),
//! `source --json`, `trend` (also `--by-size`), `mcp`, the warnings every command prints for
//! what it skipped, that every command writes its output as it reads, what it does with
//! hostile, compressed and piped inputs and with a signal, and the snapshot of what agents see
//! (the MCP tool list, every `--help`). The engine's own tests are in crates/engine/tests; these
//! are the ones that need the binary (`CARGO_BIN_EXE_sightline`, which only this package has).
//! One test binary; each module is a topic of its own.

#[path = "../common/mod.rs"]
mod common;

mod agent_surface;
mod cli_warnings;
mod crowded_line_table;
mod diff_command;
mod diff_output;
mod hostile_names;
mod html_pages;
mod interrupted_commands;
mod mcp_client;
mod mcp_hardening;
mod mcp_server;
mod ncu_2026_3_cli;
mod output_errors;
mod reading_inputs;
mod sections;
mod sections_baseline;
mod source_json;
mod streaming_output;
mod summary_cli;
mod sweep_cli;
mod trend_cli;
mod trend_watch;
