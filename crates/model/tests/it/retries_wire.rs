//! Contract §33 on the wire: every retry is told to the caller, and a request
//! that timed out on a loopback server is not sent again (its one slot would
//! still be computing it) unless `retryOnTimeout` says so.

use crate::support::{config, sse, Retries};
use agenthub_model::{
    ChatModel, ModelError, ModelRequest, OpenAiModel, ProviderConfig, ProviderKind, ProviderLayer,
    RequestPurpose,
};
use agenthub_protocol::Message;
use serde_json::json;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

async fn ask(model: &OpenAiModel, events: &Retries) -> Result<(), ModelError> {
    let messages = [Message::user("hi")];
    let request = ModelRequest {
        messages: &messages,
        tools: &[],
        purpose: RequestPurpose::Turn,
    };
    model
        .complete(request, events, &CancellationToken::new())
        .await
        .map(drop)
}

#[tokio::test]
async fn each_retry_is_told_with_its_number_its_wait_and_why() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(
            ResponseTemplate::new(500).set_body_json(json!({"error": {"message": "boom"}})),
        )
        .mount(&server)
        .await;
    let model = OpenAiModel::new(&config(
        ProviderKind::OpenAi,
        &format!("{}/v1", server.uri()),
    ))
    .unwrap();
    let retries = Retries::default();
    let error = ask(&model, &retries).await.unwrap_err();
    assert_eq!(
        (error.to_string(), retries.taken()),
        (
            "the provider answered 500: boom".to_owned(),
            vec![
                "retry 1/2 in 0.001 s: the provider answered 500: boom".to_owned(),
                "retry 2/2 in 0.002 s: the provider answered 500: boom".to_owned(),
            ]
        )
    );
}

/// A configuration resolved as `agenthub run` resolves it for a server on
/// 127.0.0.1, with a 300 ms request timeout and quick retries.
fn loopback(server: &MockServer, retry_on_timeout: Option<bool>) -> OpenAiModel {
    let flags = ProviderLayer {
        model: Some("m".into()),
        base_url: Some(format!("{}/v1", server.uri())),
        ..ProviderLayer::default()
    };
    let settings = ProviderLayer {
        retry_on_timeout,
        ..ProviderLayer::default()
    };
    let mut config = ProviderConfig::resolve(&flags, &settings, &|_| None).unwrap();
    config.transport.request_timeout = Duration::from_millis(300);
    config.transport.retry.base_delay = Duration::from_millis(1);
    OpenAiModel::new(&config).unwrap()
}

async fn stalling_server() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(sse("openai_text.sse").set_delay(Duration::from_secs(5)))
        .mount(&server)
        .await;
    server
}

#[tokio::test]
async fn a_request_that_timed_out_on_loopback_is_sent_once() {
    let server = stalling_server().await;
    let retries = Retries::default();
    let error = ask(&loopback(&server, None), &retries).await.unwrap_err();
    assert_eq!(
        (
            error,
            server.received_requests().await.unwrap().len(),
            retries.taken()
        ),
        (ModelError::Timeout { millis: 300 }, 1, vec![])
    );
}

#[tokio::test]
async fn retry_on_timeout_sends_a_timed_out_loopback_request_again() {
    let server = stalling_server().await;
    let retries = Retries::default();
    let error = ask(&loopback(&server, Some(true)), &retries)
        .await
        .unwrap_err();
    assert_eq!(
        (error, server.received_requests().await.unwrap().len()),
        (ModelError::Timeout { millis: 300 }, 4)
    );
}
