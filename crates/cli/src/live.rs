//! What a user sees while a real model answers: its text on stdout as it
//! streams in (text mode), and a spinner on stderr while waiting for the first
//! token, only when stderr is a terminal (see [`crate::spinner`]).
//!
//! [`LiveText`] is an observer that remembers what it printed, so the final
//! answer is not printed a second time; it must never print anything but
//! assistant text (and the newline closing a turn) on stdout.

use crate::args::OutputFormat;
use crate::output::AnswerShown;
use crate::spinner::{SpinnerModel, WaitSpinner};
use crate::terminal::Neutral;
use agenthub::ChatModel;
use agenthub::ModelSource;
use agenthub::{AgentEvent, Observer, ObserverError, RunReport};
use agenthub::{Message, RunStatus};
use std::io::{Stdout, Write};
use std::sync::{Arc, Mutex};

/// The live parts of a run's output, chosen from the model and the format:
/// streamed text for a real provider in text mode, the spinner for a real
/// provider whenever stderr is a terminal; nothing for the scripted model.
pub struct LiveOutput {
    text: Option<Arc<LiveText<Neutral<Stdout>>>>,
    spinner: Option<Arc<WaitSpinner>>,
}

impl LiveOutput {
    pub fn for_run(source: ModelSource, format: OutputFormat) -> Self {
        let real = source == ModelSource::Provider;
        LiveOutput {
            text: (real && format == OutputFormat::Text)
                .then(|| Arc::new(LiveText::new(Neutral::when_terminal(std::io::stdout())))),
            spinner: real.then(WaitSpinner::on_terminal).flatten().map(Arc::new),
        }
    }

    /// The streamed-text observer, when the answer streams to stdout: it
    /// goes before the run's other observers.
    pub fn text_observer(&self) -> Option<Arc<dyn Observer>> {
        self.text.clone().map(|text| text as Arc<dyn Observer>)
    }

    /// The model, showing the spinner while each request waits for its first token.
    pub fn model(&self, model: Arc<dyn ChatModel>) -> Arc<dyn ChatModel> {
        match &self.spinner {
            Some(spinner) => Arc::new(SpinnerModel::new(model, spinner.clone())),
            None => model,
        }
    }

    /// Stops the spinner; says whether the final answer is already on stdout.
    pub fn finish(&self, report: &RunReport) -> AnswerShown {
        if let Some(spinner) = &self.spinner {
            spinner.stop();
        }
        if let Some(text) = &self.text {
            text.close_turn();
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

impl<W: Write + Send> LiveText<W> {
    /// Ends a turn that stopped halfway (a failed or cancelled request) on a
    /// new line, so what follows does not run on from it.
    pub fn close_turn(&self) {
        if let Ok(mut state) = self.state.lock() {
            let state = &mut *state;
            if !state.turn.is_empty() && !state.turn.ends_with('\n') {
                let _ = writeln!(state.out);
            }
            state.turn.clear();
        }
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
    fn a_turn_cut_short_is_closed_with_a_newline() {
        let out = Shared::default();
        let live = LiveText::new(out.clone());
        feed(&live, &[AgentEvent::TextDelta("I was abo")]);
        live.close_turn();
        let printed = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert_eq!(printed, "I was abo\n");
    }

    #[test]
    fn an_answer_that_was_not_streamed_is_not_taken_as_shown() {
        let live = LiveText::new(Shared::default());
        let answer = Message::assistant_text("quiet");
        feed(&live, &[AgentEvent::Message(&answer)]);
        assert!(!live.already_shown("quiet"));
    }
}
