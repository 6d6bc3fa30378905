//! What the person sees of a turn, inline (the scrollback keeps it): the
//! answer as it streams, one line per tool call that shows the tool, its key
//! argument and a live elapsed time while it runs, then its outcome (a
//! TodoWrite call's: its task list as a checklist); hook and permission
//! lines dimmed.
//!
//! The view is an observer: it only draws what the loop tells it and never
//! changes the run. Every text that came from a model, a tool or a hook is
//! escaped before it is drawn. On a terminal that cannot move the cursor
//! (`TERM=dumb`, not a terminal) nothing is redrawn: a tool gets a start line
//! and an outcome line.

use super::checklist::checklist;
use super::markdown::MarkdownStream;
use super::style::Palette;
use super::subagent_lines::SubagentLines;
use crate::terminal::neutralise;
use agenthub::crates::tools::builtin::{Todo, TodoWrite};
use agenthub::{console, AgentEvent, Observer, ObserverError};
use agenthub::{
    ErrorCode, Message, OutcomeRecord, PermissionEffect, PermissionSource, RunStatus, ToolCall,
};
use agenthub::{ToolDefinition, ToolRegistry};
use serde_json::Value;
use std::collections::HashMap;
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest key argument shown on a tool line.
const MAX_ARGUMENT: usize = 72;

/// How the screen is drawn.
#[derive(Debug, Clone, Copy)]
pub struct Screen {
    /// Colours.
    pub palette: Palette,
    /// Whether a line may be redrawn in place (a live elapsed time).
    pub live: bool,
}

/// The interactive view of a session's turns.
pub struct ChatView<W: Write + Send> {
    screen: Screen,
    tools: HashMap<String, Arc<ToolDefinition>>,
    state: Mutex<ViewState<W>>,
}

struct ViewState<W> {
    out: W,
    answer: MarkdownStream,
    /// Whether the current model turn streamed text (then its message is not printed again).
    streamed: bool,
    /// Tool calls of the last assistant message, by id: their label.
    labels: HashMap<String, String>,
    /// The task lists its TodoWrite calls set, by id: drawn as a checklist
    /// once the call succeeded.
    todos: HashMap<String, Vec<Todo>>,
    /// The call whose line is open, waiting for its result.
    running: Option<Running>,
    /// Calls told ended whose tool message is not written yet: their failure
    /// code, as the loop made it.
    ended: HashMap<String, Option<ErrorCode>>,
    /// The running subagents' live lines, kept at the bottom.
    subagents: SubagentLines,
}

struct Running {
    id: String,
    label: String,
    started: Instant,
}

impl<W: Write + Send> ChatView<W> {
    /// A view drawing on `out`; `tools` names each call's key argument.
    pub fn new(out: W, screen: Screen, tools: &ToolRegistry) -> Self {
        let tools = tools
            .specs()
            .into_iter()
            .filter_map(|spec| Some((spec.name.clone(), tools.get(&spec.name)?.clone())))
            .collect();
        ChatView {
            screen,
            tools,
            state: Mutex::new(ViewState {
                out,
                answer: MarkdownStream::default(),
                streamed: false,
                labels: HashMap::new(),
                todos: HashMap::new(),
                running: None,
                ended: HashMap::new(),
                subagents: SubagentLines::default(),
            }),
        }
    }

    /// Redraws the running tool's elapsed time (called a few times a second).
    pub fn tick(&self) {
        if !self.screen.live {
            return;
        }
        if let Ok(mut state) = self.state.lock() {
            if !state.subagents.is_empty() {
                let state = &mut *state;
                let erased = state.subagents.erase();
                let drawn = state.subagents.draw(self.screen.palette);
                let _ = write!(state.out, "{erased}{drawn}");
                let _ = state.out.flush();
                return;
            }
            if let Some(running) = &state.running {
                let line = self.running_line(running);
                let _ = write!(state.out, "\r\x1b[2K{line}");
                let _ = state.out.flush();
            }
        }
    }

    /// Writes a line of the session's own (help, a command's answer, an
    /// error), after closing whatever line is open. `text` is not escaped:
    /// callers escape what did not come from AgentHub itself.
    pub fn say(&self, text: &str) {
        if let Ok(mut state) = self.state.lock() {
            let state = &mut *state;
            self.close_open_line(state);
            let _ = writeln!(state.out, "{text}");
            let _ = state.out.flush();
        }
    }

    /// Ends whatever is open on the screen (a streamed answer cut short).
    pub fn settle(&self) {
        if let Ok(mut state) = self.state.lock() {
            let state = &mut *state;
            self.close_open_line(state);
            let _ = state.out.flush();
        }
    }

    fn close_open_line(&self, state: &mut ViewState<W>) {
        let end = state.answer.finish(self.screen.palette);
        let _ = write!(state.out, "{end}");
        if let Some(running) = state.running.take() {
            let line = self.running_line(&running);
            if self.screen.live {
                let _ = writeln!(state.out, "\r\x1b[2K{line}");
            }
        }
    }

