//! Event results: each has exactly the fields its event may set (contract §3), so an
//! illegal combination — a PostToolUse hook returning `updated_input` — does not compile.

use agenthub_protocol::PermissionEffect;
use agenthub_tools::PreparedCall;

/// What a SessionStart hook may say. `Default` says nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionStartResult {
    /// Text for the model, added as a system message before the prompt.
    pub additional_context: Option<String>,
    /// Ends the run (outcome `stopped`) with this reason, before the prompt is handled.
    pub stop_run: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

/// What a SubagentStart hook may say. `Default` lets the subagent start as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SubagentStartResult {
    /// Text for the subagent's model, added as a system message before its prompt.
    pub additional_context: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

/// What a SubagentStop hook may say: Stop's fields, with the same rules
/// (one forced continuation, a non-empty reason).
pub type SubagentStopResult = StopResult;

/// What a UserPromptSubmit hook may say. `Default` lets the prompt through.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct UserPromptSubmitResult {
    /// Text for the model, added as a system message after the prompt.
    pub additional_context: Option<String>,
    /// Blocks the prompt; the run ends as `blocked` before any model request.
    pub block: Option<String>,
    /// Ends the run (outcome `stopped`) with this reason; wins over `block`.
    pub stop_run: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

/// What a PreToolUse hook may say about one call. `Default` lets the call
/// go on to permission unchanged.
#[derive(Debug, Clone, Default)]
pub struct PreToolUseResult {
    /// A suggestion to the permission policy, never an authorisation.
    pub permission_decision: Option<PermissionEffect>,
    /// Why the hook suggests it; shown in the permission audit and, for a
    /// deny, to the model.
    pub permission_reason: Option<String>,
    /// The whole call with a new input: build it with `ctx.call.with_input(..)`.
    pub updated_input: Option<PreparedCall>,
    /// Blocks the call; a blank reason still blocks.
    pub block: Option<String>,
    /// Text for the model, added as a system message after this round's
    /// tool results.
    pub additional_context: Option<String>,
    /// Ends the run (outcome `stopped`) with this reason: the call is not run
    /// (`Error [hook_stopped_continuation]`), nor any later call. Wins over every
    /// other field.
    pub stop_run: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

/// What a PostToolUse hook may say about a result. `Default` keeps it as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PostToolUseResult {
    /// Replaces the result text that enters history (later hooks see it).
    pub updated_output: Option<String>,
    /// Ends the run after this tool round, with this stop reason.
    pub prevent_continuation: Option<String>,
    /// Text for the model, added as a system message after this round's
    /// tool results.
    pub additional_context: Option<String>,
    /// Shown to the model next to the tool result (the tool has run).
    pub feedback: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

/// What a Stop hook may say about a candidate answer. `Default` lets it stand.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StopResult {
    /// Asks the model once more, with this reason as a user message. Must not be blank.
    pub force_continue: Option<String>,
    /// Text for the model, added as a system message.
    pub additional_context: Option<String>,
    /// Ends the run (outcome `stopped`) with this reason; wins over `force_continue`.
    pub stop_run: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

/// What a PreCompact hook may say. `Default` lets the compaction happen.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PreCompactResult {
    /// Cancels a manual compaction with this reason; an automatic one goes
    /// on (the reason is shown to the user).
    pub block: Option<String>,
    /// A warning shown to the user, never to the model.
    pub system_message: Option<String>,
}

impl PreCompactResult {
    /// Cancels a manual compaction with `reason`.
    pub fn block(reason: impl Into<String>) -> Self {
        PreCompactResult {
            block: Some(reason.into()),
            ..Self::default()
        }
    }
}

/// A Notification hook can only tell the user something.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NotificationResult {
    /// A warning shown to the user.
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
    /// Lets the call run, without prompting anyone.
    Allow,
    /// Refuses the call (`Error [permission_denied]`), without prompting anyone.
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
    /// Lets the prompt through and adds `text` for the model.
    pub fn context(text: impl Into<String>) -> Self {
        UserPromptSubmitResult {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }

    /// Refuses the prompt: the run ends as `blocked` with `reason`.
    pub fn block(reason: impl Into<String>) -> Self {
        UserPromptSubmitResult {
            block: Some(reason.into()),
            ..Self::default()
        }
    }
}

impl PreToolUseResult {
    /// Blocks the call: neither permission nor the handler runs, and the model
    /// reads `Error [hook_blocked]: <reason>`.
    pub fn block(reason: impl Into<String>) -> Self {
        PreToolUseResult {
            block: Some(reason.into()),
            ..Self::default()
        }
    }

