//! The Anthropic provider against a loopback mock server serving recorded SSE
//! fixtures: headers, the translated body, tool_use blocks, errors, retries.

use crate::support::{config, sse, Deltas, KEY};
use agenthub_model::anthropic::request::{messages_request, Limits};
use agenthub_model::RequestPurpose;
use agenthub_model::{
    AnthropicModel, AssistantReply, ChatModel, ModelError, ModelRequest, ProviderKind,
};
use agenthub_protocol::{Message, StopReason, ToolCall, Usage};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn history() -> Vec<Message> {
    vec![Message::system("Be brief."), Message::user("say hello")]
}

fn model(server: &MockServer) -> AnthropicModel {
    AnthropicModel::new(&config(ProviderKind::Anthropic, &server.uri())).unwrap()
}

async fn ask(model: &AnthropicModel, deltas: &Deltas) -> Result<AssistantReply, ModelError> {
    let messages = history();
    let request = ModelRequest {
        messages: &messages,
        tools: &[],
        purpose: RequestPurpose::Turn,
    };
    model
        .complete(request, deltas, &CancellationToken::new())
        .await
}

fn mount(response: ResponseTemplate) -> Mock {
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .respond_with(response)
}

fn header(request: &wiremock::Request, name: &str) -> String {
    request
        .headers
        .get(name)
        .map(|value| value.to_str().unwrap().to_owned())
        .unwrap_or_default()
}

#[tokio::test]
async fn the_request_carries_the_body_the_key_and_the_api_version() {
    let server = MockServer::start().await;
    mount(sse("anthropic_text.sse")).mount(&server).await;
    ask(&model(&server), &Deltas::default()).await.unwrap();
    let received = server.received_requests().await.unwrap();
    let messages = history();
    let expected = serde_json::to_value(messages_request(
        "test-model",
        Limits { max_tokens: 16384 },
        ModelRequest {
            messages: &messages,
            tools: &[],
            purpose: RequestPurpose::Turn,
        },
    ))
    .unwrap();
    assert_eq!(
        (
            received[0].body_json::<Value>().unwrap(),
            header(&received[0], "x-api-key"),
            header(&received[0], "anthropic-version")
        ),
        (expected, KEY.to_owned(), "2023-06-01".to_owned())
    );
}

#[tokio::test]
async fn text_is_streamed_as_it_arrives_and_returned_whole() {
    let server = MockServer::start().await;
    mount(sse("anthropic_text.sse")).mount(&server).await;
    let deltas = Deltas::default();
    let reply = ask(&model(&server), &deltas).await.unwrap();
    assert_eq!(
        (reply, deltas.taken()),
        (
            AssistantReply {
                content: Some("Héllo, wörld 🌍".into()),
                tool_calls: vec![],
                usage: Some(Usage {
                    input_tokens: 10,
                    output_tokens: 6,
                    cache_read_tokens: 0,
                    cache_creation_tokens: 0
                }),
                stop_reason: Some(StopReason::EndTurn),
            },
            vec!["Héllo".to_owned(), ", wörld 🌍".to_owned()]
        )
    );
}

#[tokio::test]
async fn tool_use_blocks_become_tool_calls() {
    let server = MockServer::start().await;
    mount(sse("anthropic_tool_use.sse")).mount(&server).await;
    let reply = ask(&model(&server), &Deltas::default()).await.unwrap();
    assert_eq!(
        reply.tool_calls,
        vec![
            ToolCall::new("toolu_echo", "Echo", r#"{"text": "日本語"}"#),
            ToolCall::new("toolu_list", "Glob", "{}"),
        ]
    );
}

#[tokio::test]
async fn an_overloaded_answer_is_retried() {
    let server = MockServer::start().await;
    let overloaded =
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
    mount(ResponseTemplate::new(529).set_body_json(overloaded))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    mount(sse("anthropic_text.sse"))
        .with_priority(2)
        .mount(&server)
        .await;
    let reply = ask(&model(&server), &Deltas::default()).await.unwrap();
    assert_eq!(
        (
            reply.content,
            server.received_requests().await.unwrap().len()
        ),
        (Some("Héllo, wörld 🌍".to_owned()), 2)
    );
}

#[tokio::test]
async fn a_bad_request_fails_at_once_with_the_provider_message() {
    let server = MockServer::start().await;
    let body = json!({"type": "error", "error": {"type": "invalid_request_error", "message": "max_tokens: too large"}});
    mount(ResponseTemplate::new(400).set_body_json(body))
        .mount(&server)
        .await;
    assert_eq!(
        ask(&model(&server), &Deltas::default()).await,
        Err(ModelError::Status {
            status: 400,
            message: "max_tokens: too large".into()
        })
    );
}

#[tokio::test]
async fn an_error_event_inside_the_stream_fails_the_request() {
    let server = MockServer::start().await;
    mount(sse("anthropic_error_event.sse")).mount(&server).await;
    assert_eq!(
        ask(&model(&server), &Deltas::default()).await,
        Err(ModelError::Provider("Overloaded".into()))
    );
}

#[tokio::test]
async fn a_stream_cut_in_the_middle_fails_the_request() {
    let server = MockServer::start().await;
    mount(sse("anthropic_cut.sse")).mount(&server).await;
    assert_eq!(
        ask(&model(&server), &Deltas::default()).await,
        Err(ModelError::Protocol(
            "the stream ended before the answer was complete (no message_stop)".into()
        ))
    );
}

#[test]
fn debug_output_of_the_model_never_shows_the_key() {
    let model =
        AnthropicModel::new(&config(ProviderKind::Anthropic, "http://127.0.0.1:9")).unwrap();
    let shown = format!("{model:?}");
    assert_eq!(
        (shown.contains(KEY), shown.contains("<redacted>")),
        (false, true)
    );
}

#[tokio::test]
async fn usage_comes_from_message_start_and_the_final_message_delta() {
    let server = MockServer::start().await;
    mount(sse("anthropic_usage_cached.sse"))
        .mount(&server)
        .await;
    let reply = ask(&model(&server), &Deltas::default()).await.unwrap();
    assert_eq!(
        reply,
        AssistantReply {
            content: Some("Done.".into()),
            tool_calls: vec![],
            usage: Some(Usage {
                input_tokens: 1200,
                output_tokens: 5,
                cache_read_tokens: 1050,
                cache_creation_tokens: 0
            }),
            stop_reason: Some(StopReason::EndTurn),
        }
    );
}
