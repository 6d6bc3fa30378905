//! The agent: a model, tools, hooks, a permission policy, an approver and
//! observers, put together once and run many times.

use crate::PermissionDenial;
use crate::{HookApprover, NoopObserver, Observer};
use agenthub_hooks::{HookCommon, HookRegistry};
use agenthub_model::ChatModel;
use agenthub_policy::{Approver, NoTerminalApprover, PermissionPolicy, PolicyConfig, PolicyEngine};
use agenthub_protocol::{Message, RunStatus, ToolSpec, Usage};
use agenthub_tools::{ToolRegistry, Workspace};
use std::path::PathBuf;
use std::sync::Arc;

/// How a run ended, with everything a caller needs to report it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunReport {
    pub status: RunStatus,
    /// The final answer (completed), or the last assistant text otherwise.
    pub result: Option<String>,
    /// Why a run failed, or the reason it was stopped, blocked or cancelled.
    pub error: Option<String>,
    /// Model requests made.
    pub turns: u32,
    pub session_id: String,
    pub history: Vec<Message>,
    /// The tokens of every model request, summed (requests whose provider
    /// reported none add nothing).
    pub usage: Usage,
    /// How long the run took, hooks included, in milliseconds.
    pub duration_ms: u64,
    /// Every call permission refused, in order.
    pub permission_denials: Vec<PermissionDenial>,
}

pub struct Agent {
    pub(crate) model: Arc<dyn ChatModel>,
    pub(crate) tools: Arc<ToolRegistry>,
    /// What the model is told about the tools, computed once.
    pub(crate) specs: Arc<[ToolSpec]>,
    pub(crate) hooks: HookRegistry,
    pub(crate) policy: Arc<dyn PermissionPolicy>,
    pub(crate) approver: Arc<dyn Approver>,
    pub(crate) observer: Arc<dyn Observer>,
    pub(crate) workspace: Workspace,
    pub(crate) max_turns: u32,
    pub(crate) max_stop_continuations: u32,
    pub(crate) session_id: String,
    pub(crate) transcript_path: Option<PathBuf>,
    /// The model's name as SessionStart hooks are told it.
    pub(crate) model_name: Option<String>,
}

impl Agent {
    /// An agent without hooks, under the default policy (see [`Agent::builder`]),
    /// with nothing observed.
    pub fn new(model: Arc<dyn ChatModel>, tools: ToolRegistry, max_turns: u32) -> Agent {
        Agent::builder(model, tools).max_turns(max_turns).build()
    }

    /// Starts an agent with `model` and `tools`. Until told otherwise it is safe:
    /// the real permission engine in default mode with no rules (read-only
    /// tools run, anything else asks), and no approver, so every ask is denied;
    /// the workspace is the current directory. Allow more with
    /// [`AgentBuilder::policy`] and [`AgentBuilder::approver`].
    pub fn builder(model: Arc<dyn ChatModel>, tools: ToolRegistry) -> AgentBuilder {
        AgentBuilder {
            agent: Agent {
                model,
                specs: tools.specs().into(),
                tools: Arc::new(tools),
                hooks: HookRegistry::new(),
                policy: Arc::new(PolicyEngine::new(
                    PolicyConfig::default(),
                    std::env::var_os("HOME").map(PathBuf::from),
                )),
                approver: Arc::new(NoTerminalApprover),
                observer: Arc::new(NoopObserver),
                workspace: Workspace::new(
                    std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")),
                ),
                max_turns: 10,
                max_stop_continuations: 1,
                session_id: uuid::Uuid::new_v4().to_string(),
                transcript_path: None,
                model_name: None,
            },
        }
    }

    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    pub fn tools(&self) -> &ToolRegistry {
        &self.tools
    }
}

/// Sets up an [`Agent`]; everything but the model and the tools is optional.
pub struct AgentBuilder {
    agent: Agent,
}

impl AgentBuilder {
    pub fn hooks(mut self, hooks: HookRegistry) -> Self {
        self.agent.hooks = hooks;
        self
    }

    pub fn policy(mut self, policy: Arc<dyn PermissionPolicy>) -> Self {
        self.agent.policy = policy;
        self
    }

    pub fn approver(mut self, approver: Arc<dyn Approver>) -> Self {
        self.agent.approver = approver;
        self
    }

    pub fn observer(mut self, observer: Arc<dyn Observer>) -> Self {
        self.agent.observer = observer;
        self
    }

    pub fn workspace(mut self, workspace: Workspace) -> Self {
        self.agent.workspace = workspace;
        self
    }

    pub fn max_turns(mut self, max_turns: u32) -> Self {
        self.agent.max_turns = max_turns;
        self
    }

    /// How many times Stop hooks may force the run to continue (default 1).
    pub fn max_stop_continuations(mut self, count: u32) -> Self {
        self.agent.max_stop_continuations = count;
        self
    }

    pub fn session_id(mut self, session_id: impl Into<String>) -> Self {
        self.agent.session_id = session_id.into();
        self
    }

    /// The transcript path hooks are told about.
    pub fn transcript_path(mut self, path: PathBuf) -> Self {
        self.agent.transcript_path = Some(path);
        self
    }

    /// The model's name, as SessionStart hooks see it (`model`).
    pub fn model_name(mut self, name: impl Into<String>) -> Self {
        self.agent.model_name = Some(name.into());
        self
    }

    /// Builds the agent. With PermissionRequest hooks registered, the approver
    /// is wrapped in a [`HookApprover`] so that they answer an `ask` first.
    pub fn build(mut self) -> Agent {
        if !self.agent.hooks.permission_request.is_empty() {
            let agent = &self.agent;
            let common = HookCommon {
                session_id: agent.session_id.clone(),
                workspace: agent.workspace.root().to_path_buf(),
                transcript_path: agent.transcript_path.clone(),
                permission_mode: agent.policy.mode_name().to_owned(),
                cancel: tokio_util::sync::CancellationToken::new(),
            };
            let approver = HookApprover::new(
                agent.approver.clone(),
                agent.hooks.clone(),
                agent.observer.clone(),
                common,
            );
            self.agent.approver = Arc::new(approver);
        }
        self.agent
    }
}
