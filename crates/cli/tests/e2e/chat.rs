//! The interactive session (contract §13) in a real pseudo-terminal, driven by
//! the scripted model: what a person sees on the rendered screen after each
//! key, and what the transcript keeps.

use crate::support::chat_place;

use chat_place::*;
use serde_json::Value;

#[test]
fn an_answer_appears_after_the_prompt() {
    let place = Place::new(TWO_ANSWERS);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("hello");
    let screen = terminal.wait_for_prompt();
    assert_eq!(
        screen.trim_end(),
        format!(
            "agenthub · model scripted · workspace {} · mode default · /help for commands\n> hello\nFirst answer.\n>",
            place.workspace().display()
        )
    );
}

#[test]
fn ctrl_c_typed_right_after_approving_never_hangs_the_session() {
    let place = Place::new(BASH);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("run it");
    terminal.wait_for("[y] allow once");
    // At machine speed: Ctrl-C lands while the approved call starts (the
    // first Bash call of the process also probes the sandbox then).
    terminal.send(b"y");
    terminal.send(b"\x03");
    terminal.wait_for_prompt();
    // Whatever the Ctrl-C met, the session settles at an empty prompt.
    std::thread::sleep(std::time::Duration::from_millis(500));
    terminal.type_line("/exit");
    assert_eq!(terminal.wait_exit(), 0);
}

#[test]
fn ctrl_c_that_answers_the_approval_leaves_the_next_prompt_its_keys() {
    let place = Place::new(BASH);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("run it");
    terminal.wait_for("[y] allow once");
    terminal.send(b"\x03");
    terminal.wait_for("denied, turn cancelled");
    terminal.type_line("/exit");
    assert_eq!(terminal.wait_exit(), 0);
}

#[test]
fn two_prompts_share_one_session_and_its_history() {
    let place = Place::new(TWO_ANSWERS);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("one");
    terminal.wait_for("First answer.");
    terminal.type_line("two");
    terminal.wait_for("Second answer.");
    terminal.type_line("/exit");
    assert_eq!(terminal.wait_exit(), 0);
    let transcripts = place.transcripts();
    assert_eq!(transcripts.len(), 1, "one session, one transcript");
    assert_eq!(user_prompts(&transcripts[0]), ["one", "two"]);
}

#[test]
fn ctrl_c_during_a_long_command_cancels_the_turn_and_returns_to_the_prompt() {
    let place = Place::new(
        r#"{"turns": [
          {"content": "Sleeping.", "tool_calls": [{"id": "c1", "name": "Bash", "arguments": {"command": "sleep 30"}}]},
          {"content": "Awake again."}
        ]}"#,
    );
    let mut terminal = place.chat(&["--allow", "Bash(sleep:*)"], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("sleep");
    terminal.wait_for("⏺ Bash(sleep 30)");
    terminal.send(b"\x03");
    let screen = terminal.wait_for("turn cancelled");
    assert!(screen.contains("Bash(sleep 30) cancelled"), "{screen}");
    terminal.type_line("are you there?");
    terminal.wait_for("Awake again.");
    let transcripts = place.transcripts();
    let tool_results: Vec<&Value> = transcripts[0]
        .iter()
        .filter(|record| record["message"]["role"] == "tool")
        .map(|record| &record["message"]["content"])
        .collect();
    assert_eq!(
        tool_results,
        ["Error [cancelled]: the tool was not run (or was interrupted): the run was cancelled"]
    );
}

#[test]
fn y_at_the_approval_allows_the_command_once() {
    let place = Place::new(BASH);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("run it");
    terminal.wait_for("[y] allow once");
    terminal.send(b"y");
    terminal.wait_for("Result: [exit code: 0]");
    assert_eq!(
        std::fs::read_to_string(place.workspace().join("out.txt")).unwrap(),
        "ran\n"
    );
    terminal.type_line("again");
    terminal.wait_for_count("[y] allow once", 2);
}

#[test]
fn n_at_the_approval_denies_the_command() {
    let place = Place::new(BASH);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("run it");
    terminal.wait_for("[y] allow once");
    terminal.send(b"n");
    let screen = terminal.wait_for("Result: Error [permission_denied]");
    assert!(
        screen.contains("⏺ Bash(echo ran > out.txt) denied"),
        "{screen}"
    );
    assert!(!place.workspace().join("out.txt").exists());
}

