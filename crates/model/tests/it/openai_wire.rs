//! The OpenAI-compatible provider against a loopback mock server serving
//! recorded SSE fixtures: what it sends, what it makes of the answers, and how
//! it retries, times out and gives up.

use crate::support::{config, sse, Deltas, KEY};
use agenthub_model::openai::request::chat_request;
use agenthub_model::RequestPurpose;
use agenthub_model::{
    AssistantReply, ChatModel, ModelError, ModelRequest, OpenAiModel, ProviderKind,
};
use agenthub_protocol::{Message, StopReason, ToolCall, ToolSpec, Usage};
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

fn history() -> Vec<Message> {
    vec![Message::system("Be brief."), Message::user("read notes")]
}

fn tools() -> Vec<ToolSpec> {
    vec![ToolSpec {
        name: "Read".into(),
        description: "Reads a file.".into(),
        parameters: json!({"type": "object", "properties": {"file_path": {"type": "string"}}}),
    }]
}

async fn server() -> MockServer {
    MockServer::start().await
}

fn model(server: &MockServer) -> OpenAiModel {
    OpenAiModel::new(&config(
        ProviderKind::OpenAi,
        &format!("{}/v1", server.uri()),
    ))
    .unwrap()
}

async fn ask(model: &OpenAiModel, deltas: &Deltas) -> Result<AssistantReply, ModelError> {
    let (messages, tools) = (history(), tools());
    let request = ModelRequest {
        messages: &messages,
        tools: &tools,
        purpose: RequestPurpose::Turn,
    };
    model
        .complete(request, deltas, &CancellationToken::new())
        .await
}

fn mount(response: ResponseTemplate) -> Mock {
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(response)
}

#[tokio::test]
async fn the_request_carries_the_whole_body_and_the_bearer_key() {
    let server = server().await;
    mount(sse("openai_text.sse")).mount(&server).await;
    ask(&model(&server), &Deltas::default()).await.unwrap();
    let received = server.received_requests().await.unwrap();
    let (messages, tools) = (history(), tools());
    let expected = serde_json::to_value(chat_request(
        "test-model",
        16384,
        ModelRequest {
            messages: &messages,
            tools: &tools,
            purpose: RequestPurpose::Turn,
        },
    ))
    .unwrap();
    assert_eq!(
        (
            received.len(),
            received[0].body_json::<Value>().unwrap(),
            received[0]
                .headers
                .get("authorization")
                .unwrap()
                .to_str()
                .unwrap()
                .to_owned()
        ),
        (1, expected, format!("Bearer {KEY}"))
    );
}

