//! PostToolUse (and Claude Code's PostToolUseFailure, the same event when the
//! tool failed): the handler ran, its result is not yet in history. The
//! verdict: a pipeline of output rewrites (each hook sees the output as
//! rewritten before it) that a failing hook can never undo: the tool has
//! already run, so its real result is kept.

use super::*;
use crate::command::decision::Decision;
use crate::command::interpret::{to_model, to_model_opt};
use crate::command::wire::{read, Fields, Output, Said};
use crate::command::{RawRun, ReadAs};
use crate::engine::{push_context, run_chain, EventFold, Flow, Observed, Trail};
use crate::{FailurePolicy, HookCommon, HookEntry, HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::{ErrorCode, HookDecision, HookOutcomeKind, HookRecord, ToolResultKind};
use agenthub_tools::{PreparedCall, ToolError};
use serde_json::Value;
use std::time::Duration;

/// What the handler returned. `output` is the text that will enter history, as
/// rewritten by the hooks before this one; a failed tool's own error is kept as
/// data in `failure`, so no one parses it back out of the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolOutcome {
    /// The text that will enter history (for a failed tool, its
    /// `Error [tool_error]: …` line).
    pub output: String,
    /// The handler's structured result (Claude Code's `tool_response` shape),
    /// which command hooks receive instead of `output` as PostToolUse
    /// `tool_response`. `None` when the tool gave none, when it failed, and
    /// once an earlier PostToolUse hook rewrote `output` (`updated_output`):
    /// the value would then describe a result the model no longer sees, so
    /// later hooks get the rewritten text instead.
    pub structured: Option<Value>,
    /// The tool ran and failed with this error (a PostToolUseFailure command
    /// hook's `error`); `None` when it succeeded.
    pub failure: Option<ToolError>,
    /// How long the handler ran (command hooks' `duration_ms`).
    pub elapsed: Duration,
}

impl ToolOutcome {
    /// A tool that ran and returned `output` (and maybe a structured value).
    pub fn succeeded(output: String, structured: Option<Value>, elapsed: Duration) -> Self {
        ToolOutcome {
            output,
            structured,
            failure: None,
            elapsed,
        }
    }

    /// A tool that ran and failed: the model reads `Error [tool_error]: <message>`,
    /// rendered here and nowhere else; hooks get the error itself.
    pub fn failed(error: ToolError, elapsed: Duration) -> Self {
        ToolOutcome {
            output: ErrorCode::ToolError.result_text(&error.message),
            structured: None,
            failure: Some(error),
            elapsed,
        }
    }

    /// True when the tool ran and failed.
    pub fn is_error(&self) -> bool {
        self.failure.is_some()
    }
}

/// What a PostToolUse hook sees: a call whose handler ran (successfully or
/// not) and its result, before the result enters history.
#[derive(Debug, Clone)]
pub struct PostToolUseContext {
    /// What every event carries.
    pub common: HookCommon,
    /// The call as it ran (with any PreToolUse rewrite).
    pub call: PreparedCall,
    /// What the handler returned, as rewritten by the hooks before this one.
    pub result: ToolOutcome,
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

/// What the PostToolUse hooks of one call decided together.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PostToolUseVerdict {
    /// The result that enters history, after every rewrite, followed by any
    /// feedback hooks gave the model about it.
    pub output: String,
    /// Whether the tool failed (a hook's rewrite of the output does not
    /// change what happened).
    pub is_error: bool,
    /// Set when a hook asked to end the run after this round.
    pub stop_reason: Option<String>,
    /// The hooks' additional context, in order, for after the round's results.
    pub context: Vec<String>,
    /// Hooks that failed; the tool result is kept regardless.
    pub failures: Vec<String>,
    /// The tool's structured result (Bash's `{stdout, stderr, …}`) while no
    /// hook replaced its output; `None` once one did.
    pub structured: Option<Value>,
}

impl HookRegistry {
    /// Runs the PostToolUse hooks that match `call`, each seeing the output as
    /// rewritten by the hooks before it. A failing hook never changes the result.
    pub async fn run_post_tool_use(
        &self,
        common: HookCommon,
        call: PreparedCall,
        result: ToolOutcome,
    ) -> HookRun<PostToolUseVerdict> {
        let fold = PostToolUseFold {
            common,
            call,
            structured: result.structured.clone(),
            verdict: PostToolUseVerdict {
                output: result.output.clone(),
                is_error: result.is_error(),
                stop_reason: None,
                context: Vec::new(),
                failures: Vec::new(),
                structured: None,
            },
            result,
            feedback: Vec::new(),
        };
        run_chain(&self.post_tool_use, fold).await
    }
}

struct PostToolUseFold {
    common: HookCommon,
    call: PreparedCall,
    /// What the handler returned, as the hooks first saw it.
    result: ToolOutcome,
    /// The structured value, until a hook rewrites the output.
    structured: Option<Value>,
    verdict: PostToolUseVerdict,
    feedback: Vec<String>,
}

