//! Transcript records (contract §9, §21): one JSON object per line, tagged by
//! `type`. Conversation lines are Claude Code's (`user`, `assistant`,
//! `system`, see [`crate::claude_line`]); AgentHub's own records keep their
//! types and gain `sessionId` when written.

use crate::claude_line::{AssistantLine, SystemLine, UserLine};
use crate::{
    HookRecord, Message, PermissionEffect, PermissionMode, PermissionSource, RunStatus, Usage,
};
use serde::{Deserialize, Serialize};

/// One line of a transcript, tagged by its `type` field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TranscriptRecord {
    /// Who the session is: always the first line of a session's transcript.
    Session(SessionRecord),
    /// A prompt, a Stop hook's instruction, or tool results (Claude Code's shape).
    User(UserLine),
    /// A reply of the model with its usage (Claude Code's shape).
    Assistant(AssistantLine),
    /// System text: the system prompt, hook context, a compaction summary.
    System(SystemLine),
    /// A message in the shape of transcripts written before contract §21; read
    /// so that older sessions still resume, never written.
    Message {
        /// The subagent whose history the message belongs to (contract §17);
        /// absent for the session's own messages.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        agent_id: Option<String>,
        /// The message, in the same shape as in the history.
        message: Message,
    },
    /// A hook ran.
    Hook(HookRecord),
    /// The permission policy decided on a tool call.
    Permission(PermissionRecord),
    /// The tokens of one model request, as transcripts written before contract
    /// §21 kept them; read, never written (the assistant line has them now).
    Usage(UsageRecord),
    /// The history was compacted; the summary message record follows.
    Compaction(CompactionRecord),
    /// The workspace's files were checkpointed before a round that may
    /// write (contract §24).
    Checkpoint(CheckpointRecord),
    /// The files and/or the conversation were rewound (contract §24).
    Rewind(RewindRecord),
    /// The session's permission mode changed (Claude Code's record, with
    /// its field names); a session picked up again goes on in the last one.
    #[serde(rename = "permission-mode")]
    PermissionMode(PermissionModeRecord),
    /// The run ended: always the last line.
    Outcome(OutcomeRecord),
}

/// One permission decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PermissionRecord {
    /// The subagent whose call this was (contract §17); absent for the
    /// session's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The name of the tool the call asked for; `Network` for a sandboxed
    /// command's connection through the proxy (contract §32).
    pub tool: String,
    /// The [`ToolCall::id`](crate::ToolCall::id) of the call decided on
    /// (`network-N` for the Nth connection decided through the proxy).
    pub tool_use_id: String,
    /// The destination a `Network` decision is about, `name:port` as the
    /// client asked for it; absent for a tool call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// The final decision.
    pub effect: PermissionEffect,
    /// Which participant decided, written `default`, `rule`,
    /// `workspace-boundary`, `mode`, `hook`, `approval`, ….
    pub source: PermissionSource,
    /// The rule that decided, when one did, with the file it came from
    /// (e.g. `Bash(rm *) (/w/.agenthub/settings.json)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    /// The decision explained in words, as shown on stderr.
    pub reason: String,
}

/// The tokens one model request used, as its provider reported them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UsageRecord {
    /// Which model request of the run, counted from 1 (as `turns` counts them).
    pub turn: u32,
    /// What the provider reported.
    pub usage: Usage,
}

/// The first line of a session's transcript (contract §12): enough to find the
/// session again (`agenthub sessions list`, `--resume`, `--continue`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionRecord {
    /// The session's id, also the transcript's file name.
    pub session_id: String,
    /// The workspace root the session works in (canonical).
    pub workspace: String,
    /// The model's name, when the embedding application named it.
    pub model: Option<String>,
    /// When the session started, as RFC 3339 UTC (`2026-11-30T23:34:17Z`).
    pub created: String,
    /// The AgentHub version that started it.
    pub version: String,
}

/// The mode a session uses from here on (contract §31), as Claude Code
/// writes it: `{"type":"permission-mode","permissionMode":"plan","sessionId"}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PermissionModeRecord {
    /// The mode, in Claude Code's spelling.
    #[serde(rename = "permissionMode")]
    pub permission_mode: PermissionMode,
}

/// What started a compaction (PreCompact's `trigger`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CompactionTrigger {
    /// Asked for by the user or the embedding application (`/compact`).
    Manual,
    /// The history reached the context budget's threshold.
    Auto,
}

impl CompactionTrigger {
    /// The protocol's name for it: `manual` or `auto`.
    pub fn as_str(self) -> &'static str {
        match self {
            CompactionTrigger::Manual => "manual",
            CompactionTrigger::Auto => "auto",
        }
    }
}

/// A compaction (contract §12). The next record is the summary message; message
/// records after that are new messages only, so a reader rebuilds the history
/// as the leading system messages + the summary + the `kept` messages before
/// this record + what follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CompactionRecord {
    /// What started it.
    pub trigger: CompactionTrigger,
    /// Tokens of the history before (reported by the provider or estimated).
    pub tokens_before: u64,
    /// Tokens of the compacted history (estimated).
    pub tokens_after: u64,
    /// How many of the latest messages survive as they were.
    pub kept: usize,
}

