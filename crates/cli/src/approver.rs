//! Asking a person: the terminal approver answers an `ask` by showing the
//! tool, the exact command or path (and for Write/Edit a short unified diff)
//! on stderr and reading `y`/`n` from stdin. It is used only when stdin AND
//! stderr are terminals; otherwise [`NoTerminalApprover`] denies every ask
//! with reason `approval required`.
//!
//! It must never approve without an explicit yes: an empty line, end of
//! input, a read error or any other answer is a deny. It only allows once;
//! nothing is remembered.

use agenthub_policy::{Approval, Approver, Decision, NoTerminalApprover};
use agenthub_tools::{PreparedCall, Workspace};
use futures::future::BoxFuture;
use serde_json::Value;
use similar::TextDiff;
use std::io::{BufRead, IsTerminal, Write};
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
        let question = question(call.name(), call.input(), decision, &self.workspace);
        let asking = self.asking.clone();
        Box::pin(async move {
            let answered = tokio::task::spawn_blocking(move || {
                let _one_at_a_time = asking.lock();
                let mut input = std::io::stdin().lock();
                ask(&question, &mut input, &mut std::io::stderr())
            })
            .await;
            answered.unwrap_or_else(|error| {
                refused(&format!("the question could not be asked: {error}"))
            })
        })
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

/// What the person is shown: the verdict, the tool, the command or path, a diff.
pub fn question(tool: &str, input: &Value, decision: &Decision, workspace: &Workspace) -> String {
    let mut text = format!(
        "\n[Permission] {tool} needs approval ({}): {}\n",
        decision.source, decision.reason
    );
    let field = |name: &str| input.get(name).and_then(Value::as_str);
    match tool {
        "Bash" => text.push_str(&format!(
            "  command: {}\n",
            field("command").unwrap_or_default()
        )),
        "Write" | "Edit" | "Read" => {
            let path = field("file_path").unwrap_or_default();
            text.push_str(&format!("  path: {}\n", workspace.resolve(path).display()));
            if let Some(diff) = edit_diff(tool, input, workspace) {
                text.push_str(&diff);
            }
        }
        _ => text.push_str(&format!("  input: {input}\n")),
    }
    text
}

/// The unified diff a Write or Edit would make, shortened.
pub fn edit_diff(tool: &str, input: &Value, workspace: &Workspace) -> Option<String> {
    let field = |name: &str| input.get(name).and_then(Value::as_str);
    let path = field("file_path")?;
    let old = workspace
        .read_bytes(path)
        .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
        .unwrap_or_default();
    let new = match tool {
        "Write" => field("content")?.to_owned(),
        "Edit" => {
            let (from, to) = (field("old_string")?, field("new_string")?);
            if input.get("replace_all").and_then(Value::as_bool) == Some(true) {
                old.replace(from, to)
            } else {
                old.replacen(from, to, 1)
            }
        }
        _ => return None,
    };
    Some(shorten(
        &TextDiff::from_lines(&old, &new)
            .unified_diff()
            .context_radius(2)
            .header(path, path)
            .to_string(),
    ))
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
