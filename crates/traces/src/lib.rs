//! OpenTelemetry traces over OTLP/HTTP (contract §25), written by hand: the
//! few OTLP messages a span export needs as `prost` types and as OTLP/JSON,
//! sent with the `reqwest` client the model providers use. Measured against
//! the `opentelemetry` crates (README "Traces"): they add ten crates to the
//! tree and 424 KiB to a one-span release exporter (this way: no crate and
//! 27 KiB), for what is here a few hundred lines.
//!
//! How it joins a run: `agenthub::Assembly::agent` adds one
//! observer, a [`SessionTracer`], to every agent it builds when the
//! environment names a collector ([`TraceConfig::from_env`]). Without one,
//! nothing is added and nothing runs: tracing off costs nothing. A front end
//! calls [`flush_traces`] before it exits, which waits at most the time it is
//! given. Spans of several sessions (a batch's tasks) join one trace when
//! they run inside [`traced`]; [`carry_trace`] takes that parent into a
//! spawned task.
//!
//! This module never fails a run and never exports a prompt, a message, or a
//! tool's input or output: only names, ids, counts and decisions.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

mod config;
mod exporter;
mod network_span;
mod session;
mod span;
#[cfg(feature = "test-collector")]
pub mod test_collector;
mod tool_span;
pub mod wire;

pub use config::{TraceConfig, TraceConfigError, TraceProtocol, DEFAULT_SERVICE_NAME};
pub use exporter::{Flushed, SpanExporter};
pub use session::{SandboxFacts, SessionTracer, UNKNOWN_PROVIDER};
pub use span::{hex, now_ns, AttributeValue, FinishedSpan, OpenSpan, SpanContext, SpanKind};

use std::future::Future;
use std::sync::OnceLock;
use std::time::Duration;

/// How long a front end waits for queued spans at exit: an unreachable
/// collector delays the end of a run by at most this (contract §25).
pub const FLUSH_LIMIT: Duration = Duration::from_secs(1);

/// The process's exporter, started from the environment the first time a
/// session asks (inside the runtime that runs sessions).
static EXPORTER: OnceLock<Result<Option<SpanExporter>, TraceConfigError>> = OnceLock::new();

tokio::task_local! {
    /// The span new sessions' spans go under (a batch's), if any.
    static PARENT: SpanContext;
}

/// The process's exporter: `Ok(None)` when the environment names no
/// collector (or outside a Tokio runtime), `Err` when a variable cannot be used.
pub fn global_exporter() -> Result<Option<&'static SpanExporter>, &'static TraceConfigError> {
    let started = EXPORTER
        .get_or_init(|| TraceConfig::from_env().map(|config| config.and_then(SpanExporter::start)));
    match started {
        Ok(exporter) => Ok(exporter.as_ref()),
        Err(error) => Err(error),
    }
}

/// The trace observer for a new session's agent, when traces are on.
pub fn session_tracer(model: Option<String>, sandbox: SandboxFacts) -> Option<SessionTracer> {
    let exporter = global_exporter().ok().flatten()?.clone();
    let parent = PARENT.try_with(|parent| *parent).ok();
    Some(SessionTracer::new(exporter, model, sandbox, parent))
}

/// Spans that did not reach the collector at exit: where they were going,
/// and why. Its text is the user's warning (without `[Warning]`).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum UnsentTraces {
    /// A POST failed: the collector was not there or refused.
    #[error("traces could not be sent to {endpoint} (OTEL_EXPORTER_OTLP_ENDPOINT)")]
    Failed {
        /// The traces endpoint.
        endpoint: String,
    },
    /// The collector did not answer within the flush limit.
    #[error("traces were left unsent: {endpoint} (OTEL_EXPORTER_OTLP_ENDPOINT) did not answer within {seconds} s")]
    TimedOut {
        /// The traces endpoint.
        endpoint: String,
        /// The flush limit, in seconds.
        seconds: f64,
    },
}

