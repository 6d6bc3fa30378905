//! What AgentHub adds to an MCP call (issue 12 item 7), side by side in one
//! run against the crate's stdio test server:
//! - `server_alone`: the SDK client's own `tools/call` round trip to `echo`
//!   (the server's answer time as a client sees it);
//! - `through_agenthub`: the same call as the pipeline makes it — the
//!   registry's lookup, JSON parse and schema validation, then the tool's
//!   handler (connection check, per-call timeout and cancellation, result
//!   conversion to the model's text);
//! - `start_1_server` / `start_5_servers`: start-up (spawn, handshake, tool
//!   list) of one server and of five in parallel.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark: a panic is a failed run

use agenthub_mcp::{McpConfig, McpServers, Timeouts};
use agenthub_protocol::ToolCall;
use agenthub_tools::{ToolContext, ToolRegistry, Workspace};
use criterion::{criterion_group, criterion_main, Criterion};
use rmcp::model::CallToolRequestParams;
use rmcp::transport::TokioChildProcess;
use rmcp::ServiceExt;
use serde_json::{json, Value};
use std::hint::black_box;
use std::path::PathBuf;
use tokio_util::sync::CancellationToken;

const SERVER: &str = env!("CARGO_BIN_EXE_agenthub-mcp-test-server");

fn config(count: usize) -> McpConfig {
    let servers: serde_json::Map<String, Value> = (0..count)
        .map(|index| (format!("s{index}"), json!({"command": SERVER})))
        .collect();
    McpConfig::from_sections(
        &[(PathBuf::from("bench.json"), Value::Object(servers))],
        &|_| None,
    )
}

fn calls(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let client = runtime.block_on(async {
        let child = TokioChildProcess::new(tokio::process::Command::new(SERVER)).unwrap();
        ().serve(child).await.unwrap()
    });
    let servers = runtime.block_on(McpServers::start(&config(1), Timeouts::default()));
    let mut registry = ToolRegistry::new();
    servers.register(&mut registry);
    let call = ToolCall::new("call_1", "mcp__s0__echo", r#"{"text":"hello"}"#);
    let context = ToolContext {
        workspace: Workspace::new("/tmp"),
        cancel: CancellationToken::new(),
    };

    let mut group = c.benchmark_group("mcp_call");
    group.bench_function("server_alone", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let mut params = CallToolRequestParams::new("echo");
                params.arguments = json!({"text": "hello"}).as_object().cloned();
                black_box(client.call_tool(params).await.unwrap())
            })
        })
    });
    group.bench_function("through_agenthub", |b| {
        b.iter(|| {
            runtime.block_on(async {
                let prepared = registry.prepare(&call).unwrap();
                let input = prepared.input().clone();
                black_box(
                    prepared
                        .definition()
                        .invoke(input, context.clone())
                        .await
                        .unwrap(),
                )
            })
        })
    });
    group.finish();
}

fn start_up(c: &mut Criterion) {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let mut group = c.benchmark_group("mcp_start");
    group.sample_size(20);
    for count in [1, 5] {
        let config = config(count);
        group.bench_function(format!("start_{count}_servers"), |b| {
            b.iter(|| {
                runtime.block_on(async {
                    let servers = McpServers::start(&config, Timeouts::default()).await;
                    black_box(servers.statuses().len());
                    servers.stop().await;
                })
            })
        });
    }
    group.finish();
}

criterion_group!(benches, calls, start_up);
criterion_main!(benches);
