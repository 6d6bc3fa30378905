//! The last lines a stdio server wrote to stderr, kept for error messages
//! (a server that fails to start usually says why there). Only a bounded
//! tail is kept; stderr is read continuously so a chatty server never blocks
//! on a full pipe.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncBufReadExt, AsyncRead, BufReader};

/// How many of the last stderr lines are kept.
const TAIL_LINES: usize = 20;

/// A shared, bounded tail of a server's stderr.
#[derive(Debug, Clone, Default)]
pub(crate) struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
}

impl StderrTail {
    /// Reads `stream` line by line into the tail until it closes.
    pub(crate) fn follow(&self, stream: impl AsyncRead + Unpin + Send + 'static) {
        let lines = self.lines.clone();
        tokio::spawn(async move {
            let mut reader = BufReader::new(stream).lines();
            while let Ok(Some(line)) = reader.next_line().await {
                if let Ok(mut kept) = lines.lock() {
                    if kept.len() == TAIL_LINES {
                        kept.pop_front();
                    }
                    kept.push_back(line);
                }
            }
        });
    }

    /// The kept lines, joined.
    pub(crate) fn text(&self) -> String {
        match self.lines.lock() {
            Ok(kept) => kept
                .iter()
                .map(String::as_str)
                .collect::<Vec<_>>()
                .join("\n"),
            Err(_) => String::new(),
        }
    }
}
