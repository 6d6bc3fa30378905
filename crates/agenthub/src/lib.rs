//! AgentHub as a library: the agent runtime whose hooks and permissions you
//! can trust. Add this one crate to get everything the `agenthub` command
//! does — settings layers, the real permission policy with its workspace
//! guards, command hooks speaking Claude Code's protocol, the model from
//! settings — and the whole public API of the crates underneath.
//!
//! Two ways in:
//! - [`Agent::builder`] with your own model and tools: safe by default (the
//!   real policy engine in default mode; an `ask` with no approver is a deny).
//! - [`Assembly`]: "a workspace and options" in, the agent `agenthub run` would
//!   build out — same settings files, same policy, same hooks.
//!
//! ```
//! use agenthub::{Agent, CancellationToken, ScriptedModel, ScriptedTurn, ToolRegistry, Workspace};
//! use std::sync::Arc;
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let model = ScriptedModel::new(
//!     "hello",
//!     vec![ScriptedTurn { content: Some("hello world".into()), tool_calls: vec![] }],
//! );
//! let agent = Agent::builder(Arc::new(model), ToolRegistry::with_builtins().unwrap())
//!     .workspace(Workspace::new(std::env::temp_dir()))
//!     .build();
//! let report = agent.run("say hello", CancellationToken::new()).await;
//! assert_eq!(report.result.as_deref(), Some("hello world"));
//! # });
//! ```
//!
//! This crate assembles; it never prints, never reads a terminal and never
//! asks a person. Front ends (the CLI) add an [`Approver`] and observers.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod agents;
mod assembly;
mod conditions;
mod configuration;
mod current_turn;
mod error;
mod executed;
mod explain;
mod fork;
mod hook_services;
mod mcp;
mod model;
mod network;
mod options;
mod packages;
mod pinned;
mod policy;
pub mod replay;
mod report;
mod review;
mod session_setup;
mod sessions;
mod stand_in;
mod structured;
mod transcript;
mod trust;

pub use agenthub_checkpoints as checkpoints;
pub use agenthub_packages::commands::{CommandError, CustomCommand, CustomCommands, Expansion};
pub use agenthub_packages::grants::{Active, ActiveGuard};
pub use agenthub_packages::plugins;
pub use agenthub_packages::skills::{Skill, SkillError, SkillInput, SkillTool, Skills, SKILL_TOOL};
pub use agenthub_traces as tracing_export;

pub use assembly::{Assembly, SetupWarning, DEFAULT_MAX_TURNS};
pub use configuration::{resolve_workspace, Configuration};
pub use current_turn::CurrentTurn;
pub use error::SetupError;
pub use explain::{CallExplanation, ExplainError, WouldRun};
pub use fork::{fork_session, ForkError};
pub use mcp::mcp_config;
pub use model::{choose_model, provider_config, ChosenModel, ModelSource};
pub use network::{
    network_record, no_one_to_ask, NetworkExplanation, SessionNetworkGate, NETWORK_TOOL,
};
pub use options::{
    BadInlineMcpConfig, McpConfigSource, ModelOptions, Options, PermissionOptions, ProviderOptions,
};
pub use policy::{build_policy, PolicySetup};
pub use report::{report_json, usage_json, ResultSubtype};
pub use review::{review_project, ProjectReview, ReviewedFile, ReviewedMemory};
pub use session_setup::{Conversation, ReadySession, SessionSetup, SessionStart};
pub use sessions::{
    find_session, latest_session, list_sessions, SessionLookupError, SessionSummary,
};
pub use stand_in::StandInTool;
pub use structured::read_answer_schema;
pub use transcript::{open_transcript, reopen_transcript, transcript_path, transcripts_dir};
pub use trust::{revoke_trust, stored_trust, trust_workspace, TrustChoice, TrustStatus};

pub use agenthub_core::system_prompt::BUILT_IN_PROMPT;
pub use agenthub_core::{
    Agent, AgentBuilder, AgentDefinition, AgentDefinitions, AgentEvent, CallReport, Carried,
    ConsoleObserver, HookApprover, NoopObserver, Observer, ObserverError, Observers,
    PermissionDenial, PromptSources, RunReport, SavedSession, Session, SubagentInfo, SystemPrompt,
    TaskTool, TranscriptWriter, INTERRUPTED,
};
pub use agenthub_core::{CommandPrompt, CompactionError, ContextBudget, SLASH_COMMAND_EXPANSION};
pub use agenthub_hooks::command::journal::scope as journal_hooks;
pub use agenthub_hooks::{
    HookCallbackCaller, HookCallbackError, HookCommon, HookError, HookRegistry,
    PermissionRequestResult, PostToolUseResult, PreCompactResult, PreToolUseResult,
    SessionEndResult, SessionStartResult, StopResult, UserPromptSubmitResult,
};
pub use agenthub_mcp::{
    McpCallResult, McpError, McpServers, SdkBridgeError, SdkMcpBridge, ServerState, ServerStatus,
    SharedServers,
};
pub use agenthub_model::{ChatModel, ScriptedCall, ScriptedModel, ScriptedTurn, ToolProtocol};
pub use agenthub_policy::{
    Approval, Approver, Decision, HowToAllow, NoTerminalApprover, PermissionMode, PermissionPolicy,
    PolicyEngine,
};
pub use agenthub_protocol::{
    Message, PermissionEffect, RewindScope, RunStatus, StepError, StepFuture, StepJournal,
    StepKind, Usage,
};
pub use agenthub_sandbox::{SandboxMode, SandboxPolicy};
pub use agenthub_tools::{
    PathField, PreparedCall, SchemaError, Tool, ToolCapabilities, ToolContext, ToolEffect,
    ToolError, ToolOutput, ToolRegistry, Workspace,
};
pub use tokio_util::sync::CancellationToken;
// What the front doors past the facade use (agenthub-serve, the CLI): their
// terminal views, the hook probe, the demo and the spinner's model wrapper.
pub use agenthub_core::{console, read_session, utc_time};
pub use agenthub_hooks::command::RunEnd;
pub use agenthub_hooks::{run_sample, CommandRunReport, RunLog, SampleEnv, SessionEndReason};
pub use agenthub_model::{
    AssistantReply, ModelError, ModelEvents, ModelRequest, NoModelEvents, RequestPurpose,
};
pub use agenthub_policy::{GrantOffer, SessionGrants, Source};
pub use agenthub_protocol::{typed_prompt, with_reminder};
pub use agenthub_protocol::{
    ErrorCode, HookDecision, HookEvent, HookOutcomeKind, HookRecord, OutcomeRecord,
    PermissionSource, ToolCall,
};
pub use agenthub_settings::links::LinkRule;
pub use agenthub_settings::state_files::append_private_file;
pub use agenthub_settings::{
    callback_hooks, CallbackHookError, CallbackRegistration, CommandHookConfig, Settings,
};
pub use agenthub_tools::{FileChange, ToolDefinition, ToolKind};

/// The crates underneath, for everything not re-exported above.
pub mod crates {
    pub use agenthub_core as core;
    pub use agenthub_hooks as hooks;
    pub use agenthub_mcp as mcp;
    pub use agenthub_model as model;
    pub use agenthub_packages as packages;
    pub use agenthub_policy as policy;
    pub use agenthub_protocol as protocol;
    pub use agenthub_sandbox as sandbox;
    pub use agenthub_settings as settings;
    pub use agenthub_tools as tools;
}
