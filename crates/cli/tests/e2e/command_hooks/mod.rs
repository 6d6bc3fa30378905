//! End to end: command hooks written as real shell scripts in temporary
//! workspaces, configured in settings files and run through `agenthub run
//! --script ... --settings ...` (docs/hooks.md). One behaviour per test; transcripts are
//! compared as whole values.

mod support;

mod added_events;
mod claude_code;
mod claude_settings;
mod conditions;
mod conformance;
mod env_file;
mod events;
mod exit_codes;
mod failures;
mod handlers;
mod json_output;
mod new_user;
mod nothing_cut;
mod other_agents;
mod permission_request;
mod pre_compact;
mod pre_tool_use_json;
mod settings_files;
mod tool_response;
mod transcript_shape;
