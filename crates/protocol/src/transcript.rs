//! Transcript records (contract §9, §21): one JSON object per line, tagged by
//! `type`. Conversation lines are Claude Code's (`user`, `assistant`,
//! `system`, see [`crate::claude_line`]); AgentHub's own records keep their
//! types and gain `sessionId` when written.

use crate::claude_line::{AssistantLine, SystemLine, UserLine};
use crate::{Message, PermissionEffect, RunStatus, Usage};
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
    /// The run ended: always the last line.
    Outcome(OutcomeRecord),
}

/// What became of one hook run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HookOutcomeKind {
    /// The hook ran and returned a result that was applied.
    Ok,
    /// The hook ran and blocked (PreToolUse, UserPromptSubmit).
    Blocked,
    /// The hook could not complete: error, crash, timeout, unreadable output.
    /// Named by its contract §7 code, as contract §3 asks the transcript to report it.
    #[serde(rename = "hook_execution_error")]
    ExecutionError,
    /// The hook returned something its event does not allow (contract §7 code).
    #[serde(rename = "hook_contract_error")]
    ContractError,
}

/// What a hook decided, as its record names it (`block`, `allow`,
/// `updated_input`, …). Hooks that only add context or observe decide nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum HookDecision {
    /// A PreToolUse or PermissionRequest hook allowed the call.
    #[serde(rename = "allow")]
    Allow,
    /// A PreToolUse or PermissionRequest hook denied the call.
    #[serde(rename = "deny")]
    Deny,
    /// A PreToolUse hook asked for the person's approval.
    #[serde(rename = "ask")]
    Ask,
    /// A PreToolUse hook rewrote the call's input.
    #[serde(rename = "updated_input")]
    UpdatedInput,
    /// A PreToolUse hook allowed the call and rewrote its input.
    #[serde(rename = "allow+updated_input")]
    AllowUpdatedInput,
    /// A PreToolUse hook denied the call and rewrote its input.
    #[serde(rename = "deny+updated_input")]
    DenyUpdatedInput,
    /// A PreToolUse hook asked for approval and rewrote the call's input.
    #[serde(rename = "ask+updated_input")]
    AskUpdatedInput,
    /// A PostToolUse hook rewrote the tool's output.
    #[serde(rename = "updated_output")]
    UpdatedOutput,
    /// A PostToolUse hook ended the run after this round.
    #[serde(rename = "prevent_continuation")]
    PreventContinuation,
    /// A PostToolUse hook told the model something about the result.
    #[serde(rename = "feedback")]
    Feedback,
    /// A hook blocked what its event was about (a call, a prompt, a compaction).
    #[serde(rename = "block")]
    Block,
    /// A hook ended the run (`continue: false`).
    #[serde(rename = "stop")]
    Stop,
    /// A Stop hook asked for one more turn.
    #[serde(rename = "force_continue")]
    ForceContinue,
    /// A Stop hook asked for one more turn past the limit: not given.
    #[serde(rename = "force_continue_dropped")]
    ForceContinueDropped,
}

impl HookDecision {
    /// A PreToolUse hook's permission `effect`, with or without a rewrite
    /// of the input; `None` when it did neither.
    pub fn pre_tool_use(effect: Option<PermissionEffect>, rewrote: bool) -> Option<HookDecision> {
        match (effect, rewrote) {
            (Some(PermissionEffect::Allow), false) => Some(HookDecision::Allow),
            (Some(PermissionEffect::Deny), false) => Some(HookDecision::Deny),
            (Some(PermissionEffect::Ask), false) => Some(HookDecision::Ask),
            (Some(PermissionEffect::Allow), true) => Some(HookDecision::AllowUpdatedInput),
            (Some(PermissionEffect::Deny), true) => Some(HookDecision::DenyUpdatedInput),
            (Some(PermissionEffect::Ask), true) => Some(HookDecision::AskUpdatedInput),
            (None, true) => Some(HookDecision::UpdatedInput),
            (None, false) => None,
        }
    }

    /// The permission a PreToolUse or PermissionRequest hook decided,
    /// with or without a rewrite; `None` for every other decision.
    pub fn permission_effect(self) -> Option<PermissionEffect> {
        match self {
            HookDecision::Allow | HookDecision::AllowUpdatedInput => Some(PermissionEffect::Allow),
            HookDecision::Deny | HookDecision::DenyUpdatedInput => Some(PermissionEffect::Deny),
            HookDecision::Ask | HookDecision::AskUpdatedInput => Some(PermissionEffect::Ask),
            _ => None,
        }
    }

    /// The name records and the console use.
    pub fn as_str(self) -> &'static str {
        match self {
            HookDecision::Allow => "allow",
            HookDecision::Deny => "deny",
            HookDecision::Ask => "ask",
            HookDecision::UpdatedInput => "updated_input",
            HookDecision::AllowUpdatedInput => "allow+updated_input",
            HookDecision::DenyUpdatedInput => "deny+updated_input",
            HookDecision::AskUpdatedInput => "ask+updated_input",
            HookDecision::UpdatedOutput => "updated_output",
            HookDecision::PreventContinuation => "prevent_continuation",
            HookDecision::Feedback => "feedback",
            HookDecision::Block => "block",
            HookDecision::Stop => "stop",
            HookDecision::ForceContinue => "force_continue",
            HookDecision::ForceContinueDropped => "force_continue_dropped",
        }
    }
}