    fn running_line(&self, running: &Running) -> String {
        let palette = self.screen.palette;
        format!(
            "{} {} {}",
            palette.bold("⏺"),
            running.label,
            palette.dim(&seconds(running.started.elapsed()))
        )
    }

    fn label(&self, call: &ToolCall) -> String {
        let input: Value = serde_json::from_str(&call.function.arguments).unwrap_or(Value::Null);
        let name = neutralise(&call.function.name);
        match key_argument(&self.tools, &call.function.name, &input) {
            Some(argument) => format!(
                "{}({})",
                self.screen.palette.bold(&name),
                neutralise(&shorten(&argument))
            ),
            None => self.screen.palette.bold(&name),
        }
    }

    fn on_message(&self, state: &mut ViewState<W>, message: &Message) {
        match message {
            Message::Assistant { content, .. } => {
                if !state.streamed {
                    if let Some(text) = content.as_deref().filter(|text| !text.is_empty()) {
                        let drawn = state.answer.push(text, self.screen.palette);
                        let _ = write!(state.out, "{drawn}");
                    }
                }
                let end = state.answer.finish(self.screen.palette);
                let _ = write!(state.out, "{end}");
                state.streamed = false;
                state.labels = message
                    .tool_calls()
                    .iter()
                    .map(|call| (call.id.clone(), self.label(call)))
                    .collect();
                state.todos = message
                    .tool_calls()
                    .iter()
                    .filter_map(|call| Some((call.id.clone(), TodoWrite::todos_of(call)?)))
                    .collect();
            }
            Message::Tool {
                tool_call_id,
                content,
                is_error,
            } => self.finish_call(state, tool_call_id, content, *is_error),
            _ => {}
        }
    }

    fn start_call(&self, state: &mut ViewState<W>, id: &str) {
        self.close_open_line(state);
        let label = state.labels.get(id).cloned().unwrap_or_default();
        let running = Running {
            id: id.to_owned(),
            label,
            started: Instant::now(),
        };
        let line = self.running_line(&running);
        if self.screen.live {
            let _ = write!(state.out, "{line}");
        } else {
            let _ = writeln!(state.out, "{line}");
        }
        state.running = Some(running);
    }

    fn finish_call(&self, state: &mut ViewState<W>, id: &str, content: &str, is_error: bool) {
        let palette = self.screen.palette;
        let (label, elapsed) = match state.running.take() {
            Some(running) if running.id == id => (running.label, Some(running.started.elapsed())),
            other => {
                state.running = other;
                self.close_open_line(state);
                (state.labels.get(id).cloned().unwrap_or_default(), None)
            }
        };
        let code = state.ended.remove(id).flatten();
        if let Some(todos) = state.todos.remove(id).filter(|_| !is_error) {
            if self.screen.live {
                let _ = writeln!(state.out, "\r\x1b[2K{} {label}", palette.bold("⏺"));
            }
            let _ = write!(state.out, "{}", checklist(&todos, palette));
            return;
        }
        let outcome = outcome(content, is_error, code);
        let painted = if outcome == "ok" {
            palette.ok(outcome)
        } else {
            palette.bad(&neutralise(outcome))
        };
        let time = elapsed.map(|elapsed| format!(" {}", palette.dim(&seconds(elapsed))));
        let time = time.unwrap_or_default();
        if self.screen.live {
            let _ = writeln!(
                state.out,
                "\r\x1b[2K{} {label} {painted}{time}",
                palette.bold("⏺")
            );
        } else {
            let _ = writeln!(state.out, "  ⎿ {painted}{time}");
        }
    }

    fn side_line(&self, state: &mut ViewState<W>, text: &str) {
        self.close_open_line(state);
        let _ = writeln!(state.out, "{}", self.screen.palette.dim(&neutralise(text)));
    }

    fn on_outcome(&self, state: &mut ViewState<W>, outcome: &OutcomeRecord) {
        let palette = self.screen.palette;
        match outcome.status {
            RunStatus::Completed => {}
            RunStatus::Cancelled => {
                self.close_open_line(state);
                let _ = writeln!(state.out, "{}", palette.bad("turn cancelled"));
            }
            status => {
                self.close_open_line(state);
                let reason = outcome.error.as_deref().unwrap_or_default();
                let _ = writeln!(
                    state.out,
                    "{}",
                    palette.bad(&format!(
                        "turn ended: {} {}",
                        status.as_str(),
                        neutralise(reason)
                    ))
                );
            }
        }
    }
}

