//! Turning events into transcript lines (contract §21): messages become Claude
//! Code's `user` / `assistant` / `system` lines, chained by `uuid` and
//! `parentUuid` per conversation (the session's, and each subagent's as a
//! sidechain), with the usage of the request and the reply's stop reason
//! (§33: `max_tokens` for a cut reply) on each assistant line;
//! AgentHub's own records keep their types and gain `sessionId`.
//!
//! One [`LineChain`] serves one transcript: the file and a `stream-json`
//! echo get the same lines, ids included. It never writes anything itself.
//!
//! A rewind of the conversation (§24, §29) moves the session's chain back:
//! the next line's `parentUuid` is the last line kept before the prompt
//! rewound to, so that Claude Code's readers, which follow `parentUuid`,
//! see the history the model sees.

use crate::timeline::Timeline;
use crate::{clock, AgentEvent};
use agenthub_protocol::claude_line::{
    assistant_blocks, subtype, tool_result_block, AssistantLine, AssistantMessage, LineMeta,
    SystemLine, UserContent, UserLine, UserMessage, WireUsage,
};
use agenthub_protocol::{Message, RewindRecord, StopReason, TranscriptRecord, Usage};
use serde_json::Value;
use std::collections::HashMap;

/// The chains a transcript's lines belong to: `None` is the session's own,
/// `Some(agent_id)` a subagent's.
type Chain = Option<String>;

/// The state lines are written from: who the session is and the last line
/// of each chain.
#[derive(Debug, Clone, Default)]
pub struct LineChain {
    session_id: String,
    cwd: String,
    model: String,
    last: HashMap<Chain, String>,
    usage: HashMap<Chain, Usage>,
    /// The stop reason told for the reply on its way, per chain.
    stop_reasons: HashMap<Chain, StopReason>,
    /// A compaction record was written: the next message is its summary.
    summary_next: bool,
    /// The session's prompts and rewinds so far, line by line.
    timeline: Timeline,
    /// The session's own chain: each line's number and uuid, in order.
    main_lines: Vec<(usize, String)>,
    /// How many lines were written (or read back) so far.
    lines: usize,
}

impl LineChain {
    /// A chain for a new transcript; it learns the session from its record.
    pub fn new() -> Self {
        LineChain {
            cwd: std::env::current_dir()
                .map(|dir| dir.display().to_string())
                .unwrap_or_default(),
            ..LineChain::default()
        }
    }

    /// A chain that goes on after the lines of `text` (a resumed session's
    /// transcript): its session, and the last line of the session's chain.
    pub fn continuing(text: &str) -> Self {
        let mut chain = LineChain::new();
        for line in text.lines() {
            let number = chain.lines;
            chain.lines += 1;
            let Ok(value) = serde_json::from_str::<Value>(line) else {
                chain.timeline.feed_line(line);
                continue;
            };
            match serde_json::from_value::<TranscriptRecord>(value.clone()) {
                Ok(record) => {
                    match &record {
                        TranscriptRecord::Session(session) => chain.learn(session),
                        TranscriptRecord::Rewind(rewind) => chain.rewind(rewind),
                        _ => {}
                    }
                    chain.timeline.take(&record);
                }
                // Not a record: counted as a line all the same.
                Err(_) => chain.timeline.feed_line(line),
            }
            let main = value.get("isSidechain").and_then(Value::as_bool) != Some(true);
            if let (Some(uuid), true) = (value.get("uuid").and_then(Value::as_str), main) {
                chain.last.insert(None, uuid.to_owned());
                chain.main_lines.push((number, uuid.to_owned()));
            }
        }
        chain
    }

    /// Moves the session's chain back to the last line kept by a rewind of
    /// the conversation to its prompt (before the rewind record is taken).
    fn rewind(&mut self, record: &RewindRecord) {
        if !record.scope.restores_conversation() {
            return;
        }
        let kept = record.prompt_index.saturating_sub(1) as usize;
        let Some(cut) = self.timeline.prompts().get(kept).map(|prompt| prompt.line) else {
            return;
        };
        self.main_lines.retain(|(line, _)| *line < cut);
        match self.main_lines.last() {
            Some((_, uuid)) => self.last.insert(None, uuid.clone()),
            None => self.last.remove(&None),
        };
    }

    /// Counts a line written for `record`, in the session's timeline.
    fn count(&mut self, record: &TranscriptRecord) {
        if let TranscriptRecord::Rewind(rewind) = record {
            self.rewind(rewind);
        }
        self.timeline.take(record);
        self.lines += 1;
    }

