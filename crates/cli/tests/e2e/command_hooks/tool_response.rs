//! PostToolUse `tool_response` on a command hook's stdin: the built-in tools'
//! structured results in Claude Code's shapes (so `.tool_response.stdout` or
//! `.tool_response.filePath` work as in Claude Code), while the model still
//! sees the tool's text. (That a rewritten output reaches later hooks as
//! text: crates/hooks/tests/it/conformance.rs.)

use super::support::*;
use serde_json::{json, Value};

/// Project settings allowing `tool`, with the given hooks.
fn allow_with_hooks(case: &Case, tool: &str, hooks: &[(&str, Option<&str>, Value)]) {
    let mut settings = settings_with(hooks);
    settings["permissions"] = json!({"allow": [tool]});
    case.project_settings(settings);
}

/// One call of `tool` (`call_1`), then a final answer.
fn one_call(case: &Case, tool: &str, arguments: Value) {
    case.script(json!([
        {"content": "working", "tool_calls": [call("call_1", tool, arguments)]},
        {"content": "done"}
    ]));
}

/// A hook that saves its stdin to `.agenthub/stdin.json`.
fn saving(case: &Case) -> String {
    case.hook("save.sh", "cat > .agenthub/stdin.json")
}

fn saved_tool_response(case: &Case) -> Value {
    let stdin: Value = serde_json::from_str(&case.read(".agenthub/stdin.json")).unwrap();
    stdin["tool_response"].clone()
}

const BASH_COMMAND: &str = "echo out; echo err >&2";

#[test]
fn a_bash_tool_response_has_stdout_stderr_and_the_exit_code() {
    let case = Case::new();
    let hook = saving(&case);
    allow_with_hooks(&case, "Bash", &[("PostToolUse", None, command(&hook))]);
    one_call(&case, "Bash", json!({"command": BASH_COMMAND}));
    case.report();
    assert_eq!(
        saved_tool_response(&case),
        json!({
            "stdout": "out",
            "stderr": "err",
            "interrupted": false,
            "isImage": false,
            "exitCode": 0,
        })
    );
}

#[test]
fn a_write_tool_response_has_the_kind_the_absolute_path_and_the_content() {
    let case = Case::new();
    let hook = saving(&case);
    allow_with_hooks(&case, "Write", &[("PostToolUse", None, command(&hook))]);
    one_call(
        &case,
        "Write",
        json!({"file_path": "notes/a.txt", "content": "hi\n"}),
    );
    case.report();
    assert_eq!(
        saved_tool_response(&case),
        json!({
            "type": "create",
            "filePath": case.path("notes/a.txt"),
            "content": "hi\n",
        })
    );
}

#[test]
fn the_model_still_sees_the_bash_text_when_hooks_get_the_structured_response() {
    let case = Case::new();
    let hook = saving(&case);
    allow_with_hooks(&case, "Bash", &[("PostToolUse", None, command(&hook))]);
    one_call(&case, "Bash", json!({"command": BASH_COMMAND}));
    case.report();
    assert_eq!(
        case.messages(),
        vec![
            user(PROMPT),
            assistant_call(
                "working",
                "call_1",
                "Bash",
                json!({"command": BASH_COMMAND})
            ),
            tool("call_1", "[exit code: 0]\nout\n[stderr]\nerr"),
            assistant("done"),
        ]
    );
}
