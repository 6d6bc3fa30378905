//! Sets up an [`Agent`]: one setter per part, then [`AgentBuilder::build`],
//! which wraps the approver in PermissionRequest and Notification hooks when
//! there are any and keeps what subagents are built from. It never runs
//! anything: an agent is immutable once built.

use crate::subagent::{ModelResolver, ParentParts};
use crate::{Agent, AnswerSchema, HookApprover, LoopGuardLimits, Observer, Observers};
use agenthub_hooks::{HookCommon, HookRegistry};
use agenthub_model::CostMeter;
use agenthub_policy::{Approver, PermissionPolicy};
use agenthub_protocol::StepJournal;
use agenthub_tools::Workspace;
use std::path::PathBuf;
use std::sync::Arc;

/// Sets up an [`Agent`]; everything but the model and the tools is optional.
pub struct AgentBuilder {
    pub(crate) agent: Agent,
    /// Told every event besides the [`observer`](AgentBuilder::observer),
    /// whoever sets that later (a trace exporter the assembly adds).
    pub(crate) also: Vec<Arc<dyn Observer>>,
}

impl AgentBuilder {
    /// The hooks every run consults (default: none). Replaces any set before.
    pub fn hooks(mut self, hooks: HookRegistry) -> Self {
        self.agent.hooks = hooks;
        self
    }

    /// Who decides allow, ask or deny for each call (default: the policy
    /// engine in default mode, no rules).
    pub fn policy(mut self, policy: Arc<dyn PermissionPolicy>) -> Self {
        self.agent.policy = policy;
        self
    }

    /// Who answers the policy's asks, e.g. a person at a terminal (default:
    /// nobody, so every ask is denied with `approval required`).
    pub fn approver(mut self, approver: Arc<dyn Approver>) -> Self {
        self.agent.approver = approver;
        self
    }

    /// Who is told every event: transcript, console, a UI (default: nobody).
    /// Combine several with [`crate::Observers`].
    pub fn observer(mut self, observer: Arc<dyn Observer>) -> Self {
        self.agent.observer = observer;
        self
    }

    /// Also tells `observer` every event, after the one set with
    /// [`AgentBuilder::observer`] (set before or after this call): how a
    /// library part (the trace exporter) observes without the front end
    /// having to combine it with its own observers.
    pub fn also_observe(mut self, observer: Arc<dyn Observer>) -> Self {
        self.also.push(observer);
        self
    }

    /// Where the tools may work and relative paths resolve (default: the
    /// current directory).
    pub fn workspace(mut self, workspace: Workspace) -> Self {
        self.agent.workspace = workspace;
        self
    }

    /// The most model requests one run may make (default [`crate::DEFAULT_MAX_TURNS`]); a run that
    /// needs more ends as `max_turns`.
    pub fn max_turns(mut self, max_turns: u32) -> Self {
        self.agent.max_turns = max_turns;
        self
    }

    /// How many times Stop hooks may force the run to continue (default 1).
    pub fn max_stop_continuations(mut self, count: u32) -> Self {
        self.agent.max_stop_continuations = count;
        self
    }

    /// The session id hooks and the transcript are given (default: a new UUID).
    pub fn session_id(mut self, session_id: impl Into<String>) -> Self {
        self.agent.session_id = session_id.into();
        self
    }

    /// The transcript path hooks are told about.
    pub fn transcript_path(mut self, path: PathBuf) -> Self {
        self.agent.transcript_path = Some(path);
        self
    }

    /// Where text too long for the model is saved whole, for an agent with
    /// no transcript to put it beside (`mcp serve`'s single calls).
    pub fn outputs_folder(mut self, folder: PathBuf) -> Self {
        self.agent.outputs_folder = Some(folder);
        self
    }

    /// Sets the model's context window in tokens (settings `contextWindow`).
    pub fn context_window(mut self, tokens: u64) -> Self {
        self.agent.context_window = Some(tokens);
        self
    }

    /// Sets the fraction of the window at which the history is compacted
    /// (settings `autoCompactThreshold`).
    pub fn auto_compact_threshold(mut self, fraction: f64) -> Self {
        self.agent.compact_threshold = Some(fraction);
        self
    }

    /// The model's name, as SessionStart hooks see it (`model`).
    pub fn model_name(mut self, name: impl Into<String>) -> Self {
        self.agent.model_name = Some(name.into());
        self
    }

    /// The system prompt: the first message of every conversation, sent
    /// with every model request and recorded in the transcript. None unless
    /// set, and none when `text` is empty; [`crate::SystemPrompt`] builds
    /// AgentHub's own.
    pub fn system_prompt(mut self, text: impl Into<String>) -> Self {
        self.agent.system_prompt = Some(text.into());
        self
    }

    /// What varies by workspace (the environment, memory files, the
    /// workspace's skills): the `<system-reminder>` block a new
    /// conversation's first user message starts with (contract §33), sent
    /// to the model and recorded in the transcript with that message, so the
    /// system prompt stays the same in every folder. Hooks, session lists
    /// and rewind see the prompt as typed. None unless set;
    /// [`crate::SystemPrompt::workspace_context`] builds AgentHub's own.
    pub fn workspace_context(mut self, text: impl Into<String>) -> Self {
        self.agent.workspace_context = Some(text.into());
        self
    }

