//! The facade's integration tests, one binary: the examples an embedder
//! copies from, the system prompt a session is given, and the workspace's
//! architecture invariants (`architecture.rs`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod architecture;
mod examples;
mod system_prompt;
