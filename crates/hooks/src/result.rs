//! Event results: each has exactly the fields its event may set (SPEC §3), so an
//! illegal combination — a PostToolUse hook returning `updated_input` — does not compile.

use agenthub_protocol::PermissionEffect;
use agenthub_tools::PreparedCall;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionStartResult {
    pub additional_context: Option<String>,
    /// Ends the run (outcome `stopped`) with this reason, before the prompt is handled.
    pub stop_run: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserPromptSubmitResult {
    pub additional_context: Option<String>,
    /// Blocks the prompt; the run ends as `blocked` before any model request.
    pub block: Option<String>,
    /// Ends the run (outcome `stopped`) with this reason; wins over `block`.
    pub stop_run: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

#[derive(Debug, Clone, Default)]
pub struct PreToolUseResult {
    /// A suggestion to the permission policy, never an authorisation.
    pub permission_decision: Option<PermissionEffect>,
    pub permission_reason: Option<String>,
    /// The whole call with a new input: build it with `ctx.call.with_input(..)`.
    pub updated_input: Option<PreparedCall>,
    /// Blocks the call; a blank reason still blocks.
    pub block: Option<String>,
    pub additional_context: Option<String>,
    /// Ends the run (outcome `stopped`) with this reason: the call is not run
    /// (`Error [hook_stopped_continuation]`), nor any later call. Wins over every
    /// other field.
    pub stop_run: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PostToolUseResult {
    pub updated_output: Option<String>,
    /// Ends the run after this tool round, with this stop reason.
    pub prevent_continuation: Option<String>,
    pub additional_context: Option<String>,
    /// Shown to the model next to the tool result (the tool has run).
    pub feedback: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StopResult {
    /// Asks the model once more, with this reason as a user message. Must not be blank.
    pub force_continue: Option<String>,
    pub additional_context: Option<String>,
    /// Ends the run (outcome `stopped`) with this reason; wins over `force_continue`.
    pub stop_run: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

/// A SessionEnd hook can only tell the user something.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionEndResult {
    /// A warning shown to the user.
    pub system_message: Option<String>,
}

/// How a PermissionRequest hook answers an `ask`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PermissionBehavior {
    Allow,
    Deny,
}

/// A PermissionRequest hook's answer to an `ask`, given before anyone is prompted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PermissionRequestResult {
    /// `None` leaves the ask to the next hook, then to the approver.
    pub behavior: Option<PermissionBehavior>,
    /// For a deny: why, told to the model.
    pub message: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

impl UserPromptSubmitResult {
    pub fn context(text: impl Into<String>) -> Self {
        UserPromptSubmitResult {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }

    pub fn block(reason: impl Into<String>) -> Self {
        UserPromptSubmitResult {
            block: Some(reason.into()),
            ..Self::default()
        }
    }
}

impl PreToolUseResult {
    pub fn block(reason: impl Into<String>) -> Self {
        PreToolUseResult {
            block: Some(reason.into()),
            ..Self::default()
        }
    }

    pub fn suggest(effect: PermissionEffect, reason: impl Into<String>) -> Self {
        PreToolUseResult {
            permission_decision: Some(effect),
            permission_reason: Some(reason.into()),
            ..Self::default()
        }
    }

    pub fn rewrite(call: PreparedCall) -> Self {
        PreToolUseResult {
            updated_input: Some(call),
            ..Self::default()
        }
    }

    pub fn context(text: impl Into<String>) -> Self {
        PreToolUseResult {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }
}

impl PostToolUseResult {
    pub fn replace_output(output: impl Into<String>) -> Self {
        PostToolUseResult {
            updated_output: Some(output.into()),
            ..Self::default()
        }
    }

    pub fn prevent_continuation(reason: impl Into<String>) -> Self {
        PostToolUseResult {
            prevent_continuation: Some(reason.into()),
            ..Self::default()
        }
    }

    pub fn context(text: impl Into<String>) -> Self {
        PostToolUseResult {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }
}

impl StopResult {
    pub fn force_continue(reason: impl Into<String>) -> Self {
        StopResult {
            force_continue: Some(reason.into()),
            ..Self::default()
        }
    }

    pub fn context(text: impl Into<String>) -> Self {
        StopResult {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }
}

impl SessionStartResult {
    pub fn context(text: impl Into<String>) -> Self {
        SessionStartResult {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }
}

impl PermissionRequestResult {
    pub fn allow() -> Self {
        PermissionRequestResult {
            behavior: Some(PermissionBehavior::Allow),
            ..Self::default()
        }
    }

    pub fn deny(message: impl Into<String>) -> Self {
        PermissionRequestResult {
            behavior: Some(PermissionBehavior::Deny),
            message: Some(message.into()),
            ..Self::default()
        }
    }
}
