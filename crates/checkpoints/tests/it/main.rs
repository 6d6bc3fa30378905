//! The checkpoints crate's behaviour through its public API: real sessions
//! (the scripted model, the built-in tools) checkpointed by a
//! [`Checkpointer`](agenthub_checkpoints::Checkpointer) into a shadow store,
//! then rewound. One binary: every store lives under one temporary
//! `$XDG_STATE_HOME`, set once before any test reads it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod restore;
mod rewind_points;
mod support;
