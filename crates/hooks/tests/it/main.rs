//! The hooks crate's integration tests, one binary: real shell scripts in
//! temporary workspaces run as command hooks, one module per topic.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod command_runner;
