//! The SDK protocol spoken raw over the binary's stdin and stdout, without an
//! SDK: what no SDK sends on purpose, such as a control request of a subtype
//! AgentHub does not know (contract §30: answered with an error, never
//! ignored, so the sender never waits forever).

use super::SdkCase;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;
use std::sync::mpsc;

#[test]
fn an_unknown_control_request_is_answered_with_an_error_and_the_session_goes_on() {
    let case = SdkCase::new();
    let script = case.script("script.json", json!([]));
    let mut child = case
        .home
        .process(&[
            "-p",
            "--input-format",
            "stream-json",
            "--output-format",
            "stream-json",
            "--verbose",
            "--script",
            script.to_str().unwrap(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (line, lines) = mpsc::channel();
    let stdout = BufReader::new(child.stdout.take().unwrap());
    std::thread::spawn(move || {
        for text in stdout.lines() {
            let parsed: Value = serde_json::from_str(&text.unwrap()).unwrap();
            if line.send(parsed).is_err() {
                break;
            }
        }
    });
    let pid = i32::try_from(child.id()).unwrap();
    let hung = |what: &str| -> ! {
        // SAFETY: kill(2) on the child this test started, before it is reaped.
        unsafe { libc::kill(pid, libc::SIGKILL) };
        panic!("{what} before the deadline: killed")
    };
    let mut stdin = child.stdin.take().unwrap();
    let request = json!({"type": "control_request", "request_id": "req_1",
                         "request": {"subtype": "no_such_request"}});
    writeln!(stdin, "{request}").unwrap();
    let response = loop {
        let next = lines
            .recv_timeout(super::DEADLINE)
            .unwrap_or_else(|_| hung("no control_response"));
        if next["type"] == "control_response" {
            break next;
        }
    };
    drop(stdin);
    let (exited, exit) = mpsc::channel();
    std::thread::spawn(move || exited.send(child.wait().unwrap().code()).unwrap());
    let code = exit
        .recv_timeout(super::DEADLINE)
        .unwrap_or_else(|_| hung("no exit at the end of stdin"));
    assert_eq!(
        (response, code),
        (
            json!({"type": "control_response", "response": {
                "subtype": "error", "request_id": "req_1",
                "error": "`no_such_request` is not a control request AgentHub knows"}}),
            Some(0)
        )
    );
}

/// The whole exchange when stdin is written at once and closed: stdout's
/// lines and stderr.
fn exchange(case: &SdkCase, script: &std::path::Path, stdin: &str) -> (Vec<Value>, String) {
    let output = case
        .home
        .agenthub()
        .args([
            "--input-format",
            "stream-json",
            "--output-format",
            "stream-json",
        ])
        .args(["--script", script.to_str().unwrap()])
        .write_stdin(stdin)
        .timeout(super::DEADLINE)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let lines = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    (lines, String::from_utf8(output.stderr).unwrap())
}

#[test]
fn a_line_that_is_not_the_protocols_is_named_with_its_number_and_the_next_message_is_answered() {
    let case = SdkCase::new();
    let script = case.script("script.json", json!([{"content": "still here"}]));
    let user = json!({"type": "user", "message": {"role": "user", "content": "hello"}});
    let (lines, stderr) = exchange(
        &case,
        &script,
        &format!("{{oops\n{{\"type\":\"assistant\"}}\n{user}\n"),
    );
    let results: Vec<(&Value, &Value)> = lines
        .iter()
        .filter(|line| line["type"] == "result")
        .map(|line| (&line["subtype"], &line["result"]))
        .collect();
    let named: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("stdin line"))
        .collect();
    assert_eq!(
        (results, named),
        (
            vec![(&json!("success"), &json!("still here"))],
            vec![
                "agenthub: stdin line 1: not JSON: key must be a string at line 1 column 2; the line is skipped",
                "agenthub: stdin line 2: `type: assistant` is not a line of the Agent SDK's protocol (user, control_request, control_response, control_cancel_request); the line is skipped",
            ]
        )
    );
}

#[test]
fn a_request_of_ours_the_sdk_can_no_longer_answer_denies_instead_of_waiting() {
    let case = SdkCase::new();
    let write =
        json!({"id": "c1", "name": "Write", "arguments": {"file_path": "a.txt", "content": "x"}});
    let script = case.script(
        "script.json",
        json!([{"content": "writing", "tool_calls": [write]}, {"content": "{{last_tool_result}}"}]),
    );
    let user = json!({"type": "user", "message": {"role": "user", "content": "write a"}});
    let output = case
        .home
        .agenthub()
        .args([
            "--input-format",
            "stream-json",
            "--output-format",
            "stream-json",
        ])
        .args([
            "--permission-prompt-tool",
            "stdio",
            "--script",
            script.to_str().unwrap(),
        ])
        .write_stdin(format!("{user}\n"))
        .timeout(super::DEADLINE)
        .output()
        .unwrap();
    let last: Value = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .last()
        .map(|line| serde_json::from_str(line).unwrap())
        .unwrap();
    assert_eq!(
        (output.status.code(), &last["result"], case.home.ws().join("a.txt").exists()),
        (
            Some(0),
            &json!("Error [permission_denied]: the tool was not run: permission denied: denied: the Agent SDK closed its input, so it can no longer answer"),
            false
        )
    );
}

#[test]
fn stream_json_input_without_stream_json_output_is_a_usage_error() {
    let case = SdkCase::new();
    let output = case
        .home
        .agenthub()
        .args(["--input-format", "stream-json", "--script", "none.json"])
        .write_stdin("")
        .timeout(super::DEADLINE)
        .output()
        .unwrap();
    assert_eq!(
        (output.status.code(), String::from_utf8(output.stderr).unwrap()),
        (
            Some(2),
            "agenthub: --input-format stream-json goes with --output-format stream-json (the Agent SDK's protocol)\n".to_owned()
        )
    );
}
