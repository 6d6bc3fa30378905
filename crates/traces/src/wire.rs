//! The OTLP/HTTP request body in both encodings (contract §25): the few
//! messages of `opentelemetry/proto/collector/trace/v1` a span export needs,
//! as `prost` types (field numbers from the OTLP `.proto` files), and the
//! OTLP/JSON encoding of the same request (lowerCamelCase names, ids as
//! lowercase hex, 64-bit numbers as decimal strings, enums as numbers).
//!
//! Public so that a receiver — a test's loopback collector — reads the
//! exact messages the exporter writes.

use super::span::{hex, AttributeValue, FinishedSpan, SpanKind};
use serde_json::{json, Value};

/// `ExportTraceServiceRequest`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ExportTraceServiceRequest {
    /// One entry per resource (AgentHub sends one).
    #[prost(message, repeated, tag = "1")]
    pub resource_spans: Vec<ResourceSpans>,
}

/// `ResourceSpans`: the spans of one resource.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ResourceSpans {
    /// The process that made the spans (`service.name`, …).
    #[prost(message, optional, tag = "1")]
    pub resource: Option<Resource>,
    /// The spans, by instrumentation scope.
    #[prost(message, repeated, tag = "2")]
    pub scope_spans: Vec<ScopeSpans>,
}

/// `Resource`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Resource {
    /// Its attributes.
    #[prost(message, repeated, tag = "1")]
    pub attributes: Vec<KeyValue>,
}

/// `ScopeSpans`: the spans one instrumentation scope made.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ScopeSpans {
    /// The scope (`agenthub` and its version).
    #[prost(message, optional, tag = "1")]
    pub scope: Option<InstrumentationScope>,
    /// The spans.
    #[prost(message, repeated, tag = "2")]
    pub spans: Vec<Span>,
}

/// `InstrumentationScope`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct InstrumentationScope {
    /// The scope's name.
    #[prost(string, tag = "1")]
    pub name: String,
    /// The scope's version.
    #[prost(string, tag = "2")]
    pub version: String,
}

/// `Span` (the fields AgentHub sets).
#[derive(Clone, PartialEq, prost::Message)]
pub struct Span {
    /// 16 bytes.
    #[prost(bytes = "vec", tag = "1")]
    pub trace_id: Vec<u8>,
    /// 8 bytes.
    #[prost(bytes = "vec", tag = "2")]
    pub span_id: Vec<u8>,
    /// 8 bytes, or empty for a root span.
    #[prost(bytes = "vec", tag = "4")]
    pub parent_span_id: Vec<u8>,
    /// The span's name.
    #[prost(string, tag = "5")]
    pub name: String,
    /// `SpanKind`: 1 internal, 3 client.
    #[prost(int32, tag = "6")]
    pub kind: i32,
    /// Start, nanoseconds since the Unix epoch.
    #[prost(fixed64, tag = "7")]
    pub start_time_unix_nano: u64,
    /// End, nanoseconds since the Unix epoch.
    #[prost(fixed64, tag = "8")]
    pub end_time_unix_nano: u64,
    /// Its attributes.
    #[prost(message, repeated, tag = "9")]
    pub attributes: Vec<KeyValue>,
    /// Unset, or an error.
    #[prost(message, optional, tag = "15")]
    pub status: Option<Status>,
}

/// `Status`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct Status {
    /// 0 unset, 1 ok, 2 error.
    #[prost(int32, tag = "3")]
    pub code: i32,
}

/// `KeyValue`.
#[derive(Clone, PartialEq, prost::Message)]
pub struct KeyValue {
    /// The attribute's name.
    #[prost(string, tag = "1")]
    pub key: String,
    /// Its value.
    #[prost(message, optional, tag = "2")]
    pub value: Option<AnyValue>,
}

/// `AnyValue` (the kinds AgentHub sends).
#[derive(Clone, PartialEq, prost::Message)]
pub struct AnyValue {
    /// The value.
    #[prost(oneof = "any_value::Value", tags = "1, 3, 5")]
    pub value: Option<any_value::Value>,
}

