//! PermissionDenied (contract §21): permission refused a call. Its hooks only
//! observe; matchers see the tool's name.

use super::*;
use crate::command::interpret::observed;
use crate::command::{RawRun, ReadAs};
use crate::engine::{ObservedResult, Observing};
use crate::{HookCommon, HookError, HookEvent, HookRegistry, HookRun};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What a PermissionDenied hook sees: permission refused a call.
#[derive(Debug, Clone)]
pub struct PermissionDeniedContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The tool the call asked for.
    pub tool_name: String,
    /// The call's input, as the model gave it (after PreToolUse rewrites).
    pub tool_input: Value,
    /// The call's id.
    pub tool_use_id: String,
    /// Why it was refused, as the model is told.
    pub reason: String,
}

impl HookRegistry {
    /// Runs the PermissionDenied observers; their failures are only recorded.
    pub async fn run_permission_denied(&self, context: PermissionDeniedContext) -> HookRun<()> {
        self.run_observers::<PermissionDenied>(context).await
    }
}

/// PermissionDenied's stdin: the common fields, `tool_name`, `tool_input`,
/// `tool_use_id` and `reason`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PermissionDeniedInput {
    /// The common fields.
    #[serde(flatten)]
    pub common: CommonInput,
    /// The tool the refused call asked for.
    pub tool_name: String,
    /// The call's input.
    #[serde(default = "super::input::empty_input")]
    pub tool_input: Value,
    /// The call's id.
    #[serde(default = "super::input::sample_tool_use_id")]
    pub tool_use_id: String,
    /// Why permission refused it.
    #[serde(default = "super::input::sample_reason")]
    pub reason: String,
}

/// PermissionDenied's stdin for this firing.
pub fn input(context: &PermissionDeniedContext) -> PermissionDeniedInput {
    PermissionDeniedInput {
        common: CommonInput::of(&context.common, "PermissionDenied"),
        tool_name: context.tool_name.clone(),
        tool_input: context.tool_input.clone(),
        tool_use_id: context.tool_use_id.clone(),
        reason: context.reason.clone(),
    }
}

/// PermissionDenied: permission refused a call; hooks observe.
pub struct PermissionDenied;

impl EventSpec for PermissionDenied {
    const EVENT: HookEvent = HookEvent::PermissionDenied;
    type Context = PermissionDeniedContext;
    type Result = ObservedResult;
    type Verdict = ();
    type Input = PermissionDeniedInput;

    fn common(context: &PermissionDeniedContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &PermissionDeniedContext) -> PermissionDeniedInput {
        input(context)
    }

    fn sample(
        input: PermissionDeniedInput,
        env: &SampleEnv<'_>,
    ) -> Result<PermissionDeniedContext, SampleError> {
        Ok(PermissionDeniedContext {
            common: env.common(input.common),
            tool_name: input.tool_name,
            tool_input: input.tool_input,
            tool_use_id: input.tool_use_id,
            reason: input.reason,
        })
    }

    async fn try_run(registry: &HookRegistry, context: PermissionDeniedContext) -> HookRun<()> {
        registry.run_permission_denied(context).await
    }

    fn subject(context: &PermissionDeniedContext) -> MatcherSubject<'_> {
        MatcherSubject::Value(&context.tool_name)
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &PermissionDeniedContext,
    ) -> Result<ObservedResult, HookError> {
        observed(run, as_)
    }
}

impl Observing for PermissionDenied {
    fn message(result: ObservedResult) -> Option<String> {
        result.system_message
    }
}