#[tokio::test]
async fn text_is_streamed_as_it_arrives_and_returned_whole() {
    let server = server().await;
    mount(sse("openai_text.sse")).mount(&server).await;
    let deltas = Deltas::default();
    let reply = ask(&model(&server), &deltas).await.unwrap();
    assert_eq!(
        (reply, deltas.taken()),
        (
            AssistantReply {
                content: Some("Héllo, wörld 🌍".into()),
                tool_calls: vec![],
                usage: Some(Usage {
                    input_tokens: 9,
                    output_tokens: 4,
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
async fn parallel_tool_calls_arrive_whole_and_in_index_order() {
    let server = server().await;
    mount(sse("openai_parallel_tool_calls.sse"))
        .mount(&server)
        .await;
    let reply = ask(&model(&server), &Deltas::default()).await.unwrap();
    assert_eq!(
        reply.tool_calls,
        vec![
            ToolCall::new("call_echo", "Echo", r#"{"text": "日本語"}"#),
            ToolCall::new("call_read", "Read", r#"{"file_path": "notes/ça.txt"}"#),
        ]
    );
}

#[tokio::test]
async fn calls_without_ids_get_generated_ones() {
    let server = server().await;
    mount(sse("openai_quirks.sse")).mount(&server).await;
    let reply = ask(&model(&server), &Deltas::default()).await.unwrap();
    assert_eq!(
        reply.tool_calls,
        vec![
            ToolCall::new("call_agenthub_1", "Echo", r#"{"text":"one"}"#),
            ToolCall::new("call_agenthub_2", "Echo", r#"{"text":"two"}"#),
        ]
    );
}

#[tokio::test]
async fn a_429_is_retried_and_the_next_answer_is_used() {
    let server = server().await;
    mount(ResponseTemplate::new(429).set_body_json(json!({"error": {"message": "slow down"}})))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    mount(sse("openai_text.sse"))
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
async fn retry_after_is_honoured() {
    let server = server().await;
    mount(ResponseTemplate::new(503).insert_header("retry-after", "1"))
        .up_to_n_times(1)
        .with_priority(1)
        .mount(&server)
        .await;
    mount(sse("openai_text.sse"))
        .with_priority(2)
        .mount(&server)
        .await;
    let started = Instant::now();
    ask(&model(&server), &Deltas::default()).await.unwrap();
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "waited {:?}",
        started.elapsed()
    );
}

#[tokio::test]
async fn a_500_that_persists_fails_with_the_provider_message_after_the_retries() {
    let server = server().await;
    mount(ResponseTemplate::new(500).set_body_json(json!({"error": {"message": "boom"}})))
        .mount(&server)
        .await;
    let error = ask(&model(&server), &Deltas::default()).await.unwrap_err();
    assert_eq!(
        (error, server.received_requests().await.unwrap().len()),
        (
            ModelError::Status {
                status: 500,
                message: "boom".into()
            },
            3
        )
    );
}

#[tokio::test]
async fn a_client_error_is_not_retried_and_never_shows_the_key() {
    let server = server().await;
    let body = json!({"error": {"message": format!("Incorrect API key provided: {KEY}")}});
    mount(ResponseTemplate::new(401).set_body_json(body))
        .mount(&server)
        .await;
    let error = ask(&model(&server), &Deltas::default()).await.unwrap_err();
    assert_eq!(
        (
            error.to_string(),
            server.received_requests().await.unwrap().len()
        ),
        (
            "the provider answered 401: Incorrect API key provided: <redacted>".to_owned(),
            1
        )
    );
}

#[tokio::test]
async fn a_stream_cut_in_the_middle_fails_the_request() {
    let server = server().await;
    mount(sse("openai_cut.sse")).mount(&server).await;
    assert_eq!(
        ask(&model(&server), &Deltas::default()).await,
        Err(ModelError::Protocol(
            "the stream ended before the answer was complete (no finish_reason, no [DONE])".into()
        ))
    );
}

#[tokio::test]
async fn invalid_json_inside_the_stream_fails_the_request() {
    let server = server().await;
    mount(sse("openai_invalid_json.sse")).mount(&server).await;
    let error = ask(&model(&server), &Deltas::default()).await.unwrap_err();
    assert!(
        matches!(&error, ModelError::Protocol(text) if text.starts_with("a stream event is not valid JSON")),
        "{error:?}"
    );
}

#[tokio::test]
async fn cancelling_stops_a_request_that_is_still_waiting() {
    let server = server().await;
    mount(sse("openai_text.sse").set_delay(Duration::from_secs(30)))
        .mount(&server)
        .await;
    let model = model(&server);
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        trigger.cancel();
    });
    let (messages, tools) = (history(), tools());
    let request = ModelRequest {
        messages: &messages,
        tools: &tools,
        purpose: RequestPurpose::Turn,
    };
    let started = Instant::now();
    let outcome = model.complete(request, &Deltas::default(), &cancel).await;
    assert_eq!(
        (outcome, started.elapsed() < Duration::from_secs(5)),
        (Err(ModelError::Cancelled), true)
    );
}

#[tokio::test]
async fn a_provider_that_stays_silent_times_out_naming_the_setting() {
    let server = server().await;
    mount(sse("openai_text.sse").set_delay(Duration::from_secs(30)))
        .mount(&server)
        .await;
    let mut config = config(ProviderKind::OpenAi, &format!("{}/v1", server.uri()));
    config.transport.request_timeout = Duration::from_millis(100);
    let model = OpenAiModel::new(&config).unwrap();
    let error = ask(&model, &Deltas::default()).await.unwrap_err();
    assert_eq!(
        (error.clone(), error.to_string()),
        (
            ModelError::Timeout { millis: 100 },
            "the provider did not answer within 0.1 s (raise the limit with API_TIMEOUT_MS or \
             the settings key apiTimeoutMs, in milliseconds)"
                .to_owned()
        )
    );
}

#[tokio::test]
async fn an_unreachable_endpoint_is_a_transport_error_naming_the_url() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let model = OpenAiModel::new(&config(
        ProviderKind::OpenAi,
        &format!("http://127.0.0.1:{port}/v1"),
    ))
    .unwrap();
    let error = ask(&model, &Deltas::default()).await.unwrap_err();
    let expected =
        format!("error sending request for url (http://127.0.0.1:{port}/v1/chat/completions)");
    assert!(
        matches!(&error, ModelError::Transport(text) if text.starts_with(&expected)),
        "{error:?}"
    );
}

#[test]
fn debug_output_of_the_model_never_shows_the_key() {
    let model = OpenAiModel::new(&config(ProviderKind::OpenAi, "http://127.0.0.1:9/v1")).unwrap();
    let shown = format!("{model:?}");
    assert_eq!(
        (shown.contains(KEY), shown.contains("<redacted>")),
        (false, true)
    );
}

#[tokio::test]
async fn the_final_usage_chunk_reports_prompt_completion_and_cached_tokens() {
    let server = MockServer::start().await;
    mount(sse("openai_usage_cached.sse")).mount(&server).await;
    let reply = ask(&model(&server), &Deltas::default()).await.unwrap();
    assert_eq!(
        reply,
        AssistantReply {
            content: Some("Done.".into()),
            tool_calls: vec![],
            usage: Some(Usage {
                input_tokens: 1200,
                output_tokens: 5,
                cache_read_tokens: 1024,
                cache_creation_tokens: 0
            }),
            stop_reason: Some(StopReason::EndTurn),
        }
    );
}
