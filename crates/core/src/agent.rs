//! The agent: a model, tools, hooks, a permission policy, an approver and
//! observers, put together once and run many times.

use crate::agent_builder::AgentBuilder;
use crate::subagent::{ModelResolver, ParentParts};
use crate::PermissionDenial;
use crate::{
    AgentEvent, AnswerSchema, ContextBudget, LoopGuardLimits, NoopObserver, Observer, ObserverError,
};
use agenthub_hooks::{HookRegistry, SubagentIdentity};
use agenthub_model::{ChatModel, CostMeter};
use agenthub_policy::{Approver, NoTerminalApprover, PermissionPolicy, PolicyConfig, PolicyEngine};
use agenthub_protocol::{Message, RunStatus, StepJournal, ToolSpec, Usage};
use agenthub_tools::{ToolRegistry, Workspace};
use std::path::PathBuf;
use std::sync::Arc;

/// How a run ended, with everything a caller needs to report it.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    /// The run's outcome (`completed`, `stopped`, `blocked`, `failed`,
    /// `max_turns`, `cancelled`); a front end maps it to its exit code.
    pub status: RunStatus,
    /// The final answer (completed), or the last assistant text otherwise.
    pub result: Option<String>,
    /// Why a run failed, or the reason it was stopped, blocked or cancelled.
    pub error: Option<String>,
    /// Model requests made.
    pub turns: u32,
    /// The session the run belonged to, as hooks and the transcript name it.
    pub session_id: String,
    /// The whole conversation, every tool call paired with its result: what
    /// a caller inspects or continues from.
    pub history: Vec<Message>,
    /// The tokens of every model request, summed (requests whose provider
    /// reported none add nothing).
    pub usage: Usage,
    /// How long the run took, hooks included, in milliseconds.
    pub duration_ms: u64,
    /// Of that, the time spent waiting for model requests (its subagents'
    /// included), in milliseconds: Claude Code's `duration_api_ms`.
    pub duration_api_ms: u64,
    /// Every call permission refused, in order.
    pub permission_denials: Vec<PermissionDenial>,
    /// What the session's model requests cost so far, in USD (Claude Code's
    /// `total_cost_usd`); `None` without a cost meter or when a request's
    /// price was unknown.
    pub total_cost_usd: Option<f64>,
    /// The final answer as JSON, when the agent has an answer schema and
    /// the answer satisfied it.
    pub structured_output: Option<serde_json::Value>,
}

