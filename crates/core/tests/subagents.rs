//! Subagents (SPEC §17): a subagent's call is a call like any other — the
//! parent's rules and hooks stop it exactly as they stop the parent's —
//! SubagentStart/SubagentStop fire with their fields, Task calls of one
//! message run at the same time, and cancellation leaves every history paired.

use agenthub_core::{
    Agent, AgentDefinition, AgentDefinitions, AgentEvent, Observer, ObserverError, TaskTool,
};
use agenthub_hooks::{HookRegistry, PreToolUseResult, StopResult, SubagentStartResult};
use agenthub_model::ScriptedModel;
use agenthub_policy::{CliPermissions, PolicyConfig, PolicyEngine, PolicyInput};
use agenthub_protocol::{check_pairing, Message, RunStatus, TranscriptRecord};
use agenthub_tools::{ToolRegistry, Workspace};
use serde_json::{json, Value};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

/// Every transcript record the run produced, in order.
#[derive(Default)]
struct Records(Mutex<Vec<TranscriptRecord>>);

impl Observer for Records {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        if let Some(record) = event.to_record() {
            self.0.lock().unwrap().push(record);
        }
        Ok(())
    }
}

impl Records {
    /// The messages of each subagent, by agent id, in order of appearance.
    fn subagent_histories(&self) -> Vec<(String, Vec<Message>)> {
        let mut histories: Vec<(String, Vec<Message>)> = Vec::new();
        for record in self.0.lock().unwrap().iter() {
            if let TranscriptRecord::Message {
                agent_id: Some(id),
                message,
            } = record
            {
                match histories.iter_mut().find(|(known, _)| known == id) {
                    Some((_, history)) => history.push(message.clone()),
                    None => histories.push((id.clone(), vec![message.clone()])),
                }
            }
        }
        histories
    }
}

fn policy(root: &Path, permissions: Value, mode: Option<&str>) -> Arc<PolicyEngine> {
    let config = PolicyConfig::build(PolicyInput {
        workspace: root,
        home: None,
        sections: &[(root.join(".agenthub/settings.json"), permissions)],
        cli: CliPermissions {
            allow: &[],
            deny: &[],
            mode,
        },
        extra_tools: &[],
    })
    .unwrap();
    Arc::new(PolicyEngine::new(config, None))
}

fn tools(definitions: AgentDefinitions) -> ToolRegistry {
    let mut tools = ToolRegistry::with_builtins().unwrap();
    tools.register(TaskTool::new(definitions)).unwrap();
    tools
}

fn task(id: &str, prompt: &str, agent_type: &str) -> Value {
    json!({"id": id, "name": "Task", "arguments": {
        "description": format!("do {id}"), "prompt": prompt, "subagent_type": agent_type}})
}

fn bash(id: &str, command: &str) -> Value {
    json!({"id": id, "name": "Bash", "arguments": {"command": command}})
}

/// A script: the parent's turns and each subagent's, in start order.
fn script(turns: Value, subagents: Value) -> Arc<ScriptedModel> {
    let text = json!({"turns": turns, "subagents": subagents}).to_string();
    Arc::new(ScriptedModel::from_json("test", &text).unwrap())
}

/// One Task call whose subagent runs `call`, then reports its result; the
/// parent reports the Task result.
fn one_subagent_running(call: Value) -> Arc<ScriptedModel> {
    script(
        json!([
            {"tool_calls": [task("t1", "run it", "general-purpose")]},
            {"content": "{{last_tool_result}}"}
        ]),
        json!([{"turns": [
            {"tool_calls": [call]},
            {"content": "{{last_tool_result}}"}
        ]}]),
    )
}

/// The parent running `call` itself, then reporting its result.
fn parent_running(call: Value) -> Arc<ScriptedModel> {
    script(
        json!([{"tool_calls": [call]}, {"content": "{{last_tool_result}}"}]),
        json!([]),
    )
}

