//! Claude Code's `if` (conformance check 6) as the CLI reports it: the warning
//! for a condition that can never apply, the exit code for one that does not
//! parse. Which calls a rule selects: crates/agenthub/tests/it/conditions.rs.

use super::support::*;
use serde_json::json;

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
