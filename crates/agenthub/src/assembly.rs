//! A fully configured agent for one workspace: the configuration, the tools,
//! the permission policy with its guarded workspace, and the hooks — in-process
//! ones first, then the settings files' command hooks. `agenthub run`, `demo`
//! and `permissions explain` are all built from an [`Assembly`], and so is an
//! embedder's agent.
//!
//! It never prints and never asks a person: the front end adds an approver
//! (without one, every `ask` is denied) and its own observers.

use crate::explain::{explain_call, CallExplanation, ExplainError};
use crate::model::{choose_metered, ChosenModel, ModelSource};
use crate::policy::{build_policy, PolicySetup};
use crate::{Configuration, ModelOptions, Options, SetupError};
use agenthub_core::system_prompt::{AgentTypeSummary, SkillSummary};
use agenthub_core::{Agent, AgentBuilder, LoopGuardLimits, PromptSources, SystemPrompt, TaskTool};
use agenthub_hooks::{HookCallbackCaller, HookRegistry, McpToolCaller};
use agenthub_mcp::McpServers;
use agenthub_packages::{Active, CustomCommands};
use agenthub_policy::PolicyEngine;
use agenthub_settings::CommandHookConfig;
use agenthub_tools::{ProcessEnv, ToolRegistry, Workspace};
use serde_json::Value;
use std::path::Path;
use std::sync::Arc;

pub use agenthub_core::DEFAULT_MAX_TURNS;

/// Everything a run needs except the model and the front end.
pub struct Assembly {
    pub(crate) configuration: Configuration,
    pub(crate) tools: ToolRegistry,
    pub(crate) policy: PolicySetup,
    in_process: HookRegistry,
    pub(crate) command_hooks: HookRegistry,
    pub(crate) mcp: Arc<McpServers>,
    pub(crate) mcp_warnings: Vec<String>,
    /// The servers starting in the background, until [`Assembly::mcp_servers_ready`].
    pub(crate) mcp_pending: Option<crate::mcp::PendingMcp>,
    /// Where servers are shared with other sessions (the local batch).
    pub(crate) mcp_shared: Option<Arc<agenthub_mcp::SharedServers>>,
    /// The Agent SDK application serving the `sdk` servers, if one started this session.
    pub(crate) mcp_sdk_bridge: Option<Arc<dyn agenthub_mcp::SdkMcpBridge>>,
    /// Subagent definitions set aside, each naming its file and why.
    definition_warnings: Vec<String>,
    /// The skills the system prompt lists (the `Skill` tool holds their bodies).
    skills: Vec<SkillSummary>,
    /// The subagent types read from files, which the system prompt's reminder lists.
    agent_types: Vec<AgentTypeSummary>,
    /// The custom slash commands a prompt may name.
    commands: CustomCommands,
    /// The commands whose `allowed-tools` answer asks now.
    command_grants: Active,
    /// Why each skill or command file that could not be read was skipped,
    /// and each skill or command whose `allowed-tools` are not applied.
    skipped: Vec<String>,
    /// Who answers `mcp_tool` hooks: an embedder's caller, else [`Self::mcp_servers`].
    pub(crate) mcp_caller: Option<Arc<dyn McpToolCaller>>,
    /// The hooks the application that started AgentHub registered for its
    /// own callbacks (an Agent SDK's `initialize`), run as user-layer hooks.
    pub(crate) application_hooks: Vec<CommandHookConfig>,
    /// Who answers those callbacks.
    pub(crate) callbacks: Option<Arc<dyn HookCallbackCaller>>,
}

/// Something the user should know about the configuration, with where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupWarning {
    /// From reading the settings files (an ignored key, a duplicate hook).
    Settings(String),
    /// From the permission rules (a rule for a tool AgentHub does not have).
    Policy(String),
    /// From the MCP servers: an entry that cannot be read, a server that did
    /// not start (its command and stderr tail), a tool left out.
    Mcp(String),
    /// From the skills and custom commands: a file that could not be read
    /// and was skipped, or a skill's or command's `allowed-tools` that are
    /// not rules.
    Skipped(String),
    /// From the OpenTelemetry environment variables: a value that cannot
    /// be used (traces are then off).
    Tracing(String),
}

