//! Claude Code's `if` (conformance check 6): one permission rule that a call
//! must match for the hook to run, read with the permission engine's syntax.

use super::support::*;
use serde_json::json;

fn bash_calls(case: &Case, commands: &[&str]) {
    let calls: Vec<serde_json::Value> = commands
        .iter()
        .enumerate()
        .map(|(position, command)| {
            call(
                &format!("call_{position}"),
                "Bash",
                json!({"command": command}),
            )
        })
        .collect();
    case.script(json!([{"content": "running", "tool_calls": calls}, {"content": "done"}]));
}

#[test]
fn an_if_rule_selects_sub_commands_after_assignments_and_in_compound_commands() {
    let case = Case::new();
    let hook = case.hook(
        "git-only.sh",
        "grep -o '\"command\":\"[^\"]*' | cut -d'\"' -f4 >> .agenthub/fired.txt",
    );
    let mut spec = command(&hook);
    spec["if"] = json!("Bash(git *)");
    case.hooks(&[("PreToolUse", Some("Bash"), spec)]);
    bash_calls(
        &case,
        &["FOO=1 git push", "npm t && git push", "ls -la", "echo git"],
    );
    case.report();
    assert_eq!(
        case.read(".agenthub/fired.txt"),
        "FOO=1 git push\nnpm t && git push\n"
    );
}

#[test]
fn a_path_rule_in_if_selects_the_file_tools_call_by_its_path() {
    let case = Case::new();
    case.write("src/a.rs", "fn main() {}\n");
    case.write("notes.txt", "hi\n");
    let hook = case.hook(
        "rs-only.sh",
        "grep -o '\"file_path\":\"[^\"]*' | cut -d'\"' -f4 >> .agenthub/fired.txt",
    );
    let mut spec = command(&hook);
    spec["if"] = json!("Read(*.rs)");
    case.hooks(&[("PreToolUse", None, spec)]);
    case.script(json!([
        {"content": "reading", "tool_calls": [
            call("call_1", "Read", json!({"file_path": "src/a.rs"})),
            call("call_2", "Read", json!({"file_path": "notes.txt"}))]},
        {"content": "done"}
    ]));
    case.report();
    assert_eq!(
        case.read(".agenthub/fired.txt"),
        format!("{}\n", case.path("src/a.rs"))
    );
}

#[test]
fn a_hook_with_if_on_stop_never_runs_and_says_so() {
    let case = Case::new();
    let hook = case.hook("never.sh", "echo ran > .agenthub/fired.txt");
    let mut spec = command(&hook);
    spec["if"] = json!("Bash(git *)");
    case.hooks(&[("Stop", None, spec)]);
    case.answer_script(&["done"]);
    let stderr = case.stderr();
    assert_eq!(
        (stderr, case.workspace.join(".agenthub/fired.txt").exists()),
        (
            format!(
                "agenthub: warning: {} hooks.Stop[0].hooks[0].if: a Stop hook with \"if\" never runs (conditions apply to tool events only)\n",
                case.path(".agenthub/settings.json")
            ),
            false
        )
    );
}

#[test]
fn an_if_rule_that_does_not_parse_stops_the_run_with_exit_2() {
    let case = Case::new();
    let mut spec = command("true");
    spec["if"] = json!("Bash(git *");
    case.hooks(&[("PreToolUse", None, spec)]);
    case.answer_script(&["done"]);
    let output = case.run().output().unwrap();
    assert_eq!(
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned()),
        (
            Some(2),
            format!(
                "agenthub: invalid settings file {} at hooks.PreToolUse[0].hooks[0].if: \"Bash(git *\": the rule opens '(' but does not end with ')'\n",
                case.path(".agenthub/settings.json")
            )
        )
    );
}
