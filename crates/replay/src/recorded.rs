//! A transcript read for replay (contract §21): every tool call it records —
//! the session's and its subagents' — with what was decided about it then:
//! the permission records (the policy's decision, then the answer to an
//! ask), the PreToolUse and PermissionRequest hook records, and the error
//! code of its result (a call a hook blocked never reached permission; its
//! result says so). Transcripts written before contract §21 (`message`
//! records) are read too. Nothing here decides anything again.

use agenthub_core::{TranscriptFile, TranscriptFileError};
use agenthub_protocol::claude_line::{ContentBlock, UserContent};
use agenthub_protocol::{
    HookEvent, HookRecord, Message, PermissionRecord, SessionRecord, ToolResultText,
    TranscriptRecord,
};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// One recorded tool call and what the transcript says was decided on it.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedCall {
    /// The subagent that made it; `None` for the session's own calls.
    pub agent_id: Option<String>,
    /// The call's id.
    pub tool_use_id: String,
    /// The tool it asked for.
    pub tool_name: String,
    /// Its input as the model gave it (an object; a string when it was not one).
    pub input: Value,
    /// The policy's decision (the call's first permission record).
    pub policy: Option<PermissionRecord>,
    /// The answer to an ask (its second permission record).
    pub approval: Option<PermissionRecord>,
    /// Its PreToolUse hook runs, in order.
    pub pre_tool_hooks: Vec<HookRecord>,
    /// Its PermissionRequest hook runs, in order.
    pub permission_hooks: Vec<HookRecord>,
    /// The error code of its result (`hook_blocked`, `permission_denied`, …),
    /// `None` when it succeeded or has no result.
    pub result_code: Option<String>,
}

/// A recorded session: who it is and its calls in the order they were made.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordedSession {
    /// The transcript file.
    pub transcript: PathBuf,
    /// Its `session` record (id, workspace, model).
    pub record: SessionRecord,
    /// Every tool call, in order.
    pub calls: Vec<RecordedCall>,
}

/// Why a transcript cannot be replayed.
#[derive(Debug, Error)]
pub enum RecordedSessionError {
    /// The file cannot be read, or a line (not the last) is not a record.
    #[error(transparent)]
    File(#[from] TranscriptFileError),
    /// No `session` record: not an AgentHub transcript.
    #[error("{} is not an AgentHub transcript: it has no session record", file.display())]
    NoSessionRecord {
        /// The file.
        file: PathBuf,
    },
}

/// Reads the transcript at `path`. A last line cut short by a crash is
/// dropped, as resuming drops it.
pub fn read_recorded_session(path: &Path) -> Result<RecordedSession, RecordedSessionError> {
    let mut reader = Reader::default();
    for (_, record) in TranscriptFile::read(path)?.records {
        reader.take(record);
    }
    let record = reader
        .session
        .ok_or_else(|| RecordedSessionError::NoSessionRecord {
            file: path.to_path_buf(),
        })?;
    Ok(RecordedSession {
        transcript: path.to_path_buf(),
        record,
        calls: reader.calls,
    })
}

#[derive(Default)]
struct Reader {
    session: Option<SessionRecord>,
    calls: Vec<RecordedCall>,
    /// Where each (agent, call id) is in `calls`.
    index: HashMap<(Option<String>, String), usize>,
}

impl Reader {
    fn take(&mut self, record: TranscriptRecord) {
        match record {
            TranscriptRecord::Session(record) => {
                self.session.get_or_insert(record);
            }
            TranscriptRecord::Assistant(line) => {
                for block in line.message.content {
                    if let ContentBlock::ToolUse {
                        id, name, input, ..
                    } = block
                    {
                        self.call(line.meta.agent_id.clone(), id, name, input);
                    }
                }
            }
            TranscriptRecord::User(line) => {
                if let UserContent::Blocks(blocks) = line.message.content {
                    for block in blocks {
                        if let ContentBlock::ToolResult {
                            tool_use_id,
                            content,
                            is_error,
                        } = block
                        {
                            let text = result_text(&content);
                            let agent_id = line.meta.agent_id.clone();
                            self.result(agent_id, &tool_use_id, &text, is_error);
                        }
                    }
                }
            }
            TranscriptRecord::Message { agent_id, message } => match message {
                Message::Assistant { tool_calls, .. } => {
                    for call in tool_calls {
                        let input = serde_json::from_str::<Value>(&call.function.arguments)
                            .unwrap_or(Value::String(call.function.arguments.clone()));
                        self.call(agent_id.clone(), call.id, call.function.name, input);
                    }
                }
                Message::Tool {
                    tool_call_id,
                    content,
                    is_error,
                } => self.result(agent_id, &tool_call_id, &content, is_error),
                _ => {}
            },
            TranscriptRecord::Permission(record) => {
                if let Some(call) = self.find(&record.agent_id, &record.tool_use_id) {
                    if call.policy.is_none() {
                        call.policy = Some(record);
                    } else {
                        call.approval = Some(record);
                    }
                }
            }
            TranscriptRecord::Hook(record) => {
                let Some(id) = record.tool_use_id.clone() else {
                    return;
                };
                let event = record.event.known();
                if let Some(call) = self.find(&record.agent_id, &id) {
                    match event {
                        Some(HookEvent::PreToolUse) => call.pre_tool_hooks.push(record),
                        Some(HookEvent::PermissionRequest) => call.permission_hooks.push(record),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }

    fn call(&mut self, agent_id: Option<String>, id: String, name: String, input: Value) {
        self.index
            .insert((agent_id.clone(), id.clone()), self.calls.len());
        self.calls.push(RecordedCall {
            agent_id,
            tool_use_id: id,
            tool_name: name,
            input,
            policy: None,
            approval: None,
            pre_tool_hooks: Vec::new(),
            permission_hooks: Vec::new(),
            result_code: None,
        });
    }

    /// A call's result: the error code of a failed one. Read back from the
    /// text because a transcript holds only the text: the code the loop told
    /// its observers (`AgentEvent::ToolCallEnded`) is not written, and old
    /// transcripts predate it; the `Error [code]: ` prefix is the record.
    fn result(&mut self, agent_id: Option<String>, id: &str, text: &str, is_error: bool) {
        if let Some(call) = self.find(&agent_id, id) {
            call.result_code = is_error
                .then(|| text.error_code().map(str::to_owned))
                .flatten();
        }
    }

    fn find(&mut self, agent_id: &Option<String>, id: &str) -> Option<&mut RecordedCall> {
        let at = *self.index.get(&(agent_id.clone(), id.to_owned()))?;
        self.calls.get_mut(at)
    }
}

/// A `tool_result`'s content as text: a string, or Claude Code's list of text blocks.
fn result_text(content: &Value) -> String {
    match content {
        Value::String(text) => text.clone(),
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|block| block.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    }
}