/// A checkpoint of the workspace's files (contract §24): the commit in the
/// workspace's shadow store holding them as they were before a round of the
/// prompt `prompt_index` whose calls may write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CheckpointRecord {
    /// The commit in the workspace's checkpoint store.
    pub id: String,
    /// The prompt it was taken in: the session's user prompts numbered from 1
    /// (one more than the last, for the checkpoint a rewind takes first).
    pub prompt_index: u32,
}

/// What a rewind restores (contract §24).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RewindScope {
    /// The workspace's files only.
    Code,
    /// The conversation only.
    Conversation,
    /// Both the files and the conversation.
    Both,
}

impl RewindScope {
    /// Whether the files are restored.
    pub fn restores_code(self) -> bool {
        matches!(self, RewindScope::Code | RewindScope::Both)
    }

    /// Whether the conversation ends before the prompt.
    pub fn restores_conversation(self) -> bool {
        matches!(self, RewindScope::Conversation | RewindScope::Both)
    }

    /// The protocol's name for it: `code`, `conversation` or `both`.
    pub fn as_str(self) -> &'static str {
        match self {
            RewindScope::Code => "code",
            RewindScope::Conversation => "conversation",
            RewindScope::Both => "both",
        }
    }
}

/// A rewind to the point before prompt `prompt_index` (contract §24). With
/// the conversation in its scope, the history ends before that prompt: a
/// reader drops every line from the prompt's own to this record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RewindRecord {
    /// The prompt rewound to (the state before it).
    pub prompt_index: u32,
    /// What was restored.
    pub scope: RewindScope,
    /// When, as RFC 3339 UTC.
    pub time: String,
}

/// The end of one prompt's run: the last line of a one-prompt transcript, and
/// one per prompt in a longer session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OutcomeRecord {
    /// How the run ended.
    pub status: RunStatus,
    /// The final answer, when the run produced one.
    pub result: Option<String>,
    /// Why the run did not complete (or the hook's reason for stopping it).
    pub error: Option<String>,
    /// How many model requests the run made.
    pub turns: u32,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn message_record_is_tagged_message() {
        let record = TranscriptRecord::Message {
            agent_id: None,
            message: Message::user("hi"),
        };
        assert_eq!(
            serde_json::to_value(&record).unwrap(),
            json!({"type": "message", "message": {"role": "user", "content": "hi"}})
        );
    }

    #[test]
    fn usage_record_is_tagged_usage_and_names_its_turn() {
        let record = TranscriptRecord::Usage(UsageRecord {
            turn: 2,
            usage: Usage {
                input_tokens: 120,
                output_tokens: 8,
                cache_read_tokens: 100,
                cache_creation_tokens: 0,
            },
        });
        assert_eq!(
            serde_json::to_value(&record).unwrap(),
            json!({"type": "usage", "turn": 2,
                   "usage": {"input_tokens": 120, "output_tokens": 8, "cache_read_tokens": 100,
                             "cache_creation_tokens": 0}})
        );
    }

    #[test]
    fn compaction_record_is_tagged_compaction() {
        let record = TranscriptRecord::Compaction(CompactionRecord {
            trigger: CompactionTrigger::Auto,
            tokens_before: 900,
            tokens_after: 120,
            kept: 3,
        });
        assert_eq!(
            serde_json::to_value(&record).unwrap(),
            json!({"type": "compaction", "trigger": "auto", "tokens_before": 900,
                   "tokens_after": 120, "kept": 3})
        );
    }

    #[test]
    fn checkpoint_and_rewind_records_are_tagged_with_their_types() {
        let checkpoint = TranscriptRecord::Checkpoint(CheckpointRecord {
            id: "abc".into(),
            prompt_index: 2,
        });
        let rewind = TranscriptRecord::Rewind(RewindRecord {
            prompt_index: 1,
            scope: RewindScope::Both,
            time: "2026-12-02T05:00:00Z".into(),
        });
        assert_eq!(
            (
                serde_json::to_value(&checkpoint).unwrap(),
                serde_json::to_value(&rewind).unwrap()
            ),
            (
                json!({"type": "checkpoint", "id": "abc", "prompt_index": 2}),
                json!({"type": "rewind", "prompt_index": 1, "scope": "both",
                       "time": "2026-12-02T05:00:00Z"})
            )
        );
    }

    #[test]
    fn a_mode_change_is_claude_codes_permission_mode_record() {
        let record = TranscriptRecord::PermissionMode(PermissionModeRecord {
            permission_mode: PermissionMode::AcceptEdits,
        });
        let written = serde_json::to_value(&record).unwrap();
        assert_eq!(
            (
                written.clone(),
                serde_json::from_value::<TranscriptRecord>(written).unwrap()
            ),
            (
                json!({"type": "permission-mode", "permissionMode": "acceptEdits"}),
                record
            )
        );
    }

    #[test]
    fn outcome_record_is_tagged_outcome() {
        let record = TranscriptRecord::Outcome(OutcomeRecord {
            status: RunStatus::MaxTurns,
            result: None,
            error: Some("max turns".into()),
            turns: 3,
        });
        assert_eq!(
            serde_json::to_value(&record).unwrap(),
            json!({"type": "outcome", "status": "max_turns", "result": null, "error": "max turns", "turns": 3})
        );
    }
}