/// A model, tools, hooks, a permission policy, an approver and observers,
/// assembled by [`Agent::builder`]. Every tool call of a run goes through one
/// pipeline (hooks, permission, approval, handler), so none can skip a check.
/// An agent is immutable once built and can run many tasks.
#[derive(Clone)]
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
    /// Where text too long for the model is saved whole; `None`: beside
    /// the transcript ([`Agent::outputs_folder`]).
    pub(crate) outputs_folder: Option<PathBuf>,
    /// The model's name as SessionStart hooks are told it.
    pub(crate) model_name: Option<String>,
    /// The first message of every conversation, if any.
    pub(crate) system_prompt: Option<String>,
    /// What a new conversation's first user message starts with, in a
    /// `<system-reminder>` block (contract §33), if anything.
    pub(crate) workspace_context: Option<String>,
    /// The memory files the system prompt holds: InstructionsLoaded hooks
    /// are told each when a session starts with it.
    pub(crate) memory_files: Vec<PathBuf>,
    pub(crate) context_window: Option<u64>,
    pub(crate) compact_threshold: Option<f64>,
    /// How many subagents of one message may run at the same time.
    pub(crate) max_parallel_agents: usize,
    /// The subagent this agent is (contract §17); `None` for a session's own agent.
    pub(crate) subagent: Option<SubagentIdentity>,
    /// What a subagent started by this agent's runs is built from; `None`
    /// for a subagent's own agent (a subagent cannot start one).
    pub(crate) parent_parts: Option<Arc<ParentParts>>,
    /// Builds the model a subagent definition names (`model: …`).
    pub(crate) model_resolver: Option<ModelResolver>,
    pub(crate) definition_hooks: Option<crate::subagent::SubagentHooks>,
    /// Where model requests and tool handlers run as durable steps (contract
    /// §18); `None`: they are plain calls.
    pub(crate) journal: Option<Arc<dyn StepJournal>>,
    /// When identical calls in a row get a note, and end the run.
    pub(crate) loop_guard: LoopGuardLimits,
    /// The schema every final answer must satisfy, if any.
    pub(crate) answer_schema: Option<Arc<AnswerSchema>>,
    /// What the session's model requests cost, for the report.
    pub(crate) cost_meter: Option<Arc<CostMeter>>,
    /// Acts before each round with a call that may write (contract §24's
    /// checkpoints); `None`: nothing does.
    pub(crate) before_writes: Option<Arc<dyn crate::BeforeWrites>>,
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
    ///
    /// ```
    /// use agenthub_core::Agent;
    /// use agenthub_model::{ScriptedCall, ScriptedModel, ScriptedTurn};
    /// use agenthub_protocol::RunStatus;
    /// use agenthub_tools::{ToolRegistry, Workspace};
    /// use serde_json::json;
    /// use std::sync::Arc;
    /// use tokio_util::sync::CancellationToken;
    ///
    /// // The model asks to run a shell command, then reports what it got back.
    /// let model = ScriptedModel::new(
    ///     "cleaner",
    ///     vec![
    ///         ScriptedTurn {
    ///             content: None,
    ///             tool_calls: vec![ScriptedCall {
    ///                 id: Some("call_1".to_owned()),
    ///                 name: "Bash".to_owned(),
    ///                 arguments: json!({ "command": "rm -rf build" }),
    ///             }],
    ///         },
    ///         ScriptedTurn { content: Some("{{last_tool_result}}".to_owned()), tool_calls: vec![] },
    ///     ],
    /// );
    /// let agent = Agent::builder(Arc::new(model), ToolRegistry::with_builtins()?)
    ///     .workspace(Workspace::new(std::env::temp_dir()))
    ///     .build();
    /// let report = tokio::runtime::Runtime::new()?
    ///     .block_on(agent.run("clean up", CancellationToken::new()));
    ///
    /// // Bash asks by default, and with no approver an ask is a deny: nothing ran.
    /// assert_eq!(report.status, RunStatus::Completed);
    /// assert_eq!(
    ///     report.result.as_deref(),
    ///     Some("Error [permission_denied]: the tool was not run: permission denied: approval required")
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
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
                workspace: default_workspace(),
                max_turns: DEFAULT_MAX_TURNS,
                max_stop_continuations: 1,
                session_id: uuid::Uuid::new_v4().to_string(),
                transcript_path: None,
                outputs_folder: None,
                model_name: None,
                system_prompt: None,
                workspace_context: None,
                memory_files: Vec::new(),
                context_window: None,
                compact_threshold: None,
                max_parallel_agents: DEFAULT_MAX_PARALLEL_AGENTS,
                subagent: None,
                parent_parts: None,
                model_resolver: None,
                definition_hooks: None,
                journal: None,
                loop_guard: LoopGuardLimits::default(),
                answer_schema: None,
                cost_meter: None,
                before_writes: None,
            },
            also: Vec::new(),
        }
    }

    /// The session id every run of this agent reports to hooks and the transcript.
    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    /// Where text too long for the model (tool output, hook context) is
    /// saved whole (contract §21): the folder the builder was given, else
    /// `<session id>.outputs` beside the transcript, else in the temporary
    /// folder when there is no transcript.
    pub fn outputs_folder(&self) -> PathBuf {
        if let Some(folder) = &self.outputs_folder {
            return folder.clone();
        }
        let parent = self
            .transcript_path
            .as_deref()
            .and_then(std::path::Path::parent)
            .filter(|parent| !parent.as_os_str().is_empty())
            .map_or_else(std::env::temp_dir, std::path::Path::to_path_buf);
        parent.join(format!("{}.outputs", self.session_id))
    }

    /// The tools the model is offered.
    pub fn tools(&self) -> &ToolRegistry {
        &self.tools
    }

    /// Who answers this agent's asks without its PermissionRequest hooks
    /// (the person, or nobody): what the network proxy of its sandbox asks
    /// about an unlisted host (contract §32). A hook, or a skill's
    /// `allowed-tools` answering through one, never answers for a host.
    pub fn person_approver(&self) -> Arc<dyn Approver> {
        match &self.parent_parts {
            Some(parts) => parts.person_approver(),
            None => self.approver.clone(),
        }
    }

    /// Who is told this agent's events: also where the network proxy of
    /// its sandbox records its decisions (contract §32).
    pub fn observer(&self) -> Arc<dyn Observer> {
        self.observer.clone()
    }

    /// Tells this agent's observers `event` from outside a run: a front end
    /// records what it did to the session between prompts (a rewind, the
    /// checkpoint taken before it) in the same transcript, in order.
    pub fn tell(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        self.observer.on_event(event)
    }

    /// The context budget: the window set on the builder, else the named
    /// model's known window, else 128k tokens; the threshold set, else 0.8.
    pub fn budget(&self) -> ContextBudget {
        ContextBudget::for_model(
            self.model_name.as_deref(),
            self.context_window,
            self.compact_threshold,
        )
    }
}

/// How many model requests a run may make when neither the front end nor
/// the settings' `maxTurns` says (contract §12): the one default, which the
/// builder and the facade's assembly both use.
pub const DEFAULT_MAX_TURNS: u32 = 100;

/// How many subagents of one assistant message run at the same time unless
/// settings say otherwise (`maxParallelAgents`).
pub const DEFAULT_MAX_PARALLEL_AGENTS: usize = 4;

/// The current directory as the workspace, `~` in tool paths read as `$HOME`
/// (as the default policy reads it in rules and Bash arguments).
fn default_workspace() -> Workspace {
    let workspace = Workspace::new(std::env::current_dir().unwrap_or_else(|_| PathBuf::from(".")));
    match std::env::var_os("HOME") {
        Some(home) => workspace.with_home(PathBuf::from(home)),
        None => workspace,
    }
}
