//! What a run's exit code and output become, event by event.

use super::*;
use crate::command::runner::RunEnd;
use crate::events::{EventSpec, PreCompact, Stop};
use crate::{PreCompactResult, StopResult};
use std::time::Duration;

fn stop(run: &RawRun, as_: ReadAs<'_>) -> Result<StopResult, HookError> {
    crate::events::stop::read_output(run, as_)
}

fn pre_compact(run: &RawRun, as_: ReadAs<'_>) -> Result<PreCompactResult, HookError> {
    crate::events::pre_compact::read_output(run, as_)
}

fn ran(code: i32, stdout: &str, stderr: &str) -> RawRun {
    RawRun {
        end: RunEnd::Exited(code),
        stdout: stdout.to_owned(),
        stderr: stderr.to_owned(),
        elapsed: Duration::ZERO,
    }
}

fn as_<E: EventSpec>() -> ReadAs<'static> {
    ReadAs::of::<E>("./h.sh", "/ws/.claude/settings.json", false)
}

#[test]
fn pre_compact_blocks_on_exit_2_decision_block_and_continue_false() {
    let results: Vec<Option<String>> = [
        ran(2, "", "keep it"),
        ran(0, r#"{"decision": "block", "reason": "not yet"}"#, ""),
        ran(0, r#"{"continue": false, "stopReason": "stop"}"#, ""),
        ran(0, "just a log line", ""),
    ]
    .iter()
    .map(|run| {
        pre_compact(run, as_::<PreCompact>())
            .ok()
            .and_then(|result| result.block)
    })
    .collect();
    assert_eq!(
        results,
        vec![
            Some("keep it".to_owned()),
            Some("not yet".to_owned()),
            Some("stop".to_owned()),
            None
        ]
    );
}

#[test]
fn pre_compact_refuses_hook_specific_output_as_a_contract_error() {
    let run = ran(
        0,
        r#"{"hookSpecificOutput": {"hookEventName": "PreCompact", "additionalContext": "x"}}"#,
        "",
    );
    assert!(matches!(
        pre_compact(&run, as_::<PreCompact>()),
        Err(HookError::Contract(_))
    ));
}

#[test]
fn exit_1_without_json_is_a_warning_naming_the_file_and_the_setting() {
    let result = stop(&ran(1, "", "pnpm: not found"), as_::<Stop>());
    assert_eq!(
        result,
        Ok(StopResult {
            system_message: Some(
                "exited with status 1: pnpm: not found; a non-blocking error, the action goes on (hook from /ws/.claude/settings.json; \"onFailure\": \"block\" makes it block)".to_owned()
            ),
            ..StopResult::default()
        })
    );
}

#[test]
fn exit_1_with_on_failure_block_is_a_failure() {
    let strict = ReadAs {
        strict: true,
        ..as_::<Stop>()
    };
    assert_eq!(
        stop(&ran(1, "", ""), strict),
        Err(HookError::execution("exited with status 1"))
    );
}

#[test]
fn exit_127_is_a_check_that_could_not_run() {
    assert_eq!(
        stop(&ran(127, "", "sh: pnpm: not found"), as_::<Stop>()),
        Err(HookError::execution(
            "exited with status 127 (command not found): sh: pnpm: not found"
        ))
    );
}

#[test]
fn stop_exit_2_with_blank_stderr_takes_the_reason_from_stdout_json() {
    let run = ran(2, r#"{"decision":"block","reason":"tests fail"}"#, "  ");
    assert_eq!(
        stop(&run, as_::<Stop>()).map(|result| result.force_continue),
        Ok(Some("tests fail".to_owned()))
    );
}

#[test]
fn stop_exit_2_without_any_reason_continues_with_a_default_naming_the_hook() {
    assert_eq!(
        stop(&ran(2, "", ""), as_::<Stop>()).map(|result| result.force_continue),
        Ok(Some(
            "the Stop hook \"./h.sh\" blocked without a reason".to_owned()
        ))
    );
}

#[test]
fn stop_additional_context_continues_the_run_with_it() {
    let run = ran(
        0,
        r#"{"hookSpecificOutput":{"hookEventName":"Stop","additionalContext":"also run the linter"}}"#,
        "",
    );
    assert_eq!(
        stop(&run, as_::<Stop>()),
        Ok(StopResult {
            force_continue: Some("also run the linter".to_owned()),
            ..StopResult::default()
        })
    );
}

#[test]
fn stop_decision_allow_lets_the_answer_go() {
    assert_eq!(
        stop(&ran(0, r#"{"decision":"allow"}"#, ""), as_::<Stop>()),
        Ok(StopResult::default())
    );
}

#[test]
fn unknown_top_level_fields_are_ignored() {
    assert_eq!(
        stop(
            &ran(0, r#"{"tool_input":{"command":"ls"},"session_id":"s"}"#, ""),
            as_::<Stop>()
        ),
        Ok(StopResult::default())
    );
}

#[test]
fn a_first_line_saying_async_makes_the_rest_a_log_and_no_decision() {
    assert_eq!(
        stop(
            &ran(
                0,
                "{\"async\": true, \"asyncTimeout\": 180000}\n{\"decision\": \"block\"}\n",
                ""
            ),
            as_::<Stop>(),
        ),
        Ok(StopResult::default())
    );
}

#[test]
fn stdout_starting_with_a_brace_that_does_not_parse_could_not_run() {
    let result = stop(
        &ran(0, r#"{"permissionDecision":"deny""#, ""),
        as_::<Stop>(),
    );
    assert!(
        matches!(result, Err(HookError::Execution(message)) if message.starts_with("its stdout starts with '{' but is not one JSON object"))
    );
}
