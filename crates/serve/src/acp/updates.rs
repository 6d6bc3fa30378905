//! The observer that streams a turn to the editor as `session/update`s:
//! streamed text as `agent_message_chunk`, each call the model makes as a
//! `tool_call`, `in_progress` once permission allowed it, then its result
//! (`completed` or `failed`); a TodoWrite call's list as a `plan`
//! (`plan.rs`). It only tells; it never decides anything.

use super::rpc::Peer;
use super::schema::SessionUpdate;
use super::shown::{announced, finished, running, ToolsByName};
use agenthub::PermissionEffect;
use agenthub::{AgentEvent, Message, Observer, ObserverError};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};

/// Sends one session's updates to the client.
pub struct EditorUpdates {
    session_id: String,
    peer: Peer,
    tools: ToolsByName,
    /// Whether the current model reply streamed its text already.
    streamed: AtomicBool,
}

impl EditorUpdates {
    pub fn new(session_id: String, peer: Peer, tools: ToolsByName) -> EditorUpdates {
        EditorUpdates {
            session_id,
            peer,
            tools,
            streamed: AtomicBool::new(false),
        }
    }

    /// Sends `update` for this session.
    pub fn send(&self, update: &SessionUpdate) {
        send(&self.peer, &self.session_id, update);
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
                    self.send(&announced(
                        &self.tools,
                        &call.id,
                        &call.function.name,
                        &call.function.arguments,
                    ));
                }
            }
            Message::Tool {
                tool_call_id,
                content,
                is_error,
            } => self.send(&finished(tool_call_id, content, *is_error)),
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