#[test]
fn a_at_the_approval_allows_the_same_command_for_the_rest_of_the_session() {
    let place = Place::new(BASH);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("run it");
    terminal.wait_for("[y] allow once");
    terminal.send(b"a");
    terminal.wait_for("Result: [exit code: 0]");
    terminal.type_line("again");
    let screen = terminal.wait_for("Second result: [exit code: 0]");
    assert_eq!(screen.matches("[y] allow once").count(), 1, "{screen}");
    terminal.type_line("/permissions");
    // The header and the grant under it, waited for whole: the grant's line
    // may be drawn after the header.
    terminal.wait_for(
        "allowed for this session (never a write to a protected path: that is asked each time):\n  Bash(echo ran > out.txt)\n",
    );
}

#[test]
fn help_lists_the_commands_and_an_unknown_command_says_so() {
    let place = Place::new(TWO_ANSWERS);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("/help");
    let screen = terminal.wait_for("/exit");
    assert!(screen.contains("/compact [instructions]"), "{screen}");
    terminal.type_line("/frob");
    terminal.wait_for("unknown command /frob; the commands are /help /clear");
}

#[test]
fn continue_says_the_session_was_resumed_and_shows_its_last_exchange() {
    let place = Place::new(TWO_ANSWERS);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("remember this");
    terminal.wait_for("First answer.");
    terminal.type_line("/exit");
    assert_eq!(terminal.wait_exit(), 0);
    let id = place.transcripts()[0][0]["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut terminal = place.chat(&["--continue"], &[]);
    // The whole text, its closing line end included: waiting for "First
    // answer." alone could return before the line below it was drawn (the
    // screen is read with trailing blanks trimmed), as it did at load 4.
    terminal.wait_for(&format!(
        "resumed session {id} (1 earlier prompt)\n  > remember this\n  First answer.\n"
    ));
}

#[test]
fn clear_starts_a_new_session_and_resume_picks_the_old_one_up() {
    let place = Place::new(
        r#"{"turns": [{"content": "First answer."}, {"content": "Second answer."}, {"content": "Third answer."}]}"#,
    );
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("remember this");
    terminal.wait_for_prompt();
    terminal.type_line("/clear");
    terminal.wait_for_prompt();
    terminal.type_line("fresh start");
    terminal.wait_for("Second answer.");
    terminal.wait_for_prompt();
    assert_eq!(
        place.transcripts().len(),
        2,
        "/clear began a second session"
    );
    terminal.type_line("/resume");
    let screen = terminal.wait_for("session number");
    let listed = screen
        .lines()
        .find(|line| line.contains("remember this") && line.contains(" turns "))
        .unwrap_or_else(|| panic!("the first session is listed:\n{screen}"));
    let number = listed.trim().split('.').next().unwrap().to_owned();
    terminal.type_line(&number);
    terminal.wait_for_prompt();
    terminal.type_line("and now?");
    terminal.wait_for("Third answer.");
    terminal.type_line("/exit");
    assert_eq!(terminal.wait_exit(), 0);
    let resumed = place
        .transcripts()
        .into_iter()
        .find(|records| user_prompts(records).first().map(String::as_str) == Some("remember this"))
        .unwrap();
    assert_eq!(user_prompts(&resumed), ["remember this", "and now?"]);
}

#[test]
fn short_r_without_an_id_opens_with_the_session_picker() {
    let place =
        Place::new(r#"{"turns": [{"content": "First answer."}, {"content": "Second answer."}]}"#);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("remember this");
    terminal.wait_for("First answer.");
    terminal.type_line("/exit");
    assert_eq!(terminal.wait_exit(), 0);
    let mut terminal = place.chat(&["-r"], &[]);
    let screen = terminal.wait_for("session number");
    let listed = screen
        .lines()
        .find(|line| line.contains("remember this"))
        .unwrap_or_else(|| panic!("the first session is listed:\n{screen}"));
    let number = listed.trim().split('.').next().unwrap().to_owned();
    terminal.type_line(&number);
    terminal.wait_for_prompt();
    terminal.type_line("and now?");
    // A new process: the script answers from its first turn again.
    terminal.wait_for("> and now?\nFirst answer.\n");
    terminal.type_line("/exit");
    assert_eq!(terminal.wait_exit(), 0);
    let resumed = place
        .transcripts()
        .into_iter()
        .find(|records| user_prompts(records).first().map(String::as_str) == Some("remember this"))
        .unwrap();
    assert_eq!(user_prompts(&resumed), ["remember this", "and now?"]);
}

#[test]
fn ctrl_d_ends_the_session() {
    let place = Place::new(TWO_ANSWERS);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.send(b"\x04");
    assert_eq!(terminal.wait_exit(), 0);
}

#[test]
fn ctrl_c_twice_on_the_prompt_ends_the_session() {
    let place = Place::new(TWO_ANSWERS);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.send(b"\x03");
    terminal.wait_for("Ctrl-C again");
    terminal.send(b"\x03");
    assert_eq!(terminal.wait_exit(), 0);
}

#[test]
fn no_color_leaves_the_screen_without_colours() {
    let place = Place::new(
        r#"{"turns": [
          {"content": "Echoing.", "tool_calls": [{"id": "c1", "name": "Echo", "arguments": {"text": "hi"}}]},
          {"content": "Result: {{last_tool_result}}"}
        ]}"#,
    );
    let mut coloured = place.chat(&[], &[]);
    coloured.wait_for_prompt();
    coloured.type_line("echo");
    coloured.wait_for("Result:");
    let mut plain = place.chat(&[], &[("NO_COLOR", "1")]);
    plain.wait_for_prompt();
    plain.type_line("echo");
    plain.wait_for("Result:");
    let sgr = |raw: &[u8]| String::from_utf8_lossy(raw).matches("\x1b[1m").count();
    assert!(sgr(&coloured.raw) > 0, "the coloured session is coloured");
    assert_eq!(sgr(&plain.raw), 0, "NO_COLOR: no bold, no colour");
}

