//! SessionStart: the session is about to begin, nothing has been asked yet.
//! Hooks may add context (also as plain stdout) or end the run; a hook's
//! `stop_run` (Claude Code's `continue: false`) wins over everything else it
//! said. Matchers see the source (`startup`, `resume`, …).

use super::*;
use crate::command::interpret::{context_text, joined};
use crate::command::wire::{read, Fields, Output, Said};
use crate::command::{RawRun, ReadAs};
use crate::engine::{push_context, run_chain, EventFold, Flow, Observed, Trail};
use crate::{HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use serde::{Deserialize, Serialize};

/// Why a session starts; SessionStart hooks (and their matchers) tell a fresh
/// session from a resumed one by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SessionSource {
    /// A new session.
    Startup,
    /// A session continued from an earlier one.
    Resume,
    /// A session whose history was just compacted.
    Compact,
}

impl SessionSource {
    /// The protocol's name for it (`startup`, `resume`, `compact`): the `source` field of
    /// a command hook's stdin and what a SessionStart matcher is matched against.
    pub fn as_str(self) -> &'static str {
        match self {
            SessionSource::Startup => "startup",
            SessionSource::Resume => "resume",
            SessionSource::Compact => "compact",
        }
    }
}

/// What a SessionStart hook sees: the session is about to begin, nothing has
/// been asked yet.
#[derive(Debug, Clone)]
pub struct SessionStartContext {
    /// What every event carries.
    pub common: HookCommon,
    /// Whether the session is new or resumed.
    pub source: SessionSource,
    /// The model the run talks to, when the embedding application named it.
    pub model: Option<String>,
}

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

impl SessionStartResult {
    /// Adds `text` for the model before the prompt.
    pub fn context(text: impl Into<String>) -> Self {
        SessionStartResult {
            additional_context: Some(text.into()),
            ..Self::default()
        }
    }
}

/// What the SessionStart hooks decided together.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SessionStartVerdict {
    /// The hooks' additional context, in order, written before the prompt.
    pub context: Vec<String>,
    /// A hook that failed under a `Block` policy: the run fails.
    pub failure: Option<String>,
    /// A hook ended the run (`continue: false`), with this reason.
    pub stop: Option<String>,
}

impl HookRegistry {
    /// Runs the SessionStart hooks that match the session's source.
    pub async fn run_session_start(
        &self,
        context: SessionStartContext,
    ) -> HookRun<SessionStartVerdict> {
        let fold = SessionStartFold {
            context,
            verdict: SessionStartVerdict::default(),
        };
        run_chain(&self.session_start, fold).await
    }
}

struct SessionStartFold {
    context: SessionStartContext,
    verdict: SessionStartVerdict,
}

impl EventFold for SessionStartFold {
    type Event = SessionStart;

    fn context(&self) -> SessionStartContext {
        self.context.clone()
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: SessionStartResult,
    ) -> Flow<SessionStartVerdict> {
        trail.message(&observed, result.system_message);
        push_context(&mut self.verdict.context, result.additional_context);
        match result.stop_run {
            Some(reason) => {
                self.verdict.stop = Some(trail.stopped(observed, reason));
                Flow::Done(std::mem::take(&mut self.verdict))
            }
            None => {
                trail.applied(observed, None);
                Flow::Next
            }
        }
    }

    fn failed_closed(&mut self, message: String, _error: &HookError) -> SessionStartVerdict {
        self.verdict.failure = Some(message);
        std::mem::take(&mut self.verdict)
    }

    fn finish(self) -> SessionStartVerdict {
        self.verdict
    }
}

/// SessionStart's stdin: the common fields, `source` and, when known, `model`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionStartInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// `startup`, `resume` or `compact`.
    #[serde(default = "startup")]
    pub source: String,
    /// The model the session starts with, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
}

fn startup() -> String {
    "startup".to_owned()
}

/// SessionStart's stdin for this firing.
pub fn input(context: &SessionStartContext) -> SessionStartInput {
    SessionStartInput {
        common: CommonInput::of(&context.common, "SessionStart"),
        source: context.source.as_str().to_owned(),
        model: context.model.clone(),
    }
}

pub(crate) fn read_output(run: &RawRun, as_: ReadAs<'_>) -> Result<SessionStartResult, HookError> {
    let from_json = |fields: Fields| -> Result<SessionStartResult, HookError> {
        Ok(SessionStartResult {
            additional_context: fields.specific_string("additionalContext")?,
            stop_run: fields.stop,
            system_message: fields.system_message,
        })
    };
    match read(run, as_)? {
        Said::Output(Output::Text(text)) => Ok(SessionStartResult {
            additional_context: context_text(text),
            ..SessionStartResult::default()
        }),
        Said::Output(Output::Warning(text)) => Ok(SessionStartResult {
            system_message: Some(text),
            ..SessionStartResult::default()
        }),
        Said::Output(Output::Json(fields)) => from_json(fields),
        Said::Blocking { reason, json } => {
            let base = json.map(from_json).and_then(Result::ok).unwrap_or_default();
            Ok(SessionStartResult {
                system_message: joined(base.system_message.clone(), reason),
                ..base
            })
        }
    }
}

/// SessionStart: the session is about to begin; hooks may add context before the prompt.
pub struct SessionStart;

impl EventSpec for SessionStart {
    const EVENT: HookEvent = HookEvent::SessionStart;
    const WIRE: WireContract = WireContract {
        accepted_unused: &[
            "initialUserMessage",
            "sessionTitle",
            "watchPaths",
            "reloadSkills",
        ],
        ..WireContract::CONTEXT
    };
    type Context = SessionStartContext;
    type Result = SessionStartResult;
    type Verdict = SessionStartVerdict;
    type Input = SessionStartInput;

    fn common(context: &SessionStartContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &SessionStartContext) -> SessionStartInput {
        input(context)
    }

    fn sample(
        input: SessionStartInput,
        env: &SampleEnv<'_>,
    ) -> Result<SessionStartContext, SampleError> {
        let source = match input.source.as_str() {
            "startup" => SessionSource::Startup,
            "resume" => SessionSource::Resume,
            "compact" => SessionSource::Compact,
            _ => {
                return Err(SampleError::Field {
                    field: "source",
                    expected: "\"startup\", \"resume\" or \"compact\"",
                })
            }
        };
        Ok(SessionStartContext {
            common: env.common(input.common),
            source,
            model: input.model.filter(|model| !model.is_empty()),
        })
    }

    async fn try_run(
        registry: &HookRegistry,
        context: SessionStartContext,
    ) -> HookRun<SessionStartVerdict> {
        registry.run_session_start(context).await
    }

    fn explain(verdict: SessionStartVerdict) -> Vec<String> {
        let mut merged = match (verdict.failure, verdict.stop) {
            (Some(failure), _) => vec![format!("the run would fail: {failure}")],
            (None, Some(reason)) => vec![format!("the run would stop: {reason}")],
            (None, None) => vec!["the run goes on".to_owned()],
        };
        merged.extend(sample::contexts(&verdict.context));
        merged
    }

    fn subject(context: &SessionStartContext) -> MatcherSubject<'_> {
        MatcherSubject::Value(context.source.as_str())
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &SessionStartContext,
    ) -> Result<SessionStartResult, HookError> {
        read_output(run, as_)
    }
}
