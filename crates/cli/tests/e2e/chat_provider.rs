//! The interactive session against a real provider on 127.0.0.1 (an
//! OpenAI-compatible SSE server): streamed text shown once as it arrives,
//! and `/model` carrying the conversation to another model.

use crate::support::chat_place;

use chat_place::*;
use serde_json::Value;

/// `agenthub chat --model MODEL` against the provider at `base_url`.
fn provider_chat(place: &Place, model: &str, base_url: &str) -> Terminal {
    Terminal::start(
        &place.workspace(),
        &place.base.join("home"),
        &["chat", "--model", model],
        &[
            ("OPENAI_API_KEY", "test-key"),
            ("OPENAI_BASE_URL", base_url),
        ],
    )
}

/// An OpenAI-compatible answer streamed in `pieces`.
fn streamed_answer(pieces: &[&str]) -> wiremock::ResponseTemplate {
    let mut body = String::new();
    for piece in pieces {
        let chunk = serde_json::json!({"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": null}]});
        body.push_str(&format!("data: {chunk}\n\n"));
    }
    body.push_str("data: {\"choices\": [{\"index\": 0, \"delta\": {}, \"finish_reason\": \"stop\"}]}\n\ndata: [DONE]\n\n");
    wiremock::ResponseTemplate::new(200)
        .insert_header("content-type", "text/event-stream")
        .set_body_string(body)
}

/// The session's first line.
fn banner(model: &str, place: &Place) -> String {
    format!(
        "agenthub · model {model} · workspace {} · mode default · /help for commands",
        place.workspace().display()
    )
}

#[tokio::test(flavor = "multi_thread")]
async fn a_streamed_answer_is_shown_once_as_it_arrives() {
    let server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::method("POST"))
        .respond_with(streamed_answer(&[
            "Hel",
            "lo, ",
            "world\n```rust\nfn main() {}\n```",
        ]))
        .mount(&server)
        .await;
    let place = Place::new(TWO_ANSWERS);
    let banner = banner("gpt-test", &place);
    let base_url = format!("{}/v1", server.uri());
    let screen = tokio::task::spawn_blocking(move || {
        let mut terminal = provider_chat(&place, "gpt-test", &base_url);
        terminal.wait_for_prompt();
        terminal.type_line("hi");
        terminal.wait_for_prompt()
    })
    .await
    .unwrap();
    assert_eq!(
        screen.trim_end(),
        format!("{banner}\n> hi\nHello, world\n```rust\n  │ fn main() {{}}\n  │ ```\n>")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn model_switches_the_model_and_keeps_the_conversation() {
    let server = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::body_string_contains("\"gpt-second\""))
        .respond_with(streamed_answer(&["from the second model"]))
        .with_priority(1)
        .mount(&server)
        .await;
    wiremock::Mock::given(wiremock::matchers::method("POST"))
        .respond_with(streamed_answer(&["from the first model"]))
        .with_priority(2)
        .mount(&server)
        .await;
    let place = Place::new(TWO_ANSWERS);
    let banner = banner("gpt-first", &place);
    let base_url = format!("{}/v1", server.uri());
    let screen = tokio::task::spawn_blocking(move || {
        let mut terminal = provider_chat(&place, "gpt-first", &base_url);
        terminal.wait_for_prompt();
        terminal.type_line("one");
        terminal.wait_for_prompt();
        terminal.type_line("/model gpt-second");
        terminal.wait_for_prompt();
        terminal.type_line("/model");
        terminal.wait_for_prompt();
        terminal.type_line("two");
        terminal.wait_for_prompt()
    })
    .await
    .unwrap();
    assert_eq!(
        screen.trim_end(),
        format!("{banner}\n> one\nfrom the first model\n> /model gpt-second\n> /model\nmodel: gpt-second\n> two\nfrom the second model\n>")
    );
    let requests = server.received_requests().await.unwrap();
    let last: Value = serde_json::from_slice(&requests.last().unwrap().body).unwrap();
    let contents: Vec<&str> = last["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|message| message["content"].as_str())
        .map(agenthub::typed_prompt)
        .skip(1)
        .collect();
    assert_eq!(contents, ["one", "from the first model", "two"]);
}
