//! The lifecycle events by name, and what a failing hook means on each. One
//! vocabulary for the settings files, the hook engine and the transcript.

use std::fmt;

/// A point in a run where hooks are called, named as in settings files
/// (`"PreToolUse"`) and in Claude Code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HookEvent {
    /// The session begins, before the first prompt; hooks may add context.
    SessionStart,
    /// A prompt arrives, before the model sees it; hooks may block it or add
    /// context.
    UserPromptSubmit,
    /// A tool call is about to run, before the permission check; hooks may
    /// block it, rewrite its input or suggest a permission.
    PreToolUse,
    /// The permission policy would ask the person; hooks may answer instead.
    PermissionRequest,
    /// A tool call has run; hooks see its result and may replace it, add
    /// context or stop the run.
    PostToolUse,
    /// PostToolUse hooks that only run when the tool failed (Claude Code's
    /// `PostToolUseFailure`; in-process PostToolUse hooks see both).
    PostToolUseFailure,
    /// The model gave a final answer; hooks may make it continue instead.
    Stop,
    /// A subagent (contract §17) is about to start; hooks may add context to it.
    SubagentStart,
    /// A subagent gave its final answer; hooks may make it continue once, as
    /// Stop does for the session.
    SubagentStop,
    /// The history is about to be compacted (on demand or automatically);
    /// hooks may block a manual compaction.
    PreCompact,
    /// The session waits for the person (an approval, an idle prompt);
    /// hooks observe only (a desktop notification, a sound).
    Notification,
    /// The session ends; hooks observe only.
    SessionEnd,
    /// The run ends on a model or provider error (contract §21); hooks observe only.
    StopFailure,
    /// Permission refused a call (rules, mode, a refused ask); hooks observe only.
    PermissionDenied,
    /// The history was compacted; hooks see the summary and observe only.
    PostCompact,
    /// A memory file (`AGENTS.md`, `CLAUDE.md`) was loaded into the system
    /// prompt; hooks observe only.
    InstructionsLoaded,
    /// Every call of one assistant message has its result; hooks see the
    /// batch and may add context.
    PostToolBatch,
    /// A slash command is about to be expanded into a prompt; hooks may add
    /// context or block it, as UserPromptSubmit hooks do.
    UserPromptExpansion,
}

/// What a matcher is compared with on an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatcherTarget {
    /// The tool's name (PreToolUse, PermissionRequest, PostToolUse,
    /// PostToolUseFailure).
    ToolName,
    /// How the session started, `startup`, `resume` or `compact` (SessionStart).
    Source,
    /// Why the session ended (SessionEnd).
    Reason,
    /// What started a compaction, `manual` or `auto` (PreCompact).
    Trigger,
    /// What the session waits for, `permission_prompt` or `idle_prompt` (Notification).
    NotificationType,
    /// Why a memory file was loaded, e.g. `session_start` (InstructionsLoaded).
    LoadReason,
    /// The expanded command's name (UserPromptExpansion).
    CommandName,
    /// The subagent's type, e.g. `general-purpose` (SubagentStart, SubagentStop).
    AgentType,
    /// The event has no matcher target: the matcher is ignored.
    None,
}

/// What a failing hook means for the action it guards.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailurePolicy {
    /// The action does not happen (PreToolUse: the call is not run;
    /// UserPromptSubmit, Stop: the run fails; PermissionRequest: denied).
    Block,
    /// The failure is reported and the action goes on.
    Continue,
}

impl HookEvent {
    /// Every event, in lifecycle order: for listing, parsing and exhaustive tests.
    pub const ALL: [HookEvent; 18] = [
        HookEvent::SessionStart,
        HookEvent::UserPromptSubmit,
        HookEvent::PreToolUse,
        HookEvent::PermissionRequest,
        HookEvent::PostToolUse,
        HookEvent::PostToolUseFailure,
        HookEvent::Stop,
        HookEvent::SubagentStart,
        HookEvent::SubagentStop,
        HookEvent::PreCompact,
        HookEvent::Notification,
        HookEvent::SessionEnd,
        HookEvent::StopFailure,
        HookEvent::PermissionDenied,
        HookEvent::PostCompact,
        HookEvent::InstructionsLoaded,
        HookEvent::PostToolBatch,
        HookEvent::UserPromptExpansion,
    ];

