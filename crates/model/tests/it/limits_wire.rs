//! contract §22 on the wire, against loopback servers: the request timeout and
//! its retry, the stream idle limit, `max_tokens` on every request, and
//! Anthropic's prompt-caching marks.

use crate::support::{config, sse, Deltas};
use agenthub_model::RequestPurpose;
use agenthub_model::{
    AnthropicModel, AssistantReply, ChatModel, ModelError, ModelRequest, OpenAiModel, ProviderKind,
};
use agenthub_protocol::{Message, ToolSpec};
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer};

fn history() -> Vec<Message> {
    vec![
        Message::system("Be brief."),
        Message::user("read notes"),
        Message::assistant_text("Which notes?"),
        Message::user("notes.txt"),
    ]
}

fn tools() -> Vec<ToolSpec> {
    ["Read", "Grep"]
        .into_iter()
        .map(|name| ToolSpec {
            name: name.into(),
            description: format!("{name} things."),
            parameters: json!({"type": "object"}),
        })
        .collect()
}

async fn ask(model: &dyn ChatModel) -> Result<AssistantReply, ModelError> {
    let (messages, tools) = (history(), tools());
    let request = ModelRequest {
        messages: &messages,
        tools: &tools,
        purpose: RequestPurpose::Turn,
    };
    model
        .complete(request, &Deltas::default(), &CancellationToken::new())
        .await
}

fn openai(base: &str, request_timeout: Duration, stream_idle: Duration) -> OpenAiModel {
    let mut config = config(ProviderKind::OpenAi, &format!("{base}/v1"));
    config.transport.request_timeout = request_timeout;
    config.transport.stream_idle = stream_idle;
    OpenAiModel::new(&config).unwrap()
}

#[tokio::test]
async fn a_request_that_times_out_is_retried_and_the_next_answer_is_used() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(sse("openai_text.sse").set_delay(Duration::from_secs(5)))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(sse("openai_text.sse"))
        .mount(&server)
        .await;
    let model = openai(
        &server.uri(),
        Duration::from_millis(300),
        Duration::from_secs(5),
    );
    let reply = ask(&model).await.unwrap();
    let received = server.received_requests().await.unwrap();
    assert_eq!(
        (reply.content.is_some(), received.len()),
        (true, 2),
        "{reply:?}"
    );
}

/// A server that answers with an event stream, sends `first` and then
/// nothing, keeping the connection open (or closing it mid-chunk when
/// `break_off`); returns its base URL.
async fn stalling_server(first: &'static str) -> String {
    serve_partial(first, false).await
}

async fn serve_partial(first: &'static str, break_off: bool) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((mut socket, _)) = listener.accept().await else {
                return;
            };
            tokio::spawn(async move {
                let mut buffer = vec![0u8; 65536];
                let _ = socket.read(&mut buffer).await;
                let head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n\
                            transfer-encoding: chunked\r\n\r\n";
                let chunk = format!("{:x}\r\n{first}\r\n", first.len());
                let _ = socket.write_all(head.as_bytes()).await;
                let _ = socket.write_all(chunk.as_bytes()).await;
                if break_off {
                    // A chunk announced longer than what follows, then the socket closes.
                    let _ = socket.write_all(b"400\r\ndata: {").await;
                    let _ = socket.flush().await;
                    return;
                }
                let _ = socket.flush().await;
                tokio::time::sleep(Duration::from_secs(30)).await;
            });
        }
    });
    format!("http://{address}")
}

#[tokio::test]
async fn a_stream_that_goes_silent_fails_with_the_idle_limit_after_its_retries() {
    let first = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n";
    let base = stalling_server(first).await;
    let model = openai(&base, Duration::from_secs(20), Duration::from_millis(200));
    let error = ask(&model).await.unwrap_err();
    assert_eq!(
        (error.clone(), error.to_string()),
        (
            ModelError::StreamSilent { millis: 200 },
            "the provider started answering, then sent nothing for 0.2 s (the stream idle limit)"
                .to_owned()
        )
    );
}

#[tokio::test]
async fn an_answer_that_breaks_off_is_not_reported_as_an_unreachable_provider() {
    let first = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n";
    let base = serve_partial(first, true).await;
    let model = openai(&base, Duration::from_secs(20), Duration::from_secs(20));
    let error = ask(&model).await.unwrap_err();
    assert!(
        matches!(&error, ModelError::Interrupted(_))
            && error
                .to_string()
                .starts_with("the provider's answer broke off: "),
        "{error:?}"
    );
}

#[tokio::test]
async fn openai_requests_carry_max_tokens() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(sse("openai_text.sse"))
        .mount(&server)
        .await;
    let mut config = config(ProviderKind::OpenAi, &format!("{}/v1", server.uri()));
    config.max_tokens = 777;
    ask(&OpenAiModel::new(&config).unwrap()).await.unwrap();
    let body: Value = server.received_requests().await.unwrap()[0]
        .body_json()
        .unwrap();
    assert_eq!(body["max_tokens"], json!(777));
}

#[tokio::test]
async fn anthropic_requests_mark_system_last_tool_and_last_message_for_caching() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(sse("anthropic_text.sse"))
        .mount(&server)
        .await;
    let mut config = config(ProviderKind::Anthropic, &server.uri());
    config.max_tokens = 777;
    ask(&AnthropicModel::new(&config).unwrap()).await.unwrap();
    let body: Value = server.received_requests().await.unwrap()[0]
        .body_json()
        .unwrap();
    let ephemeral = json!({"type": "ephemeral"});
    assert_eq!(
        (
            body["max_tokens"].clone(),
            body["system"].clone(),
            body["tools"][0].get("cache_control").cloned(),
            body["tools"][1]["cache_control"].clone(),
            body["messages"][0]["content"][0]
                .get("cache_control")
                .cloned(),
            body["messages"][2].clone(),
        ),
        (
            json!(777),
            json!([{"type": "text", "text": "Be brief.", "cache_control": ephemeral}]),
            None,
            ephemeral.clone(),
            None,
            json!({"role": "user", "content": [
                {"type": "text", "text": "notes.txt", "cache_control": ephemeral}
            ]}),
        )
    );
}
