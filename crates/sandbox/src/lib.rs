//! The OS sandbox for shell commands (contract §15, §26): permission rules decide
//! whether a command runs, this crate limits what it can do once it runs
//! (`python3 -c` included). A [`SandboxPolicy`] says what is writable,
//! masked, protected, which secrets pass and whether the network is on;
//! [`sandboxed_command`] turns a program into a command confined by
//! bubblewrap (user namespace, no capabilities, seccomp), else by Landlock +
//! seccomp with every capability dropped, else refuses with an error that
//! says how to fix it.
//!
//! This crate knows no tool and reads no settings; it must never run a
//! command unconfined unless the policy's mode is `off`.

#![warn(missing_docs)]

mod bwrap;
mod capabilities;
mod denial;
mod domains;
mod environment;
mod join;
mod keeper;
mod landlock;
mod names;
mod netns;
mod policy;
mod protected;
mod proxy;
mod runner;
mod seccomp;

pub use denial::{denial_note, protected_note, removal_note};
pub use domains::{BadDomain, Destination, DomainEntry, DomainLists, DomainVerdict, NetworkAccess};
pub use environment::is_secret;
pub use landlock::DISABLE_LANDLOCK_ENV;
pub use names::{Content, FolderRule, Judgement, ProtectedNames, Within};
pub use policy::{SandboxMode, SandboxPolicy, UnknownMode};
pub use protected::Removal;
pub use proxy::{
    DecidedBy, GateAnswer, GateFuture, NetworkDecision, NetworkGate, NetworkProxy, ServeGuard,
};
pub use runner::{
    confining_mechanism, sandboxed_command, Aftercare, Mechanism, SandboxError, SandboxedCommand,
    DISABLE_BWRAP_ENV, PER_CALL_ENV,
};
