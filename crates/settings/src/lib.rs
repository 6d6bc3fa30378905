//! Settings files (docs/hooks.md "Where hooks are configured"): the four layers — user,
//! project, local, `--settings` — read, validated strictly and merged.
//!
//! Hooks from every layer are appended in layer order (identical hooks run
//! once); for scalar keys the later layer wins. `permissions` sections are kept
//! raw, in layer order, for the permission engine to parse.
//!
//! This crate only reads and checks configuration. It never runs a hook and
//! never silently skips a broken one: a hook that cannot be understood is an
//! error naming the file and the JSON path, because a skipped gate is a hole.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod approval_timeout;
mod budget;
mod callback;
mod claude_keys;
mod error;
mod event;
mod foreign;
pub mod front_matter;
mod handler;
mod hook;
mod layers;
pub mod links;
mod load;
mod matcher;
mod mcp;
mod merge;
mod model_limits;
mod parity;
mod sandbox;
pub mod state_files;
mod strict_json;
mod toml;
mod trust;
pub mod xdg;

pub use agenthub_protocol::{FailurePolicy, HookEvent, MatcherTarget};
pub use approval_timeout::{parse as parse_approval_timeout, DEFAULT_APPROVAL_TIMEOUT};
pub use budget::ContextBudgetSettings;
pub use callback::{
    callback_hooks, CallbackHookError, CallbackRegistration, APPLICATION_HOOKS_SOURCE,
    CALLBACK_DEFAULT_TIMEOUT,
};
pub use claude_keys::ClaudeKeys;
pub use error::SettingsError;
pub use foreign::{parse_file_as, project_file_format};
pub use handler::{url_allowed, HookHandler, HttpHook};
pub use hook::{command_failure_default, CommandHookConfig, HookPlugin, DEFAULT_TIMEOUT};
pub use layers::{
    claude_user_settings_path, user_settings_path, LayerFormat, LayerKind, SettingsLayer,
    SettingsSources,
};
pub use load::{parse_file, parse_hooks_value, parse_subagent_hooks, FileSettings};
pub use matcher::{Matcher, MatcherError};
pub use mcp::{parse_project_file, PROJECT_MCP_FILE};
pub use merge::{SetAside, Settings};
pub use model_limits::{LoopGuardSettings, ModelLimitSettings, ModelPriceSetting};
pub use parity::parity_matrix;
pub use sandbox::SandboxSettings;
pub use trust::{
    agent_definition_files, command_files, is_memory_file_name, project_links_out, skill_files,
    ProjectFingerprint, ProjectTrust, TrustCheck, TrustError, TrustStore, MEMORY_FILE_NAMES,
    PROJECT_AGENT_FOLDERS, PROJECT_COMMAND_FOLDERS, PROJECT_CONFIG_FILES, PROJECT_SKILL_FOLDERS,
    SKILL_FILE,
};
