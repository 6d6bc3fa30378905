//! The MCP server AgentHub's tests talk to, built on the official SDK: over
//! stdio by default, over streamable HTTP with `--http 127.0.0.1:0` (it
//! prints `listening on http://ADDR/mcp` on stdout). Its tools cover what the
//! client must handle: `echo`, `add` (structured content), `fail` (`isError`),
//! `crash` (exits mid-call), `slow` (waits for the cancellation and writes
//! `cancelled` into the file it is given), `pid` (tells restarts apart).
//!
//! Environment: `TEST_SERVER_START_DELAY_MS` sleeps before serving (a slow
//! start), `TEST_SERVER_EXIT_AT_START` prints a line on stderr and exits with
//! that code, `TEST_SERVER_EXTRA_TOOLS=N` lists N more tools (`extra_0`, …).
//! A test fixture only: it is built with the crate's `test-server` feature.

use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServiceExt};
use serde_json::{json, Map, Value};
use std::sync::Arc;
use std::time::Duration;

#[derive(Clone)]
struct TestServer {
    tools: Arc<Vec<Tool>>,
}

fn schema(value: Value) -> Arc<Map<String, Value>> {
    match value {
        Value::Object(object) => Arc::new(object),
        _ => Arc::new(Map::new()),
    }
}

fn object(properties: Value, required: &[&str]) -> Arc<Map<String, Value>> {
    schema(json!({"type": "object", "properties": properties, "required": required}))
}

fn tools(extra: usize) -> Vec<Tool> {
    let mut tools = vec![
        Tool::new(
            "echo",
            "Returns its text.\nA second line.",
            object(json!({"text": {"type": "string"}}), &["text"]),
        ),
        Tool::new(
            "add",
            "Adds two numbers.",
            object(
                json!({"a": {"type": "number"}, "b": {"type": "number"}}),
                &["a", "b"],
            ),
        ),
        Tool::new(
            "fail",
            "Answers with isError.",
            object(json!({"message": {"type": "string"}}), &["message"]),
        ),
        Tool::new(
            "crash",
            "Exits in the middle of the call.",
            object(json!({}), &[]),
        ),
        Tool::new(
            "slow",
            "Waits until cancelled.",
            object(json!({"marker": {"type": "string"}}), &["marker"]),
        ),
        Tool::new(
            "pid",
            "Answers the server's process id.",
            object(json!({}), &[]),
        ),
        Tool::new(
            "big",
            "Answers `bytes` characters.",
            object(json!({"bytes": {"type": "integer"}}), &["bytes"]),
        ),
        Tool::new(
            "bad name",
            "A name no model accepts.",
            object(json!({}), &[]),
        ),
    ];
    for index in 0..extra {
        tools.push(Tool::new(
            format!("extra_{index}"),
            "One of many tools.",
            object(
                json!({"value": {"type": "integer", "minimum": 0}}),
                &["value"],
            ),
        ));
    }
    tools
}

fn text(text: impl Into<String>) -> Vec<ContentBlock> {
    vec![ContentBlock::text(text)]
}

fn argument<'a>(request: &'a CallToolRequestParams, name: &str) -> Option<&'a Value> {
    request
        .arguments
        .as_ref()
        .and_then(|arguments| arguments.get(name))
}

impl TestServer {
    async fn answer(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let string = |name: &str| {
            argument(&request, name)
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        };
        let number = |name: &str| {
            argument(&request, name)
                .and_then(Value::as_f64)
                .unwrap_or_default()
        };
        match request.name.as_ref() {
            "echo" => CallToolResult::success(text(string("text"))),
            "add" => {
                let sum = number("a") + number("b");
                let mut result = CallToolResult::success(text(format!("{sum}")));
                result.structured_content = Some(json!({"sum": sum}));
                result
            }
            "fail" => CallToolResult::error(text(string("message"))),
            "crash" => {
                eprintln!("test server: crashing on purpose");
                std::process::exit(3);
            }
            "slow" => {
                tokio::select! {
                    () = context.ct.cancelled() => {
                        let _ = std::fs::write(string("marker"), "cancelled");
                        CallToolResult::error(text("cancelled"))
                    }
                    () = tokio::time::sleep(Duration::from_secs(60)) => CallToolResult::success(text("done")),
                }
            }
            "pid" => CallToolResult::success(text(std::process::id().to_string())),
            "big" => CallToolResult::success(text("x".repeat(number("bytes") as usize))),
            other => CallToolResult::success(text(format!("{other} ran"))),
        }
    }
}

impl ServerHandler for TestServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.as_ref().clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Ok(CallToolResponse::Complete(
            self.answer(request, context).await,
        ))
    }
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name).ok().and_then(|text| text.parse().ok())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    if let Some(code) = env_number("TEST_SERVER_EXIT_AT_START") {
        eprintln!("test server: refusing to start (TEST_SERVER_EXIT_AT_START={code})");
        std::process::exit(i32::try_from(code).unwrap_or(1));
    }
    if let Some(delay) = env_number("TEST_SERVER_START_DELAY_MS") {
        tokio::time::sleep(Duration::from_millis(delay)).await;
    }
    let extra = env_number("TEST_SERVER_EXTRA_TOOLS").unwrap_or(0) as usize;
    let server = TestServer {
        tools: Arc::new(tools(extra)),
    };
    let args: Vec<String> = std::env::args().collect();
    match args.iter().position(|arg| arg == "--http") {
        Some(index) => {
            serve_http(
                server,
                args.get(index + 1).map_or("127.0.0.1:0", String::as_str),
            )
            .await
        }
        None => {
            let running = server.serve(rmcp::transport::stdio()).await?;
            running.waiting().await?;
            Ok(())
        }
    }
}

async fn serve_http(server: TestServer, address: &str) -> Result<(), Box<dyn std::error::Error>> {
    use hyper_util::rt::{TokioExecutor, TokioIo};
    use hyper_util::service::TowerToHyperService;
    use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };

    let service: StreamableHttpService<TestServer, LocalSessionManager> =
        StreamableHttpService::new(
            move || Ok(server.clone()),
            Default::default(),
            StreamableHttpServerConfig::default().with_sse_keep_alive(None),
        );
    let listener = tokio::net::TcpListener::bind(address).await?;
    println!("listening on http://{}/mcp", listener.local_addr()?);
    loop {
        let (stream, _) = listener.accept().await?;
        let service = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            let _ = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new())
                .serve_connection(TokioIo::new(stream), service)
                .await;
        });
    }
}
