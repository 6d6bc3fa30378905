//! A session handed to a rebuilt agent (a mode or model change, contract
//! §31): one rebuilt before its first prompt still starts at that prompt —
//! the transcript begins with its `session` record — and a mode change told
//! between prompts is read back as the session's mode.

use crate::support;

use agenthub_core::{read_session, AgentEvent, Session, TranscriptWriter};
use agenthub_hooks::HookRegistry;
use agenthub_protocol::PermissionMode;
use serde_json::json;
use std::path::Path;
use std::sync::Arc;
use support::*;
use tokio_util::sync::CancellationToken;

/// An agent of session `s-1` writing to the transcript at `path` (created,
/// or reopened to go on).
fn agent_writing(path: &Path, reopen: bool) -> agenthub_core::Agent {
    let script = json!({"turns": [answer("one"), answer("two")]});
    let model = agenthub_model::ScriptedModel::from_json("script", &script.to_string()).unwrap();
    let recording = Arc::new(RecordingModel {
        inner: model,
        requests: std::sync::Mutex::new(Vec::new()),
    });
    let writer = match reopen {
        true => TranscriptWriter::append(path).unwrap(),
        false => TranscriptWriter::create(path).unwrap(),
    };
    agent(recording, &Log::default(), HookRegistry::new())
        .session_id("s-1")
        .observer(Arc::new(writer))
        .build()
}

#[tokio::test]
async fn a_session_rebuilt_before_its_first_prompt_still_begins_with_its_session_record() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s-1.jsonl");
    let first = agent_writing(&path, false);
    let carried = Session::new(&first).carried();
    drop(first);
    let rebuilt = agent_writing(&path, true);
    let mut session = carried.begin(&rebuilt);
    let before = session.has_session_record();
    session.send("hello", CancellationToken::new()).await;
    let saved = read_session(&path).unwrap();
    assert_eq!(
        (
            before,
            session.has_session_record(),
            saved.record.session_id,
            saved.first_prompt
        ),
        (false, true, "s-1".to_owned(), Some("hello".to_owned()))
    );
}

#[tokio::test]
async fn a_mode_change_told_between_prompts_is_the_sessions_mode_when_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s-1.jsonl");
    let agent = agent_writing(&path, false);
    let mut session = Session::new(&agent);
    session.send("hello", CancellationToken::new()).await;
    let untold = read_session(&path).unwrap().permission_mode;
    agent
        .tell(&AgentEvent::PermissionMode(PermissionMode::Plan))
        .unwrap();
    agent
        .tell(&AgentEvent::PermissionMode(PermissionMode::AcceptEdits))
        .unwrap();
    session.send("again", CancellationToken::new()).await;
    let saved = read_session(&path).unwrap();
    assert_eq!(
        (untold, saved.permission_mode, saved.history.len()),
        (None, Some(PermissionMode::AcceptEdits), 4)
    );
}
