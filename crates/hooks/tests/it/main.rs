//! The hooks crate's integration tests, one binary: real shell scripts in
//! temporary workspaces run as command hooks, one module per topic.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod support;

mod command_runner;
mod exit_codes;
mod json_output;
mod pre_tool_use_json;
mod events;
mod failures;
mod permission_request;
mod conformance;
mod claude_code;
mod handlers;
