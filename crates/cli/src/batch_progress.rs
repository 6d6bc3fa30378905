//! What `agenthub batch` shows on stderr while it runs: on a terminal, a
//! header with the done / running / failed counts and the elapsed time, and
//! one line per running task (its id and how long it has run); otherwise
//! nothing until one plain summary line at the end.
//!
//! It must never write to stdout (the result lines may go there) and never
//! decide anything about a task: it only counts what the runner tells it.

use agenthub_fleet::{BatchProgress, BatchSummary, TaskOutcome};
use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::io::IsTerminal;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// The progress display on a terminal: a header and a line per running task.
pub struct TerminalProgress {
    total: usize,
    multi: MultiProgress,
    header: ProgressBar,
    running: Mutex<HashMap<String, ProgressBar>>,
    done: AtomicUsize,
    failed: AtomicUsize,
}

impl TerminalProgress {
    /// The display when stderr is a terminal; `None` otherwise.
    pub fn on_terminal(total: usize) -> Option<TerminalProgress> {
        if !std::io::stderr().is_terminal() {
            return None;
        }
        let multi = MultiProgress::with_draw_target(ProgressDrawTarget::stderr());
        let header = multi.add(ProgressBar::new_spinner());
        if let Ok(style) = ProgressStyle::with_template("{spinner} {msg} · {elapsed}") {
            header.set_style(style);
        }
        header.enable_steady_tick(Duration::from_millis(100));
        let progress = TerminalProgress {
            total,
            multi,
            header,
            running: Mutex::new(HashMap::new()),
            done: AtomicUsize::new(0),
            failed: AtomicUsize::new(0),
        };
        progress.redraw_header();
        Some(progress)
    }

    fn redraw_header(&self) {
        let running = self.running.lock().map(|bars| bars.len()).unwrap_or(0);
        self.header.set_message(format!(
            "done {}/{} · running {running} · failed {}",
            self.done.load(Ordering::SeqCst),
            self.total,
            self.failed.load(Ordering::SeqCst),
        ));
    }

    /// Clears the running lines and leaves the summary as the header's last words.
    pub fn finish(&self, summary: &BatchSummary, elapsed: Duration) {
        if let Ok(mut bars) = self.running.lock() {
            for (_, bar) in bars.drain() {
                bar.finish_and_clear();
            }
        }
        if let Ok(style) = ProgressStyle::with_template("{msg}") {
            self.header.set_style(style);
        }
        self.header
            .finish_with_message(summary_line(summary, elapsed));
    }
}

impl BatchProgress for TerminalProgress {
    fn started(&self, id: &str) {
        let bar = self.multi.add(ProgressBar::new_spinner());
        if let Ok(style) = ProgressStyle::with_template("  {msg} {elapsed}") {
            bar.set_style(style);
        }
        bar.set_message(crate::terminal::neutralise(id).into_owned());
        if let Ok(mut bars) = self.running.lock() {
            bars.insert(id.to_owned(), bar);
        }
        self.redraw_header();
    }

    fn finished(&self, outcome: &TaskOutcome) {
        if let Ok(mut bars) = self.running.lock() {
            if let Some(bar) = bars.remove(outcome.id()) {
                bar.finish_and_clear();
                self.multi.remove(&bar);
            }
        }
        self.done.fetch_add(1, Ordering::SeqCst);
        if outcome.is_error() {
            self.failed.fetch_add(1, Ordering::SeqCst);
        }
        self.redraw_header();
    }
}

/// `batch: 50 tasks in 3.2 s: 49 succeeded, 1 failed, 0 cancelled`.
pub fn summary_line(summary: &BatchSummary, elapsed: Duration) -> String {
    format!(
        "batch: {} tasks in {:.1} s: {} succeeded, {} failed, {} cancelled",
        summary.total,
        elapsed.as_secs_f64(),
        summary.succeeded,
        summary.failed,
        summary.cancelled
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_summary_names_every_count_and_the_time() {
        let summary = BatchSummary {
            total: 50,
            succeeded: 48,
            failed: 1,
            cancelled: 1,
        };
        assert_eq!(
            summary_line(&summary, Duration::from_millis(3240)),
            "batch: 50 tasks in 3.2 s: 48 succeeded, 1 failed, 1 cancelled"
        );
    }
}
