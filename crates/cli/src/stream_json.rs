//! `--output-format stream-json` (contract §29): Claude Code's message stream
//! on stdout, one JSON object a line, written as things happen — the `init`
//! line, each `assistant` reply and `user` tool-result message (a subagent's
//! with its Task call's id as `parent_tool_use_id`), AgentHub's own records as
//! `system` lines (`agenthub_permission`, `agenthub_hook`,
//! `agenthub_checkpoint`), `stream_event` text deltas with
//! `--include-partial-messages`; the result object comes last, from `output`.
//!
//! It must never print the system prompt or any other system message, and
//! never fail the run: a reader that went away (`| head`) loses lines, while
//! the transcript file — the audit — is written as always.

use crate::stream_lines::{
    assistant_line, partial_end, partial_start, record_line, text_delta, user_line, Init, Parent,
};
use agenthub::crates::protocol::claude_line::{assistant_blocks, tool_result_block, ContentBlock};
use agenthub::crates::protocol::StopReason;
use agenthub::{AgentEvent, Message, Observer, ObserverError, ToolCall, Usage};
use serde_json::Value;
use std::collections::HashMap;
use std::io::Write;
use std::sync::Mutex;

/// The stream-json writer: an observer of the run, told the session first.
pub struct StreamJson<W: Write + Send> {
    state: Mutex<State<W>>,
}

struct State<W> {
    out: W,
    session_id: String,
    model: String,
    /// Whether text deltas are printed as `stream_event` lines.
    partial: bool,
    /// Per conversation (the session's: `None`; a subagent's: its Task
    /// call's id): the usage and stop reason of the reply on its way, and
    /// the id of the message whose text is streaming.
    chains: HashMap<Parent, Chain>,
}

#[derive(Default)]
struct Chain {
    usage: Option<Usage>,
    /// The stop reason told for the reply on its way (§33).
    stop_reason: Option<StopReason>,
    streaming: Option<String>,
}

impl<W: Write + Send> StreamJson<W> {
    /// A stream to `out` for a run of `model`; `partial`: with text deltas.
    pub fn new(out: W, model: &str, partial: bool) -> Self {
        StreamJson {
            state: Mutex::new(State {
                out,
                session_id: String::new(),
                model: model.to_owned(),
                partial,
                chains: HashMap::new(),
            }),
        }
    }

    /// Writes the `init` line; every later line carries its session.
    pub fn init(&self, init: &Init) {
        if let Ok(mut state) = self.state.lock() {
            state.session_id = init.session_id.clone();
            let line = init.line();
            state.write(&line);
        }
    }
}

impl<W: Write + Send> Observer for StreamJson<W> {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        if let Ok(mut state) = self.state.lock() {
            match event {
                AgentEvent::Subagent(info, inner) => {
                    state.event(Some(info.tool_use_id.clone()), inner)
                }
                other => state.event(None, other),
            }
        }
        Ok(())
    }
}

impl<W: Write> State<W> {
    fn event(&mut self, parent: Parent, event: &AgentEvent<'_>) {
        match event {
            AgentEvent::Message(message) => self.message(parent, message),
            AgentEvent::Usage(record) => {
                let chain = self.chains.entry(parent).or_default();
                chain.usage = Some(chain.usage.unwrap_or_default() + record.usage);
            }
            AgentEvent::StopReason(reason) => {
                self.chains.entry(parent).or_default().stop_reason = Some(*reason);
            }
            AgentEvent::TextDelta(text) if self.partial => self.delta(parent, text),
            AgentEvent::ModelRequest(_) => {
                // A request that failed mid-stream left its message open.
                self.chains.entry(parent).or_default().streaming = None;
            }
            AgentEvent::Permission(record) => self.record("agenthub_permission", parent, record),
            AgentEvent::Hook(record) => self.record("agenthub_hook", parent, record),
            AgentEvent::Checkpoint(record) => self.record("agenthub_checkpoint", parent, record),
            _ => {}
        }
    }

    fn message(&mut self, parent: Parent, message: &Message) {
        let line = match message {
            Message::Assistant {
                content,
                tool_calls,
            } => self.reply(&parent, content.as_deref(), tool_calls),
            Message::Tool {
                tool_call_id,
                content,
                is_error,
            } => user_line(&[tool_result_block(tool_call_id, content, *is_error)]),
            // A subagent's prompt is shown under its Task call; the
            // session's own prompts are not echoed (as in Claude Code).
            Message::User { content } if parent.is_some() => user_line(&[ContentBlock::Text {
                text: content.clone(),
            }]),
            Message::User { .. } | Message::System { .. } => return,
        };
        let line = self.stamped(line, &parent);
        self.write(&line);
    }

    /// A reply's `assistant` line, its usage the one told before it; a
    /// reply whose text streamed closes its stream events first and keeps
    /// their message id.
    fn reply(&mut self, parent: &Parent, content: Option<&str>, calls: &[ToolCall]) -> Value {
        let chain = self.chains.entry(parent.clone()).or_default();
        let usage = chain.usage.take().unwrap_or_default();
        let streamed = chain.streaming.take();
        let stop_reason = chain
            .stop_reason
            .take()
            .unwrap_or_else(|| StopReason::recorded(None, calls.len()))
            .as_str();
        if streamed.is_some() {
            for event in partial_end(stop_reason, &usage) {
                let line = self.stream_event(parent, event);
                self.write(&line);
            }
        }
        let id = streamed.unwrap_or_else(new_message_id);
        let blocks = assistant_blocks(content, calls);
        assistant_line(&id, &self.model, &blocks, stop_reason, &usage)
    }

    fn delta(&mut self, parent: Parent, text: &str) {
        let chain = self.chains.entry(parent.clone()).or_default();
        let mut events = Vec::new();
        if chain.streaming.is_none() {
            let id = new_message_id();
            events.extend(partial_start(&id, &self.model));
            chain.streaming = Some(id);
        }
        events.push(text_delta(text));
        for event in events {
            let line = self.stream_event(&parent, event);
            self.write(&line);
        }
    }

    fn record<R: serde::Serialize>(&mut self, subtype: &str, parent: Parent, record: &R) {
        let line = record_line(subtype, record);
        let line = self.stamped(line, &parent);
        self.write(&line);
    }

    fn stream_event(&self, parent: &Parent, event: Value) -> Value {
        let line = serde_json::json!({"type": "stream_event", "event": event});
        self.stamped(line, parent)
    }

    /// `line` with the fields every message of the stream carries.
    fn stamped(&self, mut line: Value, parent: &Parent) -> Value {
        if let Value::Object(fields) = &mut line {
            fields.insert("session_id".into(), self.session_id.clone().into());
            fields.insert("parent_tool_use_id".into(), parent.clone().into());
            fields.insert("uuid".into(), uuid::Uuid::new_v4().to_string().into());
        }
        line
    }

    /// One line, written whole; a reader that went away is not an error.
    fn write(&mut self, line: &Value) {
        let text = format!("{line}\n");
        let _ = self
            .out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush());
    }
}

fn new_message_id() -> String {
    format!("msg_{}", uuid::Uuid::new_v4().simple())
}

#[cfg(test)]
#[path = "stream_json_tests.rs"]
mod tests;
