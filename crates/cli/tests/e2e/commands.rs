//! Custom slash commands through the real binary (contract §20): command
//! files in a temporary HOME and workspace, `agenthub run "/name args"`
//! sending the command's body with its arguments replaced, the
//! UserPromptExpansion hook before it (a block stops the prompt), its
//! `` !`command` `` marks run as Bash calls through the pipeline, the
//! command's `allowed-tools` for that prompt only, an unknown `/word` kept
//! as a plain prompt, and a workspace's commands only once it is trusted.

use crate::support::home::Home;
use serde_json::{json, Value};

/// A script that answers at once.
fn answer() -> Value {
    json!({"turns": [{"content": "done"}]})
}

/// The user prompt the run sent, from its transcript, without the first
/// message's `<system-reminder>` (contract §33).
fn sent_prompt(home: &Home, report: &Value) -> Value {
    let id = report["session_id"].as_str().unwrap();
    home.records(id)
        .into_iter()
        .find(|record| record["type"] == "user")
        .and_then(|record| record["message"]["content"].as_str().map(str::to_owned))
        .map_or(Value::Null, |sent| {
            Value::from(agenthub::typed_prompt(&sent))
        })
}

#[test]
fn run_sends_a_commands_body_with_its_arguments_replaced() {
    let home = Home::new();
    home.write(
        "home/.claude/commands/greet.md",
        "---\ndescription: Greet someone\nargument-hint: NAME\n---\nSay hello to $1, then to all of: $ARGUMENTS.\n",
    );
    let report = home.run_json(answer(), &[], "/greet Ada Grace");
    assert_eq!(
        sent_prompt(&home, &report),
        json!("Say hello to Ada, then to all of: Ada Grace.")
    );
}

#[test]
fn a_subfolder_command_is_named_with_a_colon() {
    let home = Home::new();
    home.write(
        "home/.config/agenthub/commands/git/commit.md",
        "Commit with the message: $ARGUMENTS\n",
    );
    let report = home.run_json(answer(), &[], "/git:commit fix the build");
    assert_eq!(
        sent_prompt(&home, &report),
        json!("Commit with the message: fix the build")
    );
}

#[test]
fn an_unknown_slash_word_stays_a_plain_prompt() {
    let home = Home::new();
    home.write("home/.claude/commands/greet.md", "Say hello.\n");
    let report = home.run_json(answer(), &[], "/usr/bin/env is where env lives");
    assert_eq!(
        sent_prompt(&home, &report),
        json!("/usr/bin/env is where env lives")
    );
}

#[test]
fn the_user_prompt_expansion_hook_hears_the_command_and_its_block_stops_the_prompt() {
    let home = Home::new();
    home.write(
        "home/.claude/commands/deploy.md",
        "Deploy $1 to production.\n",
    );
    home.settings(json!({"hooks": {"UserPromptExpansion": [{"hooks": [{
        "type": "command",
        "command": "cat > ../expansion.json; echo '{\"decision\": \"block\", \"reason\": \"no deploys today\"}'"
    }]}]}}));
    let report = home.run_json(answer(), &[], "/deploy web");
    let payload: Value =
        serde_json::from_str(&std::fs::read_to_string(home.base.join("expansion.json")).unwrap())
            .unwrap();
    assert_eq!(
        (
            &payload["hook_event_name"],
            &payload["expansion_type"],
            &payload["command_name"],
            &payload["command_args"],
            &payload["prompt"]
        ),
        (
            &json!("UserPromptExpansion"),
            &json!("slash_command"),
            &json!("deploy"),
            &json!("web"),
            &json!("/deploy web")
        )
    );
    assert_eq!(
        (
            &report["status"],
            &report["error"],
            &report["result"],
            sent_prompt(&home, &report)
        ),
        (
            &json!("blocked"),
            &json!("no deploys today"),
            &Value::Null,
            Value::Null
        )
    );
}

