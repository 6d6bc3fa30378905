//! The live lines of running subagents (contract §17): one line each — its type,
//! its description, the tool it runs now and its elapsed time — kept at the
//! bottom of the view while they run, then one line with how each ended.
//! On a terminal that cannot move the cursor, a start and an end line only.

use super::style::Palette;
use super::view::seconds;
use crate::terminal::neutralise;
use agenthub::SubagentInfo;
use std::time::Instant;

/// The running subagents and how many of their lines are on the screen.
#[derive(Default)]
pub(super) struct SubagentLines {
    running: Vec<Line>,
    drawn: usize,
}

struct Line {
    agent_id: String,
    title: String,
    tool: Option<String>,
    started: Instant,
}

impl SubagentLines {
    /// Whether any subagent runs.
    pub(super) fn is_empty(&self) -> bool {
        self.running.is_empty()
    }

    pub(super) fn start(&mut self, info: &SubagentInfo) -> String {
        let line = Line {
            agent_id: info.agent_id.clone(),
            title: format!(
                "[{}] {}",
                neutralise(&info.agent_type),
                neutralise(&info.description)
            ),
            tool: None,
            started: Instant::now(),
        };
        let text = format!("  ↳ {} started\n", line.title);
        self.running.push(line);
        text
    }

    /// The subagent `agent_id` runs `tool` now.
    pub(super) fn tool(&mut self, agent_id: &str, tool: &str) {
        if let Some(line) = self.running.iter_mut().find(|l| l.agent_id == agent_id) {
            line.tool = Some(neutralise(tool).into_owned());
        }
    }

    /// The subagent `agent_id` ended with `status`: its last line.
    pub(super) fn end(&mut self, agent_id: &str, status: &str, palette: Palette) -> String {
        let Some(index) = self.running.iter().position(|l| l.agent_id == agent_id) else {
            return String::new();
        };
        let line = self.running.remove(index);
        let status = if status == "completed" {
            palette.ok(status)
        } else {
            palette.bad(status)
        };
        format!(
            "  ↳ {} {status} {}\n",
            line.title,
            palette.dim(&seconds(line.started.elapsed()))
        )
    }

    /// Removes the drawn lines (the cursor is just below them).
    pub(super) fn erase(&mut self) -> String {
        let drawn = std::mem::take(&mut self.drawn);
        if drawn == 0 {
            String::new()
        } else {
            format!("\x1b[{drawn}F\x1b[J")
        }
    }

    /// Draws one line per running subagent, the cursor left below them.
    pub(super) fn draw(&mut self, palette: Palette) -> String {
        self.drawn = self.running.len();
        self.running
            .iter()
            .map(|line| {
                let tool = line.tool.as_deref().unwrap_or("thinking");
                format!(
                    "  {} {} · {tool} {}\n",
                    palette.bold("↳"),
                    line.title,
                    palette.dim(&seconds(line.started.elapsed()))
                )
            })
            .collect()
    }
}
