//! The spinner on stderr while a real model has not sent its first token yet.
//!
//! It wraps the model rather than watching the loop: it starts when a model
//! request starts and stops at the first streamed text or when the request
//! ends (answered, failed or cancelled), so it never competes with the
//! `[Hook]` and `[Permission]` lines printed between requests. It draws only
//! when stderr is a terminal, and must never write to stdout.

use agenthub::RequestPurpose;
use agenthub::{AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::future::Future;
use std::io::IsTerminal;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// One spinner, started and stopped as model requests come and go.
#[derive(Default)]
pub struct WaitSpinner {
    bar: Mutex<Option<ProgressBar>>,
}

impl WaitSpinner {
    /// A spinner when stderr is a terminal; `None` otherwise.
    pub fn on_terminal() -> Option<Self> {
        std::io::stderr().is_terminal().then(WaitSpinner::default)
    }

    fn start(&self) {
        if let Ok(mut slot) = self.bar.lock() {
            if slot.is_none() {
                let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
                if let Ok(style) = ProgressStyle::with_template("{spinner} {msg}") {
                    bar.set_style(style);
                }
                bar.set_message("waiting for the model…");
                bar.enable_steady_tick(Duration::from_millis(100));
                *slot = Some(bar);
            }
        }
    }

    /// Clears the spinner; nothing happens when it is not spinning.
    pub fn stop(&self) {
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(bar) = slot.take() {
                bar.finish_and_clear();
            }
        }
    }
}

/// A model whose requests show the spinner until their first token.
pub struct SpinnerModel {
    inner: Arc<dyn ChatModel>,
    spinner: Arc<WaitSpinner>,
}

impl SpinnerModel {
    pub fn new(inner: Arc<dyn ChatModel>, spinner: Arc<WaitSpinner>) -> Self {
        SpinnerModel { inner, spinner }
    }
}

type Reply<'a> = Pin<Box<dyn Future<Output = Result<AssistantReply, ModelError>> + Send + 'a>>;

impl ChatModel for SpinnerModel {
    fn complete<'a>(
        &'a self,
        request: ModelRequest<'a>,
        events: &'a dyn ModelEvents,
        cancel: &'a CancellationToken,
    ) -> Reply<'a> {
        // A `prompt` hook's question goes to the inner model as it is; a
        // turn or a summary shows the spinner until the first text (a
        // summary streams none: until it is done).
        if request.purpose == RequestPurpose::HookQuestion {
            return self.inner.complete(request, events, cancel);
        }
        Box::pin(async move {
            let watcher = StopOnFirstText {
                events,
                spinner: &self.spinner,
            };
            self.spinner.start();
            self.inner.complete(request, &watcher, cancel).await
        })
    }

    /// A replayed reply was the inner model's.
    fn reply_replayed(&self) {
        self.inner.reply_replayed();
    }

    /// A subagent talks to the inner model's choice, without the spinner
    /// (the live lines show subagents).
    fn subagent_model(&self) -> Option<Arc<dyn ChatModel>> {
        Some(
            self.inner
                .subagent_model()
                .unwrap_or_else(|| self.inner.clone()),
        )
    }
}

/// Forwards streamed text, stopping the spinner first; stops it when dropped
/// too, so a request that ends in any way leaves no spinner behind.
struct StopOnFirstText<'a> {
    events: &'a dyn ModelEvents,
    spinner: &'a WaitSpinner,
}

impl ModelEvents for StopOnFirstText<'_> {
    fn text_delta(&self, text: &str) {
        self.spinner.stop();
        self.events.text_delta(text);
    }
}

impl Drop for StopOnFirstText<'_> {
    fn drop(&mut self) {
        self.spinner.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agenthub::{NoModelEvents, ScriptedModel};

    #[tokio::test]
    async fn the_wrapped_model_answers_unchanged_and_leaves_no_spinner() {
        let script = r#"{"turns": [{"content": "hello"}]}"#;
        let inner = Arc::new(ScriptedModel::from_json("s.json", script).unwrap());
        let spinner = Arc::new(WaitSpinner::default());
        let model = SpinnerModel::new(inner, spinner.clone());
        let request = ModelRequest {
            messages: &[],
            tools: &[],
            purpose: RequestPurpose::Turn,
        };
        let reply = model
            .complete(request, &NoModelEvents, &CancellationToken::new())
            .await
            .unwrap();
        assert_eq!(
            (reply.content, spinner.bar.lock().unwrap().is_none()),
            (Some("hello".to_owned()), true)
        );
    }
}