    /// Suggests a permission effect to the policy (which may overrule it:
    /// a hook's allow never beats a deny or ask rule, or the workspace boundary).
    pub fn suggest(effect: PermissionEffect, reason: impl Into<String>) -> Self {
        PreToolUseResult {
            permission_decision: Some(effect),
            permission_reason: Some(reason.into()),
            ..Self::default()
        }
    }

    /// Replaces the call's input: pass `ctx.call.with_input(new_input)`. The
    /// rewrite must keep the call's id, tool and definition and pass the
    /// schema again, or the call fails with `hook_contract_error`.
    ///
    /// ```
    /// use agenthub_hooks::{HookCommon, HookRegistry, PreToolUseResult, PreToolUseVerdict};
    /// use agenthub_protocol::ToolCall;
    /// use agenthub_tools::ToolRegistry;
    /// use serde_json::json;
    ///
    /// // Every Echo call says "[checked] …" instead.
    /// let hooks = HookRegistry::new().pre_tool_use("tag", |ctx| async move {
    ///     let text = ctx.call.input()["text"].as_str().unwrap_or_default();
    ///     let tagged = json!({ "text": format!("[checked] {text}") });
    ///     Ok(PreToolUseResult::rewrite(ctx.call.with_input(tagged)))
    /// });
    ///
    /// let tools = ToolRegistry::with_builtins()?;
    /// let call = tools.prepare(&ToolCall::new("call_1", "Echo", r#"{"text": "hi"}"#))?;
    /// let common = HookCommon {
    ///     session_id: "session".to_owned(),
    ///     workspace: std::env::temp_dir(),
    ///     transcript_path: None,
    ///     permission_mode: "default".to_owned(),
    ///     cancel: Default::default(),
    ///     agent: None,
    /// };
    /// let run = tokio::runtime::Runtime::new()?.block_on(hooks.run_pre_tool_use(common, call));
    /// match run.verdict {
    ///     PreToolUseVerdict::Proceed { call, .. } => {
    ///         assert_eq!(call.input(), &json!({ "text": "[checked] hi" }))
    ///     }
    ///     other => panic!("the rewrite was refused: {other:?}"),
    /// }
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn rewrite(call: PreparedCall) -> Self {
        PreToolUseResult {
            updated_input: Some(call),
            ..Self::default()
        }
    }

    /// Lets the call go on and adds `text` for the model.
    pub fn context(text: impl Into<String>) -> Self {
        PreToolUseResult {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }
}

impl PostToolUseResult {
    /// Replaces the result the model will read.
    pub fn replace_output(output: impl Into<String>) -> Self {
        PostToolUseResult {
            updated_output: Some(output.into()),
            ..Self::default()
        }
    }

    /// Ends the run after this round (outcome `stopped`, with `reason`); the
    /// round's remaining calls are not run.
    pub fn prevent_continuation(reason: impl Into<String>) -> Self {
        PostToolUseResult {
            prevent_continuation: Some(reason.into()),
            ..Self::default()
        }
    }

    /// Keeps the result and adds `text` for the model.
    pub fn context(text: impl Into<String>) -> Self {
        PostToolUseResult {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }
}

impl StopResult {
    /// Refuses the answer: the model is asked once more with `reason` (which
    /// must not be blank). At most one forced continuation per run.
    pub fn force_continue(reason: impl Into<String>) -> Self {
        StopResult {
            force_continue: Some(reason.into()),
            ..Self::default()
        }
    }

    /// Lets the answer stand and adds `text` for the model.
    pub fn context(text: impl Into<String>) -> Self {
        StopResult {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }
}

impl SessionStartResult {
    /// Adds `text` for the model before the prompt.
    pub fn context(text: impl Into<String>) -> Self {
        SessionStartResult {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }
}

impl PermissionRequestResult {
    /// Answers the ask with allow, unless a later hook denies.
    pub fn allow() -> Self {
        PermissionRequestResult {
            behavior: Some(PermissionBehavior::Allow),
            ..Self::default()
        }
    }

    /// Answers the ask with deny; `message` tells the model why. No later
    /// hook runs and no one is prompted.
    pub fn deny(message: impl Into<String>) -> Self {
        PermissionRequestResult {
            behavior: Some(PermissionBehavior::Deny),
            message: Some(message.into()),
            ..Self::default()
        }
    }
}