impl SetupWarning {
    /// What the warning says, whatever it is about.
    pub fn text(&self) -> &str {
        match self {
            SetupWarning::Settings(text)
            | SetupWarning::Policy(text)
            | SetupWarning::Mcp(text)
            | SetupWarning::Skipped(text)
            | SetupWarning::Tracing(text) => text,
        }
    }
}

impl Assembly {
    /// Loads the configuration for `options` with the built-in tools.
    pub fn load(options: &Options) -> Result<Assembly, SetupError> {
        Assembly::new(
            Configuration::load(options)?,
            ToolRegistry::with_builtins()?,
        )
    }

    /// Assembles `configuration` around `tools`: the tools' names are what
    /// permission rules may name.
    /// The `Task` tool is added when there is a subagent type to start (the
    /// built-in `general-purpose` counts), the `Skill` tool when there is a
    /// skill.
    pub fn new(
        configuration: Configuration,
        mut tools: ToolRegistry,
    ) -> Result<Assembly, SetupError> {
        let (definitions, definition_warnings) = configuration.agent_definitions();
        let agent_types = definitions.read_from_files();
        if definitions.iter().next().is_some() {
            tools.register(TaskTool::new(definitions))?;
        }
        let (skills, skill_errors) = configuration.skills();
        let (commands, command_errors) = configuration.custom_commands();
        let mut skipped: Vec<String> = skill_errors
            .iter()
            .map(ToString::to_string)
            .chain(command_errors.iter().map(ToString::to_string))
            .collect();
        let summaries = skills.summaries();
        let pending_grants = match skills.is_empty() {
            true => None,
            false => Some(agenthub_packages::skills::register(skills, &mut tools)?),
        };
        let mut policy = build_policy(&configuration, &tools)?;
        let env = ProcessEnv::from_vars(configuration.settings().env.clone());
        policy.workspace = policy.workspace.clone().with_process_env(env);
        let mut in_process = HookRegistry::new();
        let with_rules =
            |file: &Path, rules: &[String]| configuration.policy_with(&tools, file, rules);
        if let Some(pending) = pending_grants {
            let (hooks, warnings) = pending.hooks(&with_rules, &policy.workspace);
            in_process.extend(hooks);
            skipped.extend(warnings);
        }
        let (command_grants, hooks, warnings) = commands.grants(&with_rules, &policy.workspace);
        in_process.extend(hooks);
        skipped.extend(warnings);
        let command_hooks = configuration.command_hooks()?;
        Ok(Assembly {
            configuration,
            tools,
            policy,
            in_process,
            command_hooks,
            mcp: Arc::new(McpServers::none()),
            mcp_warnings: Vec::new(),
            mcp_pending: None,
            mcp_shared: None,
            mcp_sdk_bridge: None,
            definition_warnings,
            skills: summaries,
            agent_types,
            commands,
            command_grants,
            skipped,
            mcp_caller: None,
            application_hooks: Vec::new(),
            callbacks: None,
        })
    }

    /// The started MCP servers: their states for `mcp list`, and
    /// [`McpServers::call_tool`] for callers outside the pipeline (hooks).
    pub fn mcp_servers(&self) -> &Arc<McpServers> {
        &self.mcp
    }

    /// Adds in-process hooks; they run before the settings files' command hooks.
    pub fn with_hooks(mut self, hooks: HookRegistry) -> Assembly {
        self.in_process.extend(hooks);
        self
    }

