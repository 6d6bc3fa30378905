//! Claude Code's command line through the real binary (contract §29): how a
//! headless run starts (`headless`: `-p`, a prompt with no subcommand, a task
//! piped in, the workspace and the prompt's size) and Claude Code's
//! spellings of run's flags (`flags`), each doing what AgentHub's own flag
//! does. The helpers here are the two modules' shared scripts and readers.

mod flags;
mod headless;

use crate::support::call;
use crate::support::home::Home;
use serde_json::{json, Value};

/// A script writing `file_path` with Write, then answering "done".
pub(super) fn write_script(file_path: &str) -> Value {
    json!({"turns": [
        {"content": "writing", "tool_calls": [
            call("c1", "Write", json!({"file_path": file_path, "content": "x"}))]},
        {"content": "done"}
    ]})
}

/// Writes `script` beside the workspace and returns its path.
pub(super) fn script_file(home: &Home, script: &Value) -> String {
    let path = home.base.join("script.json");
    std::fs::write(&path, script.to_string()).unwrap();
    path.display().to_string()
}

pub(super) fn answer_script() -> Value {
    json!({"turns": [{"content": "the build is fixed"}]})
}

/// The JSON report a command printed.
pub(super) fn report(output: &std::process::Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|_| {
        panic!(
            "no JSON report; stderr: {}",
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// The prompt of the transcript's first user message.
pub(super) fn first_prompt(home: &Home, report: &Value) -> String {
    let path = report["transcript_path"].as_str().unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .find(|record| record["type"] == "user")
        .map(|record| {
            agenthub::typed_prompt(record["message"]["content"].as_str().unwrap_or("")).to_owned()
        })
        .unwrap_or_else(|| panic!("no user record in {text} ({})", home.base.display()))
}

/// Runs `-p PROMPT --output-format json` with `flags`; the report.
pub(super) fn print_json(home: &Home, script: &str, prompt: &str, flags: &[&str]) -> Value {
    let output = home
        .agenthub()
        .args(["-p", prompt, "--output-format", "json", "--script", script])
        .args(flags)
        .output()
        .unwrap();
    report(&output)
}

/// The exit code and stderr of `command`, for usage errors.
pub(super) fn code_and_stderr(command: &mut assert_cmd::Command) -> (Option<i32>, String) {
    let output = command.output().unwrap();
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}
