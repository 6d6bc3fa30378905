//! What a run's exit code and output become whatever the event (Stop's
//! reading stands for all); each event's own reading is tested in its module.

use super::*;
use crate::events::{EventSpec, Stop};
use crate::{ExecutionError, StopResult};

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
        Err(HookError::Execution(ExecutionError::Exited {
            code: 1,
            stderr: None
        }))
    );
}

#[test]
fn exit_127_is_a_check_that_could_not_run() {
    assert_eq!(
        stop(&ran(127, "", "sh: pnpm: not found"), as_::<Stop>()),
        Err(HookError::Execution(ExecutionError::CommandNotFound {
            stderr: Some("sh: pnpm: not found".to_owned())
        }))
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
        matches!(
            &result,
            Err(HookError::Execution(ExecutionError::StdoutNotJson(_)))
        ),
        "{result:?}"
    );
    assert!(result
        .unwrap_err()
        .to_string()
        .starts_with("its stdout starts with '{' but is not one JSON object ("));
}

#[test]
fn an_unknown_decision_lets_the_action_go_on() {
    assert_eq!(
        stop(&ran(0, r#"{"decision":"maybe"}"#, ""), as_::<Stop>()),
        Ok(StopResult::default())
    );
}

#[test]
fn a_decision_that_is_not_a_string_breaks_the_contract() {
    let result = stop(&ran(0, r#"{"decision":1}"#, ""), as_::<Stop>());
    assert_eq!(
        result,
        Err(HookError::Contract(crate::ContractError::NotAString {
            key: "decision".to_owned(),
            kind: "a number"
        }))
    );
    assert_eq!(
        result.unwrap_err().to_string(),
        "decision must be a string, not a number"
    );
}
