//! Subagents (contract §17): a subagent's call is a call like any other — the
//! parent's rules and hooks stop it exactly as they stop the parent's —
//! SubagentStart/SubagentStop fire with their fields, Task calls of one
//! message run at the same time, and cancellation leaves every history paired.
//!
//! `governance.rs`: rules, hooks and records; `running.rs`: concurrency,
//! order, cancellation and failures. The shared scaffolding is here.

mod governance;
mod running;

use agenthub_core::{AgentDefinitions, AgentEvent, Observer, ObserverError, TaskTool};
use agenthub_model::ScriptedModel;
use agenthub_policy::{CliPermissions, PolicyConfig, PolicyEngine, PolicyInput};
use agenthub_protocol::{Message, TranscriptRecord};
use agenthub_tools::ToolRegistry;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Every own transcript record the run produced, in order, and each
/// subagent's messages (its sidechain lines), by agent id.
#[derive(Default)]
pub(crate) struct Records(Mutex<Vec<TranscriptRecord>>, Mutex<Vec<(String, Message)>>);

impl Observer for Records {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        if let AgentEvent::Subagent(info, AgentEvent::Message(message)) = event {
            let tagged = (info.agent_id.clone(), (*message).clone());
            self.1.lock().unwrap().push(tagged);
        }
        if let Some(record) = event.to_record() {
            self.0.lock().unwrap().push(record);
        }
        Ok(())
    }
}

impl Records {
    /// The messages of each subagent, by agent id, in order of appearance.
    pub(crate) fn subagent_histories(&self) -> Vec<(String, Vec<Message>)> {
        let mut histories: Vec<(String, Vec<Message>)> = Vec::new();
        for (id, message) in self.1.lock().unwrap().iter() {
            match histories.iter_mut().find(|(known, _)| known == id) {
                Some((_, history)) => history.push(message.clone()),
                None => histories.push((id.clone(), vec![message.clone()])),
            }
        }
        histories
    }
}

pub(crate) fn policy(root: &Path, permissions: Value, mode: Option<&str>) -> Arc<PolicyEngine> {
    let mode = mode.map(str::parse);
    let config = PolicyConfig::build(PolicyInput {
        workspace: root,
        home: None,
        sections: &[(root.join(".agenthub/settings.json"), permissions)],
        cli: CliPermissions {
            allow: &[],
            deny: &[],
            mode: mode.as_ref(),
        },
        extra_tools: &[],
    })
    .unwrap();
    Arc::new(PolicyEngine::new(config, None))
}

pub(crate) fn tools(definitions: AgentDefinitions) -> ToolRegistry {
    let mut tools = ToolRegistry::with_builtins().unwrap();
    tools.register(TaskTool::new(definitions)).unwrap();
    tools
}

pub(crate) fn task(id: &str, prompt: &str, agent_type: &str) -> Value {
    json!({"id": id, "name": "Task", "arguments": {
        "description": format!("do {id}"), "prompt": prompt, "subagent_type": agent_type}})
}

pub(crate) fn bash(id: &str, command: &str) -> Value {
    json!({"id": id, "name": "Bash", "arguments": {"command": command}})
}

/// A script: the parent's turns and each subagent's, in start order.
pub(crate) fn script(turns: Value, subagents: Value) -> Arc<ScriptedModel> {
    let text = json!({"turns": turns, "subagents": subagents}).to_string();
    Arc::new(ScriptedModel::from_json("test", &text).unwrap())
}

/// One Task call whose subagent runs `call`, then reports its result; the
/// parent reports the Task result.
pub(crate) fn one_subagent_running(call: Value) -> Arc<ScriptedModel> {
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
pub(crate) fn parent_running(call: Value) -> Arc<ScriptedModel> {
    script(
        json!([{"tool_calls": [call]}, {"content": "{{last_tool_result}}"}]),
        json!([]),
    )
}

/// The contents of the tool results in `history`, in order.
fn tool_results(history: &[Message]) -> Vec<String> {
    history
        .iter()
        .filter_map(|message| match message {
            Message::Tool { content, .. } => Some(content.clone()),
            _ => None,
        })
        .collect()
}
