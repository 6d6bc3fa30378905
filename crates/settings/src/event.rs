//! The hook events a settings file may name. AgentHub's own events are
//! `agenthub_protocol::HookEvent`; this module knows the ones Claude Code has
//! and AgentHub never fires.

/// Events Claude Code fires that AgentHub does not: their hooks are ignored
/// with a warning rather than refused, so a Claude Code settings file loads.
pub(crate) const CLAUDE_CODE_ONLY: &[&str] = &[
    "Setup",
    "MessageDisplay",
    "TaskCreated",
    "TaskCompleted",
    "TeammateIdle",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "Elicitation",
    "ElicitationResult",
    "PreModelSwitch",
    "PostModelSwitch",
];

/// Whether Claude Code knows this event although AgentHub never fires it.
pub fn is_claude_code_only(name: &str) -> bool {
    CLAUDE_CODE_ONLY.contains(&name)
}
