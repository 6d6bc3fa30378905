//! Permission (SPEC §4): every participant yields a [`Decision`], and they merge
//! deny > ask > allow > passthrough. A hook's suggestion is one participant among
//! several; it can answer a tool's default ask, never a rule or a boundary.
//!
//! This crate decides; it never runs a tool and never prints. Asking a person is
//! behind the [`Approver`] trait, which the CLI implements for terminals.

mod approval;
mod decision;

pub use approval::{Approval, Approver, NoTerminalApprover};
pub use decision::{Decision, PassthroughPolicy, PermissionPolicy, PermissionRequest, PolicyError};
