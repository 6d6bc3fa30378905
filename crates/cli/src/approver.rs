//! Asking a person: the terminal approver answers an `ask` by showing the
//! tool, the exact command or paths it declares (and, for a tool that
//! previews a file change, a short unified diff or the refusal the tool would
//! give) on stderr and reading `y`/`n` from stdin. It is used only when stdin AND
//! stderr are terminals; otherwise [`NoTerminalApprover`] denies every ask
//! with reason `approval required`.
//!
//! It must never approve without an explicit yes: an empty line, end of
//! input, a read error or any other answer is a deny. It only allows once;
//! nothing is remembered.

use agenthub_policy::{Approval, Approver, Decision, NoTerminalApprover};
use agenthub_tools::{FileChange, PreparedCall, ToolCapabilities, ToolDefinition, Workspace};
use futures::future::BoxFuture;
use serde_json::Value;
use similar::TextDiff;
use std::io::{BufRead, IsTerminal, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// At most this many diff lines are shown; the rest is summarised.
const MAX_DIFF_LINES: usize = 40;

/// The approver for this process: a terminal one if a person can answer.
pub fn approver_for(workspace: &Workspace) -> Arc<dyn Approver> {
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        Arc::new(TerminalApprover::new(workspace.clone()))
    } else {
        Arc::new(NoTerminalApprover)
    }
}

/// Asks on stderr, reads the answer from stdin; one question at a time.
pub struct TerminalApprover {
    workspace: Workspace,
    asking: Arc<Mutex<()>>,
}

impl TerminalApprover {
    pub fn new(workspace: Workspace) -> Self {
        TerminalApprover {
            workspace,
            asking: Arc::new(Mutex::new(())),
        }
    }
}

impl Approver for TerminalApprover {
    fn approve<'a>(
        &'a self,
        call: &'a PreparedCall,
        decision: &'a Decision,
    ) -> BoxFuture<'a, Approval> {
        let question = question(call.definition(), call.input(), decision, &self.workspace);
        let asking = self.asking.clone();
        Box::pin(async move {
            let stop = StopOnDrop::default();
            let stdin = StdinUntilStopped(stop.0.clone());
            let answered = tokio::task::spawn_blocking(move || {
                let _one_at_a_time = asking.lock();
                // One byte per read: the answer's line is taken, never the next one.
                let mut input = std::io::BufReader::with_capacity(1, stdin);
                ask(&question, &mut input, &mut crate::terminal::stderr())
            })
            .await;
            answered.unwrap_or_else(|error| {
                refused(&format!("the question could not be asked: {error}"))
            })
        })
    }

    fn waits_for_a_person(&self) -> bool {
        true
    }
}

/// Set when the approval future is dropped (the run was cancelled, e.g. by
/// Ctrl-C at the prompt): the reading thread then stops at once.
#[derive(Default)]
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

/// Standard input, read only when it has bytes, until the flag is set.
struct StdinUntilStopped(Arc<AtomicBool>);

/// How often the reading thread looks at the stop flag.
const STOP_POLL_MS: libc::c_int = 50;

impl Read for StdinUntilStopped {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        loop {
            if self.0.load(Ordering::SeqCst) {
                return Err(std::io::Error::other("the run was cancelled"));
            }
            let mut poll = libc::pollfd {
                fd: libc::STDIN_FILENO,
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: one valid pollfd, for the duration of the call.
            if unsafe { libc::poll(&mut poll, 1, STOP_POLL_MS) } > 0 {
                // SAFETY: `buffer` is valid for `buffer.len()` bytes.
                let read = unsafe {
                    libc::read(libc::STDIN_FILENO, buffer.as_mut_ptr().cast(), buffer.len())
                };
                return usize::try_from(read).map_err(|_| std::io::Error::last_os_error());
            }
        }
    }
}