impl PostToolUseFold {
    /// Records a hook run, marking it with whether the tool succeeded.
    fn record(&self, trail: &mut Trail, mut record: HookRecord) {
        let tool_result = if self.result.is_error() {
            ToolResultKind::Error
        } else {
            ToolResultKind::Ok
        };
        record.tool_result = Some(tool_result);
        trail.records.push(record);
    }
}

impl EventFold for PostToolUseFold {
    type Event = PostToolUse;

    fn context(&self) -> PostToolUseContext {
        PostToolUseContext {
            common: self.common.clone(),
            call: self.call.clone(),
            result: ToolOutcome {
                output: self.verdict.output.clone(),
                structured: self.structured.clone(),
                ..self.result.clone()
            },
        }
    }

    fn call(&self) -> Option<&PreparedCall> {
        Some(&self.call)
    }

    fn step(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        result: PostToolUseResult,
    ) -> Flow<PostToolUseVerdict> {
        trail.message(&observed, result.system_message.clone());
        let event = observed.event;
        let decision = describe_post_decision(&result);
        let record = observed.finish(HookOutcomeKind::Ok, decision, None);
        self.record(trail, record);
        if let Some(output) = result.updated_output {
            self.verdict.output = output;
            self.structured = None;
        }
        if self.verdict.stop_reason.is_none() {
            self.verdict.stop_reason = result.prevent_continuation;
        }
        push_context(&mut self.verdict.context, result.additional_context);
        if let Some(text) = result.feedback.filter(|text| !text.trim().is_empty()) {
            self.feedback.push(format!(
                "{event} hook feedback (the tool already ran): {text}"
            ));
        }
        Flow::Next
    }

    /// Whatever the policy, the tool has run: the failure is reported as a
    /// `hook_execution_error` with `handler_ran`, and the result is kept.
    fn fail(
        &mut self,
        trail: &mut Trail,
        observed: Observed,
        _policy: FailurePolicy,
        error: HookError,
    ) -> Flow<PostToolUseVerdict> {
        self.verdict.failures.push(observed.failure_text(&error));
        let mut record = observed.failed_continuing(&error);
        record.outcome = HookOutcomeKind::ExecutionError;
        record.handler_ran = Some(true);
        self.record(trail, record);
        Flow::Next
    }

    /// Unreached (`fail` never closes: the tool already ran and nothing is
    /// undone); were it reached, the failure is reported beside the result.
    fn failed_closed(&mut self, message: String, _error: &HookError) -> PostToolUseVerdict {
        self.verdict.failures.push(message);
        self.take_verdict()
    }

    fn finish(mut self) -> PostToolUseVerdict {
        self.take_verdict()
    }
}

impl PostToolUseFold {
    /// The verdict, with the hooks' feedback after the output.
    fn take_verdict(&mut self) -> PostToolUseVerdict {
        if !self.feedback.is_empty() {
            self.verdict.output =
                format!("{}\n\n{}", self.verdict.output, self.feedback.join("\n\n"));
        }
        self.verdict.structured = self.structured.take();
        std::mem::take(&mut self.verdict)
    }
}

fn describe_post_decision(result: &PostToolUseResult) -> Option<HookDecision> {
    match (&result.updated_output, &result.prevent_continuation) {
        (_, Some(_)) => Some(HookDecision::PreventContinuation),
        (Some(_), None) => Some(HookDecision::UpdatedOutput),
        (None, None) => result.feedback.as_ref().map(|_| HookDecision::Feedback),
    }
}

/// PostToolUse (the tool succeeded) and PostToolUseFailure (it failed).
pub(crate) fn read_output(run: &RawRun, as_: ReadAs<'_>) -> Result<PostToolUseResult, HookError> {
    let event = as_.event;
    let from_json = |fields: Fields| -> Result<PostToolUseResult, HookError> {
        let feedback = (fields.decision == Some(Decision::Block)).then(|| {
            fields
                .reason
                .clone()
                .filter(|reason| !reason.trim().is_empty())
                .unwrap_or_else(|| format!("a {event} hook flagged this result"))
        });
        // Every tool's result may be replaced (contract §21): text as it is, any
        // other JSON value (a tool_response-shaped object, an MCP result) as
        // its JSON text; `updatedMCPToolOutput` is Claude Code's older name.
        let updated = fields.specific.get("updatedToolOutput");
        let updated_output = match updated.or(fields.specific.get("updatedMCPToolOutput")) {
            None | Some(Value::Null) => None,
            Some(Value::String(text)) => Some(to_model(text.clone())),
            Some(other) => Some(to_model(other.to_string())),
        };
        Ok(PostToolUseResult {
            updated_output,
            additional_context: fields.specific_string("additionalContext")?,
            prevent_continuation: fields.stop,
            feedback: to_model_opt(feedback),
            system_message: fields.system_message,
        })
    };
    match read(run, as_)? {
        Said::Output(Output::Text(_)) => Ok(PostToolUseResult::default()),
        Said::Output(Output::Warning(text)) => Ok(PostToolUseResult {
            system_message: Some(text),
            ..PostToolUseResult::default()
        }),
        Said::Output(Output::Json(fields)) => from_json(fields),
        Said::Blocking { reason, json } => {
            let base = json.map(from_json).and_then(Result::ok).unwrap_or_default();
            Ok(PostToolUseResult {
                feedback: Some(to_model(reason)),
                ..base
            })
        }
    }
}

