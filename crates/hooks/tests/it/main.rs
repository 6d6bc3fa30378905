//! The hooks crate's integration tests, one binary: real shell scripts in
//! temporary workspaces run as command hooks, one module per topic.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod support;

mod added_events;
mod callbacks;
mod claude_code;
mod command_runner;
mod conformance;
mod events;
mod exit_codes;
mod failures;
mod handlers;
mod json_output;
mod permission_request;
mod pre_tool_use_json;
