//! The flush at exit (contract §31): it waits at most its limit whatever the
//! collector does, and says when spans were left unsent — a collector that
//! accepts the connection and never answers, one that is not there — so the
//! front end can warn naming the endpoint.

use agenthub_traces::test_collector::{absent_endpoint, Collector, SilentCollector};
use agenthub_traces::{
    now_ns, Flushed, OpenSpan, SpanExporter, TraceConfig, TraceProtocol, FLUSH_LIMIT,
};
use std::time::{Duration, Instant};

fn exporter_to(endpoint: String) -> SpanExporter {
    let exporter = SpanExporter::start(TraceConfig {
        endpoint,
        protocol: TraceProtocol::Protobuf,
        headers: Vec::new(),
        service_name: "agenthub".to_owned(),
        resource: Vec::new(),
    })
    .unwrap();
    exporter.export(OpenSpan::start("session", None, now_ns()).finish(now_ns()));
    exporter
}

/// The flush's outcome and how long it took.
async fn flushed(endpoint: String) -> (Flushed, Duration) {
    let exporter = exporter_to(endpoint);
    let started = Instant::now();
    let outcome = exporter.flush(FLUSH_LIMIT).await;
    (outcome, started.elapsed())
}

#[tokio::test]
async fn a_collector_that_never_answers_is_waited_for_one_second_and_the_spans_are_unsent() {
    let silent = SilentCollector::start();
    let (outcome, took) = flushed(silent.endpoint()).await;
    assert_eq!(outcome, Flushed::TimedOut);
    assert!(
        took >= FLUSH_LIMIT && took < Duration::from_millis(1500),
        "{took:?}"
    );
}

#[tokio::test]
async fn a_collector_that_is_not_there_is_a_failed_flush_at_once() {
    let (outcome, took) = flushed(absent_endpoint()).await;
    assert_eq!(outcome, Flushed::Failed);
    assert!(took < FLUSH_LIMIT, "{took:?}");
}

#[tokio::test]
async fn a_collector_that_answers_gets_every_span() {
    let collector = Collector::start();
    let (outcome, _) = flushed(collector.endpoint()).await;
    assert_eq!((outcome, collector.received().len()), (Flushed::Sent, 1));
}
