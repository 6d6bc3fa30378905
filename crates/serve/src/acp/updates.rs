//! The observer that streams a turn to the editor as `session/update`s:
//! streamed text as `agent_message_chunk`, each call the model makes as a
//! `tool_call` (with the change it would make), `in_progress` once
//! permission allowed it, then its result (`completed` with that change, or
//! `failed`); a TodoWrite call's list as a `plan` (`plan.rs`). It only
//! tells; it never decides anything.

use super::rpc::Peer;
use super::schema::{SessionUpdate, ToolCallContent};
use super::shown::{call_fields, finished, input, running, Changes, ToolsByName};
use agenthub::PermissionEffect;
use agenthub::{AgentEvent, Message, Observer, ObserverError};
use serde_json::json;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// Sends one session's updates to the client.
pub struct EditorUpdates {
    session_id: String,
    peer: Peer,
    tools: ToolsByName,
    /// Whether the current model reply streamed its text already.
    streamed: AtomicBool,
    /// What each call still running was announced with, by call id.
    announced: Mutex<HashMap<String, Vec<ToolCallContent>>>,
}

impl EditorUpdates {
    pub fn new(session_id: String, peer: Peer, tools: ToolsByName) -> EditorUpdates {
        EditorUpdates {
            session_id,
            peer,
            tools,
            streamed: AtomicBool::new(false),
            announced: Mutex::new(HashMap::new()),
        }
    }

    /// Sends `update` for this session.
    pub fn send(&self, update: &SessionUpdate) {
        send(&self.peer, &self.session_id, update);
    }

    /// Sends the `tool_call` of a call the model made, and keeps what it
    /// showed for the call's result.
    fn announce(&self, id: &str, name: &str, arguments: &str) {
        let fields = call_fields(&self.tools, id, name, input(arguments), Changes::Previewed);
        if let (Some(content), Ok(mut announced)) = (&fields.content, self.announced.lock()) {
            announced.insert(id.to_owned(), content.clone());
        }
        self.send(&SessionUpdate::ToolCall(fields));
    }

    fn on_message(&self, message: &Message) {
        match message {
            Message::Assistant {
                content,
                tool_calls,
            } => {
                let streamed = self.streamed.swap(false, Ordering::SeqCst);
                if let Some(text) = content.as_deref().filter(|text| !text.is_empty()) {
                    if !streamed {
                        self.send(&SessionUpdate::agent_text(text));
                    }
                }
                for call in tool_calls {
                    self.announce(&call.id, &call.function.name, &call.function.arguments);
                }
            }
            Message::Tool {
                tool_call_id,
                content,
                is_error,
            } => {
                let announced = self
                    .announced
                    .lock()
                    .ok()
                    .and_then(|mut announced| announced.remove(tool_call_id))
                    .unwrap_or_default();
                self.send(&finished(tool_call_id, content, *is_error, announced));
            }
            Message::System { .. } | Message::User { .. } => {}
        }
    }
}

/// Sends `update` as a `session/update` notification of `session_id`.
pub fn send(peer: &Peer, session_id: &str, update: &SessionUpdate) {
    peer.notify(
        "session/update",
        json!({"sessionId": session_id, "update": update}),
    );
}

impl Observer for EditorUpdates {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        match event {
            AgentEvent::TextDelta(text) => {
                self.streamed.store(true, Ordering::SeqCst);
                self.send(&SessionUpdate::agent_text(*text));
            }
            AgentEvent::Message(message) => self.on_message(message),
            AgentEvent::ToolCallEnded(call, _, None) => {
                if let Some(plan) = super::plan::plan_of(call) {
                    self.send(&plan);
                }
            }
            AgentEvent::Permission(record) if record.effect == PermissionEffect::Allow => {
                self.send(&running(&record.tool_use_id));
            }
            AgentEvent::Warning(text) => {
                self.send(&SessionUpdate::agent_text(format!("\n[Warning] {text}\n")));
            }
            _ => {}
        }
        Ok(())
    }
}
