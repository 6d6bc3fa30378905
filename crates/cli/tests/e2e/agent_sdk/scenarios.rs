//! Each behaviour the SDKs must get from `agenthub` (contract §30, issue 40
//! point 1), written once: the script, the program that drives it and the
//! whole value the program must print, the same for both SDKs (their
//! programs summarize messages alike). `typescript` and `python` run each
//! through their SDK.

use super::{Sdk, SdkCase};
use serde_json::{json, Value};
use std::time::Duration;

/// The init message's summary: session `S1`, the scripted model, `mode`,
/// the MCP servers `servers`.
fn init(mode: &str, servers: Value) -> Value {
    json!({"init": {"session": "S1", "model": "scripted", "permissionMode": mode,
                    "mcp_servers": servers}})
}

fn text(text: &str) -> Value {
    json!({"assistant": [{"text": text}]})
}

fn call(name: &str, input: Value) -> Value {
    json!({"assistant": [{"tool_use": [name, input]}]})
}

fn tool_result(content: &str, is_error: bool) -> Value {
    json!({"user": [{"tool_result": [content, is_error]}]})
}

/// A successful result of session `S1` whose answer is `answer`.
fn success(answer: &str, turns: u64, denials: &[&str]) -> Value {
    json!({"result": {"session": "S1", "subtype": "success", "is_error": false,
                      "result": answer, "num_turns": turns, "permission_denials": denials}})
}

fn permission_denied(reason: &str) -> String {
    format!("Error [permission_denied]: the tool was not run: permission denied: {reason}")
}

/// `{"id", "name", "arguments"}`, one scripted tool call.
fn scripted(id: &str, name: &str, arguments: Value) -> Value {
    json!({"id": id, "name": name, "arguments": arguments})
}

pub(crate) fn a_query_streams_its_messages_and_ends_in_a_result(sdk: Sdk) {
    let case = SdkCase::new();
    case.home.write("ws/notes.txt", "first line\n");
    let script = case.script(
        "script.json",
        json!([
            {"content": "reading", "tool_calls": [
                scripted("r1", "Read", json!({"file_path": "notes.txt"}))]},
            {"content": "It says: {{last_tool_result}}"}
        ]),
    );
    let read = "     1\tfirst line\n";
    let answer = format!("It says: {read}");
    assert_eq!(
        case.run(sdk, "query", &script, &[]),
        json!({"messages": [
            init("default", json!([])),
            {"assistant": [{"text": "reading"},
                           {"tool_use": ["Read", {"file_path": "notes.txt"}]}]},
            tool_result(read, false),
            text(&answer),
            success(&answer, 2, &[]),
        ]})
    );
}

pub(crate) fn streaming_input_answers_each_user_message_with_its_own_result(sdk: Sdk) {
    let case = SdkCase::new();
    let script = case.script(
        "script.json",
        json!([{"content": "one"}, {"content": "two"}]),
    );
    let printed = case.run(sdk, "streaming", &script, &[]);
    assert_eq!(
        (printed, case.sessions().len()),
        (
            json!({"messages": [
                init("default", json!([])),
                text("one"),
                success("one", 1, &[]),
                text("two"),
                success("two", 1, &[]),
            ]}),
            1
        )
    );
}

pub(crate) fn can_use_tool_hears_an_ask_and_its_deny_reaches_the_model_with_its_message(sdk: Sdk) {
    let case = SdkCase::new();
    let touch = json!({"command": "touch made.txt"});
    let script = case.script(
        "script.json",
        json!([
            {"tool_calls": [scripted("b1", "Bash", touch.clone())]},
            {"content": "saw: {{last_tool_result}}"}
        ]),
    );
    let denied = permission_denied("no files today");
    let answer = format!("saw: {denied}");
    let printed = case.run(sdk, "can_use_tool", &script, &[]);
    assert_eq!(
        (printed, case.home.ws().join("made.txt").exists()),
        (
            json!({
                "asks": [["Bash", touch]],
                "messages": [
                    init("default", json!([])),
                    call("Bash", touch),
                    tool_result(&denied, true),
                    text(&answer),
                    success(&answer, 2, &["Bash"]),
                ]
            }),
            false
        )
    );
}

