//! One tool call without a model: an MCP client (`agenthub mcp serve`) names
//! the tool and its input itself, and the call still passes the one pipeline
//! (prepare, PreToolUse, permission, approval, handler, PostToolUse) with the
//! agent's hooks, rules, sandbox and approver.
//!
//! It never writes history and never runs session hooks (SessionStart,
//! Stop, SessionEnd): there is no conversation, only the call.

use crate::run::Run;
use crate::{Agent, PermissionDenial};
use agenthub_protocol::ToolCall;
use tokio_util::sync::CancellationToken;

/// What one call produced: the result text the model would have read
/// (`Error [code]: …` when it failed or was not run), whether it failed,
/// and the denial when permission refused it.
#[derive(Debug)]
pub struct CallReport {
    /// The tool result, exactly as the pipeline wrote it.
    pub content: String,
    /// Whether the call failed or was not run (the pipeline's flag).
    pub is_error: bool,
    /// Why permission refused the call, with how to allow it when nobody
    /// could answer its ask.
    pub denial: Option<PermissionDenial>,
}

impl Agent {
    /// Takes `call` through the one pipeline and gives its one result;
    /// `cancel` ends it as a cancelled run ends a pending call.
    ///
    /// ```
    /// use agenthub_core::Agent;
    /// use agenthub_model::ScriptedModel;
    /// use agenthub_protocol::ToolCall;
    /// use agenthub_tools::ToolRegistry;
    /// use tokio_util::sync::CancellationToken;
    /// use std::sync::Arc;
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let model = ScriptedModel::new("no turns", vec![]);
    /// let agent = Agent::builder(Arc::new(model), ToolRegistry::with_builtins().unwrap()).build();
    /// let call = ToolCall::new("call_1", "Echo", r#"{"text":"hi"}"#);
    /// let report = agent.call_tool(&call, CancellationToken::new()).await;
    /// assert_eq!(report.content, "hi");
    /// # });
    /// ```
    pub async fn call_tool(&self, call: &ToolCall, cancel: CancellationToken) -> CallReport {
        let run = Run::new(self, cancel, Vec::new());
        match run.unless_cancelled(run.run_tool_call(call)).await {
            Some(result) => CallReport {
                is_error: result.is_error(),
                content: result.content,
                denial: result.denial,
            },
            None => CallReport {
                content: crate::round::cancelled_text(),
                is_error: true,
                denial: None,
            },
        }
    }
}
