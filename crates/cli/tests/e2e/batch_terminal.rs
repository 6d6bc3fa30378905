//! `agenthub batch`'s progress display in a real pseudo-terminal: the
//! done / running / failed header with the elapsed time, one line per
//! running task, and the summary left on screen at the end.

use crate::support::terminal;

use serde_json::json;
use terminal::Terminal;

#[test]
fn a_terminal_shows_the_counts_and_each_running_task_then_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    for sub in ["ws", "home/.config"] {
        std::fs::create_dir_all(base.join(sub)).unwrap();
    }
    let script = json!({"turns": [
        {"content": "", "tool_calls": [
            {"id": "call_1", "name": "Bash", "arguments": {"command": "sleep 1.5"}}]},
        {"content": "slept"}
    ]});
    std::fs::write(base.join("sleep.json"), script.to_string()).unwrap();
    let tasks: Vec<String> = ["alpha", "beta", "gamma"]
        .iter()
        .map(|id| {
            json!({"id": id, "prompt": "sleep", "workspace": {"path": "ws"},
                   "script": "sleep.json",
                   "settings": {"permissions": {"defaultMode": "bypassPermissions"}}})
            .to_string()
        })
        .collect();
    std::fs::write(base.join("tasks.jsonl"), tasks.join("\n")).unwrap();
    let tasks = base.join("tasks.jsonl");
    let out = base.join("results.jsonl");
    let mut terminal = Terminal::start(
        &base,
        &base.join("home"),
        &[
            "batch",
            tasks.to_str().unwrap(),
            "--parallel",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
        &[],
    );
    terminal.wait_for("done 0/3 · running 2 · failed 0");
    let shown_running = running_lines(&mut terminal);
    let end = terminal.wait_for("batch: 3 tasks in ");
    let code = terminal.wait_exit();
    assert_eq!(
        (
            shown_running,
            code,
            end.contains(": 3 succeeded, 0 failed, 0 cancelled"),
            ["alpha", "beta", "gamma"].iter().any(|id| end.contains(id))
        ),
        (2, 0, true, false)
    );
}

/// How many task lines (`<id> <elapsed>`) the screen shows once two are
/// running: polled, since the header and the task lines are drawn apart.
fn running_lines(terminal: &mut Terminal) -> usize {
    let count = |screen: &str| {
        ["alpha", "beta", "gamma"]
            .iter()
            .filter(|id| screen.contains(&format!("{id} ")))
            .count()
    };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(1);
    let mut seen = count(&terminal.contents());
    while seen < 2 && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        seen = count(&terminal.contents());
    }
    seen
}
