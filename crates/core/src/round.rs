//! One tool round: the calls of one assistant message, each answered exactly
//! once — also when a hook stops the run or the run is cancelled mid-round.
//! Calls run in order, except that the handlers of adjacent calls of tools
//! declaring [`ToolCapabilities::concurrent`](agenthub_tools::ToolCapabilities)
//! (the Task calls of contract §17) run at the same time, at most
//! `max_parallel_agents` at once, once hooks and permission have decided on
//! each in call order. Results are written in call order, then the round's
//! system context.

use crate::pipeline::CallResult;
use crate::run::Run;
use crate::AgentEvent;
use agenthub_hooks::HookEvent;
use agenthub_hooks::{BatchedCall, PostToolBatchContext};
use agenthub_protocol::{ErrorCode, Message, ToolCall, NOT_RUN};
use futures::StreamExt;
use std::time::Duration;

/// How long concurrent calls get to end by themselves once the run is
/// cancelled (their handlers see the token), so that a subagent's own
/// history is closed too; after that they are dropped.
const CANCEL_GRACE: Duration = Duration::from_secs(2);

/// How the round ended, beyond its results.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum RoundEnd {
    Continue,
    /// A hook (PreToolUse or PostToolUse) ended the run, with its reason.
    Stopped(HookEvent, String),
    /// The loop guard ended the run, with its error (`loop: …`).
    Failed(String),
    Cancelled,
}

impl Run<'_> {
    pub(crate) async fn run_round(&mut self, calls: &[ToolCall]) -> RoundEnd {
        self.before_writes(calls).await;
        let mut results: Vec<Message> = Vec::with_capacity(calls.len());
        let mut context = Vec::new();
        let mut end = RoundEnd::Continue;
        let mut next = 0;
        while next < calls.len() {
            let group = &calls[next..next + self.concurrent_run(&calls[next..])];
            next += group.len();
            let outcomes = match end {
                RoundEnd::Continue => self.run_group(group).await,
                _ => group.iter().map(|_| None).collect(),
            };
            for (call, outcome) in group.iter().zip(outcomes) {
                let (content, error) = match (&end, outcome) {
                    (RoundEnd::Stopped(event, _), _) => self.answered(
                        call,
                        ErrorCode::HookStoppedContinuation.not_run_text(&format!(
                            "a {event} hook ended the run after an earlier call of this message"
                        )),
                        ErrorCode::HookStoppedContinuation,
                    ),
                    (RoundEnd::Failed(_), _) => self.answered(
                        call,
                        ErrorCode::LoopDetected.not_run_text(
                            "the loop guard ended the run at an earlier call of this message",
                        ),
                        ErrorCode::LoopDetected,
                    ),
                    (RoundEnd::Cancelled, _) | (RoundEnd::Continue, None) => {
                        end = RoundEnd::Cancelled;
                        self.answered(call, cancelled_text(), ErrorCode::Cancelled)
                    }
                    (RoundEnd::Continue, Some(result)) => {
                        let CallResult {
                            content,
                            error,
                            structured: _,
                            context: call_context,
                            stop,
                            failure,
                            denial,
                        } = result;
                        context.extend(call_context);
                        self.tally.denials.extend(denial);
                        if let Some((event, reason)) = stop {
                            end = RoundEnd::Stopped(event, reason);
                        }
                        if let Some(error) = failure {
                            end = RoundEnd::Failed(error);
                        }
                        (content, error)
                    }
                };
                results.push(Message::tool_result(&call.id, content, error.is_some()));
            }
            if end == RoundEnd::Continue && self.cancel.is_cancelled() {
                end = RoundEnd::Cancelled;
            }
        }
        let batch = self.post_tool_batch(calls, &results).await;
        for result in results {
            self.push(result);
        }
        context.extend(batch);
        self.push_context(context);
        end
    }

    /// The PostToolBatch hooks (contract §21) on every call of the message and
    /// its result's kind; returns the context they add.
    async fn post_tool_batch(&self, calls: &[ToolCall], results: &[Message]) -> Vec<String> {
        if self.agent.hooks.post_tool_batch.is_empty() {
            return Vec::new();
        }
        let tool_calls = calls
            .iter()
            .zip(results)
            .map(|(call, result)| BatchedCall {
                tool_name: call.name().to_owned(),
                tool_use_id: call.id.clone(),
                tool_input: serde_json::from_str(&call.function.arguments)
                    .unwrap_or_else(|_| serde_json::Value::String(call.function.arguments.clone())),
                is_error: matches!(result, Message::Tool { is_error: true, .. }),
            })
            .collect();
        let context = PostToolBatchContext {
            common: self.hook_common(),
            tool_calls,
        };
        let ran = self.agent.hooks.run_post_tool_batch(context).await;
        self.emit_hook_run(&ran);
        ran.verdict.context
    }

    /// A result the round makes itself, in place of the pipeline's: told to
    /// the observers as the call's end, with its code.
    fn answered(
        &self,
        call: &ToolCall,
        content: String,
        code: ErrorCode,
    ) -> (String, Option<ErrorCode>) {
        self.emit(AgentEvent::ToolCallEnded(call, &content, Some(code)));
        (content, Some(code))
    }

    /// How many calls from the first one form one run: 1, or every adjacent
    /// call of a tool that declares it may run concurrently.
    fn concurrent_run(&self, calls: &[ToolCall]) -> usize {
        calls
            .iter()
            .take_while(|call| self.is_concurrent(call))
            .count()
            .max(1)
    }

    /// Runs a group: one call as always (dropped when the run is cancelled),
    /// or concurrent calls, bounded, given a grace to end after a cancel.
    /// `None`: the call was cancelled before it had a result.
    async fn run_group(&self, group: &[ToolCall]) -> Vec<Option<CallResult>> {
        if let [call] = group {
            if !self.is_concurrent(call) {
                return vec![self.unless_cancelled(self.run_tool_call(call)).await];
            }
        }
        // Hooks and permission decide in call order (so asks come one at a
        // time and the handlers start in call order); then the handlers run
        // together. Plain loops, not closures: the future must stay `Send`
        // for any lifetime (a subagent's run is itself inside a tool's future).
        let all = async {
            let mut decided = Vec::with_capacity(group.len());
            for call in group {
                decided.push(self.decide_call(call).await);
            }
            let mut runs = Vec::with_capacity(group.len());
            for (call, decision) in group.iter().zip(decided) {
                runs.push(self.carry_out(call, decision));
            }
            futures::stream::iter(runs)
                .buffered(self.agent.max_parallel_agents)
                .collect::<Vec<_>>()
                .await
        };
        tokio::pin!(all);
        let finished = tokio::select! {
            biased;
            results = &mut all => Some(results),
            () = self.cancel.cancelled() => None,
        };
        match finished {
            Some(results) => results.into_iter().map(Some).collect(),
            None => match tokio::time::timeout(CANCEL_GRACE, &mut all).await {
                Ok(results) => results.into_iter().map(Some).collect(),
                Err(_) => group.iter().map(|_| None).collect(),
            },
        }
    }

    fn is_concurrent(&self, call: &ToolCall) -> bool {
        self.agent
            .tools
            .get(call.name())
            .is_some_and(|tool| tool.capabilities().concurrent)
    }
}

/// The result of a call the run's cancellation ended: the same text whether
/// the call was dropped or its handler saw the cancellation first.
pub(crate) fn cancelled_text() -> String {
    ErrorCode::Cancelled.result_text(&format!(
        "{NOT_RUN} (or was interrupted): the run was cancelled"
    ))
}
