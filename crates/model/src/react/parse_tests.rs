use super::*;

fn action(thought: Option<&str>, name: &str, input: &str) -> Result<Parsed, ParseProblem> {
    Ok(Parsed::Action {
        thought: thought.map(str::to_owned),
        name: name.to_owned(),
        input: input.to_owned(),
    })
}

#[test]
fn an_action_with_json_input_becomes_one_call() {
    assert_eq!(
        parse_reply("Thought: I should echo.\nAction: Echo\nAction Input: {\"text\": \"hi\"}"),
        action(Some("I should echo."), "Echo", r#"{"text":"hi"}"#)
    );
}

#[test]
fn a_final_answer_keeps_all_its_lines() {
    assert_eq!(
        parse_reply("Thought: done\nFinal Answer: line one\nline two\n"),
        Ok(Parsed::Final("line one\nline two".into()))
    );
}

#[test]
fn an_imagined_observation_and_everything_after_it_are_dropped() {
    assert_eq!(
        parse_reply(
            "Action: Read\nAction Input: {\"file_path\": \"a\"}\nObservation: made up\nFinal Answer: made up too"
        ),
        action(None, "Read", r#"{"file_path":"a"}"#)
    );
}

#[test]
fn markers_ignore_case_and_input_may_be_fenced_and_span_lines() {
    assert_eq!(
        parse_reply(
            "thought: hm\n  ACTION: `Echo`\naction input:\n```json\n{\n  \"text\": \"x\"\n}\n```"
        ),
        action(Some("hm"), "Echo", r#"{"text":"x"}"#)
    );
}

#[test]
fn text_before_any_marker_counts_as_the_thought() {
    assert_eq!(
        parse_reply("Let me look.\nAction: Glob\nAction Input: {}"),
        action(Some("Let me look."), "Glob", "{}")
    );
}

#[test]
fn unreadable_replies_say_what_is_wrong() {
    let replies = [
        "Just an answer.",
        "Action: Echo\nAction Input: {}\nFinal Answer: both",
        "Action:\nAction Input: {}",
        "Action: Echo",
        "Action: Echo\nAction Input: [1, 2]",
        "Action: Echo\nAction Input: {text: x}",
        "Final Answer:   ",
    ];
    let problems: Vec<String> = replies
        .iter()
        .map(|reply| parse_reply(reply).unwrap_err().to_string())
        .collect();
    assert_eq!(
        problems,
        vec![
            "it has neither an \"Action:\" line nor a \"Final Answer:\" line",
            "it has both an \"Action:\" and a \"Final Answer:\"; give exactly one of them",
            "the \"Action:\" line names no tool",
            "\"Action: Echo\" is not followed by an \"Action Input:\" line",
            "the \"Action Input:\" is not a JSON object (got an array)",
            "the \"Action Input:\" is not a JSON object (key must be a string at line 1 column 2)",
            "the \"Final Answer:\" is empty",
        ]
    );
}
