//! Sends finished spans to the collector in the background: a run hands a
//! span over and goes on (never waits for the network), one task batches and
//! POSTs them, and [`SpanExporter::flush`] waits for what is queued — at most
//! as long as it is told (contract §25: an unreachable collector delays a
//! run's end by at most 1 s and never fails it). A failed POST is dropped
//! after one warning; the exporter never retries into a run's time.

use super::config::{TraceConfig, TraceProtocol};
use super::span::FinishedSpan;
use super::wire;
use prost::Message;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

/// Spans are sent once this many are queued, or when the queue goes quiet.
const BATCH_SIZE: usize = 256;
/// How long the queue may be quiet before what is queued is sent.
const QUIET: Duration = Duration::from_millis(500);
/// One POST's bound: a collector that takes longer is given up on.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);

enum Command {
    Span(Box<FinishedSpan>),
    Flush(oneshot::Sender<()>),
}

/// A handle on the background sender; cheap to clone.
#[derive(Clone)]
pub struct SpanExporter {
    commands: mpsc::UnboundedSender<Command>,
    warned: Arc<AtomicBool>,
}

impl SpanExporter {
    /// Starts the background task on the current Tokio runtime; `None`
    /// outside a runtime (then nothing is traced).
    pub fn start(config: TraceConfig) -> Option<SpanExporter> {
        let runtime = tokio::runtime::Handle::try_current().ok()?;
        let client = agenthub_model::transport::http_client()
            .timeout(REQUEST_TIMEOUT)
            .build()
            .ok()?;
        let (commands, queue) = mpsc::unbounded_channel();
        let warned = Arc::new(AtomicBool::new(false));
        let sender = Sender {
            config,
            client,
            warned: warned.clone(),
        };
        runtime.spawn(sender.run(queue));
        Some(SpanExporter { commands, warned })
    }

    /// Queues `span` for sending; never blocks.
    pub fn export(&self, span: FinishedSpan) {
        let _ = self.commands.send(Command::Span(Box::new(span)));
    }

    /// Sends everything queued so far, waiting at most `limit` whatever
    /// the collector does; says whether every span went out.
    pub async fn flush(&self, limit: Duration) -> Flushed {
        let (done, sent) = oneshot::channel();
        if self.commands.send(Command::Flush(done)).is_err() {
            return Flushed::Failed;
        }
        match tokio::time::timeout(limit, sent).await {
            Ok(_) if self.has_failed() => Flushed::Failed,
            Ok(_) => Flushed::Sent,
            Err(_) => Flushed::TimedOut,
        }
    }

    /// Whether a POST has failed (the collector was unreachable or refused).
    pub fn has_failed(&self) -> bool {
        self.warned.load(Ordering::Relaxed)
    }
}

/// What a flush came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flushed {
    /// Every span queued was delivered.
    Sent,
    /// A POST failed (the collector was unreachable or refused): its spans
    /// were dropped.
    Failed,
    /// The collector did not answer within the limit: spans are left unsent.
    TimedOut,
}

struct Sender {
    config: TraceConfig,
    client: reqwest::Client,
    warned: Arc<AtomicBool>,
}

impl Sender {
    async fn run(self, mut queue: mpsc::UnboundedReceiver<Command>) {
        let mut batch = Vec::new();
        loop {
            let next = if batch.is_empty() {
                queue.recv().await
            } else {
                match tokio::time::timeout(QUIET, queue.recv()).await {
                    Ok(next) => next,
                    Err(_quiet) => {
                        self.send(std::mem::take(&mut batch)).await;
                        continue;
                    }
                }
            };
            match next {
                Some(Command::Span(span)) => {
                    batch.push(*span);
                    if batch.len() >= BATCH_SIZE {
                        self.send(std::mem::take(&mut batch)).await;
                    }
                }
                Some(Command::Flush(done)) => {
                    self.send(std::mem::take(&mut batch)).await;
                    let _ = done.send(());
                }
                None => {
                    self.send(batch).await;
                    return;
                }
            }
        }
    }

    async fn send(&self, spans: Vec<FinishedSpan>) {
        if spans.is_empty() {
            return;
        }
        let config = &self.config;
        let body = match config.protocol {
            TraceProtocol::Protobuf => {
                wire::protobuf_request(&config.service_name, &config.resource, &spans)
                    .encode_to_vec()
            }
            TraceProtocol::Json => {
                wire::json_request(&config.service_name, &config.resource, &spans)
                    .to_string()
                    .into_bytes()
            }
        };
        let mut request = self
            .client
            .post(&config.endpoint)
            .header("content-type", config.protocol.content_type())
            .body(body);
        for (name, value) in &config.headers {
            request = request.header(name, value);
        }
        let answered = request.send().await;
        let delivered = answered.is_ok_and(|response| response.status().is_success());
        if !delivered {
            self.warned.store(true, Ordering::Relaxed);
        }
    }
}
