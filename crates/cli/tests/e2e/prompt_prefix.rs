//! A prefix that caches (contract §33), measured on the request body a
//! loopback OpenAI-compatible server receives: two sessions in two folders
//! (different memory files, one a git repository) send the same system
//! message and tool list byte for byte, the first user message starts with
//! the `<system-reminder>` holding what differs, a resumed session sends
//! that message again unchanged, hooks and `sessions list` see the prompt as
//! typed, and the first request of an empty workspace stays within 1,500
//! tokens (characters / 4, as `scripts/bench-first-request.py` counts).

use crate::support::home::Home;
use crate::support::provider_wire::{finish, openai_text, PROVIDER_VARIABLES};
use agenthub::crates::core::system_prompt::Date;
use serde_json::{json, Value};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer};

/// The most the first request of an empty workspace may cost (contract §33).
const FIRST_REQUEST_TOKENS: usize = 1_500;

/// A server that answers every chat request with `ok`.
async fn server() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(openai_text(&["ok"]))
        .mount(&server)
        .await;
    server
}

/// `agenthub run --output-format json` in `home` against `server`, with
/// `flags`, then `prompt`.
fn run(home: &Home, server: &MockServer, flags: &[&str], prompt: &str) -> assert_cmd::Command {
    let mut command = home.agenthub();
    for variable in PROVIDER_VARIABLES {
        command.env_remove(variable);
    }
    command
        .args(["run", "--output-format", "json", "--model", "local-model"])
        .args(["--base-url", &format!("{}/v1", server.uri())])
        .args(flags)
        .arg(prompt);
    command
}

/// The session id of a run's JSON report.
async fn session_of(command: assert_cmd::Command) -> String {
    let output = finish(command).await;
    let report: Value = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|_| panic!("no report: {}", String::from_utf8_lossy(&output.stderr)));
    report["session_id"].as_str().unwrap().to_owned()
}

/// Every request body the server received, as sent, in order.
async fn bodies(server: &MockServer) -> Vec<String> {
    let requests = server.received_requests().await.unwrap();
    requests
        .iter()
        .map(|request| String::from_utf8(request.body.clone()).unwrap())
        .collect()
}

/// A chat request body cut around its first user message: what comes
/// before it (model, limits, the system message) and what comes after the
/// messages (streaming options, the tool list).
fn around_the_user_message(body: &str) -> (&str, &str) {
    let user = body.find(r#"{"role":"user""#).expect("a user message");
    let after = body.find(r#"],"stream":"#).expect("the messages end");
    (&body[..user], &body[after..])
}

/// The messages of a chat request body as sent, without the closing `]`.
fn messages_of(body: &str) -> &str {
    let start = body.find(r#""messages":["#).expect("messages");
    let end = body.find(r#"],"stream":"#).expect("the messages end");
    &body[start..end]
}

/// The first user message the run in `home` must send: the environment and
/// `memory` in the `<system-reminder>` block, then `prompt`.
fn first_message(home: &Home, repository: &str, memory: &str, prompt: &str) -> String {
    format!(
        "<system-reminder>\n# Environment\n- Workspace: {}\n- Platform: {} {}\n- Today's date: {}\n\
         - Git repository: {repository}{memory}\n</system-reminder>\n\n{prompt}",
        home.ws().display(),
        std::env::consts::OS,
        std::env::consts::ARCH,
        Date::today(),
    )
}

#[tokio::test]
async fn two_folders_send_the_same_system_message_and_tools_and_the_reminder_before_the_prompt() {
    let server = server().await;
    let (repo, plain) = (Home::new(), Home::new());
    std::fs::create_dir(repo.ws().join(".git")).unwrap();
    repo.write("ws/AGENTS.md", "Use tabs.\n");
    session_of(run(&repo, &server, &["--trust-project"], "fix the test")).await;
    session_of(run(&plain, &server, &[], "fix the test")).await;
    let bodies = bodies(&server).await;
    let [in_repo, in_plain] = bodies.as_slice() else {
        panic!("two requests: {bodies:?}")
    };
    assert_eq!(
        around_the_user_message(in_repo),
        around_the_user_message(in_plain)
    );
    let first_user = |body: &str| {
        let body: Value = serde_json::from_str(body).unwrap();
        body["messages"][1].clone()
    };
    let memory = format!(
        "\n\n# Memory: {}\n\nUse tabs.",
        repo.ws().join("AGENTS.md").display()
    );
    let root = format!("yes (root: {})", repo.ws().display());
    assert_eq!(
        (first_user(in_repo), first_user(in_plain)),
        (
            json!({"role": "user", "content": first_message(&repo, &root, &memory, "fix the test")}),
            json!({"role": "user", "content": first_message(&plain, "no", "", "fix the test")}),
        )
    );
}

#[tokio::test]
async fn a_resumed_session_sends_its_first_message_again_and_lists_and_hooks_the_typed_prompt() {
    let server = server().await;
    let home = Home::new();
    let log = home.base.join("prompts.jsonl");
    home.settings(
        json!({"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command",
        "command": format!("cat >> {0}; echo >> {0}", log.display())}]}]}}),
    );
    let id = session_of(run(&home, &server, &[], "fix the test")).await;
    session_of(run(&home, &server, &["--resume", &id], "now the docs")).await;
    let bodies = bodies(&server).await;
    let [first, resumed] = bodies.as_slice() else {
        panic!("two requests: {bodies:?}")
    };
    assert!(
        messages_of(resumed).starts_with(messages_of(first)),
        "the resumed request repeats the first messages byte for byte:\n{}\n{}",
        messages_of(first),
        messages_of(resumed)
    );
    let listed = home
        .agenthub()
        .args(["sessions", "list", "--output-format", "json"])
        .output()
        .unwrap();
    let listed: Value = serde_json::from_slice(&listed.stdout).unwrap();
    let prompts: Vec<Value> = home
        .lines("prompts.jsonl")
        .into_iter()
        .map(|input| input["prompt"].clone())
        .collect();
    assert_eq!(
        (listed[0]["first_prompt"].clone(), prompts),
        (
            json!("fix the test"),
            vec![json!("fix the test"), json!("now the docs")]
        )
    );
}

