//! Asking a person: which approver a process gets, and the question it
//! shows — the tool, the exact command or paths it declares (and, for a tool
//! that previews a file change, a short unified diff or the refusal the tool
//! would give). The one-key approver (`key_approver.rs`) asks it on a
//! terminal; without one, [`NoTerminalApprover`] denies every ask with reason
//! `approval required`.

use agenthub::{Approver, Decision, NoTerminalApprover};
use agenthub::{FileChange, ToolCapabilities, ToolDefinition, Workspace};
use serde_json::Value;
use similar::TextDiff;
use std::io::IsTerminal;
use std::sync::Arc;

/// At most this many diff lines are shown; the rest is summarised.
const MAX_DIFF_LINES: usize = 40;

/// The approver for this process: the one-key terminal approver if a person
/// can answer (stdin and stderr are terminals), else every ask is a deny.
pub fn approver_for(workspace: &Workspace) -> Arc<dyn Approver> {
    if std::io::stdin().is_terminal() && std::io::stderr().is_terminal() {
        Arc::new(crate::key_approver::KeyApprover::for_run(workspace.clone()))
    } else {
        Arc::new(NoTerminalApprover)
    }
}

/// What the person is shown: the verdict, the tool, then what the tool
/// declares — its shell command, its paths — and the change its preview
/// computes (or the refusal the tool would give); a tool that declares
/// nothing shows its input. A command of several lines shows each one
/// marked, and the text ends with its line count, so that the count stands
/// next to the question that follows (contract §26).
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
