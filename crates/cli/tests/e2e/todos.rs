//! The model's task list (contract §31): Claude Code's `TodoWrite` runs in
//! every permission mode without asking, answers Claude Code's text, shows
//! in the interactive session as a checklist in place of its result line,
//! reaches an editor as ACP `plan` updates (the official ACP SDK's client
//! validating them; a loaded session sends its last plan), and is an ordinary tool_use / tool_result pair in
//! `stream-json`.

use crate::editors::client;
use crate::support::chat_place::Place;
use crate::support::home::Home;
use serde_json::{json, Value};

const RESULT: &str = "Todos have been modified successfully. Ensure that you continue to use \
     the todo list to track your progress. Please proceed with the current tasks if applicable";

fn todos(statuses: [&str; 3]) -> Value {
    json!({"todos": [
        {"content": "Read the code", "status": statuses[0], "activeForm": "Reading the code"},
        {"content": "Fix the bug", "status": statuses[1], "activeForm": "Fixing the bug"},
        {"content": "Run the tests", "status": statuses[2], "activeForm": "Running the tests"},
    ]})
}

fn todo_write(id: &str, input: Value) -> Value {
    json!({"tool_calls": [{"id": id, "name": "TodoWrite", "arguments": input}]})
}

/// Two TodoWrite calls (the second moves the list on), then an answer.
fn script() -> Value {
    json!({"turns": [
        todo_write("t1", todos(["in_progress", "pending", "pending"])),
        todo_write("t2", todos(["completed", "in_progress", "pending"])),
        {"content": "Planned."}
    ]})
}

#[test]
fn the_interactive_session_shows_each_list_as_a_checklist_in_place_of_its_result() {
    let place = Place::new(&script().to_string());
    let mut terminal = place.chat(&[], &[]);
    terminal.wait_for_prompt();
    terminal.type_line("plan it");
    let screen = terminal.wait_for_prompt();
    let turn: Vec<&str> = screen
        .lines()
        .skip_while(|line| *line != "> plan it")
        .map(str::trim_end)
        .collect();
    assert_eq!(
        turn,
        [
            "> plan it",
            "⏺ TodoWrite",
            "  ◐ Reading the code",
            "  ☐ Fix the bug",
            "  ☐ Run the tests",
            "⏺ TodoWrite",
            "  ☑ Read the code",
            "  ◐ Fixing the bug",
            "  ☐ Run the tests",
            "Planned.",
            ">",
        ]
    );
}

#[test]
fn todo_write_runs_without_asking_in_every_mode_and_answers_claude_codes_text() {
    for mode in ["default", "plan", "dontAsk", "acceptEdits"] {
        let home = Home::new();
        let script = json!({"turns": [
            todo_write("t1", todos(["in_progress", "pending", "pending"])),
            {"content": "{{last_tool_result}}"}
        ]});
        let report = home.run_json(script, &["--permission-mode", mode], "plan it");
        let session = report["session_id"].as_str().unwrap();
        let decisions: Vec<Value> = home
            .records(session)
            .into_iter()
            .filter(|record| record["type"] == "permission")
            .map(|record| json!([record["tool"], record["effect"], record["source"]]))
            .collect();
        assert_eq!(
            (mode, report["result"].clone(), decisions),
            (
                mode,
                json!(RESULT),
                vec![json!(["TodoWrite", "allow", "default"])]
            ),
        );
    }
}

#[test]
fn stream_json_shows_todo_write_as_a_tool_use_and_its_tool_result() {
    let home = Home::new();
    let path = home.base.join("script.json");
    std::fs::write(&path, script().to_string()).unwrap();
    let output = home
        .agenthub()
        .args(["run", "--output-format", "stream-json", "--script"])
        .arg(&path)
        .arg("plan it")
        .output()
        .unwrap();
    let blocks: Vec<Value> = String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|line| line["type"] == "assistant" || line["type"] == "user")
        .flat_map(|line| {
            line["message"]["content"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(
        blocks,
        [
            json!({"type": "tool_use", "id": "t1", "name": "TodoWrite",
                   "input": todos(["in_progress", "pending", "pending"])}),
            json!({"type": "tool_result", "tool_use_id": "t1", "content": RESULT, "is_error": false}),
            json!({"type": "tool_use", "id": "t2", "name": "TodoWrite",
                   "input": todos(["completed", "in_progress", "pending"])}),
            json!({"type": "tool_result", "tool_use_id": "t2", "content": RESULT, "is_error": false}),
            json!({"type": "text", "text": "Planned."}),
        ]
    );
}

fn plan(statuses: [&str; 3]) -> Value {
    let entry = |content: &str, status: &str| json!({"content": content, "priority": "medium", "status": status});
    json!({"u": "plan", "entries": [
        entry("Read the code", statuses[0]),
        entry("Fix the bug", statuses[1]),
        entry("Run the tests", statuses[2]),
    ]})
}

fn call_updates(id: &str) -> [Value; 2] {
    [
        json!({"u": "tool_call", "id": id, "status": "pending"}),
        json!({"u": "tool_call_update", "id": id, "status": "in_progress"}),
    ]
}

#[test]
fn an_editor_gets_each_list_as_a_whole_plan_and_the_last_one_again_on_load_through_the_acp_sdk() {
    let home = Home::new();
    let path = home.base.join("script.json");
    std::fs::write(&path, script().to_string()).unwrap();
    let printed = client(&home, "acp_plan.mjs", &["--script", path.to_str().unwrap()]);
    let completed = |id: &str| json!({"u": "tool_call_update", "id": id, "status": "completed"});
    let [announced_1, running_1] = call_updates("t1");
    let [announced_2, running_2] = call_updates("t2");
    assert_eq!(
        printed,
        json!({
            "stopReason": "end_turn",
            "asks": [],
            "updates": [
                announced_1, running_1,
                plan(["in_progress", "pending", "pending"]),
                completed("t1"),
                announced_2, running_2,
                plan(["completed", "in_progress", "pending"]),
                completed("t2"),
                {"u": "agent_message_chunk", "text": "Planned."},
            ],
            "loadedPlans": [plan(["completed", "in_progress", "pending"])],
            "exits": [0, 0],
        })
    );
}
