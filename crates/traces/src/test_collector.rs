//! A loopback OTLP/HTTP collector for the trace tests: a tiny HTTP/1.1 server
//! on 127.0.0.1 that keeps every request body it is sent (answering 200), and
//! readers that turn either encoding — protobuf through the exporter's own
//! `prost` messages, JSON by OTLP/JSON's field names — into one plain shape
//! the tests compare.
//!
//! Test support, built only with the `test-collector` feature: this crate's
//! tests and the binary's end-to-end tests share it. A panic here is a failed
//! test, so it unwraps freely; it is never part of a release.
#![allow(clippy::unwrap_used, clippy::expect_used, missing_docs)]

use crate::wire::{any_value, ExportTraceServiceRequest};
use prost::Message;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};

/// One request the collector was sent.
#[derive(Debug, Clone)]
pub struct Received {
    pub path: String,
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

/// The collector; it serves until the test process ends.
pub struct Collector {
    pub port: u16,
    received: Arc<Mutex<Vec<Received>>>,
}

impl Collector {
    pub fn start() -> Collector {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let keep = received.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let keep = keep.clone();
                std::thread::spawn(move || serve(stream, &keep));
            }
        });
        Collector { port, received }
    }

    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }
}

/// A collector that accepts every connection, reads what it is sent and
/// never answers; it serves until the test process ends.
pub struct SilentCollector {
    pub port: u16,
}

impl SilentCollector {
    pub fn start() -> SilentCollector {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        std::thread::spawn(move || {
            for mut stream in listener.incoming().flatten() {
                std::thread::spawn(move || {
                    let mut sink = [0u8; 8192];
                    while stream.read(&mut sink).unwrap_or(0) > 0 {}
                });
            }
        });
        SilentCollector { port }
    }

    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

/// An endpoint where nothing listens (a port bound, then let go).
pub fn absent_endpoint() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    format!("http://127.0.0.1:{}", listener.local_addr().unwrap().port())
}

/// Reads requests off one connection (keep-alive) until it closes.
fn serve(stream: TcpStream, keep: &Mutex<Vec<Received>>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
            return;
        }
        let path = request_line
            .split_whitespace()
            .nth(1)
            .unwrap_or("")
            .to_owned();
        let mut headers = BTreeMap::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap_or(0) == 0 {
                return;
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some((name, value)) = line.split_once(':') {
                headers.insert(name.trim().to_ascii_lowercase(), value.trim().to_owned());
            }
        }
        let length: usize = headers
            .get("content-length")
            .and_then(|value| value.parse().ok())
            .unwrap_or(0);
        let mut body = vec![0; length];
        if reader.read_exact(&mut body).is_err() {
            return;
        }
        keep.lock().unwrap().push(Received {
            path,
            headers,
            body,
        });
        let answer =
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
        if writer.write_all(answer.as_bytes()).is_err() {
            return;
        }
    }
}

/// A span in one plain shape, whatever the encoding.
#[derive(Debug, Clone, PartialEq)]
pub struct PlainSpan {
    pub trace_id: String,
    pub span_id: String,
    pub parent: String,
    pub name: String,
    pub kind: i64,
    pub attributes: BTreeMap<String, Value>,
    pub failed: bool,
    pub start: u64,
    pub end: u64,
}

/// What one collector got: the resource's attributes and every span.
#[derive(Debug, Default)]
pub struct Export {
    pub resource: BTreeMap<String, Value>,
    pub spans: Vec<PlainSpan>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// Every request read as protobuf.
pub fn read_protobuf(received: &[Received]) -> Export {
    let mut export = Export::default();
    for request in received {
        let decoded = ExportTraceServiceRequest::decode(request.body.as_slice()).unwrap();
        for resource_spans in decoded.resource_spans {
            for pair in resource_spans.resource.unwrap().attributes {
                export
                    .resource
                    .insert(pair.key, value_of(pair.value.unwrap().value.unwrap()));
            }
            for scope in resource_spans.scope_spans {
                for span in scope.spans {
                    export.spans.push(PlainSpan {
                        trace_id: hex(&span.trace_id),
                        span_id: hex(&span.span_id),
                        parent: hex(&span.parent_span_id),
                        name: span.name,
                        kind: i64::from(span.kind),
                        attributes: span
                            .attributes
                            .into_iter()
                            .map(|pair| (pair.key, value_of(pair.value.unwrap().value.unwrap())))
                            .collect(),
                        failed: span.status.is_some_and(|status| status.code == 2),
                        start: span.start_time_unix_nano,
                        end: span.end_time_unix_nano,
                    });
                }
            }
        }
    }
    export
}

fn value_of(value: any_value::Value) -> Value {
    match value {
        any_value::Value::StringValue(text) => json!(text),
        any_value::Value::IntValue(number) => json!(number),
        any_value::Value::ArrayValue(list) => Value::Array(
            list.values
                .into_iter()
                .map(|value| value_of(value.value.unwrap()))
                .collect(),
        ),
    }
}

/// One OTLP/JSON `AnyValue` in the plain shape.
fn json_value(value: &Value) -> Value {
    match (
        value.get("stringValue"),
        value.get("intValue"),
        value.get("arrayValue"),
    ) {
        (Some(text), _, _) => text.clone(),
        (_, Some(number), _) => json!(number.as_str().unwrap().parse::<i64>().unwrap()),
        (_, _, Some(list)) => Value::Array(
            list["values"]
                .as_array()
                .unwrap()
                .iter()
                .map(json_value)
                .collect(),
        ),
        _ => panic!("unexpected attribute value {value}"),
    }
}

/// Every request read as OTLP/JSON.
pub fn read_json(received: &[Received]) -> Export {
    let mut export = Export::default();
    let attributes = |list: &Value| -> BTreeMap<String, Value> {
        list.as_array()
            .unwrap()
            .iter()
            .map(|pair| {
                (
                    pair["key"].as_str().unwrap().to_owned(),
                    json_value(&pair["value"]),
                )
            })
            .collect()
    };
    let number = |value: &Value| value.as_str().unwrap().parse::<u64>().unwrap();
    for request in received {
        let body: Value = serde_json::from_slice(&request.body).unwrap();
        for resource_spans in body["resourceSpans"].as_array().unwrap() {
            export
                .resource
                .extend(attributes(&resource_spans["resource"]["attributes"]));
            for scope in resource_spans["scopeSpans"].as_array().unwrap() {
                for span in scope["spans"].as_array().unwrap() {
                    export.spans.push(PlainSpan {
                        trace_id: span["traceId"].as_str().unwrap().to_owned(),
                        span_id: span["spanId"].as_str().unwrap().to_owned(),
                        parent: span["parentSpanId"].as_str().unwrap().to_owned(),
                        name: span["name"].as_str().unwrap().to_owned(),
                        kind: span["kind"].as_i64().unwrap(),
                        attributes: attributes(&span["attributes"]),
                        failed: span.get("status").is_some_and(|status| status["code"] == 2),
                        start: number(&span["startTimeUnixNano"]),
                        end: number(&span["endTimeUnixNano"]),
                    });
                }
            }
        }
    }
    export
}
