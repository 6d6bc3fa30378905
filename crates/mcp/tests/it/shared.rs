//! Servers shared by the sessions of one process (the local batch): one
//! start for a configuration that is the same, its own server for one that
//! differs in anything (here, the file it came from).

use crate::support;

use agenthub_mcp::{McpConfig, McpServers, ServerState, SharedServers};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use support::*;
use tokio_util::sync::CancellationToken;

/// The test server behind a shell that notes each start in `starts`.
fn counted(starts: &Path) -> Value {
    json!({"t": {"command": "sh", "args": ["-c", format!("echo started >> '{}'; exec '{SERVER}'", starts.display())]}})
}

fn config_from(file: &str, servers: Value) -> McpConfig {
    McpConfig::from_sections(&[(PathBuf::from(file), servers)], &|_| None)
}

fn starts(file: &Path) -> usize {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .count()
}

async fn echo(servers: &McpServers, text: &str) -> String {
    servers
        .call_tool("t", "echo", json!({"text": text}), CancellationToken::new())
        .await
        .unwrap()
        .text
}

#[tokio::test]
async fn sessions_with_the_same_configuration_share_one_start_of_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("starts");
    let shared = SharedServers::new();
    let config = config_from("/home/u/.config/agenthub/settings.json", counted(&log));
    let (first, second) = tokio::join!(
        McpServers::start_shared(&config, timeouts(10_000, 10_000), &shared),
        McpServers::start_shared(&config, timeouts(10_000, 10_000), &shared),
    );
    assert_eq!(
        (
            starts(&log),
            &first.statuses()[0].state,
            &second.statuses()[0].state,
            echo(&first, "one").await,
            echo(&second, "two").await,
        ),
        (
            1,
            &ServerState::Running,
            &ServerState::Running,
            "one".to_owned(),
            "two".to_owned()
        )
    );
}

#[tokio::test]
async fn a_server_from_another_file_is_not_shared() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("starts");
    let shared = SharedServers::new();
    let one = config_from("/w1/.mcp.json", counted(&log));
    let other = config_from("/w2/.mcp.json", counted(&log));
    McpServers::start_shared(&one, timeouts(10_000, 10_000), &shared).await;
    McpServers::start_shared(&other, timeouts(10_000, 10_000), &shared).await;
    assert_eq!((starts(&log), shared.len()), (2, 2));
}

#[tokio::test]
async fn a_shared_server_that_failed_to_start_is_not_started_again_for_the_next_session() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("starts");
    let shared = SharedServers::new();
    let refusing = json!({"t": {"command": "sh", "args": ["-c", format!("echo started >> '{}'; exit 3", log.display())]}});
    let config = config_from("/home/u/.config/agenthub/settings.json", refusing);
    let first = McpServers::start_shared(&config, timeouts(10_000, 10_000), &shared).await;
    let second = McpServers::start_shared(&config, timeouts(10_000, 10_000), &shared).await;
    assert_eq!(
        (starts(&log), first.warnings(), second.warnings().len()),
        (1, second.warnings(), 1)
    );
}
