//! An Agent SDK application stand-in: an [`SdkMcpBridge`] that forwards each
//! message to a real rmcp server running in-process over a pipe — as the
//! SDKs' own bridges hand each message to their in-process server — with
//! knobs to fail the way an application's channel can.

use agenthub_mcp::{SdkBridgeError, SdkMcpBridge};
use futures::future::BoxFuture;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData, ServiceExt};
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, WriteHalf};
use tokio::sync::oneshot;

/// The application's calculator: `add` answers the sum, `divide` answers a
/// JSON-RPC error for a division by zero, `hang` never answers.
#[derive(Clone)]
struct Calculator;

fn number_schema(names: &[&str]) -> Arc<Map<String, Value>> {
    let properties: Map<String, Value> = names
        .iter()
        .map(|name| ((*name).to_owned(), json!({"type": "number"})))
        .collect();
    match json!({"type": "object", "properties": properties, "required": names}) {
        Value::Object(object) => Arc::new(object),
        _ => unreachable!(),
    }
}

fn number(request: &CallToolRequestParams, name: &str) -> f64 {
    request
        .arguments
        .as_ref()
        .and_then(|arguments| arguments.get(name))
        .and_then(Value::as_f64)
        .unwrap_or_default()
}

impl ServerHandler for Calculator {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(vec![
            Tool::new("add", "Adds two numbers.", number_schema(&["a", "b"])),
            Tool::new("divide", "Divides a by b.", number_schema(&["a", "b"])),
            Tool::new("hang", "Never answers.", number_schema(&[])),
        ]))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let text = match request.name.as_ref() {
            "add" => format!("{}", number(&request, "a") + number(&request, "b")),
            "divide" if number(&request, "b") == 0.0 => {
                return Err(ErrorData::invalid_params("division by zero", None))
            }
            "divide" => format!("{}", number(&request, "a") / number(&request, "b")),
            "hang" => std::future::pending().await,
            other => return Err(ErrorData::invalid_params(format!("no tool {other}"), None)),
        };
        Ok(CallToolResponse::Complete(CallToolResult::success(vec![
            ContentBlock::text(text),
        ])))
    }
}

/// How the stand-in's channel fails `tools/call` requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Calls {
    /// They reach the server.
    Served,
    /// The application answers the control request with an error.
    Refused,
    /// The channel is gone.
    Closed,
}

type Waiting = Arc<Mutex<HashMap<String, oneshot::Sender<Value>>>>;

/// The application: its calculator behind a pipe, and what it was sent.
pub struct Application {
    to_server: tokio::sync::Mutex<WriteHalf<DuplexStream>>,
    waiting: Waiting,
    calls: Calls,
    /// Each message's server name and method (or `response`).
    pub seen: Mutex<Vec<(String, String)>>,
}

impl Application {
    /// The calculator, started in-process; `calls` says how calls fare.
    pub async fn start(calls: Calls) -> Arc<Application> {
        let (ours, theirs) = tokio::io::duplex(64 * 1024);
        let (server_read, server_write) = tokio::io::split(theirs);
        tokio::spawn(async move {
            if let Ok(running) = Calculator.serve((server_read, server_write)).await {
                let _ = running.waiting().await;
            }
        });
        let (from_server, to_server) = tokio::io::split(ours);
        let waiting: Waiting = Arc::default();
        let routes = waiting.clone();
        tokio::spawn(async move {
            let mut lines = BufReader::new(from_server).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                let Ok(answer) = serde_json::from_str::<Value>(&line) else {
                    continue;
                };
                let key = answer["id"].to_string();
                if let Some(waiter) = routes.lock().unwrap().remove(&key) {
                    let _ = waiter.send(answer);
                }
            }
        });
        Arc::new(Application {
            to_server: tokio::sync::Mutex::new(to_server),
            waiting,
            calls,
            seen: Mutex::new(Vec::new()),
        })
    }

    async fn deliver(&self, message: Value) -> Result<Value, SdkBridgeError> {
        let method = message["method"].as_str().unwrap_or("response").to_owned();
        match (method.as_str(), self.calls) {
            ("tools/call", Calls::Refused) => {
                return Err(SdkBridgeError::Application(
                    "the tool handler threw".to_owned(),
                ))
            }
            ("tools/call", Calls::Closed) => return Err(SdkBridgeError::Closed),
            _ => {}
        }
        let answer = match message
            .get("id")
            .filter(|_| message.get("method").is_some())
        {
            Some(id) => {
                let (sender, receiver) = oneshot::channel();
                self.waiting.lock().unwrap().insert(id.to_string(), sender);
                Some(receiver)
            }
            None => None,
        };
        let mut line = serde_json::to_vec(&message).unwrap();
        line.push(b'\n');
        let mut to_server = self.to_server.lock().await;
        to_server
            .write_all(&line)
            .await
            .map_err(|_| SdkBridgeError::Closed)?;
        drop(to_server);
        match answer {
            Some(receiver) => receiver.await.map_err(|_| SdkBridgeError::Closed),
            // The SDKs acknowledge a notification (or a response) so.
            None => Ok(json!({"jsonrpc": "2.0", "result": {}})),
        }
    }
}

impl SdkMcpBridge for Application {
    fn send<'a>(
        &'a self,
        server: &'a str,
        message: Value,
    ) -> BoxFuture<'a, Result<Value, SdkBridgeError>> {
        let method = message["method"].as_str().unwrap_or("response").to_owned();
        self.seen.lock().unwrap().push((server.to_owned(), method));
        Box::pin(self.deliver(message))
    }
}
