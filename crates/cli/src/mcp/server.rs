//! The MCP server: the `rmcp` handler that lists and calls the tools, answering tool errors
//! as JSON-RPC errors (unknown tool, bad arguments) or as results marked `isError` (a file
//! refused or unreadable), and keeps serving after either. Tool calls run on a bounded pool of
//! threads (one per core), so a slow call (a large report being read) holds up no other
//! request; a call the client cancels (`notifications/cancelled`) is answered no more, and
//! its work stops at the tool's next check (between reports, between pairs compared), which
//! gives its thread back.

use super::cache::ReportCache;
use super::confinement::Roots;
use super::tools::{self, ToolContext, ToolError};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use tokio::sync::Semaphore;

/// What the server tells a client about itself.
const INSTRUCTIONS: &str = "Reads NVIDIA Nsight Compute reports (.ncu-rep, ncu text or CSV output) under the directories the server was started with. Start with list_results to see a report's kernels and their IDs; then result_details, source_hotspots, occupancy and roofline for one result; compare for two reports or two results. Lists are cut to a limit; each answer says what it left out and how to ask for more.";

/// The server's state for one connection.
pub struct SightlineServer {
    shared: Arc<Shared>,
    /// Tool calls running at once, at most.
    slots: Arc<Semaphore>,
}

/// What every tool call reads: the roots and the reports opened so far.
struct Shared {
    roots: Roots,
    cache: ReportCache,
}

impl SightlineServer {
    /// A server that runs at most `parallel` tool calls at once.
    pub fn new(roots: Roots, parallel: usize) -> Self {
        SightlineServer {
            shared: Arc::new(Shared {
                roots,
                cache: ReportCache::default(),
            }),
            slots: Arc::new(Semaphore::new(parallel.max(1))),
        }
    }
}

impl Shared {
    fn answer(
        &self,
        request: &CallToolRequestParams,
        cancelled: &AtomicBool,
    ) -> Result<CallToolResult, ErrorData> {
        let cx = ToolContext {
            roots: &self.roots,
            cache: &self.cache,
            cancelled,
        };
        match tools::call(&cx, &request.name, request.arguments.clone()) {
            Ok(out) => {
                let text = serde_json::to_string(&out.structured)
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                let mut result = CallToolResult::structured(out.structured);
                result.content = vec![ContentBlock::text(out.summary), ContentBlock::text(text)];
                Ok(result)
            }
            Err(e @ (ToolError::Unknown(_) | ToolError::Arguments { .. })) => {
                Err(ErrorData::invalid_params(e.to_string(), None))
            }
            Err(e @ ToolError::Failed(_)) => Ok(CallToolResult::error(vec![ContentBlock::text(
                e.to_string(),
            )])),
            Err(e @ ToolError::Cancelled) => Err(ErrorData::internal_error(e.to_string(), None)),
        }
    }
}

impl ServerHandler for SightlineServer {
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_instructions(INSTRUCTIONS);
        info.server_info = Implementation::new("sightline", env!("CARGO_PKG_VERSION"));
        info
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(tools::definitions()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let cancelled = || ErrorData::internal_error("the call was cancelled", None);
        let slot = tokio::select! {
            slot = Arc::clone(&self.slots).acquire_owned() => {
                slot.map_err(|e| ErrorData::internal_error(e.to_string(), None))?
            }
            () = context.ct.cancelled() => return Err(cancelled()),
        };
        let shared = Arc::clone(&self.shared);
        let stop = StopWhenDropped(Arc::new(AtomicBool::new(false)));
        let work = {
            let stop = Arc::clone(&stop.0);
            tokio::task::spawn_blocking(move || {
                let _slot = slot;
                shared.answer(&request, &stop)
            })
        };
        // Cancelled (or dropped with the connection), `stop` tells the work, which ends at
        // its next check and gives its slot back.
        tokio::select! {
            done = work => done
                .map_err(|e| ErrorData::internal_error(format!("the tool failed: {e}"), None))?
                .map(CallToolResponse::from),
            () = context.ct.cancelled() => Err(cancelled()),
        }
    }
}

/// Tells a call's work to stop when the call ends, however it ends: answered, cancelled, or
/// dropped with the connection.
struct StopWhenDropped(Arc<AtomicBool>);

impl Drop for StopWhenDropped {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
