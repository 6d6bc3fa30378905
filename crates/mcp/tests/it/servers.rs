//! Starting servers and calling their tools: stdio and streamable HTTP,
//! results, `isError`, a crash mid-call and the restart, a slow start past
//! `MCP_TIMEOUT`, a server that refuses to start, cancellation, the per-call
//! timeout, and process groups killed when the servers are dropped.

use crate::support;

use agenthub_mcp::{McpError, McpServers, ServerState, ToolSummary};
use serde_json::json;
use std::time::{Duration, Instant};
use support::*;
use tokio_util::sync::CancellationToken;

async fn call_text(
    servers: &McpServers,
    tool: &str,
    arguments: serde_json::Value,
) -> Result<String, McpError> {
    servers
        .call_tool("t", tool, arguments, CancellationToken::new())
        .await
        .map(|result| result.text)
}

#[tokio::test]
async fn a_stdio_server_lists_its_tools_with_one_line_descriptions() {
    let servers = start(json!({"t": stdio_entry(json!({}))})).await;
    let status = &servers.statuses()[0];
    assert_eq!(
        (status.name.as_str(), &status.state, &status.tools[..2]),
        (
            "t",
            &ServerState::Running,
            &[
                ToolSummary {
                    name: "mcp__t__echo".to_owned(),
                    description: "Returns its text.".to_owned()
                },
                ToolSummary {
                    name: "mcp__t__add".to_owned(),
                    description: "Adds two numbers.".to_owned()
                },
            ][..]
        )
    );
}

#[tokio::test]
async fn a_tool_name_no_model_accepts_is_skipped_with_a_warning() {
    let servers = start(json!({"t": stdio_entry(json!({}))})).await;
    assert_eq!(
        servers.warnings(),
        ["tool \"bad name\" of MCP server t is skipped: a tool name may hold only letters, digits, '_' and '-'"]
    );
}

#[tokio::test]
async fn a_call_returns_the_servers_text_and_structured_content() {
    let servers = start(json!({"t": stdio_entry(json!({}))})).await;
    let result = servers
        .call_tool(
            "t",
            "add",
            json!({"a": 2, "b": 3}),
            CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(
        (result.text.as_str(), result.structured, result.is_error),
        ("5", Some(json!({"sum": 5.0})), false)
    );
}

#[tokio::test]
async fn an_is_error_answer_is_marked_as_the_tools_failure() {
    let servers = start(json!({"t": stdio_entry(json!({}))})).await;
    let result = servers
        .call_tool(
            "t",
            "fail",
            json!({"message": "disk full"}),
            CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!((result.text.as_str(), result.is_error), ("disk full", true));
}

#[tokio::test]
async fn a_streamable_http_server_is_called_like_a_stdio_one() {
    let http = HttpServer::start();
    let servers = start(json!({"t": {"type": "http", "url": http.url,
                                     "headers": {"X-Test": "yes"}}}))
    .await;
    assert_eq!(
        call_text(&servers, "echo", json!({"text": "over http"})).await,
        Ok("over http".to_owned())
    );
}

#[tokio::test]
async fn a_server_that_dies_mid_call_fails_that_call_and_is_restarted_on_the_next() {
    let servers = start(json!({"t": stdio_entry(json!({}))})).await;
    let first_pid = call_text(&servers, "pid", json!({})).await.unwrap();
    let crashed = call_text(&servers, "crash", json!({})).await;
    let second_pid = call_text(&servers, "pid", json!({})).await.unwrap();
    assert_eq!(
        crashed,
        Err(McpError::Exited {
            server: "t".to_owned(),
            stderr: "test server: crashing on purpose".to_owned()
        })
    );
    assert_ne!(first_pid, second_pid);
}

#[tokio::test]
async fn a_server_slower_than_the_start_timeout_is_reported_and_the_others_start() {
    let config = config(json!({
        "late": stdio_entry(json!({"TEST_SERVER_START_DELAY_MS": "5000"})),
        "t": stdio_entry(json!({})),
    }));
    let started = Instant::now();
    let servers = McpServers::start(&config, timeouts(500, 10_000)).await;
    let elapsed = started.elapsed();
    let states: Vec<_> = servers
        .statuses()
        .iter()
        .map(|status| (status.name.clone(), status.state.clone()))
        .collect();
    assert_eq!(
        states,
        [
            (
                "late".to_owned(),
                ServerState::Failed(McpError::Start {
                    server: "late".to_owned(),
                    command: SERVER.to_owned(),
                    message: "no answer within 0.5 s (MCP_TIMEOUT)".to_owned(),
                    stderr: String::new(),
                })
            ),
            ("t".to_owned(), ServerState::Running),
        ]
    );
    assert!(
        elapsed < Duration::from_secs(4),
        "start-up waited for the slow server: {elapsed:?}"
    );
}

#[tokio::test]
async fn a_server_that_exits_at_start_is_reported_with_its_command_and_stderr_tail() {
    let servers = start(json!({"t": stdio_entry(json!({"TEST_SERVER_EXIT_AT_START": "7"}))})).await;
    let ServerState::Failed(error) = &servers.statuses()[0].state else {
        panic!("the server started");
    };
    let text = error.to_string();
    assert!(
        text.starts_with(&format!("MCP server t ({SERVER}) did not start: "))
            && text.ends_with("its stderr ends with:\ntest server: refusing to start (TEST_SERVER_EXIT_AT_START=7)"),
        "{text}"
    );
}

#[tokio::test]
async fn a_command_that_does_not_exist_is_reported_naming_it() {
    let servers = start(json!({"t": {"command": "/no/such/server"}})).await;
    assert_eq!(
        servers.warnings(),
        ["MCP server t (/no/such/server) did not start: cannot run /no/such/server: No such file or directory (os error 2)"]
    );
}

#[tokio::test]
async fn cancelling_a_call_sends_the_protocols_cancellation_to_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("cancelled");
    let servers = start(json!({"t": stdio_entry(json!({}))})).await;
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        trigger.cancel();
    });
    let answer = servers
        .call_tool(
            "t",
            "slow",
            json!({"marker": marker.to_str().unwrap()}),
            cancel,
        )
        .await;
    assert_eq!(answer, Err(McpError::Cancelled("t".to_owned())));
    let deadline = Instant::now() + Duration::from_secs(5);
    while !marker.exists() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), "cancelled");
}