    /// Every warning, settings files first.
    pub fn warnings(&self) -> Vec<SetupWarning> {
        let mut settings = self.configuration.warnings();
        settings.extend(self.definition_warnings.iter().cloned());
        let settings = settings.into_iter();
        let policy = self.policy.warnings.iter().cloned();
        let mcp = self.mcp_warnings.iter().cloned();
        let skipped = self.skipped.iter().cloned();
        settings
            .map(SetupWarning::Settings)
            .chain(policy.map(SetupWarning::Policy))
            .chain(mcp.map(SetupWarning::Mcp))
            .chain(skipped.map(SetupWarning::Skipped))
            .chain(
                crate::tracing_export::global_exporter()
                    .err()
                    .map(|error| SetupWarning::Tracing(error.to_string())),
            )
            .collect()
    }

    /// The custom slash commands (contract §20) a prompt may name.
    pub fn commands(&self) -> &CustomCommands {
        &self.commands
    }

    /// The skills (contract §20) the system prompt lists, by name and
    /// description: what a front end offers besides the commands.
    pub fn skills(&self) -> &[SkillSummary] {
        &self.skills
    }

    /// The commands whose `allowed-tools` answer the asks of the agent
    /// built from this assembly: a front end that keeps one agent for many
    /// prompts (the interactive session) holds [`Active::during`] around a
    /// command's prompt. Its policy with the command's rules added decides;
    /// it never lifts a deny.
    pub fn command_grants(&self) -> Active {
        self.command_grants.clone()
    }

    /// Adds `rules`, written in `file`, to the allow rules and builds the
    /// policy again: a custom command's `allowed-tools`, for the one prompt
    /// it expands to (contract §20). Rules that do not parse leave the
    /// assembly as it was and are the error.
    pub fn allow_also(&mut self, file: &Path, rules: &[String]) -> Result<(), SetupError> {
        if rules.is_empty() {
            return Ok(());
        }
        let mut configuration = self.configuration.clone();
        configuration.allow_also(file, rules);
        let process_env = self.policy.workspace.process_env().clone();
        let mut policy = build_policy(&configuration, &self.tools)?;
        policy.workspace = policy.workspace.clone().with_process_env(process_env);
        self.configuration = configuration;
        self.policy = policy;
        Ok(())
    }

    /// The configuration the assembly was built from.
    pub fn configuration(&self) -> &Configuration {
        &self.configuration
    }

    /// The tools the agent offers.
    pub fn tools(&self) -> &ToolRegistry {
        &self.tools
    }

    /// With `sandbox.network` an object, who answers and records for the
    /// sandbox's network proxy; a front door that builds its agent without
    /// [`Assembly::session`] connects it itself.
    pub fn network_gate(&self) -> Option<Arc<crate::SessionNetworkGate>> {
        self.policy.network_gate.clone()
    }

    /// The permission policy every call goes through.
    pub fn policy(&self) -> &Arc<PolicyEngine> {
        &self.policy.engine
    }

    /// The workspace with its extra roots and read guard.
    pub fn workspace(&self) -> &Workspace {
        &self.policy.workspace
    }

    /// The hooks in the order they run: in-process, then command hooks.
    pub fn hooks(&self) -> HookRegistry {
        let mut hooks = self.in_process.clone();
        hooks.extend(self.command_hooks.clone());
        hooks
    }

    /// The context budget a session of `model` will have (the settings'
    /// `contextWindow`, else the model's known window, else the default):
    /// what a front end checks a prompt against before it opens a session.
    pub fn context_budget(&self, model: &ChosenModel) -> agenthub_core::ContextBudget {
        let budget = self.configuration.settings().budget;
        agenthub_core::ContextBudget::for_model(
            Some(&model.name),
            budget.context_window,
            budget.auto_compact_threshold,
        )
    }

    /// The model `options` ask for, completed from the environment and the settings files.
    /// Its cost is counted, and refused past the options' `max_budget_usd`.
    pub fn choose_model(&self, options: &ModelOptions) -> Result<ChosenModel, SetupError> {
        choose_metered(
            options,
            self.configuration.settings(),
            self.configuration.options().max_budget_usd,
        )
    }

    /// What a run would decide on one call, and which hooks would run for it.
    pub fn explain(&self, tool: &str, input: &Value) -> Result<CallExplanation, ExplainError> {
        explain_call(self, tool, input)
    }

