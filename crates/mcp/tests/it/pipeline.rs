//! MCP tools in the one pipeline, end to end through `Agent` with a scripted
//! model: a schema violation is `Error [invalid_arguments]` before any hook
//! sees the call, hooks see `mcp__t__…` calls, an MCP tool asks by default
//! (denied without an approver), `mcp__t` / `mcp__t__*` / `mcp__t__echo`
//! rules allow, and `isError` is `Error [tool_error]`.

use crate::support;

use agenthub_core::Agent;
use agenthub_hooks::{HookRegistry, PreToolUseResult};
use agenthub_model::ScriptedModel;
use agenthub_policy::{CliPermissions, PolicyConfig, PolicyEngine, PolicyInput};
use agenthub_protocol::Message;
use agenthub_tools::{ToolRegistry, Workspace};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use support::*;
use tokio_util::sync::CancellationToken;

fn engine(root: &std::path::Path, allow: &[String]) -> Arc<PolicyEngine> {
    let config = PolicyConfig::build(PolicyInput {
        workspace: root,
        home: None,
        sections: &[],
        cli: CliPermissions {
            allow,
            deny: &[],
            mode: None,
        },
        extra_tools: &[],
    })
    .unwrap();
    Arc::new(PolicyEngine::new(config, None))
}

/// Runs one scripted call of `tool` with `arguments` under `allow` rules;
/// the tool results and the tools PreToolUse hooks saw.
async fn run_one(tool: &str, arguments: Value, allow: &[&str]) -> (Vec<String>, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let servers = start(json!({"t": stdio_entry(json!({}))})).await;
    let mut tools = ToolRegistry::new();
    servers.register(&mut tools);
    let script = json!({"turns": [
        {"content": "calling", "tool_calls": [{"id": "call_1", "name": tool, "arguments": arguments}]},
        {"content": "done"}
    ]});
    let model = ScriptedModel::from_json("script.json", &script.to_string()).unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let hooks = HookRegistry::new().pre_tool_use("watch", move |ctx| {
        log.lock().unwrap().push(ctx.call.name().to_owned());
        async { Ok(PreToolUseResult::default()) }
    });
    let allow: Vec<String> = allow.iter().map(|rule| rule.to_string()).collect();
    let agent = Agent::builder(Arc::new(model), tools)
        .workspace(Workspace::new(dir.path()))
        .policy(engine(dir.path(), &allow))
        .hooks(hooks)
        .build();
    let report = agent.run("go", CancellationToken::new()).await;
    let results = report
        .history
        .iter()
        .filter_map(|message| match message {
            Message::Tool { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect();
    let seen = seen.lock().unwrap().clone();
    (results, seen)
}

#[tokio::test]
async fn a_schema_violation_is_invalid_arguments_before_any_hook_sees_the_call() {
    let (results, seen) = run_one("mcp__t__add", json!({"a": "two", "b": 3}), &["mcp__t"]).await;
    assert_eq!(
        (results, seen),
        (
            vec!["Error [invalid_arguments]: the tool was not run: the arguments of mcp__t__add do not match its schema: at /a: \"two\" is not of type \"number\"".to_owned()],
            vec![]
        )
    );
}

#[tokio::test]
async fn an_mcp_tool_asks_by_default_and_without_an_approver_is_denied() {
    let (results, seen) = run_one("mcp__t__echo", json!({"text": "hi"}), &[]).await;
    assert!(
        results[0].starts_with("Error [permission_denied]"),
        "{results:?}"
    );
    assert_eq!(seen, ["mcp__t__echo"]);
}

#[tokio::test]
async fn server_and_tool_rules_allow_an_mcp_tool() {
    for rule in ["mcp__t", "mcp__t__*", "mcp__t__echo"] {
        let (results, seen) = run_one("mcp__t__echo", json!({"text": "hi"}), &[rule]).await;
        assert_eq!(
            (results, seen),
            (vec!["hi".to_owned()], vec!["mcp__t__echo".to_owned()]),
            "rule {rule}"
        );
    }
}

#[tokio::test]
async fn a_rule_for_another_tool_of_the_server_does_not_allow_this_one() {
    let (results, _) = run_one(
        "mcp__t__echo",
        json!({"text": "hi"}),
        &["mcp__t__add", "mcp__other"],
    )
    .await;
    assert!(
        results[0].starts_with("Error [permission_denied]"),
        "{results:?}"
    );
}

#[tokio::test]
async fn an_is_error_answer_is_a_tool_error_for_the_model() {
    let (results, _) = run_one("mcp__t__fail", json!({"message": "disk full"}), &["mcp__t"]).await;
    assert_eq!(results, ["Error [tool_error]: disk full"]);
}

#[tokio::test]
async fn a_crash_mid_call_is_a_tool_error_naming_the_server() {
    let (results, _) = run_one("mcp__t__crash", json!({}), &["mcp__t"]).await;
    assert_eq!(
        results,
        ["Error [tool_error]: MCP server t exited during the call; its stderr ends with:\ntest server: crashing on purpose"]
    );
}

/// One call of `mcp__t__big` answering `bytes` characters, through an agent
/// that keeps a transcript, with the model reading at most `max_tokens`
/// tokens of a result; the tool result and the transcript's path.
async fn big_result(
    bytes: usize,
    max_tokens: usize,
) -> (String, std::path::PathBuf, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let servers = start(json!({"t": stdio_entry(json!({}))}))
        .await
        .with_max_output_tokens(max_tokens);
    let mut tools = ToolRegistry::new();
    servers.register(&mut tools);
    let script = json!({"turns": [
        {"content": "calling", "tool_calls": [{"id": "call_1", "name": "mcp__t__big", "arguments": {"bytes": bytes}}]},
        {"content": "done"}
    ]});
    let model = ScriptedModel::from_json("script.json", &script.to_string()).unwrap();
    let transcript = dir.path().join("t.jsonl");
    let agent = Agent::builder(Arc::new(model), tools)
        .workspace(Workspace::new(dir.path()))
        .policy(engine(dir.path(), &["mcp__t".to_owned()]))
        .transcript_path(transcript.clone())
        .build();
    let report = agent.run("go", CancellationToken::new()).await;
    let result = report
        .history
        .iter()
        .find_map(|message| match message {
            Message::Tool { content, .. } => Some(content.clone()),
            _ => None,
        })
        .unwrap();
    (result, transcript, dir)
}

#[tokio::test]
async fn a_result_over_max_mcp_output_tokens_reaches_the_model_cut_and_whole_in_a_file() {
    let (result, transcript, _dir) = big_result(1000, 10).await;
    let saved = std::path::PathBuf::from(
        result
            .rsplit_once("the whole text is in ")
            .map(|(_, path)| path.trim_end_matches(']'))
            .unwrap_or_else(|| panic!("no file named: {result}")),
    );
    assert_eq!(
        (
            result,
            std::fs::read_to_string(&saved).unwrap(),
            saved.parent().and_then(std::path::Path::parent),
        ),
        (
            format!(
                "{}\n[mcp__t__big output cut at 40 of 1000 characters; the whole text is in {}]",
                "x".repeat(40),
                saved.display()
            ),
            "x".repeat(1000),
            transcript.parent(),
        )
    );
}

#[tokio::test]
async fn a_result_larger_than_the_transport_reads_reaches_the_model_cut_with_a_note_naming_its_file(
) {
    let (result, transcript, _dir) = big_result(20 * 1024 * 1024, 25_000).await;
    let path = result
        .rsplit_once("(a JSON-RPC message), is in ")
        .map(|(_, path)| std::path::PathBuf::from(path.trim_end_matches(']')))
        .unwrap_or_else(|| panic!("no file named: {result}"));
    let bytes = std::fs::metadata(&path).unwrap().len();
    let note = format!(
        "\n[mcp__t__big output cut: the server's answer was {bytes} bytes, more than the 16777215 \
         AgentHub reads whole; the whole answer, as the server sent it (a JSON-RPC message), is in {}]",
        path.display()
    );
    let kept = 100_000 - note.chars().count();
    assert_eq!(
        (
            result,
            path.parent().and_then(std::path::Path::parent),
            bytes > 20 * 1024 * 1024
        ),
        (
            format!("{}{note}", "x".repeat(kept)),
            transcript.parent(),
            true
        )
    );
}
