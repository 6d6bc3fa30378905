//! Asks answered by the Agent SDK's `canUseTool` (`--permission-prompt-tool
//! stdio`, contract §30): a `can_use_tool` control request per ask, the
//! SDK's `allow` (perhaps with an `updatedInput`) or `deny` (its message
//! told to the model; `interrupt: true` also ends the turn).
//!
//! It only answers asks: deny rules, the workspace boundary and hooks have
//! had their say before it is asked, and a replaced input goes through the
//! pipeline's checks again (`Approval::AllowWithInput`). A cancelled turn,
//! an SDK that closed its input and an answer that is not understood all
//! deny; nothing here allows by default.

use super::channel::Channel;
use agenthub::{Approval, Approver, CurrentTurn, Decision, PreparedCall};
use futures::future::BoxFuture;
use serde_json::{json, Value};
use std::sync::Arc;

/// Who the audit says answered.
const BY: &str = "the Agent SDK's canUseTool";

/// Asks the SDK.
pub struct SdkApprover {
    pub channel: Arc<Channel>,
    pub turn: CurrentTurn,
}

impl Approver for SdkApprover {
    fn approve<'a>(
        &'a self,
        call: &'a PreparedCall,
        decision: &'a Decision,
    ) -> BoxFuture<'a, Approval> {
        Box::pin(async move {
            let cancelled = self.turn.token();
            let asked = self.channel.request(json!({
                "subtype": "can_use_tool",
                "tool_name": call.name(),
                "input": call.input(),
                "permission_suggestions": [],
                "tool_use_id": call.id(),
                "decision_reason": format!("{}: {}", decision.source, decision.reason),
                "blocked_path": null,
            }));
            let answer = tokio::select! {
                answer = asked => answer,
                () = cancelled.cancelled() => return deny("denied: the turn was interrupted"),
            };
            match answer {
                Ok(answer) => self.answered(call, &answer),
                Err(error) => deny(&format!("denied: {error}")),
            }
        })
    }

    fn waits_for_a_person(&self) -> bool {
        true
    }
}

impl SdkApprover {
    fn answered(&self, call: &PreparedCall, answer: &Value) -> Approval {
        match read_answer(answer) {
            Answer::Allow(None) => Approval::AllowOnce { by: BY.to_owned() },
            Answer::Allow(Some(input)) if &input == call.input() => {
                Approval::AllowOnce { by: BY.to_owned() }
            }
            Answer::Allow(Some(input)) => Approval::AllowWithInput {
                by: BY.to_owned(),
                input,
            },
            Answer::Deny { message, interrupt } => {
                if interrupt {
                    self.turn.cancel();
                }
                Approval::Deny { reason: message }
            }
            Answer::NotUnderstood(why) => deny(&format!(
                "denied: the Agent SDK's answer is not understood ({why})"
            )),
        }
    }
}

/// The SDK's answer to `can_use_tool`.
#[derive(Debug, Clone, PartialEq)]
enum Answer {
    /// `behavior: allow`, with the input to run instead, if any.
    Allow(Option<Value>),
    /// `behavior: deny`.
    Deny {
        message: String,
        interrupt: bool,
    },
    NotUnderstood(String),
}

fn read_answer(answer: &Value) -> Answer {
    match answer.get("behavior").and_then(Value::as_str) {
        Some("allow") => match answer.get("updatedInput") {
            None | Some(Value::Null) => Answer::Allow(None),
            Some(input @ Value::Object(_)) => Answer::Allow(Some(input.clone())),
            Some(_) => Answer::NotUnderstood("`updatedInput` must be an object".to_owned()),
        },
        Some("deny") => Answer::Deny {
            message: answer
                .get("message")
                .and_then(Value::as_str)
                .filter(|message| !message.is_empty())
                .unwrap_or("denied by the Agent SDK's canUseTool")
                .to_owned(),
            interrupt: answer.get("interrupt").and_then(Value::as_bool) == Some(true),
        },
        _ => Answer::NotUnderstood("`behavior` must be `allow` or `deny`".to_owned()),
    }
}

fn deny(reason: &str) -> Approval {
    Approval::Deny {
        reason: reason.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_answer_of_the_sdk_is_read_as_what_it_means() {
        assert_eq!(
            [
                json!({"behavior": "allow", "updatedInput": {"command": "ls"}}),
                json!({"behavior": "allow"}),
                json!({"behavior": "deny", "message": "not on Fridays", "interrupt": true}),
                json!({"behavior": "deny"}),
                json!({"behavior": "maybe"}),
                json!({"behavior": "allow", "updatedInput": "ls"}),
            ]
            .map(|answer| read_answer(&answer)),
            [
                Answer::Allow(Some(json!({"command": "ls"}))),
                Answer::Allow(None),
                Answer::Deny {
                    message: "not on Fridays".to_owned(),
                    interrupt: true
                },
                Answer::Deny {
                    message: "denied by the Agent SDK's canUseTool".to_owned(),
                    interrupt: false
                },
                Answer::NotUnderstood("`behavior` must be `allow` or `deny`".to_owned()),
                Answer::NotUnderstood("`updatedInput` must be an object".to_owned()),
            ]
        );
    }
}
