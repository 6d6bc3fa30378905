//! UserPromptSubmit: the user's prompt, before the first model request. Hooks
//! may add context (also as plain stdout), block the prompt or end the run; a
//! hook's `stop_run` (Claude Code's `continue: false`) wins over everything
//! else it said. The prompt fold is shared with UserPromptExpansion.

use super::*;
use crate::command::decision::Decision;
use crate::command::interpret::context_text;
use crate::command::wire::{read, Fields, Output, Said};
use crate::command::{RawRun, ReadAs};
use crate::engine::{push_context, run_chain, EventFold, Flow, Observed, Trail};
use crate::{HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::{HookDecision, HookOutcomeKind};
use serde::{Deserialize, Serialize};

/// What a UserPromptSubmit hook sees: the user's prompt, before the first
/// model request.
#[derive(Debug, Clone)]
pub struct UserPromptSubmitContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The prompt as the user gave it; hooks can add context or block it,
    /// never rewrite it.
    pub prompt: String,
}

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

/// What the UserPromptSubmit hooks decided together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UserPromptSubmitVerdict {
    /// The prompt goes to the model.
    Proceed {
        /// The hooks' additional context, in order, written after the prompt.
        context: Vec<String>,
    },
    /// A hook blocked the prompt: the run ends as `blocked`.
    Blocked {
        /// The blocking hook's reason.
        reason: String,
        /// The hooks' additional context, in order.
        context: Vec<String>,
    },
    /// A hook ended the run (`continue: false`) before any model request.
    Stopped {
        /// The hook's stop reason.
        reason: String,
        /// The hooks' additional context, in order.
        context: Vec<String>,
    },
    /// A hook failed under a `Block` policy: the run fails before any model request.
    Failed {
        /// Which hook and why it failed.
        message: String,
    },
}

impl HookRegistry {
    /// Runs the UserPromptSubmit hooks; stops at the first block or stop.
    pub async fn run_user_prompt_submit(
        &self,
        context: UserPromptSubmitContext,
    ) -> HookRun<UserPromptSubmitVerdict> {
        run_chain(
            &self.user_prompt_submit,
            PromptFold::<UserPromptSubmit>::new(context),
        )
        .await
    }
}

/// An event whose hooks answer about a prompt about to be sent, with
/// UserPromptSubmit's result and verdict: UserPromptSubmit itself, and
/// UserPromptExpansion for a command.
pub(crate) trait PromptEvent:
    EventSpec<Result = UserPromptSubmitResult, Verdict = UserPromptSubmitVerdict>
{
    /// The reason when a hook blocks without giving one.
    const BLOCKED: &'static str;
}

impl PromptEvent for UserPromptSubmit {
    const BLOCKED: &'static str = "the prompt was blocked by a UserPromptSubmit hook";
}

/// The fold of a prompt event: context kept in order, the first block or
/// stop ends the chain.
pub(crate) struct PromptFold<E: PromptEvent> {
    context: E::Context,
    collected: Vec<String>,
}

impl<E: PromptEvent> PromptFold<E> {
    pub(crate) fn new(context: E::Context) -> Self {
        PromptFold {
            context,
            collected: Vec::new(),
        }
    }
}

impl<E: PromptEvent> EventFold for PromptFold<E> {
    type Event = E;

    fn context(&self) -> E::Context {
        self.context.clone()
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: UserPromptSubmitResult,
    ) -> Flow<UserPromptSubmitVerdict> {
        prompt_step(&mut self.collected, trail, observed, result, E::BLOCKED)
    }

    fn failed_closed(&mut self, message: String, _error: &HookError) -> UserPromptSubmitVerdict {
        UserPromptSubmitVerdict::Failed { message }
    }

    fn finish(self) -> UserPromptSubmitVerdict {
        UserPromptSubmitVerdict::Proceed {
            context: self.collected,
        }
    }
}

/// One hook's answer about a prompt about to be sent (UserPromptSubmit, and
/// UserPromptExpansion for a command): its context is kept; a stop or a block
/// ends the chain with the context so far; `blocked` is the reason when the
/// hook gives none.
fn prompt_step(
    collected: &mut Vec<String>,
    trail: &mut Trail,
    observed: Observed,
    result: UserPromptSubmitResult,
    blocked: &str,
) -> Flow<UserPromptSubmitVerdict> {
    push_context(collected, result.additional_context);
    trail.message(&observed, result.system_message);
    if let Some(reason) = result.stop_run {
        let reason = trail.stopped(observed, reason);
        let context = std::mem::take(collected);
        return Flow::Done(UserPromptSubmitVerdict::Stopped { reason, context });
    }
    if let Some(reason) = result.block {
        let reason = trail.decided(
            observed,
            HookOutcomeKind::Blocked,
            HookDecision::Block,
            reason,
            blocked,
        );
        let context = std::mem::take(collected);
        return Flow::Done(UserPromptSubmitVerdict::Blocked { reason, context });
    }
    trail.applied(observed, None);
    Flow::Next
}

