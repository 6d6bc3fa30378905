//! What a transcript's `hook` record says of one hook run (contract §9):
//! the event, how the hook ended, what it decided and, on tool events, what
//! kind of result the call had — typed, and written with the names the
//! transcript has always used.

use crate::{HookEvent, PermissionEffect};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The event a hook record names: one this version knows, or — in a
/// transcript written by another version — the name as written, kept so
/// that reading and writing the line again loses nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordedEvent {
    /// An event this version knows.
    Known(HookEvent),
    /// A name this version does not know.
    Other(String),
}

impl RecordedEvent {
    /// The event's name as written (`PreToolUse`, …).
    pub fn as_str(&self) -> &str {
        match self {
            RecordedEvent::Known(event) => event.as_str(),
            RecordedEvent::Other(name) => name,
        }
    }

    /// The event, when this version knows it.
    pub fn known(&self) -> Option<HookEvent> {
        match self {
            RecordedEvent::Known(event) => Some(*event),
            RecordedEvent::Other(_) => None,
        }
    }
}

impl From<HookEvent> for RecordedEvent {
    fn from(event: HookEvent) -> Self {
        RecordedEvent::Known(event)
    }
}

impl PartialEq<HookEvent> for RecordedEvent {
    fn eq(&self, other: &HookEvent) -> bool {
        self.known() == Some(*other)
    }
}

impl std::fmt::Display for RecordedEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for RecordedEvent {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for RecordedEvent {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        Ok(match HookEvent::parse(&name) {
            Some(event) => RecordedEvent::Known(event),
            None => RecordedEvent::Other(name),
        })
    }
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
    /// The event the hook ran on (`PreToolUse`, …).
    pub event: RecordedEvent,
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn an_event_this_version_does_not_know_is_read_and_written_back_as_it_was() {
        let read: Vec<RecordedEvent> =
            serde_json::from_value(json!(["PreToolUse", "TeammateIdle"])).unwrap();
        assert_eq!(
            (&read, serde_json::to_value(&read).unwrap()),
            (
                &vec![
                    RecordedEvent::Known(HookEvent::PreToolUse),
                    RecordedEvent::Other("TeammateIdle".to_owned())
                ],
                json!(["PreToolUse", "TeammateIdle"])
            )
        );
    }

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
    fn a_failed_post_tool_use_hook_is_recorded_as_hook_execution_error_with_handler_ran() {
        let record = HookRecord {
            agent_id: None,
            event: HookEvent::PostToolUse.into(),
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
        };
        assert_eq!(
            serde_json::to_value(&record).unwrap(),
            json!({"event": "PostToolUse", "hook": "audit",
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
}
