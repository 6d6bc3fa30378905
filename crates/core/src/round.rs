//! One tool round: the calls of one assistant message, run in order, each
//! answered exactly once — also when a hook stops the run or the run is
//! cancelled mid-round. Results are written in call order, then the round's
//! system context.

use crate::pipeline::CallResult;
use crate::run::Run;
use agenthub_hooks::HookEvent;
use agenthub_protocol::{ErrorCode, Message, ToolCall, NOT_RUN};

/// How the round ended, beyond its results.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum RoundEnd {
    Continue,
    /// A hook (PreToolUse or PostToolUse) ended the run, with its reason.
    Stopped(HookEvent, String),
    Cancelled,
}

impl Run<'_> {
    pub(crate) async fn run_round(&mut self, calls: &[ToolCall]) -> RoundEnd {
        let mut results: Vec<(String, String)> = Vec::with_capacity(calls.len());
        let mut context = Vec::new();
        let mut end = RoundEnd::Continue;
        for call in calls {
            let content = match end {
                RoundEnd::Stopped(event, _) => ErrorCode::HookStoppedContinuation.not_run_text(
                    &format!("a {event} hook ended the run after an earlier call of this message"),
                ),
                RoundEnd::Cancelled => cancelled_text(),
                RoundEnd::Continue => {
                    let result = tokio::select! {
                        biased;
                        () = self.cancel.cancelled() => None,
                        result = self.run_tool_call(call) => Some(result),
                    };
                    match result {
                        Some(CallResult {
                            content,
                            context: call_context,
                            stop,
                            denial,
                        }) => {
                            context.extend(call_context);
                            self.tally.denials.extend(denial);
                            if let Some((event, reason)) = stop {
                                end = RoundEnd::Stopped(event, reason);
                            }
                            content
                        }
                        None => {
                            end = RoundEnd::Cancelled;
                            cancelled_text()
                        }
                    }
                }
            };
            results.push((call.id.clone(), content));
        }
        for (id, content) in results {
            self.push(Message::tool(id, content));
        }
        for text in context {
            self.push(Message::system(text));
        }
        end
    }
}

fn cancelled_text() -> String {
    ErrorCode::Cancelled.result_text(&format!(
        "{NOT_RUN} (or was interrupted): the run was cancelled"
    ))
}
