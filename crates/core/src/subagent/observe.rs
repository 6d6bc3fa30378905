//! What a subagent shares with its parent's front end: every event it has,
//! told to the parent's observers tagged with the subagent, and its asks,
//! reaching the person one at a time however many subagents run.

use crate::{AgentEvent, Observer, ObserverError};
use agenthub_policy::{Approval, Approver, Decision};
use agenthub_tools::PreparedCall;
use futures::future::BoxFuture;
use std::sync::Arc;

/// A running subagent, as observers are told about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubagentInfo {
    /// Unique within the session; its transcript records carry it.
    pub agent_id: String,
    /// The definition it was started from.
    pub agent_type: String,
    /// What the parent asked of it (the Task call's `description`).
    pub description: String,
    /// The Task call that started it.
    pub tool_use_id: String,
}

/// Tells the parent's observers every event of one subagent, as
/// [`AgentEvent::Subagent`]. An audit failure stays a failure.
pub(crate) struct Tagged {
    pub(crate) parent: Arc<dyn Observer>,
    pub(crate) info: Arc<SubagentInfo>,
}

impl Observer for Tagged {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        self.parent
            .on_event(&AgentEvent::Subagent(&self.info, event))
    }
}

/// Asks the inner approver for one call at a time: concurrent subagents'
/// asks reach the terminal one after another.
pub(crate) struct OneAskAtATime {
    inner: Arc<dyn Approver>,
    turn: tokio::sync::Mutex<()>,
}

impl OneAskAtATime {
    pub(crate) fn new(inner: Arc<dyn Approver>) -> Self {
        OneAskAtATime {
            inner,
            turn: tokio::sync::Mutex::new(()),
        }
    }
}

impl Approver for OneAskAtATime {
    fn approve<'a>(
        &'a self,
        call: &'a PreparedCall,
        decision: &'a Decision,
    ) -> BoxFuture<'a, Approval> {
        Box::pin(async move {
            let _turn = self.turn.lock().await;
            self.inner.approve(call, decision).await
        })
    }
}
