//! Approval: what happens to an `ask`. An answer may allow the call with
//! another input (the Agent SDK's `canUseTool` answering `updatedInput`);
//! the pipeline then checks that input as it checks any call's, and never
//! lets an approval carry an input past a deny or a protected path.

use crate::Decision;
use agenthub_tools::PreparedCall;
use futures::future::BoxFuture;

/// The answer to an `ask`: the call runs this once (perhaps with another
/// input), or it is denied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Approval {
    /// Allowed this once; `by` names who answered ("the user", a hook).
    AllowOnce {
        /// Who answered, for the audit line.
        by: String,
    },
    /// Allowed this once with `input` in place of the call's (an SDK's
    /// `updatedInput`). The new input is checked against the tool's schema
    /// and decided on by the policy again: a deny, the workspace boundary
    /// or a protected path still refuses it; an ask it would raise is not
    /// asked again unless only a person may answer it (then the call is
    /// refused: the approval was for another input). An input equal to the
    /// call's is [`Approval::AllowOnce`].
    AllowWithInput {
        /// Who answered, for the audit line.
        by: String,
        /// The whole input the call runs with.
        input: serde_json::Value,
    },
    /// Refused: the call does not run (`Error [permission_denied]`).
    Deny {
        /// Why, told to the model.
        reason: String,
    },
    /// Nobody can answer here (no terminal): the ask is denied with reason
    /// [`Approval::NO_ONE_TO_ASK`], and the run reports how it could have
    /// been allowed ([`HowToAllow`](crate::HowToAllow)).
    NoOneToAsk,
}

impl Approval {
    /// The reason an ask is denied when nobody can answer it.
    pub const NO_ONE_TO_ASK: &'static str = "approval required";

    /// Allowed once by the person at the terminal.
    pub fn by_user() -> Self {
        Approval::AllowOnce {
            by: "the user".to_owned(),
        }
    }
}

/// Asks someone whether a call may run. The CLI implements it for terminals.
pub trait Approver: Send + Sync {
    /// Answers the policy's ask about `call`; `decision` says why it asks
    /// (to show the person). Only called for `ask` decisions.
    fn approve<'a>(
        &'a self,
        call: &'a PreparedCall,
        decision: &'a Decision,
    ) -> BoxFuture<'a, Approval>;

    /// Whether an answer waits for a person (a terminal prompt): then
    /// Notification hooks are told before the question (`permission_prompt`).
    fn waits_for_a_person(&self) -> bool {
        false
    }
}

/// Without a terminal nobody can answer: an ask resolves to
/// [`Approval::NoOneToAsk`], a deny.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTerminalApprover;

impl Approver for NoTerminalApprover {
    fn approve<'a>(
        &'a self,
        _call: &'a PreparedCall,
        _decision: &'a Decision,
    ) -> BoxFuture<'a, Approval> {
        Box::pin(async { Approval::NoOneToAsk })
    }
}