    fn learn(&mut self, record: &agenthub_protocol::SessionRecord) {
        self.session_id = record.session_id.clone();
        self.cwd = record.workspace.clone();
        self.model = record.model.clone().unwrap_or_default();
    }

    /// The JSON text of the line `event` is written as, if it is written.
    /// A message is serialized straight to text, not through a `Value`:
    /// building and then printing the value was most of what a transcript
    /// line cost.
    pub fn line(&mut self, event: &AgentEvent<'_>) -> Option<String> {
        match *event {
            AgentEvent::Session(record) => self.learn(record),
            AgentEvent::Message(message) => return self.message(None, message),
            AgentEvent::Usage(record) => {
                *self.usage.entry(None).or_default() += record.usage;
                return None;
            }
            AgentEvent::StopReason(reason) => {
                self.stop_reasons.insert(None, reason);
                return None;
            }
            AgentEvent::Subagent(info, AgentEvent::StopReason(reason)) => {
                self.stop_reasons
                    .insert(Some(info.agent_id.clone()), *reason);
                return None;
            }
            AgentEvent::Compaction(_) => self.summary_next = true,
            AgentEvent::Subagent(info, AgentEvent::Message(message)) => {
                return self.message(Some(info.agent_id.clone()), message)
            }
            AgentEvent::Subagent(info, AgentEvent::Usage(record)) => {
                *self.usage.entry(Some(info.agent_id.clone())).or_default() += record.usage;
                return None;
            }
            _ => {}
        }
        let record = event.to_record()?;
        self.count(&record);
        let mut value = serde_json::to_value(record).ok()?;
        if let Some(object) = value.as_object_mut() {
            object.insert("sessionId".into(), Value::String(self.session_id.clone()));
        }
        Some(value.to_string())
    }

    fn message(&mut self, chain: Chain, message: &Message) -> Option<String> {
        let summary = chain.is_none() && std::mem::take(&mut self.summary_next);
        let first = !self.last.contains_key(&chain);
        let meta = self.meta(chain.clone());
        let record = match message {
            Message::User { content } if summary => TranscriptRecord::System(SystemLine {
                subtype: subtype::COMPACT_SUMMARY.to_owned(),
                content: content.clone(),
                meta,
            }),
            Message::User { content } => user_line(UserContent::Text(content.clone()), meta),
            Message::Tool {
                tool_call_id,
                content,
                is_error,
            } => user_line(
                UserContent::Blocks(vec![tool_result_block(tool_call_id, content, *is_error)]),
                meta,
            ),
            Message::System { content } => TranscriptRecord::System(SystemLine {
                subtype: if first {
                    subtype::SYSTEM_PROMPT
                } else {
                    subtype::CONTEXT
                }
                .to_owned(),
                content: content.clone(),
                meta,
            }),
            Message::Assistant {
                content,
                tool_calls,
            } => TranscriptRecord::Assistant(AssistantLine {
                message: AssistantMessage {
                    id: format!("msg_{}", uuid::Uuid::new_v4().simple()),
                    kind: "message".to_owned(),
                    role: "assistant".to_owned(),
                    model: self.model.clone(),
                    content: assistant_blocks(content.as_deref(), tool_calls),
                    stop_reason: Some(
                        self.stop_reasons
                            .remove(&chain)
                            .unwrap_or_else(|| StopReason::recorded(None, tool_calls.len())),
                    ),
                    usage: self
                        .usage
                        .remove(&chain)
                        .map(WireUsage::from)
                        .unwrap_or_default(),
                },
                meta,
            }),
        };
        if chain.is_none() {
            if let Some(uuid) = self.last.get(&None) {
                self.main_lines.push((self.lines, uuid.clone()));
            }
        }
        let text = serde_json::to_string(&record).ok();
        self.count(&record);
        text
    }

    /// The chain fields of a new line of `chain`, which becomes its last.
    fn meta(&mut self, chain: Chain) -> LineMeta {
        let uuid = uuid::Uuid::new_v4().to_string();
        let parent_uuid = self.last.insert(chain.clone(), uuid.clone());
        LineMeta {
            uuid,
            parent_uuid,
            is_sidechain: chain.is_some(),
            agent_id: chain,
            session_id: self.session_id.clone(),
            timestamp: clock::utc_now_millis(),
            cwd: self.cwd.clone(),
            version: env!("CARGO_PKG_VERSION").to_owned(),
        }
    }
}

