//! InstructionsLoaded (contract §21): one memory file was loaded into the
//! system prompt. Its hooks only observe (they may tell the user something);
//! matchers see the load reason (`session_start`, `compact`).

use super::*;
use crate::command::interpret::observed;
use crate::command::{RawRun, ReadAs};
use crate::engine::{ObservedResult, Observing};
use crate::{HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// What an InstructionsLoaded hook sees: one memory file was loaded.
#[derive(Debug, Clone)]
pub struct InstructionsLoadedContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The memory file, absolute.
    pub file_path: PathBuf,
    /// Why it was loaded: `session_start` (or `compact` when a compacted
    /// history is rebuilt), Claude Code's values.
    pub load_reason: String,
}

impl HookRegistry {
    /// Runs the InstructionsLoaded observers; their failures are only recorded.
    pub async fn run_instructions_loaded(&self, context: InstructionsLoadedContext) -> HookRun<()> {
        self.run_observers::<InstructionsLoaded>(context).await
    }
}

/// InstructionsLoaded's stdin: the common fields, `file_path` and `load_reason`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InstructionsLoadedInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// The memory file loaded.
    pub file_path: String,
    /// Why it was loaded (`session_start`, …).
    #[serde(default = "session_start")]
    pub load_reason: String,
}

fn session_start() -> String {
    "session_start".to_owned()
}

/// InstructionsLoaded's stdin for this firing.
pub fn input(context: &InstructionsLoadedContext) -> InstructionsLoadedInput {
    InstructionsLoadedInput {
        common: CommonInput::of(&context.common, "InstructionsLoaded"),
        file_path: context.file_path.display().to_string(),
        load_reason: context.load_reason.clone(),
    }
}

/// InstructionsLoaded: a memory file was loaded into the system prompt; hooks observe.
pub struct InstructionsLoaded;

impl EventSpec for InstructionsLoaded {
    const EVENT: HookEvent = HookEvent::InstructionsLoaded;
    type Context = InstructionsLoadedContext;
    type Result = ObservedResult;
    type Verdict = ();
    type Input = InstructionsLoadedInput;

    fn common(context: &InstructionsLoadedContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &InstructionsLoadedContext) -> InstructionsLoadedInput {
        input(context)
    }

    fn sample(
        input: InstructionsLoadedInput,
        env: &SampleEnv<'_>,
    ) -> Result<InstructionsLoadedContext, SampleError> {
        Ok(InstructionsLoadedContext {
            common: env.common(input.common),
            file_path: input.file_path.into(),
            load_reason: input.load_reason,
        })
    }

    async fn try_run(registry: &HookRegistry, context: InstructionsLoadedContext) -> HookRun<()> {
        registry.run_instructions_loaded(context).await
    }

    fn subject(context: &InstructionsLoadedContext) -> MatcherSubject<'_> {
        MatcherSubject::Value(&context.load_reason)
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &InstructionsLoadedContext,
    ) -> Result<ObservedResult, HookError> {
        observed(run, as_)
    }
}

impl Observing for InstructionsLoaded {
    fn message(result: ObservedResult) -> Option<String> {
        result.system_message
    }
}
