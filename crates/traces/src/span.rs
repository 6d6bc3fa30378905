//! Spans as this exporter keeps them: ids, parent, name, times and a few
//! typed attributes. Only names, counts, ids and decisions go in — never a
//! prompt, a message or a tool's input or output (contract §25).

use std::time::{SystemTime, UNIX_EPOCH};

/// A trace's id (16 random bytes).
pub type TraceId = [u8; 16];
/// A span's id (8 random bytes).
pub type SpanId = [u8; 8];

/// Where a span sits: its trace and its own id; children name it as parent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpanContext {
    /// The trace every span of a session (and of a batch) shares.
    pub trace_id: TraceId,
    /// This span's id.
    pub span_id: SpanId,
}

impl SpanContext {
    /// A new trace's first span.
    pub fn root() -> Self {
        SpanContext {
            trace_id: *uuid::Uuid::new_v4().as_bytes(),
            span_id: new_span_id(),
        }
    }

    /// A new span in the same trace.
    pub fn child(&self) -> Self {
        SpanContext {
            trace_id: self.trace_id,
            span_id: new_span_id(),
        }
    }
}

fn new_span_id() -> SpanId {
    let random = uuid::Uuid::new_v4();
    let mut id = [0u8; 8];
    id.copy_from_slice(&random.as_bytes()[..8]);
    id
}

/// An attribute's value.
#[derive(Debug, Clone, PartialEq)]
pub enum AttributeValue {
    /// Text.
    Text(String),
    /// A whole number.
    Int(i64),
    /// A list of texts (`gen_ai.response.finish_reasons`).
    TextList(Vec<String>),
}

impl From<&str> for AttributeValue {
    fn from(text: &str) -> Self {
        AttributeValue::Text(text.to_owned())
    }
}

impl From<String> for AttributeValue {
    fn from(text: String) -> Self {
        AttributeValue::Text(text)
    }
}

impl From<Vec<String>> for AttributeValue {
    fn from(texts: Vec<String>) -> Self {
        AttributeValue::TextList(texts)
    }
}

impl From<i64> for AttributeValue {
    fn from(number: i64) -> Self {
        AttributeValue::Int(number)
    }
}

/// What kind of work a span stands for (OTLP's `SpanKind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpanKind {
    /// Work inside AgentHub.
    Internal,
    /// A request to another service (a model provider).
    Client,
}

/// A span that has ended, ready to export.
#[derive(Debug, Clone, PartialEq)]
pub struct FinishedSpan {
    /// Its trace and id.
    pub context: SpanContext,
    /// Its parent's id, `None` for a trace's root.
    pub parent: Option<SpanId>,
    /// `session`, `chat <model>`, `execute_tool <name>`, `hook <event>`, …
    pub name: String,
    /// What kind of work it was.
    pub kind: SpanKind,
    /// Start, in nanoseconds since the Unix epoch.
    pub start_ns: u64,
    /// End, in nanoseconds since the Unix epoch.
    pub end_ns: u64,
    /// Its attributes, in the order they were set.
    pub attributes: Vec<(String, AttributeValue)>,
    /// Set when the work failed (OTLP status `ERROR`).
    pub failed: bool,
}

/// A span still running.
#[derive(Debug, Clone)]
pub struct OpenSpan {
    context: SpanContext,
    parent: Option<SpanId>,
    name: String,
    kind: SpanKind,
    start_ns: u64,
    attributes: Vec<(String, AttributeValue)>,
    failed: bool,
}

impl OpenSpan {
    /// A span that starts at `start_ns`, under `parent` (or a root when `None`).
    pub fn start(name: impl Into<String>, parent: Option<SpanContext>, start_ns: u64) -> Self {
        let (context, parent) = match parent {
            Some(parent) => (parent.child(), Some(parent.span_id)),
            None => (SpanContext::root(), None),
        };
        OpenSpan {
            context,
            parent,
            name: name.into(),
            kind: SpanKind::Internal,
            start_ns,
            attributes: Vec::new(),
            failed: false,
        }
    }

    /// The same span, of `kind`.
    pub fn kind(mut self, kind: SpanKind) -> Self {
        self.kind = kind;
        self
    }

    /// Where it sits, for its children.
    pub fn context(&self) -> SpanContext {
        self.context
    }

    /// Sets `key` (replacing an earlier value).
    pub fn set(&mut self, key: &str, value: impl Into<AttributeValue>) {
        let value = value.into();
        match self.attributes.iter_mut().find(|(k, _)| k == key) {
            Some(slot) => slot.1 = value,
            None => self.attributes.push((key.to_owned(), value)),
        }
    }

    /// Marks the work as failed.
    pub fn fail(&mut self) {
        self.failed = true;
    }

    /// Ends it at `end_ns` (never before it started).
    pub fn finish(self, end_ns: u64) -> FinishedSpan {
        FinishedSpan {
            context: self.context,
            parent: self.parent,
            name: self.name,
            kind: self.kind,
            start_ns: self.start_ns,
            end_ns: end_ns.max(self.start_ns),
            attributes: self.attributes,
            failed: self.failed,
        }
    }
}

/// Now, in nanoseconds since the Unix epoch.
pub fn now_ns() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| {
            u64::try_from(since.as_nanos()).unwrap_or(u64::MAX)
        })
}

/// Lowercase hex, as OTLP/JSON and W3C trace context write ids.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_child_shares_its_parents_trace_and_names_it() {
        let parent = OpenSpan::start("session", None, 1);
        let child = OpenSpan::start("chat m", Some(parent.context()), 2).finish(3);
        assert_eq!(
            (child.context.trace_id, child.parent),
            (parent.context().trace_id, Some(parent.context().span_id))
        );
    }

    #[test]
    fn a_span_never_ends_before_it_started() {
        let span = OpenSpan::start("hook Stop", None, 10).finish(5);
        assert_eq!((span.start_ns, span.end_ns), (10, 10));
    }

    #[test]
    fn setting_a_key_again_replaces_its_value() {
        let mut span = OpenSpan::start("s", None, 0);
        span.set("a", 1);
        span.set("a", "two");
        assert_eq!(
            span.finish(0).attributes,
            vec![("a".to_owned(), AttributeValue::Text("two".to_owned()))]
        );
    }

    #[test]
    fn ids_are_written_as_lowercase_hex() {
        assert_eq!(hex(&[0x0a, 0xff, 0x10]), "0aff10");
    }
}
