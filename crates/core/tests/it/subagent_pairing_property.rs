//! Property: random mixes of parent and subagent calls — known, unknown and
//! failing tools, subagents that answer, fail (their script runs out) or are
//! cancelled mid-way, several Task calls per message — always end with every
//! history paired: the parent's, and each subagent's as its transcript
//! records show it.

use agenthub_core::{Agent, AgentDefinitions, AgentEvent, Observer, ObserverError, TaskTool};
use agenthub_hooks::{HookRegistry, PreToolUseResult};
use agenthub_model::ScriptedModel;
use agenthub_protocol::{check_pairing, Message};
use agenthub_tools::{ToolRegistry, Workspace};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

#[derive(Debug, Clone, Copy)]
enum Leaf {
    Echo,
    Unknown,
    Fails,
}

#[derive(Debug, Clone)]
enum Call {
    Leaf(Leaf),
    /// A Task call; its subagent's turns (each a list of calls, or an answer).
    Task(Vec<Option<Vec<Leaf>>>),
}

fn leaf() -> impl Strategy<Value = Leaf> {
    prop_oneof![Just(Leaf::Echo), Just(Leaf::Unknown), Just(Leaf::Fails)]
}

fn sub_turn() -> impl Strategy<Value = Option<Vec<Leaf>>> {
    prop_oneof![
        Just(None),
        prop::collection::vec(leaf(), 1..3).prop_map(Some)
    ]
}

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![
        leaf().prop_map(Call::Leaf),
        prop::collection::vec(sub_turn(), 0..4).prop_map(Call::Task)
    ]
}

fn leaf_json(leaf: Leaf, id: String) -> Value {
    match leaf {
        Leaf::Echo => json!({"id": id, "name": "Echo", "arguments": {"text": "x"}}),
        Leaf::Unknown => json!({"id": id, "name": "Nope", "arguments": {}}),
        Leaf::Fails => json!({"id": id, "name": "Read", "arguments": {"file_path": "missing"}}),
    }
}

fn turns_json(turns: &[Option<Vec<Leaf>>], prefix: &str) -> Vec<Value> {
    turns
        .iter()
        .enumerate()
        .map(|(t, turn)| match turn {
            None => json!({"content": "answer"}),
            Some(leaves) => json!({"tool_calls": leaves.iter().enumerate()
                .map(|(c, leaf)| leaf_json(*leaf, format!("{prefix}{t}_{c}"))).collect::<Vec<_>>()}),
        })
        .collect()
}

/// The parent's script and the subagents' scripts in Task call order.
fn script(parent: &[Vec<Call>]) -> Value {
    let mut turns = Vec::new();
    let mut subagents = Vec::new();
    for (t, calls) in parent.iter().enumerate() {
        let mut json_calls = Vec::new();
        for (c, call) in calls.iter().enumerate() {
            let id = format!("p{t}_{c}");
            match call {
                Call::Leaf(leaf) => json_calls.push(leaf_json(*leaf, id)),
                Call::Task(sub) => {
                    json_calls.push(json!({"id": id, "name": "Task", "arguments": {
                        "description": "d", "prompt": "p", "subagent_type": "general-purpose"}}));
                    let prefix = format!("s{}_", subagents.len());
                    subagents.push(json!({"turns": turns_json(sub, &prefix)}));
                }
            }
        }
        turns.push(json!({"tool_calls": json_calls}));
    }
    turns.push(json!({"content": "done"}));
    json!({"turns": turns, "subagents": subagents})
}

#[derive(Default)]
struct Histories(Mutex<Vec<(String, Message)>>);

impl Observer for Histories {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        if let AgentEvent::Subagent(info, AgentEvent::Message(message)) = event {
            let tagged = (info.agent_id.clone(), (*message).clone());
            self.0.lock().unwrap().push(tagged);
        }
        Ok(())
    }
}

fn run_case(parent: Vec<Vec<Call>>, cancel_at: Option<usize>) -> Result<(), TestCaseError> {
    let dir = tempfile::tempdir().unwrap();
    let text = script(&parent).to_string();
    let model = Arc::new(ScriptedModel::from_json("property", &text).unwrap());
    let mut tools = ToolRegistry::with_builtins().unwrap();
    tools
        .register(TaskTool::new(AgentDefinitions::builtin()))
        .unwrap();
    let seen = Arc::new(AtomicUsize::new(0));
    let hooks = HookRegistry::new().pre_tool_use("cancel-at", move |ctx| {
        let seen = seen.clone();
        async move {
            if Some(seen.fetch_add(1, Ordering::SeqCst)) == cancel_at {
                ctx.common.cancel.cancel();
            }
            Ok(PreToolUseResult::default())
        }
    });
    let histories = Arc::new(Histories::default());
    let agent = Agent::builder(model, tools)
        .workspace(Workspace::new(dir.path()))
        .hooks(hooks)
        .observer(histories.clone())
        .max_turns(20)
        .build();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let report = runtime.block_on(agent.run("go", CancellationToken::new()));
    prop_assert_eq!(check_pairing(&report.history), Ok(()));
    let recorded = histories.0.lock().unwrap().clone();
    let mut ids: Vec<&String> = recorded.iter().map(|(id, _)| id).collect();
    ids.dedup();
    for id in ids {
        let history: Vec<Message> = recorded
            .iter()
            .filter(|(owner, _)| owner == id)
            .map(|(_, message)| message.clone())
            .collect();
        prop_assert_eq!(check_pairing(&history), Ok(()), "subagent {}", id);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_history_stays_paired(
        parent in prop::collection::vec(prop::collection::vec(call(), 1..4), 1..3),
        cancel_at in prop::option::of(0usize..8),
    ) {
        run_case(parent, cancel_at)?;
    }
}
