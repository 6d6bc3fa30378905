//! Permission (contract §4): every participant yields a verdict, and they merge
//! deny > ask > allow > passthrough. A hook's suggestion is one participant among
//! several; it can answer a tool's default ask, never a rule or a boundary.
//!
//! - [`PolicyConfig`]: rules (Claude Code syntax), mode and extra roots, from
//!   the settings files' `permissions` objects and the command line; strict.
//! - [`PolicyEngine`]: the [`PermissionPolicy`]; [`PolicyEngine::explain`]
//!   shows every participant's verdict (`agenthub permissions explain`).
//! - [`shell`]: Bash analysis with tree-sitter-bash.
//!
//! This crate decides; it never runs a tool and never prints. Asking a person is
//! behind the [`Approver`] trait, which the CLI implements for terminals.

#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod approval;
pub mod config;
pub mod decided_by;
mod decision;
pub mod engine;
mod how_to_allow;
mod protected;
pub mod rule;
mod session_grants;
pub mod shell;

pub use agenthub_protocol::{PermissionMode, UnknownMode};
pub use approval::{Approval, Approver, NoTerminalApprover};
pub use config::{CliPermissions, ConfigError, ModeFlag, Place, PolicyConfig, PolicyInput};
pub use decision::{
    AskScope, Decision, PassthroughPolicy, PermissionPolicy, PermissionRequest, PolicyError, Source,
};
pub use engine::verdict::{Explanation, Verdict, Weight};
pub use engine::{CallView, PolicyEngine};
pub use how_to_allow::HowToAllow;
pub use protected::{protected_name, protected_name_rules, protected_names, protected_paths};
pub use rule::{Rule, RuleList, RuleOrigin};
pub use session_grants::{Grant, GrantOffer, SessionGrants};