fn user_line(content: UserContent, meta: LineMeta) -> TranscriptRecord {
    TranscriptRecord::User(UserLine {
        message: UserMessage {
            role: "user".to_owned(),
            content,
        },
        meta,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthub_protocol::{SessionRecord, ToolCall, UsageRecord};
    use serde_json::json;

    fn session() -> SessionRecord {
        SessionRecord {
            session_id: "s1".into(),
            workspace: "/w".into(),
            model: Some("claude-sonnet-4-5".into()),
            created: "2026-12-01T00:00:00Z".into(),
            version: "0.1.0".into(),
        }
    }

    fn parsed(line: String) -> Value {
        serde_json::from_str(&line).unwrap()
    }

    /// The line without the fields that differ on every run.
    fn stable(mut line: Value) -> Value {
        for field in ["uuid", "parentUuid", "timestamp", "version"] {
            line.as_object_mut().unwrap().remove(field);
        }
        if let Some(message) = line.get_mut("message").and_then(Value::as_object_mut) {
            message.remove("id");
        }
        line
    }

    /// The uuid and parentUuid of a message line.
    fn ids(line: &str) -> (String, Option<String>) {
        let value: Value = serde_json::from_str(line).unwrap();
        (
            value["uuid"].as_str().unwrap().to_owned(),
            value["parentUuid"].as_str().map(str::to_owned),
        )
    }

    /// A session with two prompts and their answers; the lines written.
    fn two_prompts(chain: &mut LineChain) -> Vec<String> {
        let outcome = agenthub_protocol::OutcomeRecord {
            status: agenthub_protocol::RunStatus::Completed,
            result: None,
            error: None,
            turns: 1,
        };
        let mut lines = vec![chain.line(&AgentEvent::Session(&session())).unwrap()];
        lines.push(
            chain
                .line(&AgentEvent::Message(&Message::system("instructions")))
                .unwrap(),
        );
        for (prompt, answer) in [("one", "answer one"), ("two", "answer two")] {
            for message in [Message::user(prompt), Message::assistant_text(answer)] {
                lines.push(chain.line(&AgentEvent::Message(&message)).unwrap());
            }
            lines.push(chain.line(&AgentEvent::Outcome(&outcome)).unwrap());
        }
        lines
    }

    fn rewind(prompt_index: u32, scope: agenthub_protocol::RewindScope) -> RewindRecord {
        RewindRecord {
            prompt_index,
            scope,
            time: "2026-12-01T00:00:01Z".into(),
        }
    }

    #[test]
    fn after_a_conversation_rewind_the_next_prompt_follows_the_last_line_kept() {
        let mut chain = LineChain::new();
        let lines = two_prompts(&mut chain);
        chain.line(&AgentEvent::Rewind(&rewind(
            2,
            agenthub_protocol::RewindScope::Both,
        )));
        let next = chain
            .line(&AgentEvent::Message(&Message::user("three")))
            .unwrap();
        assert_eq!(ids(&next).1, Some(ids(&lines[3]).0));
    }

    #[test]
    fn a_resumed_chain_after_a_rewind_record_follows_the_last_line_kept() {
        let mut first = LineChain::new();
        let mut lines = two_prompts(&mut first);
        lines.push(
            first
                .line(&AgentEvent::Rewind(&rewind(
                    1,
                    agenthub_protocol::RewindScope::Conversation,
                )))
                .unwrap(),
        );
        let mut chain = LineChain::continuing(&lines.join("\n"));
        let next = chain
            .line(&AgentEvent::Message(&Message::user("again")))
            .unwrap();
        assert_eq!(ids(&next).1, Some(ids(&lines[1]).0));
    }

    #[test]
    fn a_line_that_is_no_record_keeps_the_resumed_chain_counting_right() {
        let mut first = LineChain::new();
        let mut lines = two_prompts(&mut first);
        for _ in 0..2 {
            lines.insert(1, r#"{"note": "not a record"}"#.to_owned());
        }
        lines.push(
            first
                .line(&AgentEvent::Rewind(&rewind(
                    2,
                    agenthub_protocol::RewindScope::Conversation,
                )))
                .unwrap(),
        );
        let mut chain = LineChain::continuing(&lines.join("\n"));
        let next = chain
            .line(&AgentEvent::Message(&Message::user("again")))
            .unwrap();
        assert_eq!(ids(&next).1, Some(ids(&lines[5]).0));
    }

    #[test]
    fn a_rewind_of_the_files_only_leaves_the_chain_where_it_was() {
        let mut chain = LineChain::new();
        let lines = two_prompts(&mut chain);
        chain.line(&AgentEvent::Rewind(&rewind(
            1,
            agenthub_protocol::RewindScope::Code,
        )));
        let next = chain
            .line(&AgentEvent::Message(&Message::user("three")))
            .unwrap();
        assert_eq!(ids(&next).1, Some(ids(&lines[6]).0));
    }

    #[test]
    fn an_assistant_line_has_claude_codes_shape_with_the_usage_told_before_it() {
        let mut chain = LineChain::new();
        chain.line(&AgentEvent::Session(&session()));
        let usage = Usage {
            input_tokens: 120,
            output_tokens: 8,
            cache_read_tokens: 100,
            cache_creation_tokens: 0,
        };
        chain.line(&AgentEvent::Usage(&UsageRecord { turn: 1, usage }));
        let reply = Message::Assistant {
            content: Some("reading".into()),
            tool_calls: vec![ToolCall::new("c1", "Read", r#"{"file_path":"/w/a"}"#)],
        };
        let line = chain
            .line(&AgentEvent::Message(&reply))
            .map(parsed)
            .unwrap();
        assert_eq!(
            stable(line),
            json!({"type": "assistant", "isSidechain": false, "sessionId": "s1", "cwd": "/w",
                   "message": {"type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                     "content": [{"type": "text", "text": "reading"},
                                 {"type": "tool_use", "id": "c1", "name": "Read",
                                  "input": {"file_path": "/w/a"}}],
                     "stop_reason": "tool_use",
                     "usage": {"input_tokens": 20, "output_tokens": 8,
                               "cache_read_input_tokens": 100, "cache_creation_input_tokens": 0}}})
        );
    }

    #[test]
    fn an_assistant_line_keeps_the_stop_reason_told_before_it() {
        let mut chain = LineChain::new();
        chain.line(&AgentEvent::Session(&session()));
        chain.line(&AgentEvent::StopReason(StopReason::MaxTokens));
        let cut = chain
            .line(&AgentEvent::Message(&Message::assistant_text(
                "The answer ",
            )))
            .map(parsed)
            .unwrap();
        let next = chain
            .line(&AgentEvent::Message(&Message::assistant_text("is 42.")))
            .map(parsed)
            .unwrap();
        assert_eq!(
            (
                cut["message"]["stop_reason"].clone(),
                next["message"]["stop_reason"].clone()
            ),
            (json!("max_tokens"), json!("end_turn"))
        );
    }

    #[test]
    fn each_line_names_the_one_before_it_as_its_parent() {
        let mut chain = LineChain::new();
        let first = chain
            .line(&AgentEvent::Message(&Message::system("be brief")))
            .map(parsed)
            .unwrap();
        let second = chain
            .line(&AgentEvent::Message(&Message::user("hi")))
            .map(parsed)
            .unwrap();
        assert_eq!(
            (
                first["parentUuid"].clone(),
                first["subtype"].clone(),
                second["parentUuid"].clone()
            ),
            (Value::Null, json!("system_prompt"), first["uuid"].clone())
        );
    }

    #[test]
    fn a_resumed_chain_goes_on_from_the_last_line_of_the_session() {
        let mut before = LineChain::new();
        let session_line = before.line(&AgentEvent::Session(&session())).unwrap();
        let prompt = before
            .line(&AgentEvent::Message(&Message::user("hi")))
            .unwrap();
        let text = format!("{session_line}\n{prompt}\n");
        let next = LineChain::continuing(&text)
            .line(&AgentEvent::Message(&Message::user("again")))
            .map(parsed)
            .unwrap();
        let prompt = parsed(prompt);
        assert_eq!(
            (next["parentUuid"].clone(), next["sessionId"].clone()),
            (prompt["uuid"].clone(), json!("s1"))
        );
    }

    #[test]
    fn agenthubs_own_records_keep_their_type_and_gain_the_session_id() {
        let mut chain = LineChain::new();
        let line = chain
            .line(&AgentEvent::Session(&session()))
            .map(parsed)
            .unwrap();
        assert_eq!(
            line,
            json!({"type": "session", "session_id": "s1", "workspace": "/w",
                   "model": "claude-sonnet-4-5", "created": "2026-12-01T00:00:00Z",
                   "version": "0.1.0", "sessionId": "s1"})
        );
    }
}
