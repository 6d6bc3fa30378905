//! Subagents (contract §17): the `Task` tool starts a child session built from
//! its parent's parts — the same policy, approver, hooks (SubagentStop in
//! Stop's place), workspace and tool definitions (so the same sandbox) — so
//! every tool call of a subagent walks the one pipeline as its parent's do.
//!
//! The Task tool is an ordinary [`agenthub_tools::Tool`]: it reaches its
//! parent's parts through a task-local the pipeline sets around each
//! handler ([`scoped`]), not through a path of its own. It must never build
//! a child whose tools include `Task` (a subagent cannot start a subagent),
//! and never let a child's failure become a hang or a missing result: every
//! ending of the child is a Task result.

mod child;
mod definition;
mod observe;
mod task_tool;

pub use definition::{AgentDefinition, AgentDefinitions, DefinitionError, GENERAL_PURPOSE};
pub use observe::SubagentInfo;
pub use task_tool::{TaskInput, TaskTool};

use crate::Agent;
use agenthub_hooks::HookRegistry;
use agenthub_model::{ChatModel, ConfigError};
use std::future::Future;
use std::sync::{Arc, Mutex};

/// The name the model calls the subagent tool by (Claude Code's).
pub const TASK_TOOL: &str = "Task";

/// Builds the model a definition's `model:` names (`sonnet`, `gpt-4o`, …);
/// `Err` is the provider configuration that cannot be used.
pub type ModelResolver = Arc<dyn Fn(&str) -> Result<Arc<dyn ChatModel>, ConfigError> + Send + Sync>;

/// Builds the hooks a definition's front matter names (its `hooks` key),
/// which run only while that subagent runs; `Err` says why they cannot.
pub type SubagentHooks =
    Arc<dyn Fn(&AgentDefinition) -> Result<HookRegistry, DefinitionHooksError> + Send + Sync>;

/// Why a subagent definition's own hooks cannot run.
#[derive(Debug, thiserror::Error)]
pub enum DefinitionHooksError {
    /// Its `hooks` key is not a hooks configuration.
    #[error(transparent)]
    Settings(#[from] agenthub_settings::SettingsError),
    /// A hook in it cannot be built (an `if` condition that is not a rule, …).
    #[error(transparent)]
    Hooks(#[from] agenthub_hooks::CommandHookError),
}

/// What a session's agent hands to the subagents its runs start: its parts,
/// shared, taken once when the agent is built.
pub(crate) struct ParentParts {
    /// The session's agent as it was before it was built whole: its
    /// approver asks one subagent at a time and is not yet wrapped by
    /// PermissionRequest hooks (a subagent wraps it with its own). A
    /// subagent's agent is this one with only what is the subagent's own
    /// replaced ([`ParentParts::child_agent`]), so every setting a session
    /// gains reaches its subagents without being copied here.
    agent: Agent,
}

impl ParentParts {
    /// The session's approver before PermissionRequest hooks wrapped it.
    pub(crate) fn person_approver(&self) -> Arc<dyn agenthub_policy::Approver> {
        self.agent.approver.clone()
    }

    pub(crate) fn of(agent: &Agent) -> ParentParts {
        ParentParts {
            agent: Agent {
                approver: Arc::new(observe::OneAskAtATime::new(agent.approver.clone())),
                parent_parts: None,
                ..agent.clone()
            },
        }
    }
}

/// What a Task call running inside a parent's run can reach.
#[derive(Clone)]
pub(crate) struct ParentScope {
    pub(crate) parts: Arc<ParentParts>,
    /// Where the subagents' usage and denials are added for the parent's report.
    pub(crate) subagents: Arc<Mutex<crate::tally::SubagentTotals>>,
    /// The call whose handler runs in this scope.
    pub(crate) tool_use_id: String,
}

tokio::task_local! {
    static PARENT: ParentScope;
}

/// Runs a tool handler with `scope` reachable by the Task tool.
pub(crate) async fn scoped<T>(scope: Option<ParentScope>, handler: impl Future<Output = T>) -> T {
    match scope {
        Some(scope) => PARENT.scope(scope, handler).await,
        None => handler.await,
    }
}

/// The parent scope of the handler running now, if it runs inside a session's run.
fn current_parent() -> Option<ParentScope> {
    PARENT.try_with(ParentScope::clone).ok()
}
