//! The behaviours of `scenarios`, each driven by the official Claude Agent
//! SDK for Python (tests/python/agent_sdk/*.py).

use super::{scenarios, Sdk};

#[test]
fn a_query_streams_its_messages_and_ends_in_a_result() {
    scenarios::a_query_streams_its_messages_and_ends_in_a_result(Sdk::Python);
}

#[test]
fn streaming_input_answers_each_user_message_with_its_own_result() {
    scenarios::streaming_input_answers_each_user_message_with_its_own_result(Sdk::Python);
}

#[test]
fn can_use_tool_hears_an_ask_and_its_deny_reaches_the_model_with_its_message() {
    scenarios::can_use_tool_hears_an_ask_and_its_deny_reaches_the_model_with_its_message(
        Sdk::Python,
    );
}

#[test]
fn a_pre_tool_use_hook_callback_blocks_a_call_the_rules_allow() {
    scenarios::a_pre_tool_use_hook_callback_blocks_a_call_the_rules_allow(Sdk::Python);
}

#[test]
fn the_model_calls_a_tool_of_an_in_process_sdk_mcp_server() {
    scenarios::the_model_calls_a_tool_of_an_in_process_sdk_mcp_server(Sdk::Python);
}

#[test]
fn a_deny_rule_denies_a_tool_of_an_in_process_sdk_mcp_server() {
    scenarios::a_deny_rule_denies_a_tool_of_an_in_process_sdk_mcp_server(Sdk::Python);
}

#[test]
fn interrupt_ends_a_turn_whose_tool_runs_long() {
    scenarios::interrupt_ends_a_turn_whose_tool_runs_long(Sdk::Python);
}

#[test]
fn set_permission_mode_lets_accept_edits_allow_a_write_that_asked() {
    scenarios::set_permission_mode_lets_accept_edits_allow_a_write_that_asked(Sdk::Python);
}

#[test]
fn resume_by_session_id_continues_the_session() {
    scenarios::resume_by_session_id_continues_the_session(Sdk::Python);
}

#[test]
fn every_option_the_sdk_passes_is_accepted_and_each_one_ignored_is_named_once() {
    scenarios::every_option_the_sdk_passes_is_accepted_and_each_one_ignored_is_named_once(
        Sdk::Python,
    );
}

#[test]
fn the_sdks_system_prompt_replaces_agenthubs_own() {
    scenarios::the_sdks_system_prompt_replaces_agenthubs_own(Sdk::Python);
}

#[test]
fn can_use_tool_allowing_with_an_updated_input_runs_the_call_on_that_input() {
    scenarios::can_use_tool_allowing_with_an_updated_input_runs_the_call_on_that_input(Sdk::Python);
}

#[test]
fn an_updated_input_outside_the_workspace_is_denied_as_any_input_would_be() {
    scenarios::an_updated_input_outside_the_workspace_is_denied_as_any_input_would_be(Sdk::Python);
}

#[test]
fn messages_queued_when_stdin_ends_are_each_answered_before_exit() {
    scenarios::messages_queued_when_stdin_ends_are_each_answered_before_exit(Sdk::Python);
}

#[test]
fn set_model_under_the_script_is_acknowledged_and_the_script_keeps_answering() {
    scenarios::set_model_under_the_script_is_acknowledged_and_the_script_keeps_answering(
        Sdk::Python,
    );
}

#[test]
fn a_deny_rule_of_the_users_settings_denies_before_can_use_tool_is_asked() {
    scenarios::a_deny_rule_of_the_users_settings_denies_before_can_use_tool_is_asked(Sdk::Python);
}

#[test]
fn a_request_only_claude_codes_interface_serves_fails_in_the_sdk_and_the_session_goes_on() {
    scenarios::a_request_only_claude_codes_interface_serves_fails_in_the_sdk_and_the_session_goes_on(Sdk::Python);
}

#[test]
fn an_sdk_pre_tool_use_hook_blocks_a_tool_of_an_in_process_sdk_mcp_server() {
    scenarios::an_sdk_pre_tool_use_hook_blocks_a_tool_of_an_in_process_sdk_mcp_server(Sdk::Python);
}