    /// The event's name in settings files and hook payloads
    /// (`hook_event_name`), e.g. `PreToolUse`.
    pub fn as_str(self) -> &'static str {
        match self {
            HookEvent::SessionStart => "SessionStart",
            HookEvent::UserPromptSubmit => "UserPromptSubmit",
            HookEvent::PreToolUse => "PreToolUse",
            HookEvent::PermissionRequest => "PermissionRequest",
            HookEvent::PostToolUse => "PostToolUse",
            HookEvent::PostToolUseFailure => "PostToolUseFailure",
            HookEvent::Stop => "Stop",
            HookEvent::SubagentStart => "SubagentStart",
            HookEvent::SubagentStop => "SubagentStop",
            HookEvent::PreCompact => "PreCompact",
            HookEvent::Notification => "Notification",
            HookEvent::SessionEnd => "SessionEnd",
            HookEvent::StopFailure => "StopFailure",
            HookEvent::PermissionDenied => "PermissionDenied",
            HookEvent::PostCompact => "PostCompact",
            HookEvent::InstructionsLoaded => "InstructionsLoaded",
            HookEvent::PostToolBatch => "PostToolBatch",
            HookEvent::UserPromptExpansion => "UserPromptExpansion",
        }
    }

    /// The event with this exact (case-sensitive) name.
    pub fn parse(name: &str) -> Option<HookEvent> {
        HookEvent::ALL
            .into_iter()
            .find(|event| event.as_str() == name)
    }

    /// What a hook's matcher is compared with on this event.
    pub fn matcher_target(self) -> MatcherTarget {
        match self {
            HookEvent::PreToolUse
            | HookEvent::PermissionRequest
            | HookEvent::PostToolUse
            | HookEvent::PostToolUseFailure
            | HookEvent::PermissionDenied => MatcherTarget::ToolName,
            HookEvent::SessionStart => MatcherTarget::Source,
            HookEvent::SessionEnd => MatcherTarget::Reason,
            HookEvent::PreCompact | HookEvent::PostCompact => MatcherTarget::Trigger,
            HookEvent::InstructionsLoaded => MatcherTarget::LoadReason,
            HookEvent::UserPromptExpansion => MatcherTarget::CommandName,
            HookEvent::Notification => MatcherTarget::NotificationType,
            HookEvent::SubagentStart | HookEvent::SubagentStop => MatcherTarget::AgentType,
            HookEvent::UserPromptSubmit
            | HookEvent::Stop
            | HookEvent::StopFailure
            | HookEvent::PostToolBatch => MatcherTarget::None,
        }
    }

    /// Gates fail closed: a gate whose check could not complete blocks; the
    /// other events report the failure and go on (docs/hooks.md "When a hook cannot do its job").
    pub fn default_failure_policy(self) -> FailurePolicy {
        match self {
            HookEvent::UserPromptSubmit
            | HookEvent::UserPromptExpansion
            | HookEvent::PreToolUse
            | HookEvent::PermissionRequest
            | HookEvent::Stop
            | HookEvent::SubagentStop => FailurePolicy::Block,
            HookEvent::SessionStart
            | HookEvent::SubagentStart
            | HookEvent::PostToolUse
            | HookEvent::PostToolUseFailure
            | HookEvent::PreCompact
            | HookEvent::Notification
            | HookEvent::SessionEnd
            | HookEvent::StopFailure
            | HookEvent::PermissionDenied
            | HookEvent::PostCompact
            | HookEvent::InstructionsLoaded
            | HookEvent::PostToolBatch => FailurePolicy::Continue,
        }
    }
}

impl FailurePolicy {
    /// The settings spelling: `block` or `continue`.
    pub fn as_str(self) -> &'static str {
        match self {
            FailurePolicy::Block => "block",
            FailurePolicy::Continue => "continue",
        }
    }
}

impl fmt::Display for HookEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Display for FailurePolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_parses_back_from_its_name() {
        for event in HookEvent::ALL {
            assert_eq!(HookEvent::parse(event.as_str()), Some(event));
        }
    }

    #[test]
    fn event_names_are_case_sensitive() {
        assert_eq!(HookEvent::parse("pretooluse"), None);
    }

    #[test]
    fn gates_default_to_block_and_observers_to_continue() {
        let blocking: Vec<HookEvent> = HookEvent::ALL
            .into_iter()
            .filter(|event| event.default_failure_policy() == FailurePolicy::Block)
            .collect();
        assert_eq!(
            blocking,
            vec![
                HookEvent::UserPromptSubmit,
                HookEvent::PreToolUse,
                HookEvent::PermissionRequest,
                HookEvent::Stop,
                HookEvent::SubagentStop,
                HookEvent::UserPromptExpansion
            ]
        );
    }
}
