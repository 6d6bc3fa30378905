//! `mcp serve` on the wire (contract §31): malformed lines get the JSON-RPC
//! errors the specification gives them and the server goes on;
//! `agenthub_run` answers its final answer as text and the whole result as
//! `structuredContent` (described by its `outputSchema`); output saved whole
//! goes beside the session's transcript and is gone when the session ends.

use crate::support::{isolated_home, Place, Quiet};
use agenthub_serve::{Flags, ServeError};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use tokio::task::JoinHandle;

/// An MCP connection to the library, initialized, as another agent holds one.
struct McpWire {
    input: DuplexStream,
    lines: Lines<BufReader<DuplexStream>>,
    served: JoinHandle<Result<(), ServeError>>,
    next_id: u64,
}

impl McpWire {
    async fn start(place: &Place, turns: Value) -> McpWire {
        let mut flags: Flags = place.scripted(turns);
        flags.options.workspace = Some(place.ws());
        let (input, server_input) = tokio::io::duplex(1 << 16);
        let (server_output, output) = tokio::io::duplex(1 << 16);
        let served = tokio::spawn(agenthub_serve::mcp::serve(
            flags,
            Arc::new(Quiet),
            server_input,
            server_output,
        ));
        let mut wire = McpWire {
            input,
            lines: BufReader::new(output).lines(),
            served,
            next_id: 0,
        };
        let initialized = wire
            .request(
                "initialize",
                json!({"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "test", "version": "1"}}),
            )
            .await;
        assert_eq!(initialized["result"]["serverInfo"]["name"], "agenthub");
        wire.write(r#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#)
            .await;
        wire
    }

    async fn write(&mut self, line: &str) {
        self.input.write_all(line.as_bytes()).await.unwrap();
        self.input.write_all(b"\n").await.unwrap();
    }

    async fn read(&mut self) -> Value {
        let line = self.lines.next_line().await.unwrap().unwrap();
        serde_json::from_str(&line).unwrap_or_else(|_| panic!("not JSON: {line:?}"))
    }

    async fn send(&mut self, line: &str) -> Value {
        self.write(line).await;
        self.read().await
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let request =
            json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params});
        self.send(&request.to_string()).await
    }

    /// The result of a `tools/call`.
    async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let answer = self
            .request("tools/call", json!({"name": tool, "arguments": arguments}))
            .await;
        answer["result"].clone()
    }

    async fn finish(self) {
        drop(self.input);
        self.served.await.unwrap().unwrap();
    }
}

fn transcripts() -> PathBuf {
    isolated_home().join(".local/state/agenthub/transcripts")
}

/// A file whose numbered lines are longer than the tool output cap.
fn long_file(place: &Place) -> String {
    let text: String = (0..1500).map(|n| format!("{n:038}\n")).collect();
    std::fs::write(place.ws().join("long.txt"), text).unwrap();
    "long.txt".to_owned()
}

/// The file a cut text names as holding the whole.
fn saved_file(text: &str) -> PathBuf {
    text.rsplit_once("the whole text is in ")
        .map(|(_, path)| PathBuf::from(path.trim_end().trim_end_matches(']')))
        .unwrap_or_else(|| panic!("no file named: {text}"))
}

#[tokio::test]
async fn a_line_that_is_not_json_is_a_parse_error_with_a_null_id_and_the_server_goes_on() {
    let place = Place::new();
    let mut wire = McpWire::start(&place, json!([])).await;
    assert_eq!(
        wire.send("{\"jsonrpc\": \"2.0\", \"id\": 5, \"method\"")
            .await,
        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700,
            "message": "Parse error: the line is not JSON (EOF while parsing an object at line 1 column 36)"}})
    );
    let listed = wire.request("tools/list", json!({})).await;
    assert_eq!(listed["id"], 2);
    wire.finish().await;
}

#[tokio::test]
async fn a_request_without_a_method_is_an_invalid_request_with_its_id() {
    let place = Place::new();
    let mut wire = McpWire::start(&place, json!([])).await;
    assert_eq!(
        wire.send(r#"{"jsonrpc": "2.0", "id": 7, "params": {}}"#)
            .await,
        json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32600,
            "message": "Invalid request: the message has no \"method\""}})
    );
    assert_eq!(
        wire.send(r#"{"jsonrpc": "2.0", "id": "x"}"#).await,
        json!({"jsonrpc": "2.0", "id": "x", "error": {"code": -32600,
            "message": "Invalid request: the message has no \"method\""}})
    );
    wire.finish().await;
}

#[tokio::test]
async fn agenthub_run_answers_its_final_answer_as_text_and_the_whole_result_as_structured_content()
{
    let place = Place::new();
    let mut wire = McpWire::start(&place, json!([{"content": "the answer"}])).await;
    let listed = wire.request("tools/list", json!({})).await;
    let run_tool = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .find(|tool| tool["name"] == "agenthub_run")
        .cloned()
        .unwrap();
    let result = wire.call("agenthub_run", json!({"prompt": "go"})).await;
    let id = result["structuredContent"]["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(
        (result, run_tool["outputSchema"]["required"].clone()),
        (
            json!({
                "content": [{"type": "text", "text": "the answer"}],
                "structuredContent": {"status": "completed", "result": "the answer",
                    "session_id": id, "transcript_path": transcripts().join(format!("{id}.jsonl"))},
                "isError": false,
            }),
            json!(["status", "result", "session_id", "transcript_path"])
        )
    );
    wire.finish().await;
}

#[tokio::test]
async fn a_single_calls_output_saved_whole_is_beside_the_transcripts_and_removed_when_serving_ends()
{
    let place = Place::new();
    let file = long_file(&place);
    let mut wire = McpWire::start(&place, json!([])).await;
    let result = wire.call("Read", json!({"file_path": file})).await;
    let text = result["content"][0]["text"].as_str().unwrap().to_owned();
    let saved = saved_file(&text);
    let folder = saved.parent().unwrap().to_path_buf();
    assert_eq!(
        (
            folder.parent().map(PathBuf::from),
            folder.extension().and_then(|extension| extension.to_str()),
            std::fs::read_to_string(&saved).unwrap().lines().count(),
        ),
        (Some(transcripts()), Some("outputs"), 1500)
    );
    wire.finish().await;
    assert!(!folder.exists(), "{} is left", folder.display());
}

#[tokio::test]
async fn an_agenthub_run_sessions_output_saved_whole_is_removed_when_the_session_ends() {
    let place = Place::new();
    let file = long_file(&place);
    let turns = json!([
        {"tool_calls": [{"id": "r1", "name": "Read", "arguments": {"file_path": file}}]},
        {"content": "read it"}
    ]);
    let mut wire = McpWire::start(&place, turns).await;
    let result = wire.call("agenthub_run", json!({"prompt": "go"})).await;
    let id = result["structuredContent"]["session_id"]
        .as_str()
        .unwrap()
        .to_owned();
    let transcript = std::fs::read_to_string(transcripts().join(format!("{id}.jsonl"))).unwrap();
    let folder = transcripts().join(format!("{id}.outputs"));
    assert_eq!(
        (
            result["content"].clone(),
            transcript.contains(&format!("the whole text is in {}/", folder.display())),
            folder.exists()
        ),
        (json!([{"type": "text", "text": "read it"}]), true, false)
    );
    wire.finish().await;
}