    /// How a sandboxed command's connection to `destination` would be
    /// decided (contract §32): `agenthub permissions explain Network HOST`.
    pub fn explain_network(
        &self,
        destination: &agenthub_sandbox::Destination,
    ) -> crate::NetworkExplanation {
        crate::NetworkExplanation::of(&self.policy.workspace.sandbox(), destination)
    }

    /// The system prompt of this workspace: the built-in instructions, or
    /// the options' `system_prompt`, else the settings' `systemPrompt` (an
    /// empty one: no instructions); the options' or settings' appended text
    /// — together the system message; then the environment and the memory
    /// files (contract §12), read now — the workspace's only once it is
    /// trusted —, each skill's name and description (§20) and the subagent
    /// types read from files: together the first user message's
    /// `<system-reminder>` (§33).
    pub fn system_prompt(&self) -> SystemPrompt {
        let options = self.configuration.options();
        let settings = self.configuration.settings();
        let sources = PromptSources::current(
            self.configuration.workspace(),
            self.configuration.project_memory(),
        );
        SystemPrompt::gather(&sources)
            .replace_instructions(first_of(&options.system_prompt, &settings.system_prompt))
            .append(first_of(
                &options.append_system_prompt,
                &settings.append_system_prompt,
            ))
            .with_skills(self.skills.clone())
            .with_agent_types(self.agent_types.clone())
    }

    /// An agent builder with everything configured: tools (a real provider
    /// is never offered the demo-only `Echo`, no model a tool a deny rule
    /// names whole), workspace, policy, hooks, the
    /// model and its name, its cost meter, the system prompt (with the
    /// answer schema's instruction under `--json-schema`), the settings'
    /// limits on turns (else [`DEFAULT_MAX_TURNS`]), on Stop continuations,
    /// on concurrent subagents (`maxParallelAgents`) and on repeated calls
    /// (`loopGuard`), and checkpoints of the workspace before each round
    /// that may write (contract §24). The front end may add an approver, observers, a
    /// session id, a transcript path, and its own `max_turns`.
    pub fn agent(self, model: ChosenModel) -> AgentBuilder {
        self.agent_of(model, None)
    }

    /// [`Assembly::agent`] for the session `conversation` when its id is
    /// known before it starts (a resumed one): its trace names it.
    pub(crate) fn agent_of(self, model: ChosenModel, conversation: Option<&str>) -> AgentBuilder {
        let mut hooks = self.in_process.clone();
        hooks.extend(self.command_hooks_for(&model.model));
        let definition_hooks = self.definition_hooks_for(&model.model);
        let schema = self.configuration.options().json_schema.clone();
        let prompt = self.system_prompt();
        let memory_files = prompt.memory.iter().map(|file| file.path.clone()).collect();
        let mut system_prompt = prompt.system_message();
        if let Some(schema) = &schema {
            system_prompt = match system_prompt.is_empty() {
                true => schema.instruction(),
                false => format!("{system_prompt}\n\n{}", schema.instruction()),
            };
        }
        let workspace_context = prompt.workspace_context();
        let tracer = crate::tracing_export::session_tracer(
            Some(model.name.clone()),
            sandbox_facts(&self.tools, &self.policy.workspace),
        )
        .map(|tracer| {
            let tracer = tracer.provider(provider_name(&model));
            match conversation {
                Some(id) => tracer.conversation(id),
                None => tracer,
            }
        });
        let tools = match model.source {
            ModelSource::Provider => self.tools.without_demo_tools(),
            ModelSource::Scripted => self.tools,
        };
        let tools = withhold_denied(tools, &self.policy.engine);
        let settings = self.configuration.settings();
        let continuations = settings.max_stop_continuations.unwrap_or(1);
        let max_turns = settings.max_turns.unwrap_or(DEFAULT_MAX_TURNS);
        let budget = settings.budget;
        let parallel = settings
            .max_parallel_agents
            .map_or(agenthub_core::DEFAULT_MAX_PARALLEL_AGENTS, |count| {
                count as usize
            });
        let loop_guard = loop_guard(settings.model_limits.loop_guard);
        let mut builder = Agent::builder(model.model, tools)
            .workspace(self.policy.workspace)
            .policy(self.policy.engine)
            .hooks(hooks)
            .model_name(model.name)
            .system_prompt(system_prompt)
            .workspace_context(workspace_context)
            .memory_files(memory_files)
            .max_turns(max_turns)
            .max_parallel_agents(parallel)
            .max_stop_continuations(continuations)
            .loop_guard(loop_guard)
            .subagent_hooks(definition_hooks)
            .before_writes(Arc::new(crate::checkpoints::Checkpointer::new()));
        if let Some(tracer) = tracer {
            builder = builder.also_observe(Arc::new(tracer));
        }
        if let Some(resolver) = model.subagent_models {
            builder = builder.subagent_models(resolver);
        }
        if let Some(meter) = model.cost_meter {
            builder = builder.cost_meter(meter);
        }
        if let Some(schema) = schema {
            builder = builder.answer_schema(schema);
        }
        with_budget(builder, budget)
    }
}

