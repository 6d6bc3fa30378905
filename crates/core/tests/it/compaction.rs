//! Compaction in a library session (contract §12): automatic at the budget's
//! threshold, manual with `Session::compact`, PreCompact and SessionStart
//! hooks around it, the transcript record and the history rebuilt from it.

use crate::support;

use agenthub_core::{read_session, CompactionError, Session, TranscriptWriter, SUMMARY_HEADER};
use agenthub_hooks::{HookRegistry, PreCompactResult};
use agenthub_protocol::{CompactionRecord, CompactionTrigger, Message, TranscriptRecord};
use serde_json::json;
use std::sync::{Arc, Mutex};
use support::*;
use tokio_util::sync::CancellationToken;

fn echo(id: &str) -> serde_json::Value {
    calls(&[(id, "Echo", json!({"text": "y".repeat(120)}))])
}

/// Hooks that log what PreCompact and SessionStart hear.
fn logging_hooks(seen: &Arc<Mutex<Vec<String>>>) -> HookRegistry {
    let pre = seen.clone();
    let start = seen.clone();
    HookRegistry::new()
        .pre_compact("log-pre", move |ctx| {
            let pre = pre.clone();
            async move {
                pre.lock().unwrap().push(format!(
                    "PreCompact {} {:?}",
                    ctx.trigger.as_str(),
                    ctx.custom_instructions
                ));
                Ok(PreCompactResult::default())
            }
        })
        .session_start("log-start", move |ctx| {
            let start = start.clone();
            async move {
                start
                    .lock()
                    .unwrap()
                    .push(format!("SessionStart {}", ctx.source.as_str()));
                Ok(Default::default())
            }
        })
}

#[tokio::test]
async fn a_session_over_its_threshold_compacts_before_the_next_request_and_resumes_compacted() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let model = model(vec![echo("c1"), echo("c2"), answer("done")]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Log::default();
    let agent = agent(model.clone(), &log, logging_hooks(&seen))
        .context_window(100)
        .observer(Arc::new(TranscriptWriter::create(&path).unwrap()))
        .build();
    let mut session = Session::new(&agent);
    let report = session.send("task", CancellationToken::new()).await;

    let summary = Message::user(format!(
        "{SUMMARY_HEADER}\n\nSummary of 5 earlier messages: the conversation began with <task>; \
         1 user messages, 2 tool calls, 2 tool results."
    ));
    let requests = model.requests();
    assert_eq!(
        (report.result.as_deref(), report.turns, requests.len()),
        (Some("done"), 3, 3)
    );
    assert_eq!(requests[2], vec![summary]);
    assert_eq!(
        seen.lock().unwrap().clone(),
        vec![
            "SessionStart startup",
            "PreCompact auto \"\"",
            "SessionStart compact"
        ]
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let compactions: Vec<CompactionRecord> = text
        .lines()
        .filter_map(|line| match serde_json::from_str(line).unwrap() {
            TranscriptRecord::Compaction(record) => Some(record),
            _ => None,
        })
        .collect();
    assert_eq!(
        compactions
            .iter()
            .map(|record| (record.trigger, record.kept))
            .collect::<Vec<_>>(),
        vec![(CompactionTrigger::Auto, 0)]
    );
    assert_eq!(read_session(&path).unwrap().history, session.history());
}

#[tokio::test]
async fn a_manual_compaction_uses_the_scripts_summary_and_no_turn() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.jsonl");
    let script = json!({"turns": [answer("one"), answer("two"), answer("three")],
                        "summaries": ["we said one and two"]});
    let inner = agenthub_model::ScriptedModel::from_json("script", &script.to_string()).unwrap();
    let model = Arc::new(RecordingModel {
        inner,
        requests: Mutex::new(Vec::new()),
    });
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Log::default();
    let agent = agent(model.clone(), &log, logging_hooks(&seen))
        .observer(Arc::new(TranscriptWriter::create(&path).unwrap()))
        .build();
    let mut session = Session::new(&agent);
    session.send("first", CancellationToken::new()).await;
    session.send("second", CancellationToken::new()).await;
    let record = session
        .compact("keep the numbers", CancellationToken::new())
        .await
        .unwrap();
    let third = session.send("third", CancellationToken::new()).await;

    assert_eq!(
        (record.trigger, record.kept, third.result.as_deref()),
        (CompactionTrigger::Manual, 3, Some("three"))
    );
    assert_eq!(
        model.requests()[2],
        vec![
            Message::user(format!("{SUMMARY_HEADER}\n\nwe said one and two")),
            Message::assistant_text("one"),
            Message::user("second"),
            Message::assistant_text("two"),
            Message::user("third"),
        ]
    );
    assert_eq!(
        seen.lock().unwrap().clone(),
        vec![
            "SessionStart startup",
            "PreCompact manual \"keep the numbers\"",
            "SessionStart compact"
        ]
    );
    assert_eq!(read_session(&path).unwrap().history, session.history());
}

#[tokio::test]
async fn a_precompact_block_cancels_a_manual_compaction_and_keeps_the_history() {
    let model = model(vec![answer("one"), answer("two")]);
    let hooks = HookRegistry::new()
        .pre_compact("keep", |_| async { Ok(PreCompactResult::block("not now")) });
    let log = Log::default();
    let agent = agent(model, &log, hooks).build();
    let mut session = Session::new(&agent);
    session.send("first", CancellationToken::new()).await;
    session.send("second", CancellationToken::new()).await;
    let before = session.history().to_vec();
    let result = session.compact("", CancellationToken::new()).await;
    assert_eq!(
        (result, session.history()),
        (
            Err(CompactionError::Blocked("not now".to_owned())),
            before.as_slice()
        )
    );
}

#[tokio::test]
async fn a_prompt_larger_than_the_window_fails_the_run_before_any_request_or_compaction() {
    let model = model(vec![answer("never")]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Log::default();
    let agent = agent(model.clone(), &log, logging_hooks(&seen))
        .context_window(100)
        .build();
    let mut session = Session::new(&agent);
    let report = session
        .send(&"x".repeat(400), CancellationToken::new())
        .await;
    assert_eq!(
        (
            report.status,
            report.error.as_deref(),
            model.requests().len(),
            seen.lock().unwrap().clone()
        ),
        (
            agenthub_protocol::RunStatus::Failed,
            Some(
                "the prompt is about 104 tokens (400 bytes), more than the model's context \
                 window of 100 tokens; it was not sent (shorten it, or set contextWindow if the \
                 model holds more)"
            ),
            0,
            vec!["SessionStart startup".to_owned()]
        )
    );
}

#[tokio::test]
async fn a_prompt_over_the_threshold_but_within_the_window_is_sent_whole_not_summarised() {
    let model = model(vec![answer("read it")]);
    let seen = Arc::new(Mutex::new(Vec::new()));
    let log = Log::default();
    let agent = agent(model.clone(), &log, logging_hooks(&seen))
        .context_window(100)
        .build();
    let mut session = Session::new(&agent);
    let prompt = "x".repeat(340);
    let report = session.send(&prompt, CancellationToken::new()).await;
    let requests = model.requests();
    assert_eq!(
        (report.result.as_deref(), requests.len(), requests[0].last()),
        (Some("read it"), 1, Some(&Message::user(prompt)))
    );
}
