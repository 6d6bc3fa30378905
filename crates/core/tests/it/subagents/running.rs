//! Running: concurrent Task calls, the order of scripted subagents,
//! cancellation, failures, and the tools a subagent is offered.

use super::*;
use agenthub_core::{Agent, AgentDefinition};
use agenthub_hooks::{HookRegistry, PreToolUseResult};
use agenthub_protocol::{check_pairing, RunStatus};
use agenthub_tools::Workspace;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn two_task_calls_that_each_sleep_a_second_run_at_the_same_time() {
    let dir = tempfile::tempdir().unwrap();
    let ledger = dir.path().join("ledger");
    let sleeper = |id: &str, name: &str| {
        bash(
            id,
            &format!(
                "echo start-{name} >> {ledger}; sleep 1; echo end-{name} >> {ledger}; echo {name}",
                ledger = ledger.display()
            ),
        )
    };
    let model = script(
        json!([
            {"tool_calls": [task("t1", "a", "general-purpose"), task("t2", "b", "general-purpose")]},
            {"content": "done"}
        ]),
        json!([
            {"turns": [{"tool_calls": [sleeper("s1", "one")]}, {"content": "{{last_tool_result}}"}]},
            {"turns": [{"tool_calls": [sleeper("s2", "two")]}, {"content": "{{last_tool_result}}"}]}
        ]),
    );
    let agent = Agent::builder(model, tools(AgentDefinitions::builtin()))
        .workspace(Workspace::new(dir.path()))
        .policy(policy(dir.path(), json!({"allow": ["Bash"]}), None))
        .build();
    let report = agent.run("go", CancellationToken::new()).await;
    assert_eq!(
        report.history[2..4].to_vec(),
        vec![
            Message::tool("t1", "[exit code: 0]\none"),
            Message::tool("t2", "[exit code: 0]\ntwo")
        ],
        "results in call order"
    );
    let ledger = std::fs::read_to_string(&ledger).unwrap();
    let mut lines: Vec<&str> = ledger.lines().collect();
    let (starts, ends) = lines.split_at_mut(2);
    starts.sort_unstable();
    ends.sort_unstable();
    assert_eq!(
        (starts.to_vec(), ends.to_vec()),
        (vec!["start-one", "start-two"], vec!["end-one", "end-two"]),
        "both sleeps began before either ended: {ledger}"
    );
}

#[tokio::test]
async fn concurrent_task_calls_replay_the_scripted_subagents_in_call_order_when_a_hook_is_slow() {
    let dir = tempfile::tempdir().unwrap();
    let model = script(
        json!([
            {"tool_calls": [task("t1", "a", "general-purpose"), task("t2", "b", "general-purpose")]},
            {"content": "done"}
        ]),
        json!([{"turns": [{"content": "first"}]}, {"turns": [{"content": "second"}]}]),
    );
    let hooks = HookRegistry::new().pre_tool_use("slow-first", |ctx| async move {
        if ctx.call.id() == "t1" {
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        Ok(PreToolUseResult::default())
    });
    let agent = Agent::builder(model, tools(AgentDefinitions::builtin()))
        .workspace(Workspace::new(dir.path()))
        .policy(policy(dir.path(), json!({"allow": ["Task"]}), None))
        .hooks(hooks)
        .build();
    let report = agent.run("go", CancellationToken::new()).await;
    assert_eq!(
        report.history[2..4].to_vec(),
        vec![Message::tool("t1", "first"), Message::tool("t2", "second")]
    );
}

#[tokio::test]
async fn cancelling_mid_subagent_answers_every_call_in_both_histories() {
    let dir = tempfile::tempdir().unwrap();
    let model = script(
        json!([
            {"tool_calls": [task("t1", "a", "general-purpose"), {"id": "e1", "name": "Echo", "arguments": {"text": "x"}}]},
            {"content": "never"}
        ]),
        json!([{"turns": [{"tool_calls": [bash("s1", "sleep 20")]}, {"content": "never"}]}]),
    );
    let records = Arc::new(Records::default());
    let agent = Agent::builder(model, tools(AgentDefinitions::builtin()))
        .workspace(Workspace::new(dir.path()))
        .policy(policy(dir.path(), json!({"allow": ["Bash"]}), None))
        .observer(records.clone())
        .build();
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        trigger.cancel();
    });
    let started = Instant::now();
    let report = agent.run("go", cancel).await;
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(report.status, RunStatus::Cancelled);
    assert_eq!(check_pairing(&report.history), Ok(()));
    let tool_results: Vec<String> = tool_results(&report.history);
    assert_eq!(tool_results.len(), 2);
    assert!(
        tool_results[0].starts_with("Error [tool_error]: the subagent was cancelled"),
        "{}",
        tool_results[0]
    );
    assert!(tool_results[1].starts_with("Error [cancelled]"));
    for (_, history) in records.subagent_histories() {
        assert_eq!(check_pairing(&history), Ok(()));
    }
}

#[tokio::test]
async fn a_subagent_without_script_turns_fails_as_a_task_result_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    let model = script(
        json!([
            {"tool_calls": [task("t1", "a", "general-purpose"), task("t2", "b", "nobody")]},
            {"content": "{{last_tool_result}}"}
        ]),
        json!([]),
    );
    let agent = Agent::builder(model, tools(AgentDefinitions::builtin()))
        .workspace(Workspace::new(dir.path()))
        .build();
    let report = agent.run("go", CancellationToken::new()).await;
    let results: Vec<String> = tool_results(&report.history);
    assert!(
        results[0].starts_with("Error [tool_error]: the subagent failed: model request failed"),
        "{}",
        results[0]
    );
    assert_eq!(
        results[1],
        "Error [tool_error]: no subagent type \"nobody\"; the types are: general-purpose"
    );
    assert_eq!(report.status, RunStatus::Completed);
}

#[tokio::test]
async fn a_subagent_is_offered_its_definitions_tools_and_never_task() {
    let dir = tempfile::tempdir().unwrap();
    let mut definitions = AgentDefinitions::builtin();
    definitions.insert(AgentDefinition {
        name: "reader".to_owned(),
        description: "reads".to_owned(),
        tools: Some(vec!["Read".to_owned(), "Task".to_owned()]),
        model: None,
        prompt: "You read.".to_owned(),
        hooks: None,
        source: None,
    });
    let model = script(
        json!([
            {"tool_calls": [task("t1", "a", "reader")]},
            {"content": "{{last_tool_result}}"}
        ]),
        json!([{"turns": [
            {"tool_calls": [{"id": "x", "name": "Task", "arguments": {"description": "d", "prompt": "p", "subagent_type": "reader"}}]},
            {"content": "{{last_tool_result}}"}
        ]}]),
    );
    let agent = Agent::builder(model, tools(definitions))
        .workspace(Workspace::new(dir.path()))
        .build();
    let report = agent.run("go", CancellationToken::new()).await;
    assert!(
        report
            .result
            .as_deref()
            .is_some_and(|text| text.starts_with("Error [unknown_tool]")),
        "{:?}",
        report.result
    );
}