    /// The memory files the system prompt was built with (most general
    /// first): InstructionsLoaded hooks (contract §21) are told each, with
    /// `load_reason: "session_start"`, when a session starts.
    pub fn memory_files(mut self, paths: Vec<PathBuf>) -> Self {
        self.agent.memory_files = paths;
        self
    }

    /// How many subagents of one assistant message may run at the same time
    /// (settings `maxParallelAgents`, default 4; at least 1).
    pub fn max_parallel_agents(mut self, count: usize) -> Self {
        self.agent.max_parallel_agents = count.max(1);
        self
    }

    /// Builds the model a subagent definition names in its `model:` field
    /// (default: none, so such a subagent uses this agent's model).
    pub fn subagent_models(mut self, resolver: ModelResolver) -> Self {
        self.agent.model_resolver = Some(resolver);
        self
    }

    /// Builds the hooks of a subagent definition's front matter (default:
    /// none, so a definition's `hooks` key would have nothing to run it; the
    /// facade builds them as it builds the settings files' command hooks).
    pub fn subagent_hooks(mut self, build: crate::subagent::SubagentHooks) -> Self {
        self.agent.definition_hooks = Some(build);
        self
    }

    /// Runs each model request and each tool handler as a step of `journal`
    /// (contract §18 "Durability"): a replayed step returns its recorded output,
    /// and a call whose handler began but was never recorded is not run
    /// again (`interrupted`). Default: no journal, every step a plain call.
    /// Steps must reach the journal in a fixed order: a journal that replays
    /// by position needs `max_parallel_agents(1)`.
    pub fn journal(mut self, journal: Arc<dyn StepJournal>) -> Self {
        self.agent.journal = Some(journal);
        self
    }

    /// When identical calls in a row (same tool, same input) get a note after
    /// their result, and end the run as `failed` (default: the 3rd, the 5th;
    /// settings `loopGuard`).
    pub fn loop_guard(mut self, limits: LoopGuardLimits) -> Self {
        self.agent.loop_guard = limits;
        self
    }

    /// Requires every final answer to be JSON valid against `schema`
    /// (`--json-schema`): an invalid one is sent back with the errors, at most
    /// [`crate::MAX_SCHEMA_RETRIES`] times, then the run fails. The report's
    /// `structured_output` holds the accepted value. Default: none.
    pub fn answer_schema(mut self, schema: impl Into<Arc<AnswerSchema>>) -> Self {
        self.agent.answer_schema = Some(schema.into());
        self
    }

    /// The meter the session's models count their cost on (see
    /// [`agenthub_model::MeteredModel`]); the report's `total_cost_usd` is
    /// its total. Default: none, and the cost is unknown.
    pub fn cost_meter(mut self, meter: Arc<CostMeter>) -> Self {
        self.agent.cost_meter = Some(meter);
        self
    }

    /// Acts before every tool round with a call of a tool that is not
    /// read-only (contract §24: a checkpoint of the workspace's files);
    /// subagents started by this agent's runs reach it too. Default: none.
    pub fn before_writes(mut self, seam: Arc<dyn crate::BeforeWrites>) -> Self {
        self.agent.before_writes = Some(seam);
        self
    }

    /// Goes on building `agent`: a subagent's, made from its parent's
    /// (crate-private: only the Task tool builds one).
    pub(crate) fn from_agent(agent: Agent) -> AgentBuilder {
        AgentBuilder {
            agent,
            also: Vec::new(),
        }
    }

    /// Builds the agent. With PermissionRequest hooks registered, the approver
    /// is wrapped in a [`HookApprover`] so that they answer an `ask` first;
    /// so it is with Notification hooks and an approver that waits for a person.
    /// A session's agent keeps what its subagents are built from (the
    /// approver before that wrapping: a subagent wraps it with its own).
    pub fn build(mut self) -> Agent {
        if !self.also.is_empty() {
            let mut observers = Observers::new().with(self.agent.observer.clone());
            for observer in self.also.drain(..) {
                observers.push(observer);
            }
            self.agent.observer = Arc::new(observers);
        }
        if self.agent.subagent.is_none() {
            self.agent.parent_parts = Some(Arc::new(ParentParts::of(&self.agent)));
        }
        let hooks = &self.agent.hooks;
        let notifies = !hooks.notification.is_empty() && self.agent.approver.waits_for_a_person();
        if !hooks.permission_request.is_empty() || notifies {
            let agent = &self.agent;
            let common = HookCommon {
                session_id: agent.session_id.clone(),
                workspace: agent.workspace.root().to_path_buf(),
                transcript_path: agent.transcript_path.clone(),
                permission_mode: agent.policy.mode(),
                cancel: tokio_util::sync::CancellationToken::new(),
                agent: agent.subagent.clone(),
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