/// Writes the question, reads one line, and turns it into an approval.
pub fn ask(question: &str, input: &mut impl BufRead, output: &mut impl Write) -> Approval {
    if write!(output, "{question}Allow once? [y/N] ")
        .and_then(|()| output.flush())
        .is_err()
    {
        return refused("the question could not be shown");
    }
    let mut line = String::new();
    match input.read_line(&mut line) {
        Ok(0) => refused("no answer (end of input)"),
        Ok(_) => answer(&line),
        Err(error) => refused(&format!("the answer could not be read: {error}")),
    }
}

/// `y` or `yes` (any case) allows once; everything else denies.
pub fn answer(line: &str) -> Approval {
    match line.trim().to_lowercase().as_str() {
        "y" | "yes" => Approval::by_user(),
        _ => refused("denied by the user"),
    }
}

fn refused(reason: &str) -> Approval {
    Approval::Deny {
        reason: reason.to_owned(),
    }
}

/// What the person is shown: the verdict, the tool, then what the tool
/// declares — its shell command, its paths — and the change its preview
/// computes (or the refusal the tool would give); a tool that declares
/// nothing shows its input. A command of several lines shows each one
/// marked, and the text ends with its line count, so that the count stands
/// next to the question that follows (SPEC §26).
pub fn question(
    tool: &ToolDefinition,
    input: &Value,
    decision: &Decision,
    workspace: &Workspace,
) -> String {
    let mut text = format!(
        "\n[Permission] {} needs approval ({}): {}\n",
        tool.name(),
        decision.source,
        decision.reason
    );
    text.push_str(&declared(tool.capabilities(), input, workspace));
    match tool.preview(input, workspace) {
        Some(Ok(change)) => text.push_str(&diff(&change, workspace)),
        Some(Err(refusal)) => text.push_str(&format!(
            "  {} would refuse this call: {refusal}\n",
            tool.name()
        )),
        None => {}
    }
    if let Some(Ok(command)) = tool.capabilities().command(input) {
        text.push_str(&crate::shown_lines::count_note("the command", command));
    }
    text
}

/// The shell command and paths a tool declares, one line each; the whole
/// input for a tool that declares nothing.
fn declared(capabilities: &ToolCapabilities, input: &Value, workspace: &Workspace) -> String {
    if *capabilities == ToolCapabilities::none() {
        return format!("  input: {input}\n");
    }
    let mut lines = String::new();
    if let Some(command) = capabilities.command(input) {
        let command = command.unwrap_or_default();
        lines.push_str(&crate::shown_lines::labelled("  ", "command: ", command));
        if crate::terminal::neutralise(command) != command {
            lines.push_str("  (the command holds control characters, shown escaped as \\xNN)\n");
        }
        if capabilities.runs_unsandboxed(input) {
            lines.push_str(
                "  sandbox: OFF (dangerouslyDisableSandbox): the command runs unsandboxed\n",
            );
        }
    }
    for (field, _) in capabilities.path_fields() {
        if let Ok(path) = field.value(input) {
            let shown = workspace.resolve(path).display().to_string();
            lines.push_str(&crate::shown_lines::labelled("  ", "path: ", &shown));
        }
    }
    lines
}

/// The unified diff of a previewed change, shortened. Its header names the
/// file relative to the workspace root when it is inside it.
pub fn diff(change: &FileChange, workspace: &Workspace) -> String {
    let shown = change
        .path
        .strip_prefix(workspace.root())
        .unwrap_or(&change.path)
        .display()
        .to_string();
    let before = change.before.as_deref().unwrap_or_default();
    shorten(
        &TextDiff::from_lines(before, &change.after)
            .unified_diff()
            .context_radius(2)
            .header(&shown, &shown)
            .to_string(),
    )
}

fn shorten(diff: &str) -> String {
    let lines: Vec<&str> = diff.lines().collect();
    let mut shown: String = lines
        .iter()
        .take(MAX_DIFF_LINES)
        .map(|line| format!("  {line}\n"))
        .collect();
    if lines.len() > MAX_DIFF_LINES {
        shown.push_str(&format!(
            "  ... {} more diff lines\n",
            lines.len() - MAX_DIFF_LINES
        ));
    }
    shown
}

#[cfg(test)]
#[path = "approver_tests.rs"]
mod tests;