pub(crate) fn a_pre_tool_use_hook_callback_blocks_a_call_the_rules_allow(sdk: Sdk) {
    let case = SdkCase::new();
    let echo = json!({"command": "echo hi"});
    let script = case.script(
        "script.json",
        json!([
            {"tool_calls": [scripted("c1", "Bash", echo.clone())]},
            {"content": "saw: {{last_tool_result}}"}
        ]),
    );
    // As a command hook's `permissionDecision: "deny"`: a permission denial.
    let blocked = permission_denied("blocked by the SDK hook");
    let answer = format!("saw: {blocked}");
    assert_eq!(
        case.run(sdk, "hook", &script, &[]),
        json!({
            "heard": [["PreToolUse", "Bash", echo, "c1"]],
            "messages": [
                init("default", json!([])),
                call("Bash", echo),
                tool_result(&blocked, true),
                text(&answer),
                success(&answer, 2, &["Bash"]),
            ]
        })
    );
}

/// The script of the SDK MCP cases: the model calls `mcp__calc__add` with
/// 2 and 3, then answers with the call's result.
fn adding(case: &SdkCase) -> std::path::PathBuf {
    case.script(
        "script.json",
        json!([
            {"tool_calls": [scripted("m1", "mcp__calc__add", json!({"a": 2, "b": 3}))]},
            {"content": "sum: {{last_tool_result}}"}
        ]),
    )
}

fn calc_connected() -> Value {
    json!([{"name": "calc", "status": "connected"}])
}

pub(crate) fn the_model_calls_a_tool_of_an_in_process_sdk_mcp_server(sdk: Sdk) {
    let case = SdkCase::new();
    let script = adding(&case);
    let args = json!({"a": 2, "b": 3});
    assert_eq!(
        case.run(sdk, "mcp_tool", &script, &["allowedTools"]),
        json!({
            "calls": [args],
            "messages": [
                init("default", calc_connected()),
                call("mcp__calc__add", args),
                tool_result("5", false),
                text("sum: 5"),
                success("sum: 5", 2, &[]),
            ]
        })
    );
}

pub(crate) fn a_deny_rule_denies_a_tool_of_an_in_process_sdk_mcp_server(sdk: Sdk) {
    let case = SdkCase::new();
    let script = adding(&case);
    let denied =
        permission_denied("mcp__calc__add matches deny rule mcp__calc__add (command line)");
    let answer = format!("sum: {denied}");
    assert_eq!(
        case.run(sdk, "mcp_tool", &script, &["disallowedTools"]),
        json!({
            "calls": [],
            "messages": [
                init("default", calc_connected()),
                call("mcp__calc__add", json!({"a": 2, "b": 3})),
                tool_result(&denied, true),
                text(&answer),
                success(&answer, 2, &["mcp__calc__add"]),
            ]
        })
    );
}

/// The program must be done well before the interrupted `sleep 30` would be.
const INTERRUPT_DEADLINE: Duration = Duration::from_secs(20);

pub(crate) fn interrupt_ends_a_turn_whose_tool_runs_long(sdk: Sdk) {
    let case = SdkCase::new();
    let sleep = json!({"command": "sleep 30"});
    let script = case.script(
        "script.json",
        json!([
            {"tool_calls": [scripted("s1", "Bash", sleep.clone())]},
            {"content": "slept"}
        ]),
    );
    let cancelled =
        "Error [cancelled]: the tool was not run (or was interrupted): the run was cancelled";
    assert_eq!(
        case.run_within(sdk, "interrupt", &script, &[], INTERRUPT_DEADLINE),
        json!({
            "messages": [
                init("default", json!([])),
                call("Bash", sleep),
                tool_result(cancelled, true),
                {"result": {"session": "S1", "subtype": "error_during_execution", "is_error": true,
                            "result": null, "num_turns": 1, "permission_denials": []}},
            ],
            "result_within_10s": true
        })
    );
}

pub(crate) fn set_permission_mode_lets_accept_edits_allow_a_write_that_asked(sdk: Sdk) {
    let case = SdkCase::new();
    let write = json!({"file_path": "a.txt", "content": "one"});
    let script = case.script(
        "script.json",
        json!([
            {"tool_calls": [scripted("w1", "Write", write.clone())]},
            {"content": "first: {{last_tool_result}}"},
            {"tool_calls": [scripted("w2", "Write", write.clone())]},
            {"content": "second: {{last_tool_result}}"}
        ]),
    );
    let denied = permission_denied("not yet");
    let wrote = format!("Wrote 3 bytes to {}", case.path("a.txt"));
    let (first, second) = (format!("first: {denied}"), format!("second: {wrote}"));
    let printed = case.run(sdk, "permission_mode", &script, &[]);
    assert_eq!(
        (printed, case.home.ws().join("a.txt").exists()),
        (
            json!({
                "asks": [["Write", write]],
                "messages": [
                    init("default", json!([])),
                    call("Write", write.clone()),
                    tool_result(&denied, true),
                    text(&first),
                    success(&first, 2, &["Write"]),
                    call("Write", write),
                    tool_result(&wrote, false),
                    text(&second),
                    success(&second, 2, &[]),
                ]
            }),
            true
        )
    );
}

