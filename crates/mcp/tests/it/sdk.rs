//! Servers inside the Agent SDK application (`"type": "sdk"`): reached
//! through its bridge by the same client as any other server, their tools
//! named and called like any other's; a failing application fails the call
//! at once; without an application they do not start and the others do.

use crate::support;

use agenthub_mcp::{
    McpError, McpServers, SdkMcpBridge, ServerState, SharedServers, Startup, ToolSummary,
};
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};
use support::sdk::{Application, Calls};
use support::*;
use tokio_util::sync::CancellationToken;

/// `calc`, an sdk server, started with `application` as its bridge.
async fn start_calc(application: &Arc<Application>) -> McpServers {
    let bridge: Arc<dyn SdkMcpBridge> = application.clone();
    McpServers::start_with(
        &config(json!({"calc": {"type": "sdk", "name": "calc"}})),
        Startup {
            timeouts: timeouts(10_000, 10_000),
            shared: None,
            sdk_bridge: Some(bridge),
        },
    )
    .await
}

async fn call(
    servers: &McpServers,
    tool: &str,
    arguments: serde_json::Value,
) -> Result<(String, bool), McpError> {
    servers
        .call_tool("calc", tool, arguments, CancellationToken::new())
        .await
        .map(|result| (result.text, result.is_error))
}

#[tokio::test]
async fn an_sdk_servers_tools_are_listed_as_mcp_tools_of_its_name() {
    let application = Application::start(Calls::Served).await;
    let servers = start_calc(&application).await;
    let status = &servers.statuses()[0];
    let summary = |name: &str, description: &str| ToolSummary {
        name: name.to_owned(),
        description: description.to_owned(),
    };
    assert_eq!(
        (
            status.name.as_str(),
            status.command.as_str(),
            &status.state,
            &status.tools[..]
        ),
        (
            "calc",
            "sdk, served by the application",
            &ServerState::Running,
            &[
                summary("mcp__calc__add", "Adds two numbers."),
                summary("mcp__calc__divide", "Divides a by b."),
                summary("mcp__calc__hang", "Never answers."),
            ][..]
        )
    );
}

#[tokio::test]
async fn every_message_travels_through_the_bridge_named_for_the_server() {
    let application = Application::start(Calls::Served).await;
    let servers = start_calc(&application).await;
    call(&servers, "add", json!({"a": 1, "b": 2}))
        .await
        .unwrap();
    let seen = application.seen.lock().unwrap().clone();
    let expected: Vec<(String, String)> = [
        "initialize",
        "notifications/initialized",
        "tools/list",
        "tools/call",
    ]
    .iter()
    .map(|method| ("calc".to_owned(), (*method).to_owned()))
    .collect();
    assert_eq!(seen, expected);
}

#[tokio::test]
async fn a_call_to_an_sdk_server_returns_the_applications_result() {
    let application = Application::start(Calls::Served).await;
    let servers = start_calc(&application).await;
    assert_eq!(
        call(&servers, "add", json!({"a": 2, "b": 3})).await,
        Ok(("5".to_owned(), false))
    );
}

#[tokio::test]
async fn an_error_answer_fails_the_call_with_its_message() {
    let application = Application::start(Calls::Served).await;
    let servers = start_calc(&application).await;
    assert_eq!(
        call(&servers, "divide", json!({"a": 1, "b": 0})).await,
        Err(McpError::Protocol {
            server: "calc".to_owned(),
            message: "division by zero".to_owned()
        })
    );
}

#[tokio::test]
async fn an_application_that_refuses_the_message_fails_the_call_with_its_error() {
    let application = Application::start(Calls::Refused).await;
    let servers = start_calc(&application).await;
    assert_eq!(
        call(&servers, "add", json!({"a": 1, "b": 2})).await,
        Err(McpError::Protocol {
            server: "calc".to_owned(),
            message: "the application answered with an error: the tool handler threw".to_owned()
        })
    );
}

#[tokio::test]
async fn a_closed_channel_fails_the_call_at_once_instead_of_waiting_out_the_timeout() {
    let application = Application::start(Calls::Closed).await;
    let servers = start_calc(&application).await;
    let started = Instant::now();
    let answer = call(&servers, "add", json!({"a": 1, "b": 2})).await;
    assert_eq!(
        (answer, started.elapsed() < Duration::from_secs(5)),
        (
            Err(McpError::Protocol {
                server: "calc".to_owned(),
                message: "the channel to the application is closed".to_owned()
            }),
            true
        )
    );
}

#[tokio::test]
async fn a_call_the_application_never_answers_ends_at_the_tool_timeout() {
    let application = Application::start(Calls::Served).await;
    let bridge: Arc<dyn SdkMcpBridge> = application.clone();
    let servers = McpServers::start_with(
        &config(json!({"calc": {"type": "sdk"}})),
        Startup {
            timeouts: timeouts(10_000, 300),
            shared: None,
            sdk_bridge: Some(bridge),
        },
    )
    .await;
    assert_eq!(
        call(&servers, "hang", json!({})).await,
        Err(McpError::Timeout {
            server: "calc".to_owned(),
            tool: "hang".to_owned(),
            seconds: 0.3
        })
    );
}

#[tokio::test]
async fn without_an_application_an_sdk_server_does_not_start_and_a_stdio_server_beside_it_does() {
    let servers = start(json!({
        "calc": {"type": "sdk", "name": "calc"},
        "t": stdio_entry(json!({})),
    }))
    .await;
    let states: Vec<_> = servers
        .statuses()
        .iter()
        .map(|status| (status.name.as_str(), status.state.clone()))
        .collect();
    let refusal = McpError::NoSdkApplication {
        server: "calc".to_owned(),
    };
    assert_eq!(
        (states, &servers.warnings()[..1]),
        (
            vec![
                ("calc", ServerState::Failed(refusal)),
                ("t", ServerState::Running)
            ],
            &["MCP server calc did not start: an `sdk` server is served by the Agent SDK application that started agenthub with --input-format stream-json; none did".to_owned()][..]
        )
    );
}

#[tokio::test]
async fn an_sdk_server_is_never_shared_between_sessions() {
    let shared = SharedServers::new();
    let (one, other) = (
        Application::start(Calls::Served).await,
        Application::start(Calls::Served).await,
    );
    let config = config(json!({"calc": {"type": "sdk"}}));
    for application in [&one, &other] {
        let bridge: Arc<dyn SdkMcpBridge> = application.clone();
        let servers = McpServers::start_with(
            &config,
            Startup {
                timeouts: timeouts(10_000, 10_000),
                shared: Some(&shared),
                sdk_bridge: Some(bridge),
            },
        )
        .await;
        call(&servers, "add", json!({"a": 1, "b": 1}))
            .await
            .unwrap();
    }
    let calls = |application: &Application| {
        application
            .seen
            .lock()
            .unwrap()
            .iter()
            .filter(|(_, method)| method == "tools/call")
            .count()
    };
    assert_eq!((shared.len(), calls(&one), calls(&other)), (0, 1, 1));
}

#[tokio::test]
async fn dropping_the_servers_stops_the_pump_and_lets_go_of_the_application() {
    let application = Application::start(Calls::Served).await;
    let servers = start_calc(&application).await;
    call(&servers, "add", json!({"a": 1, "b": 1}))
        .await
        .unwrap();
    drop(servers);
    let deadline = Instant::now() + Duration::from_secs(5);
    while Arc::strong_count(&application) > 1 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(Arc::strong_count(&application), 1);
}