#[test]
fn a_commands_allowed_tools_allow_its_calls_for_that_prompt_only() {
    let home = Home::new();
    home.write(
        "home/.claude/commands/hi.md",
        "---\nallowed-tools: Bash(printf hi)\n---\nSay hi with Bash.\n",
    );
    let script = json!({"turns": [
        {"tool_calls": [{"id": "b1", "name": "Bash", "arguments": {"command": "printf hi"}}]},
        {"content": "{{last_tool_result}}"}
    ]});
    let command = home.run_json(script.clone(), &[], "/hi");
    let plain = home.run_json(script, &[], "Say hi with Bash.");
    assert_eq!(
        (command["result"].clone(), plain["result"].clone()),
        (
            json!("[exit code: 0]\nhi"),
            json!("Error [permission_denied]: the tool was not run: permission denied: approval required")
        )
    );
}

#[test]
fn a_commands_inline_shell_runs_through_the_pipeline_and_its_result_stands_in_the_prompt() {
    let home = Home::new();
    home.write(
        "home/.claude/commands/status.md",
        "---\nallowed-tools: Bash(echo:*)\n---\nState: !`echo ready` then !`touch made`.\n",
    );
    let report = home.run_json(answer(), &[], "/status");
    assert_eq!(
        (sent_prompt(&home, &report), home.ws().join("made").exists()),
        (
            json!("State: ready then Error [permission_denied]: the tool was not run: permission denied: approval required."),
            false
        )
    );
    assert_eq!(
        report["permission_denials"][0]["tool_input"],
        json!({"command": "touch made"})
    );
}

#[test]
fn shell_marks_typed_as_a_commands_arguments_never_run() {
    let home = Home::new();
    home.write(
        "home/.claude/commands/note.md",
        "---\nallowed-tools: Bash(touch:*)\n---\nNote: $ARGUMENTS\n",
    );
    let report = home.run_json(answer(), &[], "/note !`touch pwned`");
    assert_eq!(
        (
            sent_prompt(&home, &report),
            home.ws().join("pwned").exists()
        ),
        (json!("Note: ! `touch pwned`"), false)
    );
}

#[test]
fn an_untrusted_workspaces_commands_are_set_aside_and_shown_by_trust_show() {
    let home = Home::new();
    home.write(
        "ws/.claude/commands/ship.md",
        "---\ndescription: Ship it\nallowed-tools: Bash(git push)\nmodel: haiku\n---\nPush $ARGUMENTS.\n",
    );
    let path = home.base.join("script.json");
    std::fs::write(&path, answer().to_string()).unwrap();
    let untrusted = home
        .agenthub()
        .args(["run", "--output-format", "json", "--script"])
        .arg(&path)
        .arg("/ship main")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&untrusted.stdout).unwrap();
    let warning = String::from_utf8(untrusted.stderr).unwrap();
    assert_eq!(sent_prompt(&home, &report), json!("/ship main"));
    assert!(
        warning.contains("- custom command (.claude/commands/ship.md)"),
        "{warning}"
    );
    let trusted = home.run_json(answer(), &["--trust-project"], "/ship main");
    assert_eq!(sent_prompt(&home, &trusted), json!("Push main."));

    let shown = home.agenthub().args(["trust", "--show"]).output().unwrap();
    let lines: Vec<String> = String::from_utf8(shown.stdout)
        .unwrap()
        .lines()
        .map(|line| match line.split_once(" (sha256 ") {
            Some((name, _)) => name.to_owned(),
            None => line.to_owned(),
        })
        .collect();
    assert_eq!(
        lines,
        vec![
            format!("workspace: {}", home.ws().display()),
            ".claude/commands/ship.md".to_owned(),
            "  acts once trusted:".to_owned(),
            "    command /ship: Ship it (allowed-tools: Bash(git push); model: haiku)".to_owned(),
            "status: not trusted".to_owned(),
        ]
    );
}

/// An interactive session whose user has the command `/greet NAME`.
fn chat_with_greet() -> crate::support::chat_place::Place {
    let place = crate::support::chat_place::Place::new(crate::support::chat_place::TWO_ANSWERS);
    let file = place.base.join("home/.claude/commands/greet.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(
        &file,
        "---\ndescription: Greet someone\nargument-hint: NAME\n---\nSay hello to $1.\n",
    )
    .unwrap();
    place
}

