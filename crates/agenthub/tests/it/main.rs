//! The facade's integration tests, one binary: the examples an embedder
//! copies from, and the system prompt a session is given.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod conditions;
mod examples;
mod system_prompt;
