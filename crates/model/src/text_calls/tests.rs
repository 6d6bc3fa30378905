use super::*;
use crate::NoModelEvents;
use agenthub_protocol::ToolSpec;
use serde_json::json;

/// Streams its one reply's text in two pieces, then answers it.
struct OneReply(AssistantReply);

impl ChatModel for OneReply {
    fn complete<'a>(
        &'a self,
        _request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        _cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        Box::pin(async move {
            if let Some(text) = &self.0.content {
                let middle = text.char_indices().nth(text.chars().count() / 2);
                let (first, second) = text.split_at(middle.map_or(0, |(at, _)| at));
                events.text_delta(first);
                events.text_delta(second);
            }
            Ok(self.0.clone())
        })
    }
}

#[derive(Default)]
struct Seen {
    text: Mutex<String>,
    warnings: Mutex<Vec<String>>,
}

impl ModelEvents for Seen {
    fn text_delta(&self, text: &str) {
        self.text.lock().unwrap().push_str(text);
    }

    fn warning(&self, text: &str) {
        self.warnings.lock().unwrap().push(text.to_owned());
    }
}

fn tools() -> Vec<ToolSpec> {
    vec![ToolSpec {
        name: "Read".to_owned(),
        description: "Reads a file.".to_owned(),
        parameters: json!({"type": "object"}),
    }]
}

fn ask(mode: TextCalls, reply: AssistantReply, tools: &[ToolSpec]) -> (AssistantReply, Seen) {
    let model = TextCallModel::new(Arc::new(OneReply(reply)), mode);
    let history = [Message::user("read a.py")];
    let request = ModelRequest {
        messages: &history,
        tools,
        purpose: RequestPurpose::Turn,
    };
    let seen = Seen::default();
    let reply =
        futures::executor::block_on(model.complete(request, &seen, &CancellationToken::new()))
            .unwrap();
    (reply, seen)
}

fn text(content: &str) -> AssistantReply {
    AssistantReply::new(Some(content.to_owned()), vec![])
}

const FENCED: &str =
    "Reading it.\n```json\n{\"name\": \"Read\", \"arguments\": {\"file_path\": \"a.py\"}}\n```";

#[test]
fn take_turns_a_fenced_call_into_a_marked_call_and_keeps_the_text_around_it() {
    let (reply, seen) = ask(TextCalls::Take, text(FENCED), &tools());
    assert_eq!(
        reply,
        AssistantReply::new(
            Some("Reading it.".to_owned()),
            vec![
                ToolCall::new("text_call_1", "Read", r#"{"file_path":"a.py"}"#)
                    .from_origin(CallOrigin::Text)
            ]
        )
    );
    assert_eq!(
        (
            seen.text.into_inner().unwrap(),
            seen.warnings.into_inner().unwrap()
        ),
        ("Reading it.\n".to_owned(), vec![])
    );
}

#[test]
fn take_streams_a_plain_answer_whole() {
    let answer = "The file has `main` in {braces}.";
    let (reply, seen) = ask(TextCalls::Take, text(answer), &tools());
    assert_eq!(
        (reply, seen.text.into_inner().unwrap()),
        (text(answer), answer.to_owned())
    );
}

#[test]
fn take_leaves_a_call_of_a_tool_not_offered_as_the_answer() {
    let answer = r#"{"name": "total", "arguments": {}}"#;
    let (reply, seen) = ask(TextCalls::Take, text(answer), &tools());
    assert_eq!(
        (reply, seen.text.into_inner().unwrap()),
        (text(answer), answer.to_owned())
    );
}

#[test]
fn take_leaves_a_reply_with_structured_calls_alone() {
    let structured = AssistantReply::new(
        Some(FENCED.to_owned()),
        vec![ToolCall::new("call_1", "Read", "{}")],
    );
    let (reply, _) = ask(TextCalls::Take, structured.clone(), &tools());
    assert_eq!(reply, structured);
}

#[test]
fn take_finds_nothing_when_no_tool_is_offered() {
    let (reply, _) = ask(TextCalls::Take, text(FENCED), &[]);
    assert_eq!(reply, text(FENCED));
}

#[test]
fn warn_keeps_the_answer_and_says_how_to_run_the_call() {
    let (reply, seen) = ask(TextCalls::Warn, text(FENCED), &tools());
    assert_eq!(
        (reply, seen.warnings.into_inner().unwrap()),
        (
            text(FENCED),
            vec![
                "the server returned a call of \"Read\" as text, not as a tool call, so it was \
                 taken as the answer; to run such calls pass --tool-protocol auto (or react), or \
                 use a server that parses tool calls (e.g. llama.cpp with --jinja)"
                    .to_owned()
            ]
        )
    );
}

#[test]
fn warn_is_silent_about_a_call_of_a_tool_not_offered() {
    let (_, seen) = ask(
        TextCalls::Warn,
        text(r#"{"name": "total", "arguments": {}}"#),
        &tools(),
    );
    assert_eq!(seen.warnings.into_inner().unwrap(), Vec::<String>::new());
}

#[test]
fn a_summary_request_is_passed_through_untouched() {
    let model = TextCallModel::new(Arc::new(OneReply(text(FENCED))), TextCalls::Take);
    let history = [Message::user("summarise")];
    let reply = futures::executor::block_on(model.complete(
        ModelRequest::summary(&history),
        &NoModelEvents,
        &CancellationToken::new(),
    ));
    assert_eq!(reply, Ok(text(FENCED)));
}