/// PostToolUse: a call's handler ran; hooks may replace its result, add context or flag it. Claude Code hooks of this name run only when the tool succeeded.
pub struct PostToolUse;

impl EventSpec for PostToolUse {
    const EVENT: HookEvent = HookEvent::PostToolUse;
    const WIRE: WireContract = WireContract {
        decisions: BLOCK,
        specific: &[
            "additionalContext",
            "updatedToolOutput",
            "updatedMCPToolOutput",
        ],
        accepted_unused: &["classifierContext"],
    };
    type Context = PostToolUseContext;
    type Result = PostToolUseResult;
    type Verdict = PostToolUseVerdict;
    type Input = PostToolUseInput;

    fn common(context: &PostToolUseContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &PostToolUseContext) -> PostToolUseInput {
        input(context)
    }

    fn sample(
        input: PostToolUseInput,
        env: &SampleEnv<'_>,
    ) -> Result<PostToolUseContext, SampleError> {
        stdin_type::sample(input, env, stdin_type::Kind::Succeeded)
    }

    async fn try_run(
        registry: &HookRegistry,
        context: PostToolUseContext,
    ) -> HookRun<PostToolUseVerdict> {
        let PostToolUseContext {
            common,
            call,
            result,
        } = context;
        registry.run_post_tool_use(common, call, result).await
    }

    fn explain(verdict: PostToolUseVerdict) -> Vec<String> {
        stdin_type::explain(verdict)
    }

    fn subject(context: &PostToolUseContext) -> MatcherSubject<'_> {
        match context.result.is_error() {
            true => MatcherSubject::Nothing,
            false => MatcherSubject::Call(&context.call),
        }
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &PostToolUseContext,
    ) -> Result<PostToolUseResult, HookError> {
        read_output(run, as_)
    }
}

/// PostToolUseFailure: Claude Code's name for PostToolUse when the tool
/// failed. Its hooks sit in PostToolUse's list, run only for failed calls and
/// are recorded under this name.
pub struct PostToolUseFailure;

impl EventSpec for PostToolUseFailure {
    const EVENT: HookEvent = HookEvent::PostToolUseFailure;
    const WIRE: WireContract = WireContract::CONTEXT;
    type Context = PostToolUseContext;
    type Result = PostToolUseResult;
    type Verdict = PostToolUseVerdict;
    type Input = PostToolUseInput;

    fn common(context: &PostToolUseContext) -> &HookCommon {
        &context.common
    }

    fn input(context: &PostToolUseContext) -> PostToolUseInput {
        input(context)
    }

    fn sample(
        input: PostToolUseInput,
        env: &SampleEnv<'_>,
    ) -> Result<PostToolUseContext, SampleError> {
        stdin_type::sample(input, env, stdin_type::Kind::Failed)
    }

    async fn try_run(
        registry: &HookRegistry,
        context: PostToolUseContext,
    ) -> HookRun<PostToolUseVerdict> {
        let PostToolUseContext {
            common,
            call,
            result,
        } = context;
        registry.run_post_tool_use(common, call, result).await
    }

    fn explain(verdict: PostToolUseVerdict) -> Vec<String> {
        stdin_type::explain(verdict)
    }

    fn subject(context: &PostToolUseContext) -> MatcherSubject<'_> {
        match context.result.is_error() {
            true => MatcherSubject::Call(&context.call),
            false => MatcherSubject::Nothing,
        }
    }

    fn read(
        run: &RawRun,
        as_: ReadAs<'_>,
        _: &PostToolUseContext,
    ) -> Result<PostToolUseResult, HookError> {
        read_output(run, as_)
    }
}

impl Listed for PostToolUseFailure {
    fn entries(registry: &HookRegistry) -> &[HookEntry<PostToolUseContext, PostToolUseResult>] {
        &registry.post_tool_use
    }

    fn entries_mut(
        registry: &mut HookRegistry,
    ) -> &mut Vec<HookEntry<PostToolUseContext, PostToolUseResult>> {
        &mut registry.post_tool_use
    }
}

#[path = "post_tool_use_input.rs"]
mod stdin_type;
pub use stdin_type::{input, PostToolUseInput};

#[cfg(test)]
#[path = "post_tool_use_tests.rs"]
mod tests;
