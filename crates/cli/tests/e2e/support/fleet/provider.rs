//! A loopback OpenAI-compatible provider for the fleet tests. Each session
//! follows a plan: the `n`-th request of a session (counted by the tool
//! results it carries) answers with the plan's `n`-th Bash command, then a
//! final answer. Every request is kept, so a test can show that none was
//! made twice.

use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// One request: the session's marker (its prompt) and how many tool
/// results it carried, with its whole body.
#[derive(Debug, Clone)]
pub struct Seen {
    pub prompt: String,
    pub tool_results: usize,
    pub body: Value,
}

/// The provider: the Bash commands each request answers with.
pub struct Provider {
    pub server: MockServer,
    pub seen: Arc<Mutex<Vec<Seen>>>,
}

struct Plan {
    commands: Vec<String>,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Respond for Plan {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&request.body).unwrap_or(Value::Null);
        let messages = body["messages"].as_array().cloned().unwrap_or_default();
        let prompt = messages
            .iter()
            .find(|message| message["role"] == "user")
            .and_then(|message| message["content"].as_str())
            .unwrap_or_default()
            .to_owned();
        let tool_results = messages
            .iter()
            .filter(|message| message["role"] == "tool")
            .count();
        self.seen.lock().unwrap().push(Seen {
            prompt,
            tool_results,
            body,
        });
        match self.commands.get(tool_results) {
            Some(command) => {
                let arguments = json!({ "command": command }).to_string();
                sse(&[
                    chunk(
                        json!({"role": "assistant", "tool_calls": [{"index": 0, "id": format!("call_{}", tool_results + 1), "type": "function", "function": {"name": "Bash", "arguments": arguments}}]}),
                        None,
                    ),
                    chunk(json!({}), Some("tool_calls")),
                ])
            }
            None => sse(&[
                chunk(json!({"role": "assistant", "content": "done"}), None),
                chunk(json!({}), Some("stop")),
            ]),
        }
    }
}

fn chunk(delta: Value, finish: Option<&str>) -> String {
    let chunk = json!({"choices": [{"index": 0, "delta": delta, "finish_reason": finish}]});
    format!("data: {chunk}")
}

fn sse(events: &[String]) -> ResponseTemplate {
    let mut body: String = events.iter().map(|event| format!("{event}\n\n")).collect();
    body.push_str("data: [DONE]\n\n");
    ResponseTemplate::new(200)
        .insert_header("content-type", "text/event-stream")
        .set_body_string(body)
}

impl Provider {
    /// A provider whose sessions each run `commands` (Bash), then answer.
    pub async fn start(commands: &[&str]) -> Provider {
        let server = MockServer::start().await;
        let seen = Arc::new(Mutex::new(Vec::new()));
        let plan = Plan {
            commands: commands
                .iter()
                .map(|command| (*command).to_owned())
                .collect(),
            seen: seen.clone(),
        };
        Mock::given(method("POST"))
            .and(path("/v1/chat/completions"))
            .respond_with(plan)
            .mount(&server)
            .await;
        Provider { server, seen }
    }

    /// The settings a task gives to talk to this provider.
    pub fn settings(&self) -> Value {
        json!({"provider": "openai", "baseUrl": format!("{}/v1", self.server.uri()), "model": "fleet-test"})
    }

    /// Every request so far.
    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}