#[tokio::test]
async fn a_deny_rule_stops_a_subagents_bash_exactly_as_the_parents() {
    let dir = tempfile::tempdir().unwrap();
    let run = |model: Arc<ScriptedModel>| {
        let agent = Agent::builder(model, tools(AgentDefinitions::builtin()))
            .workspace(Workspace::new(dir.path()))
            .policy(policy(dir.path(), json!({"deny": ["Bash(touch:*)"]}), None))
            .build();
        async move { agent.run("go", CancellationToken::new()).await }
    };
    let parent = run(parent_running(bash("b1", "touch made"))).await;
    let child = run(one_subagent_running(bash("b1", "touch made"))).await;
    let denied = parent.result.clone().unwrap();
    assert!(denied.starts_with("Error [permission_denied]"), "{denied}");
    assert_eq!(
        child.result,
        Some(denied.clone()),
        "the subagent reports the very same refusal"
    );
    assert!(!dir.path().join("made").exists());
}

#[tokio::test]
async fn a_subagents_refused_call_is_in_the_parents_permission_denials() {
    let dir = tempfile::tempdir().unwrap();
    let agent = Agent::builder(
        one_subagent_running(bash("b1", "touch made")),
        tools(AgentDefinitions::builtin()),
    )
    .workspace(Workspace::new(dir.path()))
    .policy(policy(dir.path(), json!({"deny": ["Bash(touch:*)"]}), None))
    .build();
    let report = agent.run("go", CancellationToken::new()).await;
    let refused: Vec<(String, String, Value)> = report
        .permission_denials
        .into_iter()
        .map(|denial| (denial.tool_name, denial.tool_use_id, denial.tool_input))
        .collect();
    assert_eq!(
        refused,
        vec![(
            "Bash".to_owned(),
            "b1".to_owned(),
            json!({"command": "touch made"})
        )]
    );
}

