//! SessionEnd: the run is over. Its hooks only observe (clean up, log, notify);
//! matchers see how it ended and Claude Code's reason for it.

use super::*;
use crate::command::interpret::observed;
use crate::command::{RawRun, ReadAs};
use crate::engine::Observing;
use crate::{HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::RunStatus;
use serde::{Deserialize, Serialize};

/// What a SessionEnd hook sees: the run is over; hooks can only observe
/// (clean up, log, notify).
#[derive(Debug, Clone)]
pub struct SessionEndContext {
    /// What every event carries.
    pub common: HookCommon,
    /// How the run ended.
    pub reason: RunStatus,
    /// Why the session ends, in Claude Code's words (the payload's `reason`).
    pub exit: SessionEndReason,
}

/// Why a session ends (SessionEnd's `reason`; a SessionEnd matcher sees it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SessionEndReason {
    /// `/clear`: the person started a new session.
    Clear,
    /// `/resume`: the person switched to an earlier session.
    Resume,
    /// The person logged out (Claude Code's `/logout`; AgentHub has no
    /// login, so only embedding applications use it).
    Logout,
    /// The person left the interactive session (`/exit`, Ctrl-D).
    PromptInputExit,
    /// Anything else: a headless run that ended on its own.
    #[default]
    Other,
}

impl SessionEndReason {
    /// Every reason, in Claude Code's order.
    pub const ALL: [SessionEndReason; 5] = [
        SessionEndReason::Clear,
        SessionEndReason::Resume,
        SessionEndReason::Logout,
        SessionEndReason::PromptInputExit,
        SessionEndReason::Other,
    ];

    /// The protocol's name: `clear`, `resume`, `logout`,
    /// `prompt_input_exit` or `other`.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionEndReason::Clear => "clear",
            SessionEndReason::Resume => "resume",
            SessionEndReason::Logout => "logout",
            SessionEndReason::PromptInputExit => "prompt_input_exit",
            SessionEndReason::Other => "other",
        }
    }
}

/// A SessionEnd hook can only tell the user something.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionEndResult {
    /// A warning shown to the user.
    pub system_message: Option<String>,
}

impl HookRegistry {
    /// Runs the SessionEnd observers; their failures are only recorded.
    pub async fn run_session_end(&self, context: SessionEndContext) -> HookRun<()> {
        self.run_observers::<SessionEnd>(context).await
    }
}

/// SessionEnd's stdin: the common fields, `reason` in Claude Code's values
/// (`clear`, `resume`, `logout`, `prompt_input_exit`, `other`) and `agenthub_outcome`, the
/// outcome of the session's last run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionEndInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// Claude Code's reason (`clear`, `resume`, `logout`, `prompt_input_exit`, `other`).
    #[serde(default = "other")]
    pub reason: String,
    /// The run's status (`completed`, `failed`, …).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agenthub_outcome: Option<String>,
}

fn other() -> String {
    "other".to_owned()
}

/// SessionEnd's stdin for this firing.
pub fn input(context: &SessionEndContext) -> SessionEndInput {
    SessionEndInput {
        common: CommonInput::of(&context.common, "SessionEnd"),
        reason: context.exit.as_str().to_owned(),
        agenthub_outcome: Some(context.reason.as_str().to_owned()),
    }
}

/// SessionEnd: the run is over; hooks observe.
pub struct SessionEnd;

impl EventSpec for SessionEnd {
    const EVENT: HookEvent = HookEvent::SessionEnd;
    type Context = SessionEndContext;
    type Result = SessionEndResult;
    type Verdict = ();
    type Input = SessionEndInput;

    fn common(context: &SessionEndContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &SessionEndContext) -> SessionEndInput {
        input(context)
    }

    fn sample(
        input: SessionEndInput,
        env: &SampleEnv<'_>,
    ) -> Result<SessionEndContext, SampleError> {
        // An older sample's `reason` that names a run status is read as that status.
        let exit = SessionEndReason::ALL
            .into_iter()
            .find(|exit| exit.as_str() == input.reason);
        let (reason, exit) = match exit {
            Some(exit) => (
                status("agenthub_outcome", input.agenthub_outcome.as_deref())?,
                exit,
            ),
            None => (
                status("reason", Some(&input.reason))?,
                SessionEndReason::Other,
            ),
        };
        Ok(SessionEndContext {
            common: env.common(input.common),
            reason,
            exit,
        })
    }

    async fn try_run(registry: &HookRegistry, context: SessionEndContext) -> HookRun<()> {
        registry.run_session_end(context).await
    }

    fn subject(context: &SessionEndContext) -> MatcherSubject<'_> {
        MatcherSubject::EitherValue(context.exit.as_str(), context.reason.as_str())
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &SessionEndContext,
    ) -> Result<SessionEndResult, HookError> {
        observed(run, as_).map(|result| SessionEndResult {
            system_message: result.system_message,
        })
    }
}

impl Observing for SessionEnd {
    fn message(result: SessionEndResult) -> Option<String> {
        result.system_message
    }
}

/// A run status named in a sample's `field` (`completed` when absent).
fn status(field: &'static str, text: Option<&str>) -> Result<RunStatus, SampleError> {
    let text = text.unwrap_or("completed");
    [
        RunStatus::Completed,
        RunStatus::Stopped,
        RunStatus::Blocked,
        RunStatus::Failed,
        RunStatus::MaxTurns,
        RunStatus::Cancelled,
    ]
    .into_iter()
    .find(|status| status.as_str() == text)
    .ok_or(SampleError::Field {
        field,
        expected: "completed, stopped, blocked, failed, max_turns or cancelled",
    })
}
