//! The PostToolUse verdict: a pipeline of output rewrites (each hook sees the
//! output as rewritten before it) that a failing hook can never undo: the tool
//! has already run, so its real result is kept.

use super::fold::{run_chain, EventFold, Flow};
use super::{push_context, Observed, Trail};
use crate::context::{HookCommon, PostToolUseContext, ToolOutcome};
use crate::result::PostToolUseResult;
use crate::{FailurePolicy, HookError, HookEvent, HookRegistry, HookRun};
use agenthub_protocol::{HookDecision, HookOutcomeKind, HookRecord, ToolResultKind};
use agenthub_tools::PreparedCall;
use serde_json::Value;

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
    type Context = PostToolUseContext;
    type Result = PostToolUseResult;
    type Verdict = PostToolUseVerdict;
    const EVENT: HookEvent = HookEvent::PostToolUse;

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