impl<W: Write + Send> Observer for ChatView<W> {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        let Ok(mut guard) = self.state.lock() else {
            return Ok(());
        };
        let state = &mut *guard;
        if self.screen.live {
            let erased = state.subagents.erase();
            let _ = write!(state.out, "{erased}");
        }
        match event {
            AgentEvent::SubagentStarted(info) => {
                self.close_open_line(state);
                let line = state.subagents.start(info);
                if !self.screen.live {
                    let _ = write!(state.out, "{line}");
                }
            }
            AgentEvent::Subagent(info, inner) => self.on_subagent(state, &info.agent_id, inner),
            AgentEvent::TextDelta(text) => {
                self.close_running(state);
                state.streamed = true;
                let drawn = state.answer.push(text, self.screen.palette);
                let _ = write!(state.out, "{drawn}");
            }
            AgentEvent::Message(message) => self.on_message(state, message),
            AgentEvent::ToolCallEnded(call, _, code) => {
                state.ended.insert(call.id.clone(), *code);
            }
            AgentEvent::Permission(record) => {
                // An ask is shown by the approval question itself.
                if record.effect == PermissionEffect::Deny
                    || (record.effect == PermissionEffect::Allow
                        && record.source != PermissionSource::Default)
                {
                    self.side_line(state, &console::permission_line(record));
                }
                if record.effect == PermissionEffect::Allow {
                    self.start_call(state, &record.tool_use_id);
                }
            }
            AgentEvent::Hook(record) => self.side_line(state, &console::hook_line(record)),
            AgentEvent::Warning(text) => self.side_line(state, &format!("[Warning] {text}")),
            AgentEvent::Failure(code, text) => {
                self.side_line(state, &console::failure_line(*code, text))
            }
            AgentEvent::Compaction(record) => {
                self.side_line(state, &console::compaction_line(record))
            }
            AgentEvent::Outcome(outcome) => self.on_outcome(state, outcome),
            _ => {}
        }
        if self.screen.live && !state.subagents.is_empty() {
            self.close_open_line(state);
            let drawn = state.subagents.draw(self.screen.palette);
            let _ = write!(state.out, "{drawn}");
        }
        let _ = state.out.flush();
        Ok(())
    }
}

impl<W: Write + Send> ChatView<W> {
    /// A subagent's event: the tool it runs now, or how it ended.
    fn on_subagent(&self, state: &mut ViewState<W>, agent_id: &str, event: &AgentEvent<'_>) {
        match event {
            AgentEvent::Permission(record) if record.effect == PermissionEffect::Allow => {
                state.subagents.tool(agent_id, &record.tool);
            }
            AgentEvent::Outcome(outcome) => {
                self.close_open_line(state);
                let line =
                    state
                        .subagents
                        .end(agent_id, outcome.status.as_str(), self.screen.palette);
                let _ = write!(state.out, "{line}");
            }
            _ => {}
        }
    }
}

impl<W: Write + Send> ChatView<W> {
    fn close_running(&self, state: &mut ViewState<W>) {
        if state.running.is_some() {
            self.close_open_line(state);
        }
    }
}

/// What a tool message says about its call: `ok`, or for a failed call a
/// word for its error `code` (as told when the call ended) or its first line.
fn outcome(content: &str, is_error: bool, code: Option<ErrorCode>) -> &str {
    if !is_error {
        return "ok";
    }
    match code {
        Some(ErrorCode::PermissionDenied) => "denied",
        Some(ErrorCode::HookBlocked) => "blocked",
        Some(ErrorCode::Cancelled) => "cancelled",
        _ => content.lines().next().unwrap_or(content),
    }
}

/// The argument that tells calls of a tool apart: its shell command or first
/// declared path, else its first string field.
pub fn key_argument(
    tools: &HashMap<String, Arc<ToolDefinition>>,
    name: &str,
    input: &Value,
) -> Option<String> {
    if let Some(definition) = tools.get(name) {
        let capabilities = definition.capabilities();
        if let Some(Ok(command)) = capabilities.command(input) {
            return Some(command.to_owned());
        }
        if let Some((field, _)) = capabilities.path_fields().next() {
            if let Ok(path) = field.value(input) {
                return Some(path.to_owned());
            }
        }
    }
    input
        .as_object()?
        .values()
        .find_map(|value| value.as_str().map(str::to_owned))
}

fn shorten(text: &str) -> String {
    let first = text.lines().next().unwrap_or_default();
    if first.chars().count() > MAX_ARGUMENT || first.len() < text.len() {
        let cut: String = first.chars().take(MAX_ARGUMENT).collect();
        format!("{cut}…")
    } else {
        first.to_owned()
    }
}

pub(super) fn seconds(elapsed: Duration) -> String {
    format!("{:.1}s", elapsed.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_call_is_named_by_the_code_told_with_its_end() {
        let text = "Error [hook_blocked]: the tool was not run: no";
        assert_eq!(outcome(text, true, Some(ErrorCode::HookBlocked)), "blocked");
    }

    #[test]
    fn a_failed_call_told_without_a_word_for_its_code_shows_its_first_line() {
        let text = "Error [permission_denied]: quoted\nmore";
        assert_eq!(
            outcome(text, true, Some(ErrorCode::ToolError)),
            "Error [permission_denied]: quoted"
        );
    }
}
