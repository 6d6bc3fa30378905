//! What a user sees while a real model answers: its text on stdout as it
//! streams in (text mode), and a spinner on stderr while waiting for the model,
//! only when stderr is a terminal.
//!
//! Both are observers. [`LiveText`] remembers what it printed so the final
//! answer is not printed a second time; it must never print anything but
//! assistant text (and the newline closing a turn) on stdout.

use crate::args::OutputFormat;
use crate::model_setup::ModelSource;
use crate::output::AnswerShown;
use agenthub_core::{AgentEvent, Observer, ObserverError, Observers, RunReport};
use agenthub_protocol::{Message, RunStatus};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::{IsTerminal, Stdout, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The live parts of a run's output, chosen from the model and the format:
/// streamed text for a real provider in text mode, the spinner for a real
/// provider whenever stderr is a terminal; nothing for the scripted model.
pub struct LiveOutput {
    text: Option<Arc<LiveText<Stdout>>>,
    spinner: Option<Arc<WaitSpinner>>,
}

impl LiveOutput {
    pub fn for_run(source: ModelSource, format: OutputFormat) -> Self {
        let real = source == ModelSource::Provider;
        LiveOutput {
            text: (real && format == OutputFormat::Text)
                .then(|| Arc::new(LiveText::new(std::io::stdout()))),
            spinner: real.then(WaitSpinner::on_terminal).flatten().map(Arc::new),
        }
    }

    /// The live observers first (the spinner must clear before anything
    /// prints), then the run's other observers.
    pub fn around(&self, others: Observers) -> Observers {
        let mut all = Observers::new();
        if let Some(spinner) = &self.spinner {
            all.push(spinner.clone());
        }
        if let Some(text) = &self.text {
            all.push(text.clone());
        }
        all.with(Arc::new(others))
    }

    /// Stops the spinner; says whether the final answer is already on stdout.
    pub fn finish(&self, report: &RunReport) -> AnswerShown {
        if let Some(spinner) = &self.spinner {
            spinner.stop();
        }
        let streamed = report.status == RunStatus::Completed
            && self.text.as_ref().is_some_and(|text| {
                report
                    .result
                    .as_deref()
                    .is_some_and(|answer| text.already_shown(answer))
            });
        if streamed {
            AnswerShown::AlreadyStreamed
        } else {
            AnswerShown::NotYet
        }
    }
}

/// Streams assistant text to a writer (stdout), one model turn after another.
pub struct LiveText<W: Write + Send> {
    state: Mutex<TextState<W>>,
}

struct TextState<W> {
    out: W,
    /// Text streamed in the current model turn.
    turn: String,
    /// Text streamed in the last finished model turn.
    last_turn: String,
}

impl<W: Write + Send> LiveText<W> {
    pub fn new(out: W) -> Self {
        LiveText {
            state: Mutex::new(TextState {
                out,
                turn: String::new(),
                last_turn: String::new(),
            }),
        }
    }

    /// Whether `answer` is exactly what the last model turn streamed, i.e. it
    /// is already on the screen.
    pub fn already_shown(&self, answer: &str) -> bool {
        self.state
            .lock()
            .map(|state| !answer.is_empty() && state.last_turn == answer)
            .unwrap_or(false)
    }
}

impl<W: Write + Send> Observer for LiveText<W> {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        let mut state = self
            .state
            .lock()
            .map_err(|_| ObserverError("live text poisoned".to_owned()))?;
        let state = &mut *state;
        match event {
            AgentEvent::TextDelta(text) => {
                state.turn.push_str(text);
                write!(state.out, "{text}").map_err(failed)?;
                state.out.flush().map_err(failed)
            }
            AgentEvent::Message(Message::Assistant { .. }) => {
                if !state.turn.is_empty() && !state.turn.ends_with('\n') {
                    writeln!(state.out).map_err(failed)?;
                }
                state.last_turn = std::mem::take(&mut state.turn);
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

fn failed(error: std::io::Error) -> ObserverError {
    ObserverError(format!("cannot print the model's text: {error}"))
}

/// A spinner on stderr while a model request is outstanding: shown from the
/// start of the run and after each round of tool results, cleared as soon as
/// anything else is about to be printed. Register it before the observers
/// that print, so it is cleared before they write.
pub struct WaitSpinner {
    bar: Mutex<Option<ProgressBar>>,
}

impl WaitSpinner {
    /// A spinning spinner when stderr is a terminal; `None` otherwise.
    pub fn on_terminal() -> Option<Self> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let spinner = WaitSpinner {
            bar: Mutex::new(None),
        };
        spinner.start();
        Some(spinner)
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

    pub fn stop(&self) {
        if let Ok(mut slot) = self.bar.lock() {
            if let Some(bar) = slot.take() {
                bar.finish_and_clear();
            }
        }
    }
}

impl Observer for WaitSpinner {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        match event {
            AgentEvent::Message(Message::Tool { .. }) => self.start(),
            AgentEvent::Message(_) => {}
            _ => self.stop(),
        }
        Ok(())
    }
}

impl Drop for WaitSpinner {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer whose bytes the test can read back.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    fn feed(live: &LiveText<Shared>, events: &[AgentEvent<'_>]) {
        for event in events {
            live.on_event(event).unwrap();
        }
    }

    #[test]
    fn each_turn_is_printed_as_it_streams_and_closed_with_a_newline() {
        let out = Shared::default();
        let live = LiveText::new(out.clone());
        let narration = Message::assistant_text("Reading.");
        let answer = Message::assistant_text("It says hi.");
        feed(
            &live,
            &[
                AgentEvent::TextDelta("Read"),
                AgentEvent::TextDelta("ing."),
                AgentEvent::Message(&narration),
                AgentEvent::TextDelta("It says hi."),
                AgentEvent::Message(&answer),
            ],
        );
        let printed = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert_eq!(
            (
                printed,
                live.already_shown("It says hi."),
                live.already_shown("Reading.")
            ),
            ("Reading.\nIt says hi.\n".to_owned(), true, false)
        );
    }

    #[test]
    fn an_answer_that_was_not_streamed_is_not_taken_as_shown() {
        let live = LiveText::new(Shared::default());
        let answer = Message::assistant_text("quiet");
        feed(&live, &[AgentEvent::Message(&answer)]);
        assert!(!live.already_shown("quiet"));
    }
}