/// The cases of [`AnyValue`].
pub mod any_value {
    /// `AnyValue.value`.
    #[derive(Clone, PartialEq, prost::Oneof)]
    pub enum Value {
        /// `string_value`.
        #[prost(string, tag = "1")]
        StringValue(String),
        /// `int_value`.
        #[prost(int64, tag = "3")]
        IntValue(i64),
        /// `array_value`.
        #[prost(message, tag = "5")]
        ArrayValue(super::ArrayValue),
    }
}

/// `ArrayValue`: a list of values.
#[derive(Clone, PartialEq, prost::Message)]
pub struct ArrayValue {
    /// The values, in order.
    #[prost(message, repeated, tag = "1")]
    pub values: Vec<AnyValue>,
}

/// OTLP's `SpanKind` number.
fn kind_number(kind: SpanKind) -> i32 {
    match kind {
        SpanKind::Internal => 1,
        SpanKind::Client => 3,
    }
}

/// `STATUS_CODE_ERROR` for a failed span, else none.
fn status(failed: bool) -> Option<Status> {
    failed.then_some(Status { code: 2 })
}

/// The resource's attributes: `service.name` first.
fn resource_pairs(service_name: &str, resource: &[(String, String)]) -> Vec<(String, String)> {
    let mut pairs = vec![("service.name".to_owned(), service_name.to_owned())];
    pairs.extend(resource.iter().cloned());
    pairs
}

fn key_value(key: &str, value: &AttributeValue) -> KeyValue {
    KeyValue {
        key: key.to_owned(),
        value: Some(any(value)),
    }
}

fn any(value: &AttributeValue) -> AnyValue {
    let text = |text: &String| AnyValue {
        value: Some(any_value::Value::StringValue(text.clone())),
    };
    let value = match value {
        AttributeValue::Text(value) => return text(value),
        AttributeValue::Int(number) => any_value::Value::IntValue(*number),
        AttributeValue::TextList(texts) => any_value::Value::ArrayValue(ArrayValue {
            values: texts.iter().map(text).collect(),
        }),
    };
    AnyValue { value: Some(value) }
}

/// The protobuf request for `spans`.
pub fn protobuf_request(
    service_name: &str,
    resource: &[(String, String)],
    spans: &[FinishedSpan],
) -> ExportTraceServiceRequest {
    let attributes = resource_pairs(service_name, resource)
        .iter()
        .map(|(key, value)| key_value(key, &AttributeValue::Text(value.clone())))
        .collect();
    let spans = spans
        .iter()
        .map(|span| Span {
            trace_id: span.context.trace_id.to_vec(),
            span_id: span.context.span_id.to_vec(),
            parent_span_id: span.parent.map(|id| id.to_vec()).unwrap_or_default(),
            name: span.name.clone(),
            kind: kind_number(span.kind),
            start_time_unix_nano: span.start_ns,
            end_time_unix_nano: span.end_ns,
            attributes: span
                .attributes
                .iter()
                .map(|(key, value)| key_value(key, value))
                .collect(),
            status: status(span.failed),
        })
        .collect();
    ExportTraceServiceRequest {
        resource_spans: vec![ResourceSpans {
            resource: Some(Resource { attributes }),
            scope_spans: vec![ScopeSpans {
                scope: Some(scope()),
                spans,
            }],
        }],
    }
}

fn scope() -> InstrumentationScope {
    InstrumentationScope {
        name: "agenthub".to_owned(),
        version: env!("CARGO_PKG_VERSION").to_owned(),
    }
}

fn json_value(value: &AttributeValue) -> Value {
    match value {
        AttributeValue::Text(text) => json!({ "stringValue": text }),
        AttributeValue::Int(number) => json!({ "intValue": number.to_string() }),
        AttributeValue::TextList(texts) => json!({ "arrayValue": { "values": texts
            .iter()
            .map(|text| json!({ "stringValue": text }))
            .collect::<Vec<_>>() } }),
    }
}

fn json_attributes<'a>(pairs: impl Iterator<Item = (&'a str, Value)>) -> Value {
    Value::Array(
        pairs
            .map(|(key, value)| json!({ "key": key, "value": value }))
            .collect(),
    )
}

