//! Property: random scripts (valid, unknown and malformed calls, several per
//! message) × random hook behaviour (block, rewrite, fail, prevent,
//! force-continue, add context) always end with a history that passes the
//! pairing check, and no handler runs for a blocked, unknown or invalid call.

use crate::support;

use agenthub_hooks::{HookError, HookRegistry, PostToolUseResult, PreToolUseResult, StopResult};
use agenthub_protocol::{check_pairing, Message, ToolCall, ToolResultText};
use proptest::prelude::*;
use serde_json::{json, Value};
use support::*;
use tokio_util::sync::CancellationToken;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pre {
    Pass,
    Block,
    Rewrite,
    RewriteInvalid,
    Fail,
    Context,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Post {
    Pass,
    Rewrite,
    Fail,
    Prevent,
    Context,
}

#[derive(Debug, Clone)]
enum Call {
    Valid { pre: Pre, post: Post, fail: bool },
    Unknown,
    NotJson,
    BreaksSchema,
}

#[derive(Debug, Clone)]
enum Turn {
    Answer,
    Calls(Vec<Call>),
}

fn pre() -> impl Strategy<Value = Pre> {
    prop_oneof![
        Just(Pre::Pass),
        Just(Pre::Block),
        Just(Pre::Rewrite),
        Just(Pre::RewriteInvalid),
        Just(Pre::Fail),
        Just(Pre::Context)
    ]
}

fn post() -> impl Strategy<Value = Post> {
    prop_oneof![
        Just(Post::Pass),
        Just(Post::Rewrite),
        Just(Post::Fail),
        Just(Post::Prevent),
        Just(Post::Context)
    ]
}

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![
        4 => (pre(), post(), any::<bool>()).prop_map(|(pre, post, fail)| Call::Valid { pre, post, fail }),
        1 => Just(Call::Unknown),
        1 => Just(Call::NotJson),
        1 => Just(Call::BreaksSchema),
    ]
}

fn turn() -> impl Strategy<Value = Turn> {
    prop_oneof![1 => Just(Turn::Answer), 3 => prop::collection::vec(call(), 1..4).prop_map(Turn::Calls)]
}

/// The probe text carries the id and the behaviour the hooks must show.
fn script(turns: &[Turn]) -> Vec<Value> {
    let mut counter = 0;
    turns
        .iter()
        .map(|turn| match turn {
            Turn::Answer => answer("answer"),
            Turn::Calls(items) => {
                let calls: Vec<Value> = items
                    .iter()
                    .map(|item| {
                        counter += 1;
                        let id = format!("call_{counter}");
                        let (name, arguments) = match item {
                            Call::Valid { pre, post, fail } => (
                                "Probe",
                                json!({"text": format!("{id}|{pre:?}|{post:?}"), "fail": fail}),
                            ),
                            Call::Unknown => ("Missing", json!({})),
                            Call::NotJson => ("Probe", json!("{\"text\": ")),
                            Call::BreaksSchema => ("Probe", json!({"text": 7})),
                        };
                        json!({"id": id, "name": name, "arguments": arguments})
                    })
                    .collect();
                json!({"tool_calls": calls})
            }
        })
        .collect()
}

fn behaviour(text: &str) -> (String, String) {
    let mut parts = text.split('|').skip(1);
    (
        parts.next().unwrap_or("").to_owned(),
        parts.next().unwrap_or("").to_owned(),
    )
}

fn hooks(stop_forces: bool, stop_fails: bool) -> HookRegistry {
    HookRegistry::new()
        .pre_tool_use("random-pre", |ctx| async move {
            let text = ctx.call.input()["text"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            Ok(match behaviour(&text).0.as_str() {
                "Block" => PreToolUseResult::block(""),
                "Rewrite" => PreToolUseResult::rewrite(
                    ctx.call
                        .with_input(json!({"text": format!("{text}|rewritten")})),
                ),
                "RewriteInvalid" => {
                    PreToolUseResult::rewrite(ctx.call.with_input(json!({"text": false})))
                }
                "Fail" => return Err(HookError::execution("pre failed")),
                "Context" => PreToolUseResult::context("pre context"),
                _ => PreToolUseResult::default(),
            })
        })
        .post_tool_use("random-post", |ctx| async move {
            let text = ctx.call.input()["text"]
                .as_str()
                .unwrap_or_default()
                .to_owned();
            Ok(match behaviour(&text).1.as_str() {
                "Rewrite" => PostToolUseResult::replace_output("rewritten output"),
                "Fail" => return Err(HookError::execution("post failed")),
                "Prevent" => PostToolUseResult::prevent_continuation("prevented"),
                "Context" => PostToolUseResult::context("post context"),
                _ => PostToolUseResult::default(),
            })
        })
        .stop("random-stop", move |_ctx| async move {
            if stop_fails {
                return Err(HookError::execution("stop failed"));
            }
            Ok(if stop_forces {
                StopResult::force_continue("again")
            } else {
                StopResult::default()
            })
        })
}

const STOPPED: &str = "hook_stopped_continuation";

/// The loop guard ends a run at a call that repeats the one before it too
/// often (the same refused call, e.g. five unparsable `Probe` calls in a row).
const LOOP: &str = "loop_detected";

/// The codes a call may get when the runtime must refuse it; `None` when it may run.
fn refusal_codes(call: &ToolCall) -> Option<[&'static str; 3]> {
    if call.name() == "Missing" {
        return Some(["unknown_tool", STOPPED, LOOP]);
    }
    let arguments: Option<Value> = serde_json::from_str(&call.function.arguments).ok();
    let Some(text) = arguments.as_ref().and_then(|value| value["text"].as_str()) else {
        return Some(["invalid_arguments", STOPPED, LOOP]);
    };
    match behaviour(text).0.as_str() {
        "Block" => Some(["hook_blocked", STOPPED, LOOP]),
        "Fail" => Some(["hook_execution_error", STOPPED, LOOP]),
        "RewriteInvalid" => Some(["hook_contract_error", STOPPED, LOOP]),
        _ => None,
    }
}

fn results_by_id(history: &[Message]) -> Vec<(String, String)> {
    history
        .iter()
        .filter_map(|message| match message {
            Message::Tool {
                tool_call_id,
                content,
                ..
            } => Some((tool_call_id.clone(), content.clone())),
            _ => None,
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn history_stays_paired_and_refused_calls_never_run(
        turns in prop::collection::vec(turn(), 1..6),
        stop_forces in any::<bool>(),
        stop_fails in any::<bool>(),
        max_turns in 1u32..7,
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let log = Log::default();
        let report = runtime.block_on(
            agent(model(script(&turns)), &log, hooks(stop_forces, stop_fails))
                .max_turns(max_turns)
                .build()
                .run("go", CancellationToken::new()),
        );
        prop_assert_eq!(check_pairing(&report.history), Ok(()));
        for entry in log.entries().iter().filter(|entry| entry.starts_with("handler:")) {
            let (pre, _) = behaviour(entry);
            prop_assert!(matches!(pre.as_str(), "Pass" | "Rewrite" | "Context"), "handler ran for {entry}");
        }
        for (id, content) in results_by_id(&report.history) {
            let call = report.history.iter().flat_map(|m| m.tool_calls()).find(|c| c.id == id).unwrap();
            if let Some(allowed) = refusal_codes(call) {
                let code = content.error_code();
                prop_assert!(code.is_some_and(|code| allowed.contains(&code)), "{}: {}", id, content);
            }
        }
    }
}
