//! The end-to-end tests of the `agenthub` binary: each module runs the real
//! binary (real scripts, settings files, terminals and servers) for one part
//! of the contract. One test binary, so the dependency tree is linked once.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

mod support;

mod agent_sdk;
mod batch;
mod batch_terminal;
mod cancel;
mod chat;
mod chat_hooks;
mod chat_provider;
mod checkpoints;
mod claude_cli;
mod claude_output;
mod claude_sdk;
mod command_hooks;
mod commands;
mod compaction;
mod demo;
mod docs_commands;
mod editors;
mod explain;
mod file_tools;
mod file_tools_memory;
mod fleet_client;
mod fleet_worker;
mod git_sandbox;
mod mcp;
mod mcp_serve_cwd;
mod mcp_start;
mod model_failures;
mod newcomer;
mod no_grant_opens;
mod offered_tools;
mod permissions;
mod plugin_manifests;
mod plugin_state;
mod plugins;
mod prompt_prefix;
mod protected_writes;
mod provider_config;
mod providers;
mod read_only_commands;
mod real_costs;
mod replay;
mod run;
mod run_surface;
mod sandbox;
mod sandbox_escapes;
mod sessions;
mod signals;
mod skills;
mod subagents;
mod system_prompt;
mod terminal;
mod text_calls;
mod tracing;
mod tracing_batches;
mod trust;
mod trust_command;
mod trust_pins;
mod trusted_trees;
mod untrusted_malformed;
mod usage;
mod web_fetch;
