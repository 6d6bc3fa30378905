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

use crate::{Agent, Observer};
use agenthub_hooks::HookRegistry;
use agenthub_model::ChatModel;
use agenthub_policy::{Approver, PermissionPolicy};
use agenthub_tools::{ToolRegistry, Workspace};
use std::future::Future;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The name the model calls the subagent tool by (Claude Code's).
pub const TASK_TOOL: &str = "Task";

/// Builds the model a definition's `model:` names (`sonnet`, `gpt-4o`, …);
/// `Err` says why it cannot.
pub type ModelResolver = Arc<dyn Fn(&str) -> Result<Arc<dyn ChatModel>, String> + Send + Sync>;

/// Builds the hooks a definition's front matter names (its `hooks` key),
/// which run only while that subagent runs; `Err` says why they cannot.
pub type SubagentHooks =
    Arc<dyn Fn(&AgentDefinition) -> Result<HookRegistry, String> + Send + Sync>;

/// What a session's agent hands to the subagents its runs start: its parts,
/// shared, taken once when the agent is built.
pub(crate) struct ParentParts {
    model: Arc<dyn ChatModel>,
    tools: Arc<ToolRegistry>,
    hooks: HookRegistry,
    policy: Arc<dyn PermissionPolicy>,
    /// The approver before PermissionRequest hooks wrap it, asking one
    /// subagent at a time.
    approver: Arc<dyn Approver>,
    observer: Arc<dyn Observer>,
    workspace: Workspace,
    session_id: String,
    transcript_path: Option<PathBuf>,
    max_turns: u32,
    context_window: Option<u64>,
    compact_threshold: Option<f64>,
    model_resolver: Option<crate::subagent::ModelResolver>,
    definition_hooks: Option<SubagentHooks>,
    loop_guard: crate::LoopGuardLimits,
    before_writes: Option<Arc<dyn crate::BeforeWrites>>,
}

impl ParentParts {
    pub(crate) fn of(agent: &Agent) -> ParentParts {
        ParentParts {
            model: agent.model.clone(),
            tools: agent.tools.clone(),
            hooks: agent.hooks.clone(),
            policy: agent.policy.clone(),
            approver: Arc::new(observe::OneAskAtATime::new(agent.approver.clone())),
            observer: agent.observer.clone(),
            workspace: agent.workspace.clone(),
            session_id: agent.session_id.clone(),
            transcript_path: agent.transcript_path.clone(),
            max_turns: agent.max_turns,
            loop_guard: agent.loop_guard,
            context_window: agent.context_window,
            compact_threshold: agent.compact_threshold,
            model_resolver: agent.model_resolver.clone(),
            definition_hooks: agent.definition_hooks.clone(),
            before_writes: agent.before_writes.clone(),
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
