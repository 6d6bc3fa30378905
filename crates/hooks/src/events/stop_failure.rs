//! StopFailure (contract §21): the run ends on a model or provider error. Its
//! hooks only observe; it has no matcher.

use super::*;
use crate::command::interpret::observed;
use crate::command::{RawRun, ReadAs};
use crate::engine::{ObservedResult, Observing};
use crate::{HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use serde::{Deserialize, Serialize};

/// What a StopFailure hook sees: the run ends on a model or provider error.
#[derive(Debug, Clone)]
pub struct StopFailureContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The error, as the run's outcome says it.
    pub error: String,
}

impl HookRegistry {
    /// Runs the StopFailure observers; their failures are only recorded.
    pub async fn run_stop_failure(&self, context: StopFailureContext) -> HookRun<()> {
        self.run_observers::<StopFailure>(context).await
    }
}

/// StopFailure's stdin: the common fields and `error`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StopFailureInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// The error, as the run's outcome says it.
    #[serde(default = "sample_error")]
    pub error: String,
}

fn sample_error() -> String {
    "model request failed: hooks test".to_owned()
}

/// StopFailure's stdin for this firing.
pub fn input(context: &StopFailureContext) -> StopFailureInput {
    StopFailureInput {
        common: CommonInput::of(&context.common, "StopFailure"),
        error: context.error.clone(),
    }
}

/// StopFailure: the run ends on a model or provider error; hooks observe.
pub struct StopFailure;

impl EventSpec for StopFailure {
    const EVENT: HookEvent = HookEvent::StopFailure;
    type Context = StopFailureContext;
    type Result = ObservedResult;
    type Verdict = ();
    type Input = StopFailureInput;

    fn common(context: &StopFailureContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &StopFailureContext) -> StopFailureInput {
        input(context)
    }

    fn sample(
        input: StopFailureInput,
        env: &SampleEnv<'_>,
    ) -> Result<StopFailureContext, SampleError> {
        Ok(StopFailureContext {
            common: env.common(input.common),
            error: input.error,
        })
    }

    async fn try_run(registry: &HookRegistry, context: StopFailureContext) -> HookRun<()> {
        registry.run_stop_failure(context).await
    }

    fn subject(_: &StopFailureContext) -> MatcherSubject<'_> {
        MatcherSubject::Everything
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &StopFailureContext,
    ) -> Result<ObservedResult, HookError> {
        observed(run, as_)
    }
}

impl Observing for StopFailure {
    fn message(result: ObservedResult) -> Option<String> {
        result.system_message
    }
}
