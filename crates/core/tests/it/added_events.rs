//! That the loop fires the events contract §21 added, and what it tells them:
//! StopFailure when the run ends on a model error, PermissionDenied for each
//! refused call, InstructionsLoaded for each memory file of a new session,
//! PostToolBatch once every call of a message has its result (its context
//! entering the history after them). Their stdin as command hooks read it:
//! crates/hooks/tests/it/added_events.rs.

use crate::support::*;
use agenthub_core::Agent;
use agenthub_hooks::{HookRegistry, ObservedResult, PostToolBatchResult};
use agenthub_protocol::{Message, RunStatus};
use agenthub_tools::{ToolRegistry, Workspace};
use serde_json::{json, Value};
use std::path::Path;
use tokio_util::sync::CancellationToken;

/// An agent with the built-in tools and no policy (Bash needs an approval
/// nobody gives), in `root`.
fn builtins_agent(
    root: &Path,
    turns: Vec<Value>,
    hooks: HookRegistry,
) -> agenthub_core::AgentBuilder {
    Agent::builder(model(turns), ToolRegistry::with_builtins().unwrap())
        .hooks(hooks)
        .workspace(Workspace::new(root))
        .max_turns(5)
}

#[tokio::test]
async fn the_loop_tells_stop_failure_hooks_the_error_the_run_ends_on() {
    let dir = tempfile::tempdir().unwrap();
    let log = Log::default();
    let seen = log.clone();
    let hooks = HookRegistry::new().stop_failure("watch", move |ctx| {
        seen.push(ctx.error);
        async { Ok(ObservedResult::default()) }
    });
    let turns = vec![calls(&[("call_1", "Echo", json!({"text": "hi"}))])];
    let report = builtins_agent(dir.path(), turns, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    let error = report.error.clone().unwrap_or_default();
    assert_eq!(
        (report.status, log.entries()),
        (RunStatus::Failed, vec![error.clone()])
    );
    assert!(error.starts_with("model request failed"), "{error}");
}

#[tokio::test]
async fn the_loop_tells_permission_denied_hooks_each_refused_call_and_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let log = Log::default();
    let seen = log.clone();
    let hooks = HookRegistry::new().permission_denied("watch", move |ctx| {
        seen.push(json!([ctx.tool_name, ctx.tool_input, ctx.tool_use_id, ctx.reason]).to_string());
        async { Ok(ObservedResult::default()) }
    });
    let turns = vec![
        calls(&[("call_1", "Bash", json!({"command": "make"}))]),
        answer("gave up"),
    ];
    let report = builtins_agent(dir.path(), turns, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        log.entries(),
        vec![
            json!(["Bash", {"command": "make"}, "call_1", report.permission_denials[0].reason])
                .to_string()
        ]
    );
}

#[tokio::test]
async fn the_loop_tells_instructions_loaded_hooks_each_memory_file_when_a_session_starts() {
    let dir = tempfile::tempdir().unwrap();
    let memory = dir.path().join("AGENTS.md");
    std::fs::write(&memory, "Answer briefly.\n").unwrap();
    let log = Log::default();
    let seen = log.clone();
    let hooks = HookRegistry::new().instructions_loaded("watch", move |ctx| {
        seen.push(format!("{}:{}", ctx.file_path.display(), ctx.load_reason));
        async { Ok(ObservedResult::default()) }
    });
    builtins_agent(dir.path(), vec![answer("done")], hooks)
        .system_prompt("Answer briefly.")
        .memory_files(vec![memory.clone()])
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        log.entries(),
        vec![format!("{}:session_start", memory.display())]
    );
}

#[tokio::test]
async fn the_loop_runs_post_tool_batch_after_every_call_of_a_message_and_adds_its_context() {
    let dir = tempfile::tempdir().unwrap();
    let log = Log::default();
    let seen = log.clone();
    let hooks = HookRegistry::new().post_tool_batch("batch", move |ctx| {
        for call in ctx.tool_calls {
            seen.push(format!(
                "{}:{}:{}",
                call.tool_use_id, call.tool_name, call.is_error
            ));
        }
        async {
            Ok(PostToolBatchResult {
                additional_context: Some("both calls are done".to_owned()),
                ..PostToolBatchResult::default()
            })
        }
    });
    let turns = vec![
        calls(&[
            ("call_1", "Echo", json!({"text": "hi"})),
            ("call_2", "Bash", json!({"command": "make"})),
        ]),
        answer("done"),
    ];
    let report = builtins_agent(dir.path(), turns, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    let after_results: Vec<&Message> = report
        .history
        .iter()
        .skip_while(|message| !matches!(message, Message::Tool { .. }))
        .skip_while(|message| matches!(message, Message::Tool { .. }))
        .collect();
    assert_eq!(
        (log.entries(), after_results.first().copied()),
        (
            vec![
                "call_1:Echo:false".to_owned(),
                "call_2:Bash:true".to_owned()
            ],
            Some(&Message::system("both calls are done"))
        )
    );
}