#[tokio::test]
async fn a_subagents_permission_and_hook_records_carry_its_agent_id() {
    let dir = tempfile::tempdir().unwrap();
    let records = Arc::new(Records::default());
    let hooks =
        HookRegistry::new().pre_tool_use("watch", |_| async { Ok(PreToolUseResult::default()) });
    let agent = Agent::builder(
        one_subagent_running(bash("b1", "true")),
        tools(AgentDefinitions::builtin()),
    )
    .workspace(Workspace::new(dir.path()))
    .policy(policy(dir.path(), json!({"allow": ["Bash", "Task"]}), None))
    .hooks(hooks)
    .observer(records.clone())
    .build();
    agent.run("go", CancellationToken::new()).await;
    let [(agent_id, _)] = records.subagent_histories().try_into().unwrap();
    let tagged: Vec<(String, String, Option<String>)> = records
        .0
        .lock()
        .unwrap()
        .iter()
        .filter_map(|record| match record {
            TranscriptRecord::Permission(p) => Some((
                "permission".into(),
                p.tool_use_id.clone(),
                p.agent_id.clone(),
            )),
            TranscriptRecord::Hook(h) => Some((
                h.event.clone(),
                h.tool_use_id.clone().unwrap_or_default(),
                h.agent_id.clone(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        tagged,
        vec![
            ("PreToolUse".into(), "t1".into(), None),
            ("permission".into(), "t1".into(), None),
            ("PreToolUse".into(), "b1".into(), Some(agent_id.clone())),
            ("permission".into(), "b1".into(), Some(agent_id)),
        ]
    );
}

#[tokio::test]
async fn a_pre_tool_use_hook_blocks_a_subagents_bash_and_sees_its_agent() {
    let dir = tempfile::tempdir().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = seen.clone();
    let hooks = HookRegistry::new().pre_tool_use("no-touch", move |ctx| {
        let log = log.clone();
        async move {
            let agent = ctx.common.agent.clone().map(|a| a.agent_type);
            log.lock()
                .unwrap()
                .push((ctx.call.name().to_owned(), agent));
            Ok(if ctx.call.name() == "Bash" {
                PreToolUseResult::block("no shell here")
            } else {
                PreToolUseResult::default()
            })
        }
    });
    let agent = Agent::builder(
        one_subagent_running(bash("b1", "touch made")),
        tools(AgentDefinitions::builtin()),
    )
    .workspace(Workspace::new(dir.path()))
    .policy(policy(dir.path(), json!({"allow": ["Bash"]}), None))
    .hooks(hooks)
    .build();
    let report = agent.run("go", CancellationToken::new()).await;
    assert_eq!(
        report.result.as_deref(),
        Some("Error [hook_blocked]: no shell here")
    );
    assert_eq!(
        seen.lock().unwrap().clone(),
        vec![
            ("Task".to_owned(), None),
            ("Bash".to_owned(), Some("general-purpose".to_owned()))
        ]
    );
    assert!(!dir.path().join("made").exists());
}

#[tokio::test]
async fn subagent_start_and_stop_fire_with_their_fields_and_stop_forces_one_continuation() {
    let dir = tempfile::tempdir().unwrap();
    let events = Arc::new(Mutex::new(Vec::new()));
    let (start_log, stop_log) = (events.clone(), events.clone());
    let hooks = HookRegistry::new()
        .subagent_start("start", move |ctx| {
            let log = start_log.clone();
            async move {
                let agent = ctx.common.agent.clone().unwrap();
                log.lock().unwrap().push(format!(
                    "start {} {} {}",
                    agent.agent_type,
                    agent.agent_id.starts_with("agent-"),
                    ctx.description
                ));
                Ok(SubagentStartResult {
                    additional_context: Some("be brief".to_owned()),
                    ..SubagentStartResult::default()
                })
            }
        })
        .subagent_stop("stop", move |ctx| {
            let log = stop_log.clone();
            async move {
                log.lock().unwrap().push(format!(
                    "stop {} {}",
                    ctx.last_assistant_message, ctx.stop_hook_active
                ));
                Ok(if ctx.stop_hook_active {
                    StopResult::default()
                } else {
                    StopResult::force_continue("check again")
                })
            }
        })
        .stop("parent-stop", |_| async { Ok(StopResult::default()) });
    let model = script(
        json!([
            {"tool_calls": [task("t1", "look", "general-purpose")]},
            {"content": "{{last_tool_result}}"}
        ]),
        json!([{"turns": [{"content": "first"}, {"content": "second"}]}]),
    );
    let records = Arc::new(Records::default());
    let agent = Agent::builder(model, tools(AgentDefinitions::builtin()))
        .workspace(Workspace::new(dir.path()))
        .hooks(hooks)
        .observer(records.clone())
        .build();
    let report = agent.run("go", CancellationToken::new()).await;
    assert_eq!(report.result.as_deref(), Some("second"));
    assert_eq!(
        events.lock().unwrap().clone(),
        vec![
            "start general-purpose true do t1",
            "stop first false",
            "stop second true"
        ]
    );
    let histories = records.subagent_histories();
    assert_eq!(histories.len(), 1);
    let child: Vec<Message> = histories[0].1[1..].to_vec();
    assert_eq!(
        child,
        vec![
            Message::system("be brief"),
            Message::user("look"),
            Message::assistant_text("first"),
            Message::user("check again"),
            Message::assistant_text("second"),
        ]
    );
}

#[tokio::test]
async fn a_task_rule_denies_starting_that_agent_type_only() {
    let dir = tempfile::tempdir().unwrap();
    let mut definitions = AgentDefinitions::builtin();
    definitions.insert(AgentDefinition {
        name: "explore".to_owned(),
        description: "looks around".to_owned(),
        tools: Some(vec!["Read".to_owned()]),
        model: None,
        prompt: "You explore.".to_owned(),
        source: None,
    });
    let model = script(
        json!([
            {"tool_calls": [task("t1", "a", "explore"), task("t2", "b", "general-purpose")]},
            {"content": "done"}
        ]),
        json!([{"turns": [{"content": "general answer"}]}]),
    );
    let agent = Agent::builder(model, tools(definitions))
        .workspace(Workspace::new(dir.path()))
        .policy(policy(dir.path(), json!({"deny": ["Task(explore)"]}), None))
        .build();
    let report = agent.run("go", CancellationToken::new()).await;
    let results: Vec<&Message> = report
        .history
        .iter()
        .filter(|m| matches!(m, Message::Tool { .. }))
        .collect();
    assert!(
        matches!(results[0], Message::Tool { content, .. } if content.starts_with("Error [permission_denied]") && content.contains("Task(explore)")),
        "{:?}",
        results[0]
    );
    assert_eq!(results[1], &Message::tool("t2", "general answer"));
}

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
    let tool_results: Vec<String> = report
        .history
        .iter()
        .filter_map(|m| match m {
            Message::Tool { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect();
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
    let results: Vec<String> = report
        .history
        .iter()
        .filter_map(|m| match m {
            Message::Tool { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect();
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
