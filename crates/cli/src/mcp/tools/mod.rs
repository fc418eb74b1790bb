//! The MCP server's tools: their names, descriptions, input and output schemas, and the call
//! of each with its arguments checked. Each tool lives in a module of its own and answers
//! with a JSON object (built by the same code as the CLI's JSON outputs) and a short summary.

mod compare;
mod details;
mod list;
mod occupancy;
mod roofline;
mod source;
mod trend;
mod trend_sweep;

use super::cache::{CachedReport, ReportCache};
use super::confinement::{self, ConfinementError, Roots};
use crate::model::Report;
use rmcp::model::{JsonObject, Tool, ToolAnnotations};
use rmcp::schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{Value as Json, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// What the tools read from: the roots they may read under and the reports opened so far;
/// and whether the client withdrew the call.
pub struct ToolContext<'a> {
    pub roots: &'a Roots,
    pub cache: &'a ReportCache,
    /// Set when the client cancels the call (`notifications/cancelled`): the tool stops at
    /// its next check.
    pub cancelled: &'a AtomicBool,
}

impl ToolContext<'_> {
    /// Whether the client cancelled the call.
    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Relaxed)
    }

    /// Stops a cancelled call.
    pub fn check(&self) -> Result<(), ToolError> {
        if self.is_cancelled() {
            Err(ToolError::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// A tool's answer: the structured content and a one-paragraph summary for people and models.
#[derive(Debug)]
pub struct ToolOutput {
    pub structured: Json,
    pub summary: String,
}

/// Why a call failed.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// No tool of this name (a JSON-RPC error).
    #[error("unknown tool `{0}`; tools/list names the tools")]
    Unknown(String),
    /// Arguments missing or of the wrong type (a JSON-RPC error).
    #[error("invalid arguments for `{tool}`: {message}")]
    Arguments { tool: String, message: String },
    /// The tool ran and could not answer: a file refused or unreadable, no such result (a
    /// result with `isError`, so the model can read why and try again).
    #[error("{0}")]
    Failed(String),
    /// The client cancelled the call; nothing is answered.
    #[error("the call was cancelled")]
    Cancelled,
}

/// One tool: its definition and how it is called.
struct Entry {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    input: fn() -> Arc<JsonObject>,
    output: fn() -> Json,
    call: fn(&ToolContext<'_>, Json) -> Result<ToolOutput, ToolError>,
}

const TOOLS: [Entry; 7] = [
    list::ENTRY,
    details::ENTRY,
    compare::ENTRY,
    source::ENTRY,
    occupancy::ENTRY,
    roofline::ENTRY,
    trend::ENTRY,
];

/// The tools, as `tools/list` gives them.
pub fn definitions() -> Vec<Tool> {
    TOOLS
        .iter()
        .map(|e| {
            let mut tool = Tool::new(e.name, e.description, (e.input)());
            tool.title = Some(e.title.to_string());
            if let Json::Object(schema) = (e.output)() {
                tool.output_schema = Some(Arc::new(schema));
            }
            tool.annotations = Some(ToolAnnotations::from_raw(
                Some(e.title.to_string()),
                Some(true),
                Some(false),
                Some(true),
                Some(false),
            ));
            tool
        })
        .collect()
}

/// Calls a tool by name with its arguments.
pub fn call(
    cx: &ToolContext<'_>,
    name: &str,
    arguments: Option<JsonObject>,
) -> Result<ToolOutput, ToolError> {
    let entry = TOOLS
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| ToolError::Unknown(name.to_string()))?;
    (entry.call)(cx, Json::Object(arguments.unwrap_or_default()))
}

/// The input schema of an argument type.
fn input_schema<T: JsonSchema + 'static>() -> Arc<JsonObject> {
    rmcp::handler::server::common::schema_for_type::<T>()
}

/// Reads a tool's arguments into their type; a wrong type or a missing field names itself.
fn arguments<T: DeserializeOwned>(tool: &str, value: Json) -> Result<T, ToolError> {
    serde_json::from_value(value).map_err(|e| ToolError::Arguments {
        tool: tool.to_string(),
        message: e.to_string(),
    })
}

/// Opens a report under the roots (from the cache when it was read before). Where the process
/// has no file descriptor left, the reports kept and not in use are let go and the report is
/// opened once more; the answer says so in words if that fails too.
fn open(cx: &ToolContext<'_>, path: &str) -> Result<(Arc<CachedReport>, bool), ToolError> {
    cx.check()?;
    match open_once(cx, path) {
        Err(Opening::Limit) => {
            cx.cache.shed();
            open_once(cx, path).map_err(|e| e.into_tool_error(path))
        }
        other => other.map_err(|e| e.into_tool_error(path)),
    }
}

/// Why a report did not open: the open-file limit, or anything else (said as it is).
enum Opening {
    Limit,
    Failed(String),
}

impl Opening {
    fn into_tool_error(self, path: &str) -> ToolError {
        match self {
            Opening::Limit => ToolError::Failed(
                ConfinementError::TooManyOpen {
                    path: path.to_string(),
                }
                .to_string(),
            ),
            Opening::Failed(why) => ToolError::Failed(why),
        }
    }
}

fn open_once(cx: &ToolContext<'_>, path: &str) -> Result<(Arc<CachedReport>, bool), Opening> {
    let opened = cx.roots.open(path).map_err(|e| match e {
        ConfinementError::TooManyOpen { .. } => Opening::Limit,
        e => Opening::Failed(e.to_string()),
    })?;
    cx.cache.get(opened).map_err(|e| match &e {
        crate::parse::LoadError::Io { source, .. } if confinement::is_fd_limit(source) => {
            Opening::Limit
        }
        _ => Opening::Failed(
            e.to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
        ),
    })
}

/// What the outputs say about the report a tool read.
fn report_json(rep: &Report, cached: bool) -> Json {
    json!({
        "path": rep.source.display().to_string(),
        "format": rep.format.name(),
        "tool_version": rep.tool_version,
        "results": rep.results.len(),
        "cached": cached,
    })
}

/// The index of the result with this ID, the first result when none is asked for.
fn result_index(rep: &Report, id: Option<u64>) -> Result<usize, ToolError> {
    match id {
        None if rep.results.is_empty() => Err(ToolError::Failed(format!(
            "{}: the report holds no results",
            rep.source.display()
        ))),
        None => Ok(0),
        Some(id) => rep.results.iter().position(|r| r.id == id).ok_or_else(|| {
            let ids: Vec<String> = rep
                .results
                .iter()
                .take(20)
                .map(|r| r.id.to_string())
                .collect();
            let more = if rep.results.len() > 20 { ", …" } else { "" };
            ToolError::Failed(format!(
                "{}: no result with ID {id} (IDs: {}{more}); list_results lists them",
                rep.source.display(),
                ids.join(", ")
            ))
        }),
    }
}

/// What a list cut to `shown` of `total` items left out, and how to ask for more; `None` when
/// nothing was left out.
fn left_out_note(what: &str, shown: usize, total: usize, how: &str) -> Option<String> {
    (shown < total).then(|| format!("{} of {total} {what} shown; {how}", shown))
}

/// The schema of an output object: its properties, all required.
fn object_schema(properties: Json) -> Json {
    let required: Vec<String> = properties
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    json!({"type": "object", "properties": properties, "required": required})
}

/// The schema of the `report` object of every output.
fn report_schema() -> Json {
    object_schema(json!({
        "path": {"type": "string", "description": "canonical path of the report file"},
        "format": {"type": "string"},
        "tool_version": {"type": ["string", "null"], "description": "Nsight Compute version"},
        "results": {"type": "integer", "description": "number of results in the report"},
        "cached": {"type": "boolean", "description": "whether the report was already open"},
    }))
}

/// A number or null.
fn number_or_null(description: &str) -> Json {
    json!({"type": ["number", "null"], "description": description})
}