#[test]
fn the_interactive_session_expands_a_custom_command_and_help_lists_it() {
    use crate::support::chat_place::user_prompts;
    let place = chat_with_greet();
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("/help");
    terminal.wait_for("Custom commands:\n  /greet NAME                Greet someone");
    terminal.type_line("/greet Ada");
    terminal.wait_for("First answer.");
    terminal.wait_for_prompt();
    assert_eq!(user_prompts(&place.transcripts()[0]), ["Say hello to Ada."]);
}

#[test]
fn tab_completes_a_custom_command_name() {
    let place = chat_with_greet();
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.send(b"/gre\t");
    terminal.wait_for("> /greet ");
}

/// Runs `printf hi` (not on the read-only list, so it asks) and shows the result, twice.
const ECHO_TWICE: &str = r#"{"turns": [
  {"tool_calls": [{"id": "c1", "name": "Bash", "arguments": {"command": "printf hi"}}]},
  {"content": "Result: {{last_tool_result}}"},
  {"tool_calls": [{"id": "c2", "name": "Bash", "arguments": {"command": "printf hi"}}]},
  {"content": "Second result: {{last_tool_result}}"}
]}"#;

#[test]
fn in_the_interactive_session_a_commands_allowed_tools_hold_for_its_prompt_only() {
    let place = crate::support::chat_place::Place::new(ECHO_TWICE);
    let file = place.base.join("home/.claude/commands/hi.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "---\nallowed-tools: Bash(printf hi)\n---\nSay hi.\n").unwrap();
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("/hi");
    let screen = terminal.wait_for("Result: [exit code: 0]");
    assert_eq!(screen.matches("[y] allow once").count(), 0, "{screen}");
    terminal.type_line("again");
    terminal.wait_for("[y] allow once");
}

#[test]
fn under_a_script_a_commands_model_is_named_and_the_session_keeps_its_own() {
    let place = crate::support::chat_place::Place::new(crate::support::chat_place::TWO_ANSWERS);
    let file = place.base.join("home/.claude/commands/quick.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "---\nmodel: haiku\n---\nAnswer quickly.\n").unwrap();
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("/quick");
    terminal.wait_for(
        "/quick names the model haiku; this session keeps scripted (/model switches it)\nFirst answer.",
    );
}

#[test]
fn a_command_whose_allowed_tools_are_not_rules_runs_without_them_and_the_warning_names_its_file() {
    let home = Home::new();
    home.write(
        "home/.claude/commands/bad.md",
        "---\nallowed-tools: Bsh(ls)\n---\nList the files.\n",
    );
    let path = home.base.join("script.json");
    std::fs::write(&path, answer().to_string()).unwrap();
    let output = home
        .agenthub()
        .args(["run", "--output-format", "json", "--script"])
        .arg(&path)
        .arg("/bad")
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        (
            sent_prompt(&home, &report),
            String::from_utf8(output.stderr).unwrap()
        ),
        (
            json!("List the files."),
            format!(
                "agenthub: warning: command bad: its allowed-tools are not applied: invalid \
                 permission rule \"Bsh(ls)\" in {} at permissions.allow[0]: no tool is named Bsh; \
                 known tools: Read, Write, Edit, Bash, Glob, Grep, TodoWrite, Echo, Task, WebFetch, \
                 mcp__<server>__<tool>\n",
                home.base.join("home/.claude/commands/bad.md").display()
            )
        )
    );
}

#[test]
fn help_shows_control_characters_of_a_command_description_escaped() {
    let place = crate::support::chat_place::Place::new(crate::support::chat_place::TWO_ANSWERS);
    let file = place.base.join("home/.claude/commands/red.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "---\ndescription: \"\\e[2JWipes\"\n---\nBody.\n").unwrap();
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("/help");
    terminal.wait_for("  /red                       \\x1b[2JWipes");
}

/// An OpenAI-compatible answer, streamed.
fn streamed(text: &str) -> wiremock::ResponseTemplate {
    let chunk =
        json!({"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": null}]});
    let body = format!(
        "data: {chunk}\n\ndata: {{\"choices\": [{{\"index\": 0, \"delta\": {{}}, \"finish_reason\": \"stop\"}}]}}\n\ndata: [DONE]\n\n"
    );
    wiremock::ResponseTemplate::new(200)
        .insert_header("content-type", "text/event-stream")
        .set_body_string(body)
}

