//! The OS sandbox for shell commands (SPEC §15): permission rules decide
//! whether a command runs, this crate limits what it can do once it runs
//! (`python3 -c` included). A [`SandboxPolicy`] says what is writable,
//! masked, protected and whether the network is on; [`sandboxed_command`]
//! turns a program into a command confined by bubblewrap, else by Landlock +
//! seccomp, else refuses with an error that says how to fix it.
//!
//! This crate knows no tool and reads no settings; it must never run a
//! command unconfined unless the policy's mode is `off`.

#![warn(missing_docs)]

mod bwrap;
mod denial;
mod landlock;
mod policy;
mod runner;

pub use denial::denial_note;
pub use landlock::DISABLE_LANDLOCK_ENV;
pub use policy::{SandboxMode, SandboxPolicy, UnknownMode};
pub use runner::{
    confining_mechanism, sandboxed_command, Mechanism, SandboxError, SandboxedCommand,
};
