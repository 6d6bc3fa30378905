use super::*;
use proptest::prelude::*;

const OFFERED: [&str; 2] = ["Read", "Grep"];

fn call(name: &str, arguments: &str) -> TextCall {
    TextCall {
        name: name.to_owned(),
        arguments: arguments.to_owned(),
    }
}

fn found(calls: Vec<TextCall>, rest: &str) -> FoundCalls {
    FoundCalls {
        calls,
        rest: rest.to_owned(),
    }
}

#[test]
fn a_call_in_a_json_fence_is_found_and_the_fence_leaves_the_text() {
    let text = "I will read it.\n```json\n{\"name\": \"Read\", \"arguments\": {\"file_path\": \"a.py\"}}\n```\n";
    assert_eq!(
        find_text_calls(text, &OFFERED),
        found(
            vec![call("Read", r#"{"file_path":"a.py"}"#)],
            "I will read it."
        )
    );
}

#[test]
fn a_bare_call_is_the_whole_reply() {
    let text = r#"{"name": "Grep", "arguments": {"pattern": "x"}}"#;
    assert_eq!(
        find_text_calls(text, &OFFERED),
        found(vec![call("Grep", r#"{"pattern":"x"}"#)], "")
    );
}

#[test]
fn tool_call_tags_hold_one_call_each_and_several_are_taken_in_order() {
    let text = "<tool_call>\n{\"name\": \"Read\", \"arguments\": {\"file_path\": \"a\"}}\n</tool_call>\n<tool_call>\n{\"name\": \"Grep\", \"arguments\": {\"pattern\": \"b\"}}\n</tool_call>";
    assert_eq!(
        find_text_calls(text, &OFFERED),
        found(
            vec![
                call("Read", r#"{"file_path":"a"}"#),
                call("Grep", r#"{"pattern":"b"}"#)
            ],
            ""
        )
    );
}

#[test]
fn an_unclosed_tag_at_the_end_still_wraps_its_call() {
    let text = "<tool_call>{\"name\": \"Read\", \"arguments\": {\"file_path\": \"a\"}}";
    assert_eq!(
        find_text_calls(text, &OFFERED),
        found(vec![call("Read", r#"{"file_path":"a"}"#)], "")
    );
}

#[test]
fn a_call_of_a_tool_not_offered_stays_text() {
    let text = r#"{"name": "total", "arguments": {"a": 1}}"#;
    assert_eq!(find_text_calls(text, &OFFERED), found(vec![], text));
}

#[test]
fn json_that_is_no_call_stays_text_and_hides_no_call_inside_it() {
    let text = r#"The config is {"tool": {"name": "Read", "arguments": {}}, "x": 1}."#;
    assert_eq!(find_text_calls(text, &OFFERED), found(vec![], text));
}

#[test]
fn arguments_given_as_json_text_or_as_parameters_or_left_out_are_read() {
    let text = r#"{"name": "Read", "arguments": "{\"file_path\": \"a\"}"} {"name": "Grep", "parameters": {"pattern": "p"}} {"name": "Read"}"#;
    assert_eq!(
        find_text_calls(text, &OFFERED),
        found(
            vec![
                call("Read", r#"{"file_path":"a"}"#),
                call("Grep", r#"{"pattern":"p"}"#),
                call("Read", "{}")
            ],
            ""
        )
    );
}

#[test]
fn arguments_that_are_not_an_object_make_no_call() {
    let text = r#"{"name": "Read", "arguments": [1, 2]}"#;
    assert_eq!(find_text_calls(text, &OFFERED), found(vec![], text));
}

#[test]
fn a_call_cut_before_its_end_is_no_call() {
    let text = r#"```json
{"name": "Read", "arguments": {"file_path": "a"#;
    assert_eq!(find_text_calls(text, &OFFERED), found(vec![], text));
}

#[test]
fn two_fenced_calls_in_a_row_leave_no_fence_behind() {
    let text = "```json\n{\"name\": \"Read\", \"arguments\": {}}\n```\n```json\n{\"name\": \"Grep\", \"arguments\": {}}\n```";
    assert_eq!(
        find_text_calls(text, &OFFERED),
        found(vec![call("Read", "{}"), call("Grep", "{}")], "")
    );
}

#[test]
fn prose_with_braces_and_no_call_is_kept_whole() {
    let text = "Use a dict like {a: 1} or {} in Python.";
    assert_eq!(find_text_calls(text, &OFFERED), found(vec![], text));
}

proptest! {
    #[test]
    fn any_text_gives_an_answer_without_panicking(text in "\\PC*") {
        let _ = find_text_calls(&text, &OFFERED);
    }

    #[test]
    fn text_around_a_fenced_call_is_kept_and_the_call_found(
        before in "[a-zA-Z .,]{0,40}",
        after in "[a-zA-Z .,]{0,40}",
        path in "[a-z/._]{1,20}",
    ) {
        let text = format!(
            "{before}\n```json\n{{\"name\": \"Read\", \"arguments\": {{\"file_path\": \"{path}\"}}}}\n```\n{after}"
        );
        let found = find_text_calls(&text, &OFFERED);
        prop_assert_eq!(
            found.calls,
            vec![call("Read", &format!("{{\"file_path\":\"{path}\"}}"))]
        );
        prop_assert_eq!(found.rest, format!("{before}\n\n{after}").trim().to_owned());
    }

    #[test]
    fn json_like_noise_never_panics(text in "[{}\\[\\]\":,a-z<>/`_ \n]{0,200}") {
        let _ = find_text_calls(&text, &OFFERED);
    }
}