#[tokio::test]
async fn a_call_past_the_tool_timeout_is_cancelled_with_an_error_naming_the_limit() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("cancelled");
    let servers = McpServers::start(
        &config(json!({"t": stdio_entry(json!({}))})),
        timeouts(10_000, 300),
    )
    .await;
    let answer = call_text(
        &servers,
        "slow",
        json!({"marker": marker.to_str().unwrap()}),
    )
    .await;
    assert_eq!(
        answer,
        Err(McpError::Timeout {
            server: "t".to_owned(),
            tool: "slow".to_owned(),
            seconds: 0.3
        })
    );
}

#[tokio::test]
async fn dropping_the_servers_kills_their_processes() {
    let servers = start(json!({"t": stdio_entry(json!({}))})).await;
    let pid: i32 = call_text(&servers, "pid", json!({}))
        .await
        .unwrap()
        .parse()
        .unwrap();
    drop(servers);
    let deadline = Instant::now() + Duration::from_secs(5);
    while process_exists(pid) && Instant::now() < deadline {
        // SAFETY: waitpid with a null status pointer only reaps our own
        // child; the child is ours until its exit status is collected.
        unsafe { libc::waitpid(pid, std::ptr::null_mut(), libc::WNOHANG) };
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!process_exists(pid));
}

#[tokio::test]
async fn a_server_listing_hundreds_of_tools_registers_them_all() {
    let servers = start(json!({"t": stdio_entry(json!({"TEST_SERVER_EXTRA_TOOLS": "500"}))})).await;
    let mut registry = agenthub_tools::ToolRegistry::new();
    let warnings = servers.register(&mut registry);
    assert_eq!((warnings.len(), registry.specs().len()), (0, 7 + 500));
}

#[tokio::test]
async fn an_unknown_server_is_an_error_naming_it() {
    let servers = start(json!({})).await;
    assert_eq!(
        servers
            .call_tool("nope", "x", json!({}), CancellationToken::new())
            .await,
        Err(McpError::UnknownServer("nope".to_owned()))
    );
}
