//! The command hook end-to-end tests, by topic.

mod support;

mod added_events;
mod claude_code;
mod claude_settings;
mod conditions;
mod conformance;
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
