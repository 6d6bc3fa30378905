//! Shared by the wire tests: configurations pointing at a loopback mock server,
//! recorded fixtures, and a recorder of streamed text.
#![allow(dead_code)]

use agenthub_model::{
    ModelEvents, ProviderConfig, ProviderKind, ProviderLayer, RetryPolicy, TransportSettings,
};
use std::sync::Mutex;
use std::time::Duration;

pub const KEY: &str = "sk-test-secret-key";

/// A configuration for `provider` at `base_url`, with a key, fast retries and
/// a short timeout.
pub fn config(provider: ProviderKind, base_url: &str) -> ProviderConfig {
    let flags = ProviderLayer {
        model: Some("test-model".into()),
        provider: Some(provider),
        base_url: Some(base_url.to_owned()),
        ..ProviderLayer::default()
    };
    let key_variable = provider.key_variable();
    let env = move |name: &str| (name == key_variable).then(|| KEY.to_owned());
    let mut config = ProviderConfig::resolve(&flags, &ProviderLayer::default(), &env).unwrap();
    config.transport = TransportSettings {
        request_timeout: Duration::from_secs(5),
        stream_idle: Duration::from_secs(5),
        retry: RetryPolicy {
            max_retries: 2,
            base_delay: Duration::from_millis(1),
            max_delay: Duration::from_secs(2),
            retry_timeouts: true,
        },
    };
    config
}

pub fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap()
}

/// An SSE response carrying a recorded fixture.
pub fn sse(name: &str) -> wiremock::ResponseTemplate {
    wiremock::ResponseTemplate::new(200)
        .insert_header("content-type", "text/event-stream")
        .set_body_bytes(fixture(name))
}

/// Keeps every retry told, as its line.
#[derive(Default)]
pub struct Retries(pub Mutex<Vec<String>>);

impl ModelEvents for Retries {
    fn retrying(&self, retry: &agenthub_model::Retry) {
        self.0.lock().unwrap().push(retry.to_string());
    }
}

impl Retries {
    pub fn taken(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}

/// Keeps every streamed text delta.
#[derive(Default)]
pub struct Deltas(pub Mutex<Vec<String>>);

impl ModelEvents for Deltas {
    fn text_delta(&self, text: &str) {
        self.0.lock().unwrap().push(text.to_owned());
    }
}

impl Deltas {
    pub fn taken(&self) -> Vec<String> {
        self.0.lock().unwrap().clone()
    }
}
