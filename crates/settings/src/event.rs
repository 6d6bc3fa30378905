//! The hook events a settings file may name, with Claude Code's spelling.

use crate::hook::OnFailure;
use std::fmt;

/// The events AgentHub fires for command hooks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HookEventName {
    SessionStart,
    UserPromptSubmit,
    PreToolUse,
    PermissionRequest,
    PostToolUse,
    PostToolUseFailure,
    Stop,
    SessionEnd,
}

/// What a matcher is compared with on an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatcherTarget {
    ToolName,
    Source,
    Reason,
    /// The event has no matcher target: the matcher is ignored.
    None,
}

/// Events Claude Code fires that AgentHub does not: their hooks are ignored
/// with a warning rather than refused, so a Claude Code settings file loads.
const CLAUDE_CODE_ONLY: &[&str] = &[
    "Setup",
    "InstructionsLoaded",
    "UserPromptExpansion",
    "MessageDisplay",
    "PermissionDenied",
    "PostToolBatch",
    "Notification",
    "SubagentStart",
    "SubagentStop",
    "TaskCreated",
    "TaskCompleted",
    "StopFailure",
    "TeammateIdle",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "PreCompact",
    "PostCompact",
    "Elicitation",
    "ElicitationResult",
    "PreModelSwitch",
    "PostModelSwitch",
];

impl HookEventName {
    pub const ALL: [HookEventName; 8] = [
        HookEventName::SessionStart,
        HookEventName::UserPromptSubmit,
        HookEventName::PreToolUse,
        HookEventName::PermissionRequest,
        HookEventName::PostToolUse,
        HookEventName::PostToolUseFailure,
        HookEventName::Stop,
        HookEventName::SessionEnd,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            HookEventName::SessionStart => "SessionStart",
            HookEventName::UserPromptSubmit => "UserPromptSubmit",
            HookEventName::PreToolUse => "PreToolUse",
            HookEventName::PermissionRequest => "PermissionRequest",
            HookEventName::PostToolUse => "PostToolUse",
            HookEventName::PostToolUseFailure => "PostToolUseFailure",
            HookEventName::Stop => "Stop",
            HookEventName::SessionEnd => "SessionEnd",
        }
    }

    /// The event with this exact (case-sensitive) name.
    pub fn parse(name: &str) -> Option<HookEventName> {
        HookEventName::ALL
            .into_iter()
            .find(|event| event.as_str() == name)
    }

    /// Whether Claude Code knows this event although AgentHub never fires it.
    pub fn is_claude_code_only(name: &str) -> bool {
        CLAUDE_CODE_ONLY.contains(&name)
    }

    pub fn matcher_target(self) -> MatcherTarget {
        match self {
            HookEventName::PreToolUse
            | HookEventName::PermissionRequest
            | HookEventName::PostToolUse
            | HookEventName::PostToolUseFailure => MatcherTarget::ToolName,
            HookEventName::SessionStart => MatcherTarget::Source,
            HookEventName::SessionEnd => MatcherTarget::Reason,
            HookEventName::UserPromptSubmit | HookEventName::Stop => MatcherTarget::None,
        }
    }

    /// Gates fail closed (HOOKS-PROTOCOL.md "onFailure"): a gate whose check
    /// could not complete blocks; the other events report and go on.
    pub fn default_on_failure(self) -> OnFailure {
        match self {
            HookEventName::PreToolUse
            | HookEventName::PermissionRequest
            | HookEventName::UserPromptSubmit
            | HookEventName::Stop => OnFailure::Block,
            HookEventName::SessionStart
            | HookEventName::PostToolUse
            | HookEventName::PostToolUseFailure
            | HookEventName::SessionEnd => OnFailure::Continue,
        }
    }
}

impl fmt::Display for HookEventName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_parses_back_from_its_name() {
        for event in HookEventName::ALL {
            assert_eq!(HookEventName::parse(event.as_str()), Some(event));
        }
    }

    #[test]
    fn event_names_are_case_sensitive() {
        assert_eq!(HookEventName::parse("pretooluse"), None);
    }

    #[test]
    fn gates_default_to_block_and_observers_to_continue() {
        let blocking: Vec<HookEventName> = HookEventName::ALL
            .into_iter()
            .filter(|event| event.default_on_failure() == OnFailure::Block)
            .collect();
        assert_eq!(
            blocking,
            vec![
                HookEventName::UserPromptSubmit,
                HookEventName::PreToolUse,
                HookEventName::PermissionRequest,
                HookEventName::Stop
            ]
        );
    }
}