/// UserPromptSubmit's stdin: the common fields and `prompt`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UserPromptSubmitInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// The user's prompt.
    pub prompt: String,
}

/// UserPromptSubmit's stdin for this firing.
pub fn input(context: &UserPromptSubmitContext) -> UserPromptSubmitInput {
    UserPromptSubmitInput {
        common: CommonInput::of(&context.common, "UserPromptSubmit"),
        prompt: context.prompt.clone(),
    }
}

pub(crate) fn read_output(
    run: &RawRun,
    as_: ReadAs<'_>,
) -> Result<UserPromptSubmitResult, HookError> {
    let from_json = |fields: Fields| -> Result<UserPromptSubmitResult, HookError> {
        let block = (fields.decision == Some(Decision::Block)).then(|| {
            fields
                .reason
                .clone()
                .filter(|reason| !reason.trim().is_empty())
                .unwrap_or_else(|| as_.default_reason())
        });
        Ok(UserPromptSubmitResult {
            additional_context: fields.specific_string("additionalContext")?,
            block,
            stop_run: fields.stop,
            system_message: fields.system_message,
        })
    };
    match read(run, as_)? {
        Said::Output(Output::Text(text)) => Ok(UserPromptSubmitResult {
            additional_context: context_text(text),
            ..UserPromptSubmitResult::default()
        }),
        Said::Output(Output::Warning(text)) => Ok(UserPromptSubmitResult {
            system_message: Some(text),
            ..UserPromptSubmitResult::default()
        }),
        Said::Output(Output::Json(fields)) => from_json(fields),
        Said::Blocking { reason, json } => {
            let base = json.map(from_json).and_then(Result::ok).unwrap_or_default();
            Ok(UserPromptSubmitResult {
                block: Some(reason),
                ..base
            })
        }
    }
}

/// UserPromptSubmit: the user's prompt, before the first model request; hooks may add context or block it.
pub struct UserPromptSubmit;

impl EventSpec for UserPromptSubmit {
    const EVENT: HookEvent = HookEvent::UserPromptSubmit;
    const WIRE: WireContract = WireContract {
        accepted_unused: &["sessionTitle", "suppressOriginalPrompt"],
        ..WireContract::BLOCK_WITH_CONTEXT
    };
    type Context = UserPromptSubmitContext;
    type Result = UserPromptSubmitResult;
    type Verdict = UserPromptSubmitVerdict;
    type Input = UserPromptSubmitInput;

    fn common(context: &UserPromptSubmitContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &UserPromptSubmitContext) -> UserPromptSubmitInput {
        input(context)
    }

    fn sample(
        input: UserPromptSubmitInput,
        env: &SampleEnv<'_>,
    ) -> Result<UserPromptSubmitContext, SampleError> {
        Ok(UserPromptSubmitContext {
            common: env.common(input.common),
            prompt: input.prompt,
        })
    }

    async fn try_run(
        registry: &HookRegistry,
        context: UserPromptSubmitContext,
    ) -> HookRun<UserPromptSubmitVerdict> {
        registry.run_user_prompt_submit(context).await
    }

    fn explain(verdict: UserPromptSubmitVerdict) -> Vec<String> {
        explain_prompt(verdict)
    }

    fn subject(_: &UserPromptSubmitContext) -> MatcherSubject<'_> {
        MatcherSubject::Everything
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &UserPromptSubmitContext,
    ) -> Result<UserPromptSubmitResult, HookError> {
        read_output(run, as_)
    }
}

/// What a prompt's verdict would mean for a run, in words.
pub(crate) fn explain_prompt(verdict: UserPromptSubmitVerdict) -> Vec<String> {
    match verdict {
        UserPromptSubmitVerdict::Proceed { context } => {
            sample::with_contexts("the prompt goes to the model", &context)
        }
        UserPromptSubmitVerdict::Blocked { reason, context } => {
            sample::with_contexts(&format!("the prompt is blocked: {reason}"), &context)
        }
        UserPromptSubmitVerdict::Stopped { reason, context } => {
            sample::with_contexts(&format!("the run would stop: {reason}"), &context)
        }
        UserPromptSubmitVerdict::Failed { message } => {
            vec![format!("the run would fail: {message}")]
        }
    }
}