/// `tools` with every tool a deny rule names whole (`--disallowedTools
/// Task`, settings `permissions.deny: ["Task"]`) withheld from the model, as
/// Claude Code does: every call of it would be refused, so offering it only
/// costs tokens and invites calls (contract §33). A call of it anyway still
/// meets that rule.
fn withhold_denied(mut tools: ToolRegistry, policy: &PolicyEngine) -> ToolRegistry {
    let denied: Vec<String> = tools
        .iter()
        .map(|tool| tool.name().to_owned())
        .filter(|name| policy.denies_tool(name))
        .collect();
    for name in denied {
        tools.withhold(&name);
    }
    tools
}

/// `gen_ai.provider.name` of the GenAI conventions: `openai` or
/// `anthropic` by the provider's protocol, `agenthub.scripted` for a script.
fn provider_name(model: &ChosenModel) -> &'static str {
    match (model.provider, model.source) {
        (Some(kind), _) => kind.as_str(),
        (None, ModelSource::Scripted) => "agenthub.scripted",
        (None, ModelSource::Provider) => crate::tracing_export::UNKNOWN_PROVIDER,
    }
}

/// What a session's trace says about the sandbox: its mode, and which
/// tools run shell commands in it.
fn sandbox_facts(
    tools: &ToolRegistry,
    workspace: &Workspace,
) -> crate::tracing_export::SandboxFacts {
    let shell_tools = tools
        .iter()
        .filter(|tool| tool.capabilities().shell_command.is_some())
        .map(|tool| (tool.name().to_owned(), tool.capabilities().unsandboxed_flag))
        .collect();
    crate::tracing_export::SandboxFacts {
        mode: workspace.sandbox().mode.as_str().to_owned(),
        shell_tools,
    }
}

/// The settings' `loopGuard`, each limit the library's default where unset.
fn loop_guard(settings: agenthub_settings::LoopGuardSettings) -> LoopGuardLimits {
    let defaults = LoopGuardLimits::default();
    LoopGuardLimits {
        note_after: settings.note_after.unwrap_or(defaults.note_after),
        stop_after: settings.stop_after.unwrap_or(defaults.stop_after),
    }
}

/// The settings' `contextWindow` and `autoCompactThreshold`, where set.
fn with_budget(
    builder: AgentBuilder,
    budget: agenthub_settings::ContextBudgetSettings,
) -> AgentBuilder {
    let builder = match budget.context_window {
        Some(tokens) => builder.context_window(tokens),
        None => builder,
    };
    match budget.auto_compact_threshold {
        Some(fraction) => builder.auto_compact_threshold(fraction),
        None => builder,
    }
}

/// The flag's value, else the settings' (flags win).
fn first_of(flag: &Option<String>, setting: &Option<String>) -> Option<String> {
    flag.as_ref().or(setting.as_ref()).cloned()
}
