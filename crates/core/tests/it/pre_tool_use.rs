//! PreToolUse rules of contract §3: order, pipelines, short circuit, identity lock,
//! re-validation, immutability, strictest-wins suggestions, and the order
//! hook → permission → handler.

use crate::support;

use agenthub_hooks::{HookError, HookRegistry, PreToolUseResult};
use agenthub_protocol::{Message, PermissionEffect, RunStatus};
use agenthub_tools::{PreparedCall, ToolDefinition};
use serde_json::json;
use std::sync::Arc;
use support::*;
use tokio_util::sync::CancellationToken;

fn probe_turns(text: &str) -> Vec<serde_json::Value> {
    vec![
        calls(&[("call_1", "Probe", json!({"text": text}))]),
        answer("done: {{last_tool_result}}"),
    ]
}

fn tool_result(history: &[Message], id: &str) -> String {
    history
        .iter()
        .find_map(|message| match message {
            Message::Tool {
                tool_call_id,
                content,
                ..
            } if tool_call_id == id => Some(content.clone()),
            _ => None,
        })
        .unwrap()
}

#[tokio::test]
async fn registration_order_is_execution_order() {
    let log = Log::default();
    let mut hooks = HookRegistry::new();
    for name in ["first", "second", "third"] {
        let log = log.clone();
        hooks = hooks.pre_tool_use(name, move |_ctx| {
            let log = log.clone();
            async move {
                log.push(format!("hook:{name}"));
                Ok(PreToolUseResult::default())
            }
        });
    }
    let report = agent(model(probe_turns("a")), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(report.status, RunStatus::Completed);
    assert_eq!(
        log.entries(),
        vec![
            "hook:first",
            "hook:second",
            "hook:third",
            r#"permission:{"text":"a"}:none"#,
            r#"handler:{"fail":false,"text":"a"}"#,
        ]
    );
}

#[tokio::test]
async fn block_skips_later_hooks_permission_and_handler() {
    let log = Log::default();
    let later = log.clone();
    let hooks = HookRegistry::new()
        .pre_tool_use("guard", |_ctx| async {
            Ok(PreToolUseResult::block("not today"))
        })
        .pre_tool_use("later", move |_ctx| {
            let later = later.clone();
            async move {
                later.push("hook:later");
                Ok(PreToolUseResult::default())
            }
        });
    let model = model(probe_turns("a"));
    let report = agent(model.clone(), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(log.entries(), Vec::<String>::new());
    assert_eq!(
        tool_result(&report.history, "call_1"),
        "Error [hook_blocked]: not today"
    );
    assert_eq!(
        report.result.as_deref(),
        Some("done: Error [hook_blocked]: not today")
    );
    assert_eq!(
        model.requests()[1].last(),
        Some(&Message::tool_error(
            "call_1",
            "Error [hook_blocked]: not today"
        ))
    );
}

#[tokio::test]
async fn blank_block_reason_still_blocks_with_a_default_text() {
    let log = Log::default();
    let hooks = HookRegistry::new()
        .pre_tool_use("guard", |_ctx| async { Ok(PreToolUseResult::block("   ")) });
    let report = agent(model(probe_turns("a")), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(log.entries(), Vec::<String>::new());
    assert_eq!(
        tool_result(&report.history, "call_1"),
        "Error [hook_blocked]: the call was blocked by a PreToolUse hook (guard)"
    );
}

#[tokio::test]
async fn rewrites_chain_and_the_handler_sees_exactly_the_accepted_input() {
    let log = Log::default();
    let seen = log.clone();
    let hooks = HookRegistry::new()
        .pre_tool_use("upper", |ctx| async move {
            let text = ctx.call.input()["text"]
                .as_str()
                .unwrap_or_default()
                .to_uppercase();
            Ok(PreToolUseResult::rewrite(
                ctx.call.with_input(json!({"text": text})),
            ))
        })
        .pre_tool_use("exclaim", move |ctx| {
            let seen = seen.clone();
            async move {
                seen.push(format!("hook:exclaim saw {}", ctx.call.input()));
                let text = format!("{}!", ctx.call.input()["text"].as_str().unwrap_or_default());
                Ok(PreToolUseResult::rewrite(
                    ctx.call.with_input(json!({"text": text})),
                ))
            }
        });
    let report = agent(model(probe_turns("hi")), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        log.entries(),
        vec![
            r#"hook:exclaim saw {"text":"HI"}"#,
            r#"permission:{"text":"HI!"}:none"#,
            r#"handler:{"fail":false,"text":"HI!"}"#,
        ]
    );
    assert_eq!(tool_result(&report.history, "call_1"), "probed HI!");
}

#[tokio::test]
async fn a_different_definition_with_the_same_name_is_a_contract_error() {
    let log = Log::default();
    let impostor: Arc<ToolDefinition> = Arc::new(ToolDefinition::new(Probe(log.clone())).unwrap());
    let hooks = HookRegistry::new().pre_tool_use("swap", move |ctx| {
        let impostor = impostor.clone();
        async move {
            let swapped = PreparedCall::from_parts(
                ctx.call.id(),
                ctx.call.name(),
                impostor,
                ctx.call.input().clone(),
            );
            Ok(PreToolUseResult::rewrite(swapped))
        }
    });
    let report = agent(model(probe_turns("a")), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(log.entries(), Vec::<String>::new());
    assert_eq!(
        tool_result(&report.history, "call_1"),
        "Error [hook_contract_error]: the tool was not run: PreToolUse hook \"swap\" broke its contract: updated_input carries a different definition of tool Probe; the identity of a tool cannot change"
    );
}

#[tokio::test]
async fn a_rewrite_to_another_tool_is_a_contract_error() {
    let log = Log::default();
    let hooks = HookRegistry::new().pre_tool_use("rename", |ctx| async move {
        let renamed = PreparedCall::from_parts(
            ctx.call.id(),
            "Echo",
            ctx.call.definition().clone(),
            ctx.call.input().clone(),
        );
        Ok(PreToolUseResult::rewrite(renamed))
    });
    let report = agent(model(probe_turns("a")), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(log.entries(), Vec::<String>::new());
    assert_eq!(
        tool_result(&report.history, "call_1"),
        "Error [hook_contract_error]: the tool was not run: PreToolUse hook \"rename\" broke its contract: updated_input changed the tool name from Probe to Echo"
    );
}

#[tokio::test]
async fn updated_input_is_validated_again_against_the_schema() {
    let log = Log::default();
    let hooks = HookRegistry::new().pre_tool_use("break", |ctx| async move {
        Ok(PreToolUseResult::rewrite(
            ctx.call.with_input(json!({"text": 42})),
        ))
    });
    let report = agent(model(probe_turns("a")), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(log.entries(), Vec::<String>::new());
    assert_eq!(
        tool_result(&report.history, "call_1"),
        "Error [hook_contract_error]: the tool was not run: PreToolUse hook \"break\" broke its contract: updated_input does not match the schema of Probe: at /text: 42 is not of type \"string\""
    );
}

#[tokio::test]
async fn a_failing_hook_is_an_execution_error_and_the_handler_does_not_run() {
    let log = Log::default();
    let hooks = HookRegistry::new().pre_tool_use("crash", |_ctx| async {
        Err(HookError::execution("database unreachable"))
    });
    let report = agent(model(probe_turns("a")), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(log.entries(), Vec::<String>::new());
    assert_eq!(
        tool_result(&report.history, "call_1"),
        "Error [hook_execution_error]: the tool was not run: PreToolUse hook \"crash\" failed: database unreachable"
    );
}

#[tokio::test]
async fn permission_suggestions_merge_strictest_wins_and_reach_the_policy() {
    let log = Log::default();
    let hooks = HookRegistry::new()
        .pre_tool_use("allower", |_ctx| async {
            Ok(PreToolUseResult::suggest(PermissionEffect::Allow, "fine"))
        })
        .pre_tool_use("asker", |_ctx| async {
            Ok(PreToolUseResult::suggest(PermissionEffect::Ask, "hmm"))
        })
        .pre_tool_use("allower-again", |_ctx| async {
            Ok(PreToolUseResult::suggest(PermissionEffect::Allow, "fine"))
        });
    agent(model(probe_turns("a")), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(log.entries()[0], r#"permission:{"text":"a"}:ask@asker"#);
}

#[tokio::test]
async fn a_hook_deny_suggestion_denies_under_the_default_policy() {
    let log = Log::default();
    let hooks = HookRegistry::new().pre_tool_use("denier", |_ctx| async {
        Ok(PreToolUseResult::suggest(
            PermissionEffect::Deny,
            "no writes on Fridays",
        ))
    });
    let report = agenthub_core::Agent::builder(model(probe_turns("a")), tools(&log))
        .hooks(hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(log.entries(), Vec::<String>::new());
    assert_eq!(
        tool_result(&report.history, "call_1"),
        "Error [permission_denied]: the tool was not run: permission denied: no writes on Fridays"
    );
}

#[tokio::test]
async fn unknown_tools_and_invalid_arguments_never_reach_hooks() {
    let log = Log::default();
    let seen = log.clone();
    let hooks = HookRegistry::new().pre_tool_use("watch", move |ctx| {
        let seen = seen.clone();
        async move {
            seen.push(format!("hook:{}", ctx.call.id()));
            Ok(PreToolUseResult::default())
        }
    });
    let turns = vec![
        calls(&[
            ("call_1", "Nope", json!({})),
            ("call_2", "Probe", json!("{not json")),
            ("call_3", "Probe", json!({"text": 1})),
        ]),
        answer("done"),
    ];
    let report = agent(model(turns), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(log.entries(), Vec::<String>::new());
    let results: Vec<String> = ["call_1", "call_2", "call_3"]
        .iter()
        .map(|id| tool_result(&report.history, id))
        .collect();
    assert_eq!(
        results,
        vec![
            "Error [unknown_tool]: the tool was not run: no tool is named \"Nope\"; available tools: Echo, Probe".to_owned(),
            "Error [invalid_arguments]: the tool was not run: the arguments are not valid JSON (key must be a string at line 1 column 2); expected a JSON object".to_owned(),
            "Error [invalid_arguments]: the tool was not run: the arguments of Probe do not match its schema: at /text: 1 is not of type \"string\"".to_owned(),
        ]
    );
}

#[tokio::test]
async fn a_blank_stop_reason_still_stops_with_a_default_text_naming_the_hook() {
    let log = Log::default();
    let hooks = HookRegistry::new().pre_tool_use("halt", |_ctx| async {
        Ok(PreToolUseResult {
            stop_run: Some("  ".to_owned()),
            ..PreToolUseResult::default()
        })
    });
    let report = agent(model(probe_turns("a")), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        (report.status, report.error.as_deref(), log.entries()),
        (
            RunStatus::Stopped,
            Some("a PreToolUse hook ended the run (halt)"),
            Vec::<String>::new()
        )
    );
}
