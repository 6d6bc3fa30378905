//! What a run's exit code and output become whatever the event (Stop's
//! reading stands for all); each event's own reading is tested in its module.

use super::*;
use crate::events::{EventSpec, Stop};
use crate::StopResult;

fn stop(run: &RawRun, as_: ReadAs<'_>) -> Result<StopResult, HookError> {
    crate::events::stop::read_output(run, as_)
}

fn ran(code: i32, stdout: &str, stderr: &str) -> RawRun {
    RawRun::exited(code, stdout, stderr)
}

fn as_<E: EventSpec>() -> ReadAs<'static> {
    ReadAs::sample::<E>()
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
