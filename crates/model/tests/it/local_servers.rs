//! Contract §33's small items against a loopback mock server, for both
//! providers: a loopback endpoint is asked without a key (no
//! `authorization` or `x-api-key` header at all), and the settings'
//! `temperature` is in every request body when set, absent when not.

use crate::support::{config, sse, Deltas};
use agenthub_model::{
    AnthropicModel, ChatModel, ModelRequest, OpenAiModel, ProviderConfig, ProviderKind,
    ProviderLayer, RequestPurpose,
};
use agenthub_protocol::Message;
use serde_json::Value;
use tokio_util::sync::CancellationToken;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer};

/// Where each provider posts, the fixture it answers with, and the header
/// its key travels in.
fn wire(provider: ProviderKind) -> (&'static str, &'static str, &'static str) {
    match provider {
        ProviderKind::OpenAi => ("/v1", "openai_text.sse", "authorization"),
        ProviderKind::Anthropic => ("", "anthropic_text.sse", "x-api-key"),
    }
}

/// The one request `config` makes to a mock server answering as `provider`.
async fn one_request(
    provider: ProviderKind,
    configure: impl FnOnce(&str) -> ProviderConfig,
) -> wiremock::Request {
    let server = MockServer::start().await;
    let (root, fixture, _) = wire(provider);
    Mock::given(method("POST"))
        .respond_with(sse(fixture))
        .mount(&server)
        .await;
    let config = configure(&format!("{}{root}", server.uri()));
    let model: Box<dyn ChatModel> = match provider {
        ProviderKind::OpenAi => Box::new(OpenAiModel::new(&config).unwrap()),
        ProviderKind::Anthropic => Box::new(AnthropicModel::new(&config).unwrap()),
    };
    let messages = vec![Message::user("hi")];
    let request = ModelRequest {
        messages: &messages,
        tools: &[],
        purpose: RequestPurpose::Turn,
    };
    model
        .complete(request, &Deltas::default(), &CancellationToken::new())
        .await
        .unwrap();
    server.received_requests().await.unwrap().remove(0)
}

/// A configuration resolved as a user without any key in the environment
/// would have it, for the server at `base_url`.
fn keyless(provider: ProviderKind, base_url: &str) -> ProviderConfig {
    let flags = ProviderLayer {
        model: Some("local-model".into()),
        provider: Some(provider),
        base_url: Some(base_url.to_owned()),
        ..ProviderLayer::default()
    };
    ProviderConfig::resolve(&flags, &ProviderLayer::default(), &|_| None).unwrap()
}

const PROVIDERS: [ProviderKind; 2] = [ProviderKind::OpenAi, ProviderKind::Anthropic];

#[tokio::test]
async fn a_loopback_server_is_asked_with_no_key_header_by_either_provider() {
    let mut sent = Vec::new();
    for provider in PROVIDERS {
        let request = one_request(provider, |url| keyless(provider, url)).await;
        let (_, _, key_header) = wire(provider);
        sent.push((provider, request.headers.get(key_header).is_some()));
    }
    assert_eq!(
        sent,
        vec![
            (ProviderKind::OpenAi, false),
            (ProviderKind::Anthropic, false)
        ]
    );
}

#[tokio::test]
async fn the_settings_temperature_is_in_every_request_body_of_either_provider() {
    let mut sent = Vec::new();
    for provider in PROVIDERS {
        let request = one_request(provider, |url| {
            let settings = ProviderLayer {
                temperature: Some(0.2),
                ..ProviderLayer::default()
            };
            let flags = ProviderLayer {
                model: Some("local-model".into()),
                provider: Some(provider),
                base_url: Some(url.to_owned()),
                ..ProviderLayer::default()
            };
            ProviderConfig::resolve(&flags, &settings, &|_| None).unwrap()
        })
        .await;
        let body: Value = request.body_json().unwrap();
        sent.push((provider, body.get("temperature").cloned()));
    }
    assert_eq!(
        sent,
        vec![
            (ProviderKind::OpenAi, Some(serde_json::json!(0.2))),
            (ProviderKind::Anthropic, Some(serde_json::json!(0.2)))
        ]
    );
}

#[tokio::test]
async fn without_a_temperature_no_request_body_has_one() {
    let mut sent = Vec::new();
    for provider in PROVIDERS {
        let request = one_request(provider, |url| config(provider, url)).await;
        let body: Value = request.body_json().unwrap();
        sent.push((provider, body.get("temperature").cloned()));
    }
    assert_eq!(
        sent,
        vec![
            (ProviderKind::OpenAi, None),
            (ProviderKind::Anthropic, None)
        ]
    );
}