pub(crate) fn resume_by_session_id_continues_the_session(sdk: Sdk) {
    let case = SdkCase::new();
    let echo = json!({"text": "from the first query"});
    let first = case.script(
        "script.json",
        json!([
            {"tool_calls": [scripted("e1", "Echo", echo.clone())]},
            {"content": "echoed"}
        ]),
    );
    let second = case.script(
        "again.json",
        json!([{"content": "last: {{last_tool_result}}"}]),
    );
    let printed = case.run(sdk, "resume", &first, &[second.to_str().unwrap()]);
    assert_eq!(
        (printed, case.sessions().len()),
        (
            json!({
                "first": [
                    init("default", json!([])),
                    call("Echo", echo),
                    tool_result("from the first query", false),
                    text("echoed"),
                    success("echoed", 2, &[]),
                ],
                "second": [
                    init("default", json!([])),
                    text("last: from the first query"),
                    success("last: from the first query", 1, &[]),
                ]
            }),
            1
        )
    );
}

pub(crate) fn every_option_the_sdk_passes_is_accepted_and_each_one_ignored_is_named_once(sdk: Sdk) {
    let case = SdkCase::new();
    let extra = case.home.base.join("extra");
    std::fs::create_dir(&extra).unwrap();
    let script = case.script("script.json", json!([{"content": "done"}]));
    let ignored = |flag: &str| {
        format!("agenthub: {flag} is Claude Code's and means nothing to AgentHub; ignored")
    };
    assert_eq!(
        case.run(sdk, "every_option", &script, &[extra.to_str().unwrap()]),
        json!({
            "messages": [init("acceptEdits", json!([])), text("done"), success("done", 1, &[])],
            "named": [
                ignored("--setting-sources"),
                ignored("--max-thinking-tokens"),
                ignored("--effort"),
                ignored("--betas"),
                ignored("--tools"),
                ignored("--fallback-model"),
                "agenthub: initialize: `agents` means nothing to AgentHub; ignored",
            ]
        })
    );
}

pub(crate) fn the_sdks_system_prompt_replaces_agenthubs_own(sdk: Sdk) {
    let case = SdkCase::new();
    let script = case.script("script.json", json!([{"content": "done"}]));
    let printed = case.run(sdk, "system_prompt", &script, &[]);
    let [session] = case.sessions().try_into().expect("one session");
    let records = case.home.records(&session);
    let prompt = records
        .iter()
        .find(|record| record["subtype"] == "system_prompt")
        .and_then(|record| record["content"].as_str())
        .expect("the transcript records the system prompt");
    assert_eq!(
        (printed, prompt),
        (
            json!({"messages": [init("default", json!([])), text("done"), success("done", 1, &[])]}),
            "You are terse."
        )
    );
}

/// The script of the `updatedInput` cases: the model writes `one` to
/// `a.txt` (which asks), then answers with the call's result.
fn writing(case: &SdkCase) -> std::path::PathBuf {
    case.script(
        "script.json",
        json!([
            {"tool_calls": [scripted("w1", "Write", json!({"file_path": "a.txt", "content": "one"}))]},
            {"content": "wrote: {{last_tool_result}}"}
        ]),
    )
}

/// The messages of a `writing` run whose Write call ended in `outcome`.
fn wrote(outcome: &str, is_error: bool, denials: &[&str]) -> Value {
    let answer = format!("wrote: {outcome}");
    json!([
        init("default", json!([])),
        call("Write", json!({"file_path": "a.txt", "content": "one"})),
        tool_result(outcome, is_error),
        text(&answer),
        success(&answer, 2, denials),
    ])
}

pub(crate) fn can_use_tool_allowing_with_an_updated_input_runs_the_call_on_that_input(sdk: Sdk) {
    let case = SdkCase::new();
    let script = writing(&case);
    let updated = json!({"file_path": "b.txt", "content": "two"}).to_string();
    let printed = case.run(sdk, "updated_input", &script, &[&updated]);
    let written = format!("Wrote 3 bytes to {}", case.path("b.txt"));
    assert_eq!(
        (
            printed,
            case.home.ws().join("a.txt").exists(),
            std::fs::read_to_string(case.home.ws().join("b.txt")).ok()
        ),
        (
            json!({"asks": [["Write", {"file_path": "a.txt", "content": "one"}]],
                   "messages": wrote(&written, false, &[])}),
            false,
            Some("two".to_owned())
        )
    );
}