#[tokio::test]
async fn the_first_request_of_an_empty_workspace_stays_within_1560_tokens() {
    let server = server().await;
    let home = Home::new();
    session_of(run(&home, &server, &[], "say ok")).await;
    let bodies = bodies(&server).await;
    let body: Value = serde_json::from_str(&bodies[0]).unwrap();
    let tools: Vec<&str> = body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|tool| tool["function"]["name"].as_str())
        .collect();
    let compact = serde_json::to_string(&body).unwrap();
    let tokens = compact.chars().count().div_ceil(4);
    assert_eq!(
        (tools, tokens <= FIRST_REQUEST_TOKENS),
        (
            vec![
                "Read",
                "Write",
                "Edit",
                "Bash",
                "Glob",
                "Grep",
                "TodoWrite",
                "WebFetch",
                "Task"
            ],
            true
        ),
        "the first request is ~{tokens} tokens: {compact}"
    );
}

#[tokio::test]
async fn a_folder_with_its_own_subagent_sends_the_same_tools_and_names_it_in_the_reminder() {
    let server = server().await;
    let (with_agent, plain) = (Home::new(), Home::new());
    with_agent.write(
        "ws/.claude/agents/reviewer.md",
        "---\nname: reviewer\ndescription: Reviews a diff\ntools: Read, Grep\n---\nReview it.\n",
    );
    session_of(run(&with_agent, &server, &["--trust-project"], "review")).await;
    session_of(run(&plain, &server, &[], "review")).await;
    let bodies = bodies(&server).await;
    let [in_agent, in_plain] = bodies.as_slice() else {
        panic!("two requests: {bodies:?}")
    };
    assert_eq!(
        around_the_user_message(in_agent),
        around_the_user_message(in_plain)
    );
    let body: Value = serde_json::from_str(in_agent).unwrap();
    let agents = "\n\n# Agent types\n\nThe Task tool also starts these subagent types:\n\n\
                  - reviewer: Reviews a diff (Tools: Read, Grep)";
    assert_eq!(
        body["messages"][1],
        json!({"role": "user", "content": first_message(&with_agent, "no", agents, "review")})
    );
}

#[tokio::test]
async fn two_folders_with_different_skills_send_the_same_tools() {
    let server = server().await;
    let (first, second) = (Home::new(), Home::new());
    for (home, name) in [(&first, "pdf"), (&second, "release")] {
        home.write(
            &format!("ws/.claude/skills/{name}/SKILL.md"),
            &format!("---\nname: {name}\ndescription: Does {name} work\n---\nSteps.\n"),
        );
        session_of(run(home, &server, &["--trust-project"], "go")).await;
    }
    let bodies = bodies(&server).await;
    let [in_first, in_second] = bodies.as_slice() else {
        panic!("two requests: {bodies:?}")
    };
    assert_eq!(
        around_the_user_message(in_first),
        around_the_user_message(in_second)
    );
}
