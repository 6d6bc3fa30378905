//! Nothing is cut silently (contract §21): hook context over 10,000 characters
//! and tool output over the tool cap are saved whole in the session's state
//! folder; the model gets the start and the path, the user a `[Warning]`.

use super::support::*;
use serde_json::json;

/// The path the model was given: the text after `is in ` up to the closing `]`.
fn saved_path(text: &str) -> String {
    let start = text.rfind("the whole text is in ").expect("a path") + 21;
    text[start..].trim_end_matches(']').to_owned()
}

#[test]
fn session_start_context_over_ten_thousand_characters_is_saved_whole_and_named() {
    let case = Case::new();
    let hook = case.hook("long.sh", "head -c 12000 /dev/zero | tr '\\0' x");
    case.hooks(&[("SessionStart", None, command(&hook))]);
    case.answer_script(&["done"]);
    let output = case.run().output().unwrap();
    let context = case.messages()[0]["content"].as_str().unwrap().to_owned();
    let path = saved_path(&context);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(
        (
            context,
            std::fs::read_to_string(&path).unwrap(),
            stderr.contains(&format!(
                "[Warning] hook context had 12000 characters, over the 10000-character cap: \
                 the model got the first 10000 and the path of the whole text, {path}"
            ))
        ),
        (
            format!(
                "{}\n[hook context cut at 10000 of 12000 characters; the whole text is in {path}]",
                "x".repeat(10_000)
            ),
            "x".repeat(12_000),
            true
        )
    );
}

#[test]
fn tool_output_over_the_cap_is_saved_whole_and_the_model_gets_its_start_and_the_path() {
    let case = Case::new();
    let long = "y".repeat(30_005);
    case.echo_script(&long);
    let output = case.run().output().unwrap();
    let result = case.messages()[2]["content"].as_str().unwrap().to_owned();
    let path = saved_path(&result);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(
        (
            result,
            std::fs::read_to_string(&path).unwrap(),
            stderr.contains("[Warning] Echo output had 30005 characters")
        ),
        (
            format!(
                "{}\n[Echo output cut at 30000 of 30005 characters; the whole text is in {path}]",
                "y".repeat(30_000)
            ),
            long,
            true
        )
    );
}

#[test]
fn context_longer_than_ten_thousand_characters_is_saved_whole_and_the_model_gets_the_path() {
    let case = Case::new();
    let hook = case.hook(
        "long.sh",
        r#"printf '{"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": "%s"}}' "$(head -c 10005 /dev/zero | tr '\0' x)""#,
    );
    case.hooks(&[("UserPromptSubmit", None, command(&hook))]);
    case.answer_script(&["done"]);
    case.report();
    let context = case.messages()[1]["content"].as_str().unwrap().to_owned();
    let path = context.rsplit("the whole text is in ").next().unwrap();
    let path = path.trim_end_matches(']').to_owned();
    let expected = format!(
        "{}\n[hook context cut at 10000 of 10005 characters; the whole text is in {path}]",
        "x".repeat(10_000)
    );
    assert_eq!(
        (
            case.messages()[1].clone(),
            std::fs::read_to_string(&path).unwrap()
        ),
        (system(&expected), "x".repeat(10_005))
    );
}

#[test]
fn bash_output_longer_than_is_held_in_memory_reaches_its_file_whole() {
    let case = Case::new();
    let command = "head -c 3145728 /dev/zero | tr '\\0' z; echo; echo done >&2";
    case.script(json!([
        {"content": "working", "tool_calls": [call("call_1", "Bash", json!({"command": command}))]},
        {"content": "ok"}
    ]));
    let output = case.run().arg("--allow").arg("Bash").output().unwrap();
    let result = case.messages()[2]["content"].as_str().unwrap().to_owned();
    let path = saved_path(&result);
    let whole = std::fs::read_to_string(&path).unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let bytes = whole.len();
    let folder = std::path::Path::new(&path).parent().unwrap();
    assert_eq!(
        (
            result.ends_with(&format!(
                "\n[Bash output cut at 30000 characters of {bytes} bytes; the whole text is in {path}]"
            )),
            whole == format!("[exit code: 0]\n{}\n\n[stderr]\ndone\n", "z".repeat(3 << 20)),
            folder.parent() == case.transcript_path().parent()
                && folder.to_string_lossy().ends_with(".outputs"),
            stderr.contains(&format!("[Warning] Bash output had {bytes} bytes")),
        ),
        (true, true, true, true)
    );
}