impl std::fmt::Display for HookDecision {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Whether the tool a PostToolUse hook looked at had succeeded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolResultKind {
    /// The tool ran and returned a result.
    Ok,
    /// The tool ran and failed.
    Error,
}

impl ToolResultKind {
    /// `ok` or `error`.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolResultKind::Ok => "ok",
            ToolResultKind::Error => "error",
        }
    }
}

/// One hook run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HookRecord {
    /// The subagent whose call this was (contract §17); absent for the
    /// session's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The event the hook ran on, by name (`PreToolUse`, …).
    pub event: String,
    /// The hook's name: the name an in-process hook was registered with, or a
    /// command hook's command line.
    pub hook: String,
    /// The [`ToolCall::id`](crate::ToolCall::id) of the call the hook looked
    /// at, on tool events.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    /// The tool the hook looked at (PreToolUse, PostToolUse).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// For PostToolUse: whether the tool's own result was `ok` or `error`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_result: Option<ToolResultKind>,
    /// What became of the run of the hook.
    pub outcome: HookOutcomeKind,
    /// The decision the hook took, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decision: Option<HookDecision>,
    /// How long the hook took, in milliseconds.
    pub elapsed_ms: f64,
    /// For PostToolUse failures: the tool's handler had run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub handler_ran: Option<bool>,
    /// Why the hook failed, when its outcome is an execution or contract error.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// For command hooks: the settings file and the hook's index in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// For command hooks: the hook's position in its settings file, so two
    /// hooks with the same command can be told apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// For command hooks that ran a process: its exit code (absent when it
    /// was killed, could not start, or the hook is not a process).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
}

/// One permission decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PermissionRecord {
    /// The subagent whose call this was (contract §17); absent for the
    /// session's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The name of the tool the call asked for.
    pub tool: String,
    /// The [`ToolCall::id`](crate::ToolCall::id) of the call decided on.
    pub tool_use_id: String,
    /// The final decision.
    pub effect: PermissionEffect,
    /// Which participant decided: `default`, `rule`, `workspace-boundary`, `mode`, `hook`, `approval`.
    pub source: String,
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
    use serde_json::{json, Value};

    #[test]
    fn hook_decisions_are_written_and_read_by_their_record_names() {
        let all = [
            HookDecision::Allow,
            HookDecision::Deny,
            HookDecision::Ask,
            HookDecision::UpdatedInput,
            HookDecision::AllowUpdatedInput,
            HookDecision::DenyUpdatedInput,
            HookDecision::AskUpdatedInput,
            HookDecision::UpdatedOutput,
            HookDecision::PreventContinuation,
            HookDecision::Feedback,
            HookDecision::Block,
            HookDecision::Stop,
            HookDecision::ForceContinue,
            HookDecision::ForceContinueDropped,
        ];
        let written: Vec<Value> = all
            .iter()
            .map(|decision| serde_json::to_value(decision).unwrap())
            .collect();
        let read: Vec<HookDecision> = written
            .iter()
            .map(|value| serde_json::from_value(value.clone()).unwrap())
            .collect();
        let names: Vec<Value> = all
            .iter()
            .map(|decision| json!(decision.as_str()))
            .collect();
        assert_eq!((written, read), (names, all.to_vec()));
    }

    #[test]
    fn a_pre_tool_use_decision_names_its_effect_and_its_rewrite() {
        assert_eq!(
            [
                HookDecision::pre_tool_use(Some(PermissionEffect::Allow), true),
                HookDecision::pre_tool_use(Some(PermissionEffect::Deny), false),
                HookDecision::pre_tool_use(None, true),
                HookDecision::pre_tool_use(None, false),
            ],
            [
                Some(HookDecision::AllowUpdatedInput),
                Some(HookDecision::Deny),
                Some(HookDecision::UpdatedInput),
                None
            ]
        );
    }

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
    fn a_failed_post_tool_use_hook_is_recorded_as_hook_execution_error_with_handler_ran() {
        let record = TranscriptRecord::Hook(HookRecord {
            agent_id: None,
            event: "PostToolUse".into(),
            hook: "audit".into(),
            tool_use_id: Some("call_1".into()),
            tool_name: Some("Echo".into()),
            tool_result: Some(ToolResultKind::Ok),
            outcome: HookOutcomeKind::ExecutionError,
            decision: None,
            elapsed_ms: 1.5,
            handler_ran: Some(true),
            error: Some("exited with status 1".into()),
            source: None,
            index: None,
            exit_code: None,
        });
        assert_eq!(
            serde_json::to_value(&record).unwrap(),
            json!({"type": "hook", "event": "PostToolUse", "hook": "audit",
                   "tool_use_id": "call_1", "tool_name": "Echo", "tool_result": "ok",
                   "outcome": "hook_execution_error", "elapsed_ms": 1.5, "handler_ran": true,
                   "error": "exited with status 1"})
        );
    }

    #[test]
    fn a_contract_breaking_hook_is_recorded_as_hook_contract_error() {
        assert_eq!(
            serde_json::to_value(HookOutcomeKind::ContractError).unwrap(),
            json!("hook_contract_error")
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
