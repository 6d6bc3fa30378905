//! Governance: a subagent's calls meet the parent's rules and hooks, its
//! records carry its id, and SubagentStart/SubagentStop fire around it.

use super::*;
use agenthub_core::{Agent, AgentDefinition};
use agenthub_hooks::{HookRegistry, PreToolUseResult, StopResult, SubagentStartResult};
use agenthub_tools::Workspace;
use tokio_util::sync::CancellationToken;

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
                h.event.to_string(),
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
        hooks: None,
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

/// Records the names of the tools offered in every request, the subagent's
/// included, and answers from `inner`.
struct OfferedTools {
    inner: Arc<dyn agenthub_model::ChatModel>,
    offered: Arc<Mutex<Vec<Vec<String>>>>,
}

impl agenthub_model::ChatModel for OfferedTools {
    fn complete<'a>(
        &'a self,
        request: agenthub_model::ModelRequest<'a>,
        events: &'a dyn agenthub_model::ModelEvents,
        cancel: &'a CancellationToken,
    ) -> futures::future::BoxFuture<
        'a,
        Result<agenthub_model::AssistantReply, agenthub_model::ModelError>,
    > {
        let names = request.tools.iter().map(|spec| spec.name.clone()).collect();
        self.offered.lock().unwrap().push(names);
        self.inner.complete(request, events, cancel)
    }

    fn subagent_model(&self) -> Option<Arc<dyn agenthub_model::ChatModel>> {
        let inner = self.inner.subagent_model()?;
        Some(Arc::new(OfferedTools {
            inner,
            offered: self.offered.clone(),
        }))
    }
}

#[tokio::test]
async fn a_subagent_is_not_offered_a_tool_its_parent_withholds() {
    let dir = tempfile::tempdir().unwrap();
    let mut registry = tools(AgentDefinitions::builtin());
    registry.withhold("Bash");
    let offered = Arc::new(Mutex::new(Vec::new()));
    let model = OfferedTools {
        inner: one_subagent_running(
            json!({"id": "r1", "name": "Glob", "arguments": {"pattern": "*"}}),
        ),
        offered: offered.clone(),
    };
    let agent = Agent::builder(Arc::new(model), registry)
        .workspace(Workspace::new(dir.path()))
        .policy(policy(dir.path(), json!({"deny": ["Bash"]}), None))
        .build();
    agent.run("go", CancellationToken::new()).await;
    let parent_tools = [
        "Read",
        "Write",
        "Edit",
        "Glob",
        "Grep",
        "TodoWrite",
        "WebFetch",
        "Echo",
        "Task",
    ]
    .map(String::from);
    let child_tools = [
        "Read",
        "Write",
        "Edit",
        "Glob",
        "Grep",
        "TodoWrite",
        "WebFetch",
        "Echo",
    ]
    .map(String::from);
    assert_eq!(
        offered.lock().unwrap().clone(),
        vec![
            parent_tools.to_vec(),
            child_tools.to_vec(),
            child_tools.to_vec(),
            parent_tools.to_vec()
        ]
    );
}