#[test]
fn escape_sequences_in_tool_output_are_shown_escaped() {
    let place = Place::new(
        r#"{"turns": [
          {"content": "Printing.", "tool_calls": [{"id": "c1", "name": "Bash", "arguments": {"command": "printf 'before\\033[2J\\033]52;c;SGk=\\007after'"}}]},
          {"content": "It printed: {{last_tool_result}}"}
        ]}"#,
    );
    let mut terminal = place.chat(&["--allow", "Bash(printf:*)"], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("print");
    terminal.wait_for("It printed: [exit code: 0]\nbefore\\x1b[2J\\x1b]52;c;SGk=\\x07after");
}

#[test]
fn agenthub_alone_without_a_terminal_prints_the_usage() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_agenthub"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).starts_with("An agent runtime"));
}

#[test]
fn the_trust_question_is_asked_once_and_y_lets_the_project_rules_act() {
    let place = Place::new(
        r#"{"turns": [
          {"content": "Echoing.", "tool_calls": [{"id": "c1", "name": "Bash", "arguments": {"command": "echo trusted"}}]},
          {"content": "Result: {{last_tool_result}}"}
        ]}"#,
    );
    let settings = place.workspace().join(".agenthub");
    std::fs::create_dir_all(&settings).unwrap();
    std::fs::write(
        settings.join("settings.json"),
        r#"{"permissions": {"allow": ["Bash(echo:*)"]}}"#,
    )
    .unwrap();
    let mut terminal = place.chat(&[], &[]);
    let screen = terminal.wait_for("Trust it? [y/N]");
    assert!(
        screen.contains("allow rule: Bash(echo:*)"),
        "the review names the grant:\n{screen}"
    );
    terminal.send(b"y");
    terminal.wait_for_prompt();
    terminal.type_line("echo");
    let screen = terminal.wait_for("Result: [exit code: 0]");
    assert!(
        !screen.contains("[y] allow once"),
        "the trusted rule allowed it:\n{screen}"
    );
    let mut again = place.chat(&[], &[]);
    let screen = again.wait_for_prompt();
    assert!(!screen.contains("Trust it?"), "asked once:\n{screen}");
}

