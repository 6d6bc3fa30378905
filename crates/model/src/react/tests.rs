use super::*;
use crate::NoModelEvents;
use agenthub_protocol::ToolSpec;
use serde_json::json;
use std::sync::Mutex;

/// What [`FakeInner`] reports for each of its replies.
const INNER_USAGE: Usage = Usage {
    input_tokens: 10,
    output_tokens: 2,
    cache_read_tokens: 1,
    cache_creation_tokens: 0,
};

/// Answers with fixed texts in order, each reported as [`INNER_USAGE`], and
/// keeps every conversation it was sent.
struct FakeInner {
    replies: Mutex<Vec<&'static str>>,
    seen: Mutex<Vec<Vec<Message>>>,
}

impl FakeInner {
    fn new(replies: &[&'static str]) -> Arc<Self> {
        Arc::new(FakeInner {
            replies: Mutex::new(replies.iter().rev().copied().collect()),
            seen: Mutex::new(Vec::new()),
        })
    }
}

impl ChatModel for FakeInner {
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        _events: &'a dyn ModelEvents,
        _cancel: &'a CancellationToken,
    ) -> BoxFuture<'a, Result<AssistantReply, ModelError>> {
        self.seen.lock().unwrap().push(request.messages.to_vec());
        let text = self.replies.lock().unwrap().pop().unwrap_or("");
        Box::pin(async move {
            Ok(AssistantReply {
                content: Some(text.to_owned()),
                tool_calls: vec![],
                usage: Some(INNER_USAGE),
                stop_reason: None,
            })
        })
    }
}

#[derive(Default)]
struct Deltas(Mutex<Vec<String>>, Mutex<Vec<Usage>>);

impl ModelEvents for Deltas {
    fn text_delta(&self, text: &str) {
        self.0.lock().unwrap().push(text.to_owned());
    }

    fn unanswered_usage(&self, usage: Usage) {
        self.1.lock().unwrap().push(usage);
    }
}

fn echo_spec() -> ToolSpec {
    ToolSpec {
        name: "Echo".into(),
        description: "Echoes text.".into(),
        parameters: json!({"type": "object"}),
    }
}

async fn ask(
    model: &ReactModel,
    history: &[Message],
    deltas: &Deltas,
) -> Result<AssistantReply, ModelError> {
    let tools = [echo_spec()];
    let request = ModelRequest {
        messages: history,
        tools: &tools,
        purpose: RequestPurpose::Turn,
    };
    model
        .complete(request, deltas, &CancellationToken::new())
        .await
}

