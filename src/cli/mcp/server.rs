//! The MCP server: the `rmcp` handler that lists and calls the tools, answering tool errors
//! as JSON-RPC errors (unknown tool, bad arguments) or as results marked `isError` (a file
//! refused or unreadable), and keeps serving after either.

use super::cache::ReportCache;
use super::confinement::Roots;
use super::tools::{self, ToolContext, ToolError};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};

/// What the server tells a client about itself.
const INSTRUCTIONS: &str = "Reads NVIDIA Nsight Compute reports (.ncu-rep, ncu text or CSV output) under the directories the server was started with. Start with list_results to see a report's kernels and their IDs; then result_details, source_hotspots, occupancy and roofline for one result; compare for two reports or two results. Lists are cut to a limit; each answer says what it left out and how to ask for more.";

/// The server's state for one connection.
pub struct SightlineServer {
    roots: Roots,
    cache: ReportCache,
}

impl SightlineServer {
    pub fn new(roots: Roots) -> Self {
        SightlineServer {
            roots,
            cache: ReportCache::default(),
        }
    }

    fn answer(&self, request: &CallToolRequestParams) -> Result<CallToolResult, ErrorData> {
        let cx = ToolContext {
            roots: &self.roots,
            cache: &self.cache,
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
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.answer(&request).map(CallToolResponse::from)
    }
}