/// Sends the spans queued so far, waiting at most `limit` whatever the
/// collector does; what was left unsent (for a warning), else `None`.
pub async fn flush_traces(limit: Duration) -> Option<UnsentTraces> {
    let exporter = global_exporter().ok().flatten()?;
    let flushed = exporter.flush(limit).await;
    let endpoint = || {
        TraceConfig::from_env()
            .ok()
            .flatten()
            .map_or_else(String::new, |config| config.endpoint)
    };
    match flushed {
        Flushed::Sent => None,
        Flushed::Failed => Some(UnsentTraces::Failed {
            endpoint: endpoint(),
        }),
        Flushed::TimedOut => Some(UnsentTraces::TimedOut {
            endpoint: endpoint(),
            seconds: limit.as_secs_f64(),
        }),
    }
}

/// Runs `future` inside a span `name` (a batch of sessions): the sessions it
/// starts are its children, in its trace. Without traces it only runs `future`.
pub async fn traced<F: Future>(
    name: &str,
    attributes: Vec<(&str, AttributeValue)>,
    future: F,
) -> F::Output {
    let Some(exporter) = global_exporter().ok().flatten() else {
        return future.await;
    };
    let parent = PARENT.try_with(|parent| *parent).ok();
    let mut span = OpenSpan::start(name, parent, now_ns());
    for (key, value) in attributes {
        span.set(key, value);
    }
    let output = PARENT.scope(span.context(), future).await;
    exporter.export(span.finish(now_ns()));
    output
}

/// The current [`traced`] span as a W3C `traceparent` header value
/// (`00-<trace id>-<span id>-01`), for a session that runs elsewhere (a
/// fleet worker) to join this trace; `None` outside one.
pub fn traceparent() -> Option<String> {
    let parent = PARENT.try_with(|parent| *parent).ok()?;
    Some(format!(
        "00-{}-{}-01",
        hex(&parent.trace_id),
        hex(&parent.span_id)
    ))
}

/// Reads a W3C `traceparent` header value; `None` when it is malformed or
/// names the all-zero (invalid) ids.
pub fn parse_traceparent(value: &str) -> Option<SpanContext> {
    let mut parts = value.trim().split('-');
    let (version, trace, span, _flags) =
        (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    if version.len() != 2 || version == "ff" {
        return None;
    }
    let trace_id: [u8; 16] = unhex(trace)?.try_into().ok()?;
    let span_id: [u8; 8] = unhex(span)?.try_into().ok()?;
    if trace_id == [0; 16] || span_id == [0; 8] {
        return None;
    }
    Some(SpanContext { trace_id, span_id })
}

fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|at| u8::from_str_radix(text.get(at..at + 2)?, 16).ok())
        .collect()
}

/// Runs `future` with `parent` (a span of another process, from its
/// `traceparent`) as the parent of the sessions it starts.
pub async fn under_parent<F: Future>(parent: Option<SpanContext>, future: F) -> F::Output {
    match parent {
        Some(parent) => PARENT.scope(parent, future).await,
        None => future.await,
    }
}

/// `future` with the current [`traced`] parent, for a task spawned from
/// inside it (task-locals do not cross `spawn`).
pub fn carry_trace<F: Future>(future: F) -> impl Future<Output = F::Output> {
    let parent = PARENT.try_with(|parent| *parent).ok();
    async move {
        match parent {
            Some(parent) => PARENT.scope(parent, future).await,
            None => future.await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_traceparent_names_the_trace_and_the_parent_span() {
        let parsed = parse_traceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
        assert_eq!(
            parsed.map(|context| (hex(&context.trace_id), hex(&context.span_id))),
            Some((
                "0af7651916cd43dd8448eb211c80319c".to_owned(),
                "b7ad6b7169203331".to_owned()
            ))
        );
    }

    #[test]
    fn a_malformed_or_zero_traceparent_is_none() {
        for value in [
            "",
            "00-abc-def-01",
            "00-00000000000000000000000000000000-b7ad6b7169203331-01",
            "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b716920333-01",
        ] {
            assert_eq!(parse_traceparent(value), None, "{value}");
        }
    }

    #[tokio::test]
    async fn inside_a_parent_the_traceparent_is_that_parent() {
        let parent = SpanContext::root();
        let inside = under_parent(Some(parent), async { traceparent() }).await;
        let expected = format!("00-{}-{}-01", hex(&parent.trace_id), hex(&parent.span_id));
        assert_eq!((inside, traceparent()), (Some(expected), None));
    }
}