/// The OTLP/JSON request for `spans`.
pub fn json_request(
    service_name: &str,
    resource: &[(String, String)],
    spans: &[FinishedSpan],
) -> Value {
    let pairs = resource_pairs(service_name, resource);
    let resource = json_attributes(
        pairs
            .iter()
            .map(|(key, value)| (key.as_str(), json!({ "stringValue": value }))),
    );
    let spans: Vec<Value> = spans
        .iter()
        .map(|span| {
            let mut object = json!({
                "traceId": hex(&span.context.trace_id),
                "spanId": hex(&span.context.span_id),
                "parentSpanId": span.parent.map(|id| hex(&id)).unwrap_or_default(),
                "name": span.name,
                "kind": kind_number(span.kind),
                "startTimeUnixNano": span.start_ns.to_string(),
                "endTimeUnixNano": span.end_ns.to_string(),
                "attributes": json_attributes(
                    span.attributes.iter().map(|(key, value)| (key.as_str(), json_value(value)))
                ),
            });
            if let (Some(status), Some(fields)) = (status(span.failed), object.as_object_mut()) {
                fields.insert("status".to_owned(), json!({ "code": status.code }));
            }
            object
        })
        .collect();
    let scope = scope();
    json!({
        "resourceSpans": [{
            "resource": { "attributes": resource },
            "scopeSpans": [{
                "scope": { "name": scope.name, "version": scope.version },
                "spans": spans,
            }],
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::SpanContext;
    use prost::Message;

    fn span() -> FinishedSpan {
        FinishedSpan {
            context: SpanContext {
                trace_id: [1; 16],
                span_id: [2; 8],
            },
            parent: Some([3; 8]),
            name: "chat m".to_owned(),
            kind: SpanKind::Client,
            start_ns: 5,
            end_ns: 9,
            attributes: vec![
                (
                    "gen_ai.request.model".to_owned(),
                    AttributeValue::Text("m".to_owned()),
                ),
                (
                    "gen_ai.usage.input_tokens".to_owned(),
                    AttributeValue::Int(12),
                ),
                (
                    "gen_ai.response.finish_reasons".to_owned(),
                    AttributeValue::TextList(vec!["stop".to_owned()]),
                ),
            ],
            failed: true,
        }
    }

    #[test]
    fn a_span_is_encoded_with_the_otlp_field_numbers() {
        let request = protobuf_request("svc", &[], &[span()]);
        let bytes = request.encode_to_vec();
        let span = &request.resource_spans[0].scope_spans[0].spans[0];
        // Field 1 (trace_id, length-delimited): tag 0x0a, length 16.
        let encoded = span.encode_to_vec();
        assert_eq!(&encoded[..2], &[0x0a, 16]);
        // Field 7 (start, fixed64): tag 0x39 followed by 5 little-endian.
        let start = encoded
            .windows(9)
            .any(|w| w == [0x39, 5, 0, 0, 0, 0, 0, 0, 0]);
        assert!(start, "start_time_unix_nano as fixed64 field 7");
        assert_eq!(
            ExportTraceServiceRequest::decode(bytes.as_slice()).ok(),
            Some(request)
        );
    }

    #[test]
    fn the_json_encoding_uses_hex_ids_and_string_numbers() {
        let request = json_request("svc", &[("team".to_owned(), "ai".to_owned())], &[span()]);
        assert_eq!(
            request,
            json!({
                "resourceSpans": [{
                    "resource": { "attributes": [
                        { "key": "service.name", "value": { "stringValue": "svc" } },
                        { "key": "team", "value": { "stringValue": "ai" } },
                    ]},
                    "scopeSpans": [{
                        "scope": { "name": "agenthub", "version": env!("CARGO_PKG_VERSION") },
                        "spans": [{
                            "traceId": "01010101010101010101010101010101",
                            "spanId": "0202020202020202",
                            "parentSpanId": "0303030303030303",
                            "name": "chat m",
                            "kind": 3,
                            "startTimeUnixNano": "5",
                            "endTimeUnixNano": "9",
                            "attributes": [
                                { "key": "gen_ai.request.model", "value": { "stringValue": "m" } },
                                { "key": "gen_ai.usage.input_tokens", "value": { "intValue": "12" } },
                                { "key": "gen_ai.response.finish_reasons", "value": { "arrayValue": {
                                    "values": [{ "stringValue": "stop" }] } } },
                            ],
                            "status": { "code": 2 },
                        }],
                    }],
                }],
            })
        );
    }
}
