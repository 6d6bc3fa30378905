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
