//! A conversation rewind (contract §24) read back: the history ends before
//! the prompt rewound to — a compaction after it is undone with it, one
//! before it stays — and every tool call of the kept history keeps its
//! result, so a resumed session goes on from the rewound point.

use crate::support;

use agenthub_core::{read_session, AgentEvent, Session, TranscriptWriter};
use agenthub_hooks::HookRegistry;
use agenthub_protocol::{check_pairing, Message, RewindRecord, RewindScope};
use serde_json::json;
use std::sync::Arc;
use support::*;
use tokio_util::sync::CancellationToken;

fn rewind_to(prompt_index: u32) -> RewindRecord {
    RewindRecord {
        prompt_index,
        scope: RewindScope::Conversation,
        time: "2026-12-02T05:00:00Z".into(),
    }
}

/// Four prompts: "first" (an Echo call), "second", a manual compaction,
/// "third", "fourth"; the history as it stood before each prompt.
async fn four_prompts(path: &std::path::Path) -> (agenthub_core::Agent, Vec<Vec<Message>>) {
    let script = json!({"turns": [
        calls(&[("c1", "Echo", json!({"text": "echoed"}))]), answer("one"),
        answer("two"), answer("three"), answer("four")],
        "summaries": ["we said one and two"]});
    let model = agenthub_model::ScriptedModel::from_json("script", &script.to_string()).unwrap();
    let log = Log::default();
    let recording = Arc::new(RecordingModel {
        inner: model,
        requests: std::sync::Mutex::new(Vec::new()),
    });
    let agent = agent(recording, &log, HookRegistry::new())
        .observer(Arc::new(TranscriptWriter::create(path).unwrap()))
        .build();
    let mut before = Vec::new();
    {
        let mut session = Session::new(&agent);
        for prompt in ["first", "second", "third", "fourth"] {
            if prompt == "third" {
                session.compact("", CancellationToken::new()).await.unwrap();
            }
            before.push(session.history().to_vec());
            session.send(prompt, CancellationToken::new()).await;
        }
    }
    (agent, before)
}

#[tokio::test]
async fn a_rewind_to_a_prompt_before_a_compaction_undoes_the_compaction_and_keeps_the_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let (agent, before) = four_prompts(&path).await;
    agent.tell(&AgentEvent::Rewind(&rewind_to(2))).unwrap();
    let history = read_session(&path).unwrap().history;
    assert_eq!(
        (check_pairing(&history), history),
        (Ok(()), before[1].clone())
    );
}

#[tokio::test]
async fn a_rewind_to_a_prompt_after_a_compaction_keeps_the_compacted_history() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let (agent, before) = four_prompts(&path).await;
    agent.tell(&AgentEvent::Rewind(&rewind_to(4))).unwrap();
    assert_eq!(read_session(&path).unwrap().history, before[3]);
}

#[tokio::test]
async fn a_session_resumed_after_a_rewind_goes_on_from_the_rewound_point() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let (agent, before) = four_prompts(&path).await;
    agent.tell(&AgentEvent::Rewind(&rewind_to(2))).unwrap();
    drop(agent);
    let model = support::model(vec![answer("again")]);
    let log = Log::default();
    let resumed = support::agent(model.clone(), &log, HookRegistry::new())
        .observer(Arc::new(TranscriptWriter::append(&path).unwrap()))
        .build();
    let history = read_session(&path).unwrap().history;
    Session::resume(&resumed, history)
        .send("second, again", CancellationToken::new())
        .await;
    let mut expected = before[1].clone();
    expected.push(Message::user("second, again"));
    let read_back = read_session(&path).unwrap().history;
    assert_eq!(
        (model.requests()[0].clone(), read_back.len()),
        (expected, before[1].len() + 2)
    );
}