pub(crate) fn an_updated_input_outside_the_workspace_is_denied_as_any_input_would_be(sdk: Sdk) {
    let case = SdkCase::new();
    let script = writing(&case);
    let outside = case.home.base.join("outside.txt");
    let updated = json!({"file_path": outside, "content": "two"}).to_string();
    let printed = case.run(sdk, "updated_input", &script, &[&updated]);
    let denied = permission_denied(&format!(
        "{} is outside the workspace ({}) (the input the Agent SDK's canUseTool gave in place of the call's)",
        outside.display(),
        case.home.ws().display()
    ));
    assert_eq!(
        (printed, outside.exists()),
        (
            json!({"asks": [["Write", {"file_path": "a.txt", "content": "one"}]],
                   "messages": wrote(&denied, true, &["Write"])}),
            false
        )
    );
}

pub(crate) fn messages_queued_when_stdin_ends_are_each_answered_before_exit(sdk: Sdk) {
    let case = SdkCase::new();
    let script = case.script(
        "script.json",
        json!([{"content": "one"}, {"content": "two"}]),
    );
    assert_eq!(
        case.run(sdk, "queued", &script, &[]),
        json!({"messages": [
            init("default", json!([])),
            text("one"),
            success("one", 1, &[]),
            text("two"),
            success("two", 1, &[]),
        ]})
    );
}

pub(crate) fn set_model_under_the_script_is_acknowledged_and_the_script_keeps_answering(sdk: Sdk) {
    let case = SdkCase::new();
    let script = case.script(
        "script.json",
        json!([{"content": "one"}, {"content": "two"}]),
    );
    assert_eq!(
        case.run(sdk, "set_model", &script, &[]),
        json!({"messages": [
            init("default", json!([])),
            text("one"),
            success("one", 1, &[]),
            text("two"),
            success("two", 1, &[]),
        ]})
    );
}

pub(crate) fn a_deny_rule_of_the_users_settings_denies_before_can_use_tool_is_asked(sdk: Sdk) {
    let case = SdkCase::new();
    case.home
        .settings(json!({"permissions": {"deny": ["Bash(touch:*)"]}}));
    let touch = json!({"command": "touch made.txt"});
    let script = case.script(
        "script.json",
        json!([
            {"tool_calls": [scripted("b1", "Bash", touch.clone())]},
            {"content": "saw: {{last_tool_result}}"}
        ]),
    );
    let settings = case.home.base.join("home/.config/agenthub/settings.json");
    let denied = permission_denied(&format!(
        "`touch made.txt` matches deny rule Bash(touch:*) ({})",
        settings.display()
    ));
    let answer = format!("saw: {denied}");
    let printed = case.run(sdk, "can_use_tool", &script, &[]);
    assert_eq!(
        (printed, case.home.ws().join("made.txt").exists()),
        (
            json!({
                "asks": [],
                "messages": [
                    init("default", json!([])),
                    call("Bash", touch),
                    tool_result(&denied, true),
                    text(&answer),
                    success(&answer, 2, &["Bash"]),
                ]
            }),
            false
        )
    );
}

pub(crate) fn a_request_only_claude_codes_interface_serves_fails_in_the_sdk_and_the_session_goes_on(
    sdk: Sdk,
) {
    let case = SdkCase::new();
    let script = case.script("script.json", json!([{"content": "done"}]));
    assert_eq!(
        case.run(sdk, "unsupported_request", &script, &[]),
        json!({
            "error": "control request `get_context_usage` is Claude Code's and AgentHub has no part for it",
            "messages": [init("default", json!([])), text("done"), success("done", 1, &[])]
        })
    );
}

pub(crate) fn an_sdk_pre_tool_use_hook_blocks_a_tool_of_an_in_process_sdk_mcp_server(sdk: Sdk) {
    let case = SdkCase::new();
    let script = adding(&case);
    let args = json!({"a": 2, "b": 3});
    let blocked = permission_denied("no sums today");
    let answer = format!("sum: {blocked}");
    assert_eq!(
        case.run(sdk, "mcp_hook", &script, &[]),
        json!({
            "calls": [],
            "heard": [["mcp__calc__add", args]],
            "messages": [
                init("default", calc_connected()),
                call("mcp__calc__add", args),
                tool_result(&blocked, true),
                text(&answer),
                success(&answer, 2, &["mcp__calc__add"]),
            ]
        })
    );
}