#[test]
fn history_is_rendered_as_actions_and_observations() {
    let history = vec![
        Message::user("echo hi twice"),
        Message::Assistant {
            content: Some("Echo it.".into()),
            tool_calls: vec![ToolCall::new("a", "Echo", r#"{"text":"hi"}"#)],
        },
        Message::tool("a", "hi"),
        Message::system("hook context"),
    ];
    let rendered = render::react_history(&history, &[echo_spec()]);
    assert_eq!(
        rendered[1..].to_vec(),
        vec![
            Message::user("echo hi twice"),
            Message::assistant_text(
                "Thought: Echo it.\nAction: Echo\nAction Input: {\"text\":\"hi\"}"
            ),
            Message::user("Observation: hi"),
            Message::system("hook context"),
        ]
    );
}

#[test]
fn consecutive_tool_results_share_one_observation_message() {
    let history = vec![Message::tool("a", "one"), Message::tool("b", "two")];
    assert_eq!(
        render::react_history(&history, &[])[1..].to_vec(),
        vec![Message::user("Observation: one\n\nObservation: two")]
    );
}

#[test]
fn the_instructions_list_every_tool_and_the_protocol() {
    assert_eq!(
        render::instructions(&[echo_spec()]),
        "You can use tools to complete the task. Available tools:\n\
         - Echo: Echoes text.\n  Input (JSON Schema): {\"type\":\"object\"}\n\n\
         Reply in exactly one of these two formats.\n\n\
         To use a tool:\nThought: <your reasoning>\nAction: <the tool's name, exactly as listed>\n\
         Action Input: <the tool's input as one JSON object>\n\n\
         When you know the answer:\nThought: <your reasoning>\nFinal Answer: <your answer to the user>\n\n\
         Use one Action per reply, then stop: the tool's result comes back to you as \
         \"Observation: <result>\". Never write an Observation yourself."
    );
}

#[tokio::test]
async fn an_action_becomes_a_tool_call_with_a_generated_id_and_streams_nothing() {
    let inner = FakeInner::new(&["Thought: echo\nAction: Echo\nAction Input: {\"text\": \"hi\"}"]);
    let model = ReactModel::new(inner);
    let deltas = Deltas::default();
    let reply = ask(&model, &[Message::user("go")], &deltas).await.unwrap();
    assert_eq!(
        (reply, deltas.0.into_inner().unwrap()),
        (
            AssistantReply {
                content: Some("echo".into()),
                tool_calls: vec![ToolCall::new("react_call_1", "Echo", r#"{"text":"hi"}"#)],
                usage: Some(INNER_USAGE),
                stop_reason: None,
            },
            vec![]
        )
    );
}

#[tokio::test]
async fn a_final_answer_is_the_reply_and_is_streamed_once() {
    let model = ReactModel::new(FakeInner::new(&["Thought: ok\nFinal Answer: 42"]));
    let deltas = Deltas::default();
    let reply = ask(&model, &[Message::user("q")], &deltas).await.unwrap();
    assert_eq!(
        (reply, deltas.0.into_inner().unwrap()),
        (
            AssistantReply {
                content: Some("42".into()),
                tool_calls: vec![],
                usage: Some(INNER_USAGE),
                stop_reason: None,
            },
            vec!["42".to_owned()]
        )
    );
}

#[tokio::test]
async fn an_unreadable_reply_is_sent_back_with_a_correction() {
    let inner = FakeInner::new(&["I think 42.", "Final Answer: 42"]);
    let model = ReactModel::new(inner.clone());
    ask(&model, &[Message::user("q")], &Deltas::default())
        .await
        .unwrap();
    let seen = inner.seen.lock().unwrap().clone();
    assert_eq!(
        seen[1][2..].to_vec(),
        vec![
            Message::assistant_text("I think 42."),
            Message::user(render::correction(
                "it has neither an \"Action:\" line nor a \"Final Answer:\" line"
            )),
        ]
    );
}

#[tokio::test]
async fn the_usage_of_a_corrected_request_sums_every_attempt() {
    let inner = FakeInner::new(&["I think 42.", "Final Answer: 42"]);
    let model = ReactModel::new(inner);
    let reply = ask(&model, &[Message::user("q")], &Deltas::default())
        .await
        .unwrap();
    assert_eq!(reply.usage, Some(INNER_USAGE + INNER_USAGE));
}

#[tokio::test]
async fn corrections_are_bounded_then_the_request_fails() {
    let inner = FakeInner::new(&["no", "still no", "never"]);
    let model = ReactModel::new(inner.clone());
    let error = ask(&model, &[Message::user("q")], &Deltas::default())
        .await
        .unwrap_err();
    assert_eq!(
        (error, inner.seen.lock().unwrap().len()),
        (
            ModelError::Protocol(
                "the model's reply does not follow the ReAct format (it has neither an \"Action:\" line nor a \"Final Answer:\" line), still after 2 corrections; it replied: \"never\"".into()
            ),
            3
        )
    );
}

#[tokio::test]
async fn a_request_that_fails_after_its_corrections_reports_the_usage_of_all_three() {
    let inner = FakeInner::new(&["no", "still no", "never"]);
    let model = ReactModel::new(inner);
    let events = Deltas::default();
    let _ = ask(&model, &[Message::user("q")], &events).await;
    assert_eq!(
        *events.1.lock().unwrap(),
        vec![INNER_USAGE + INNER_USAGE + INNER_USAGE]
    );
}

#[tokio::test]
async fn a_long_unreadable_reply_is_quoted_cut_in_the_error() {
    let long: &'static str = Box::leak("x".repeat(MAX_QUOTED_REPLY + 5).into_boxed_str());
    let inner = FakeInner::new(&[long]);
    let model = ReactModel::new(inner).with_max_corrections(0);
    let error = ask(&model, &[Message::user("q")], &Deltas::default())
        .await
        .unwrap_err();
    assert_eq!(
        error,
        ModelError::Protocol(format!(
            "the model's reply does not follow the ReAct format (it has neither an \"Action:\" \
             line nor a \"Final Answer:\" line), still after 0 corrections; it replied: \"{}\" \
             (cut: the first 2000 of 2005 characters)",
            "x".repeat(MAX_QUOTED_REPLY)
        ))
    );
}

#[test]
fn the_agents_system_prompt_comes_first_in_the_one_system_message() {
    let history = vec![Message::system("You are AgentHub."), Message::user("q")];
    assert_eq!(
        render::react_history(&history, &[echo_spec()]),
        vec![
            Message::system(format!(
                "You are AgentHub.\n\n{}",
                render::instructions(&[echo_spec()])
            )),
            Message::user("q"),
        ]
    );
}

/// A ReAct model over a scripted model that has one summary and one hook
/// answer, and no turns.
fn react_over_script() -> ReactModel {
    let inner = crate::ScriptedModel::new("script.json", Vec::new())
        .with_summaries(vec!["the summary".into()])
        .with_hook_answers(vec![r#"{"ok": true}"#.into()]);
    ReactModel::new(Arc::new(inner))
}

#[tokio::test]
async fn a_summary_request_reaches_the_inner_model_as_it_is() {
    let history = [Message::user("summarise this")];
    let request = ModelRequest::summary(&history);
    let reply = react_over_script()
        .complete(request, &NoModelEvents, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(reply.content.as_deref(), Some("the summary"));
}

#[tokio::test]
async fn a_prompt_hook_question_reaches_the_inner_model_as_it_is() {
    let history = [Message::user("is the work done?")];
    let request = ModelRequest::hook_question(&history);
    let reply = react_over_script()
        .complete(request, &NoModelEvents, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(reply.content.as_deref(), Some(r#"{"ok": true}"#));
}
