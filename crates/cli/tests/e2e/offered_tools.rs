//! Contract §33: a tool a deny rule names whole (`--disallowedTools Task`,
//! `--deny Task`, settings `permissions.deny: ["Task"]`) is not offered to
//! the model at all, as Claude Code does; a rule with a specifier removes
//! nothing; a call of a withheld tool anyway still meets its deny rule.

use crate::support;
use crate::support::provider_wire;

use provider_wire::{finish, openai_text, run_with, turn};
use serde_json::{json, Value};
use support::{call, Case};
use wiremock::MockServer;

/// The tool names of the first request a run with `flags` (and, when
/// given, a `--settings` file holding `settings`) makes to a loopback
/// OpenAI-compatible server.
async fn offered(flags: &[&str], settings: Option<Value>) -> Vec<String> {
    let case = Case::new();
    let server = MockServer::start().await;
    turn(&server, "/v1/chat/completions", "", 1, openai_text(&["ok"])).await;
    let base_url = format!("{}/v1", server.uri());
    let settings_path = case.workspace().join("../extra-settings.json");
    // The flags first: `--disallowedTools` takes every value up to the next flag.
    let mut args = flags.to_vec();
    args.extend(["--model", "m", "--base-url", &base_url]);
    let settings_text = settings_path.display().to_string();
    if let Some(settings) = settings {
        std::fs::write(&settings_path, settings.to_string()).unwrap();
        args.extend(["--settings", &settings_text]);
    }
    let output = finish(run_with(&case, &args)).await;
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let requests = server.received_requests().await.unwrap();
    let body: Value = requests[0].body_json().unwrap();
    body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["function"]["name"].as_str().unwrap().to_owned())
        .collect()
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|name| (*name).to_owned()).collect()
}

#[tokio::test]
async fn a_deny_rule_naming_a_whole_tool_removes_it_from_the_tools_offered() {
    let all = [
        "Read",
        "Write",
        "Edit",
        "Bash",
        "Glob",
        "Grep",
        "TodoWrite",
        "WebFetch",
        "Task",
    ];
    let without_task = [
        "Read",
        "Write",
        "Edit",
        "Bash",
        "Glob",
        "Grep",
        "TodoWrite",
        "WebFetch",
    ];
    let settings = json!({"permissions": {"deny": ["Task"]}});
    assert_eq!(
        (
            offered(&[], None).await,
            offered(&["--disallowedTools", "Task"], None).await,
            offered(&["--deny", "Task"], None).await,
            offered(&[], Some(settings)).await,
            offered(&["--disallowedTools", "Bash(rm:*)", "Write"], None).await,
        ),
        (
            names(&all),
            names(&without_task),
            names(&without_task),
            names(&without_task),
            names(&[
                "Read",
                "Edit",
                "Bash",
                "Glob",
                "Grep",
                "TodoWrite",
                "WebFetch",
                "Task"
            ]),
        )
    );
}

#[test]
fn a_call_of_a_withheld_tool_still_meets_its_deny_rule() {
    let case = Case::new();
    let input = json!({"description": "d", "prompt": "p", "subagent_type": "general-purpose"});
    case.script(json!([
        {"tool_calls": [call("c1", "Task", input)]},
        {"content": "done"}
    ]));
    case.run()
        .args(["--disallowedTools", "Task"])
        .assert()
        .code(0);
    let results: Vec<Value> = case
        .messages()
        .into_iter()
        .filter(|record| record["message"]["role"] == "tool")
        .map(|record| record["message"]["content"].clone())
        .collect();
    assert_eq!(
        results,
        vec![json!(
            "Error [permission_denied]: the tool was not run: permission denied: Task(general-purpose) \
             matches deny rule Task (command line)"
        )]
    );
}
