//! The facade's integration tests, one binary: the examples an embedder
//! copies from, the system prompt a session is given, the `if` conditions of
//! settings hooks as assembled, and the workspace's architecture invariants
//! (`architecture.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod application_hooks;
mod architecture;
mod conditions;
mod examples;
mod sdk_mcp;
mod system_prompt;