/// A provider on 127.0.0.1 answering "from the second model" to requests
/// for `gpt-second` and "from the first model" to every other.
async fn two_model_server() -> wiremock::MockServer {
    let server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::body_string_contains("\"gpt-second\""))
        .respond_with(streamed("from the second model"))
        .with_priority(1)
        .mount(&server)
        .await;
    wiremock::Mock::given(wiremock::matchers::method("POST"))
        .respond_with(streamed("from the first model"))
        .with_priority(2)
        .mount(&server)
        .await;
    server
}

/// A session place whose settings choose `gpt-first` and whose user has
/// `/second`, a command on `gpt-second`.
fn two_model_place() -> crate::support::chat_place::Place {
    let place = crate::support::chat_place::Place::new(crate::support::chat_place::TWO_ANSWERS);
    let config = place.base.join("home/.config/agenthub");
    std::fs::create_dir_all(&config).unwrap();
    std::fs::write(config.join("settings.json"), r#"{"model": "gpt-first"}"#).unwrap();
    let file = place.base.join("home/.claude/commands/second.md");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "---\nmodel: gpt-second\n---\nAsk the second.\n").unwrap();
    place
}

/// `agenthub chat ARGS` against `server`.
fn provider_chat(
    place: &crate::support::chat_place::Place,
    server: &wiremock::MockServer,
    args: &[&str],
) -> crate::support::chat_place::Terminal {
    let base_url = format!("{}/v1", server.uri());
    crate::support::chat_place::Terminal::start(
        &place.workspace(),
        &place.base.join("home"),
        args,
        &[
            ("OPENAI_API_KEY", "test-key"),
            ("OPENAI_BASE_URL", base_url.as_str()),
        ],
    )
}

/// The model of each request `server` received, in order.
async fn requested_models(server: &wiremock::MockServer) -> Vec<Value> {
    server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|request| serde_json::from_slice::<Value>(&request.body).unwrap()["model"].clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn in_the_interactive_session_a_commands_model_answers_its_prompt_and_the_session_goes_back_to_its_own(
) {
    let server = two_model_server().await;
    let place = two_model_place();
    let screen = tokio::task::block_in_place(|| {
        let mut terminal = provider_chat(&place, &server, &["chat"]);
        terminal.wait_for_prompt();
        terminal.type_line("/second");
        terminal.wait_for("from the second model");
        terminal.wait_for_prompt();
        terminal.type_line("/model");
        terminal.wait_for_prompt();
        terminal.type_line("two");
        terminal.wait_for_prompt()
    });
    let tail: Vec<&str> = screen.trim_end().lines().skip(1).collect();
    assert_eq!(
        tail,
        [
            "> /second",
            "from the second model",
            "> /model",
            "model: gpt-first",
            "> two",
            "from the first model",
            ">"
        ]
    );
    assert_eq!(
        requested_models(&server).await,
        [json!("gpt-second"), json!("gpt-first")]
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_first_prompt_naming_a_command_with_a_model_starts_on_that_model_then_goes_back() {
    let server = two_model_server().await;
    let place = two_model_place();
    let screen = tokio::task::block_in_place(|| {
        let mut terminal = provider_chat(&place, &server, &["chat", "/second"]);
        terminal.wait_for("from the second model");
        terminal.wait_for_prompt();
        terminal.type_line("two");
        terminal.wait_for("from the first model");
        terminal.wait_for_prompt()
    });
    let transcripts = place.transcripts();
    assert_eq!(
        (
            requested_models(&server).await,
            transcripts.len(),
            transcripts[0][0]["type"].clone()
        ),
        (
            vec![json!("gpt-second"), json!("gpt-first")],
            1,
            json!("session")
        ),
        "{screen}"
    );
}