#[test]
fn a_hook_command_padded_with_newlines_shows_every_line_marked_in_the_trust_review() {
    let place = Place::new(TWO_ANSWERS);
    let settings = place.workspace().join(".agenthub");
    std::fs::create_dir_all(&settings).unwrap();
    let command = format!("true{}touch PWNED", "\n".repeat(40));
    let hooks = serde_json::json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": command}]}]}});
    std::fs::write(settings.join("settings.json"), hooks.to_string()).unwrap();
    let mut terminal = place.chat(&[], &[]);
    let screen = terminal.wait_for("Trust it? [y/N]");
    let review: Vec<&str> = screen
        .lines()
        .map(str::trim_end)
        .skip_while(|line| !line.starts_with(".agenthub/settings.json"))
        .skip(1)
        .collect();
    assert_eq!(
        review,
        [
            "  acts once trusted:",
            "    (41 lines, each marked │)",
            "     1 │ SessionStart hook (matcher *): true",
            "       ┆ … 39 blank lines (2–40)",
            "    41 │ touch PWNED",
            "This folder's configuration is not trusted. (1 entry above spans 41 lines) Trust it? [y/N]",
        ],
        "screen:\n{screen}"
    );
    terminal.send(b"n");
    terminal.wait_for_prompt();
    assert!(!place.workspace().join("PWNED").exists());
}

#[test]
fn compact_summarises_the_conversation_on_demand() {
    let place = Place::new(TWO_ANSWERS);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("one");
    terminal.wait_for_prompt();
    terminal.type_line("/compact keep the numbers");
    terminal.wait_for("[Compact] manual:");
    let compaction = place.transcripts()[0]
        .iter()
        .find(|record| record["type"] == "compaction")
        .cloned()
        .unwrap();
    assert_eq!(compaction["trigger"], "manual");
}

#[test]
fn usage_counts_the_model_requests_of_the_session() {
    let place = Place::new(TWO_ANSWERS);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("one");
    terminal.wait_for_prompt();
    terminal.type_line("two");
    terminal.wait_for_prompt();
    terminal.type_line("/usage");
    terminal.wait_for("2 model requests; tokens:");
}

#[test]
fn a_mentioned_file_is_attached_to_the_prompt() {
    let place = Place::new(TWO_ANSWERS);
    std::fs::write(place.workspace().join("notes.txt"), "buy milk").unwrap();
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("summarise @notes.txt");
    terminal.wait_for("attached notes.txt (8 bytes)");
    terminal.wait_for_prompt();
    assert_eq!(
        user_prompts(&place.transcripts()[0]),
        ["summarise @notes.txt\n\nContents of notes.txt:\n```\nbuy milk\n```"]
    );
}

#[test]
fn tab_completes_a_mentioned_path() {
    let place = Place::new(TWO_ANSWERS);
    std::fs::create_dir(place.workspace().join("src")).unwrap();
    std::fs::write(place.workspace().join("src/main.rs"), "fn main() {}").unwrap();
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.send(b"read @sr\t");
    terminal.wait_for("> read @src/");
    terminal.send(b"m\t\r");
    terminal.wait_for("attached src/main.rs");
}

#[test]
fn the_scripted_model_cannot_be_switched() {
    let place = Place::new(TWO_ANSWERS);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("/model gpt-4.1");
    terminal.wait_for("the scripted model (--script) cannot be switched");
}

#[test]
fn hooks_lists_the_command_hooks() {
    let place = Place::new(TWO_ANSWERS);
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("/hooks");
    terminal.wait_for("no command hooks configured");
}

#[test]
fn a_running_subagent_is_one_live_line_with_its_tool_then_its_ending() {
    let place = Place::new(
        r#"{"turns": [
          {"tool_calls": [{"id": "t1", "name": "Task", "arguments": {
            "description": "count files", "prompt": "count", "subagent_type": "general-purpose"}}]},
          {"content": "Parent: {{last_tool_result}}"}
        ],
        "subagents": [{"turns": [
          {"tool_calls": [{"id": "b1", "name": "Bash", "arguments": {"command": "sleep 2"}}]},
          {"content": "three files"}
        ]}]}"#,
    );
    let mut terminal = place.chat(&["--allow", "Task", "--allow", "Bash(sleep:*)"], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("count them");
    let running = terminal.wait_for("[general-purpose] count files · Bash");
    let live: Vec<&str> = running.lines().filter(|l| l.contains("↳")).collect();
    assert_eq!(live.len(), 1, "one live line while it runs: {running}");
    let screen = terminal.wait_for("Parent: three files");
    assert!(
        screen.contains("↳ [general-purpose] count files completed"),
        "{screen}"
    );
    assert!(
        !screen.contains("· Bash"),
        "the live line is gone: {screen}"
    );
}
