//! `Bash {command, timeout?, description?}`: runs `bash -c <command>` in the
//! workspace root and reports its exit code, stdout and stderr.
//!
//! A non-zero exit is a failure, as in Claude Code (contract §16):
//! `Exit code N` then the output, so PostToolUseFailure hooks see it; so are a
//! timeout, a cancellation and a failure to start. The command
//! never outlives the call: see [`super::process_group`].
//!
//! The command runs in the workspace's OS sandbox ([`crate::Workspace::sandbox`],
//! built by `agenthub-sandbox`); where no sandbox works it does not run at
//! all. A protected path whose write the sandbox refused, or that the
//! command created and the sandbox removed, is named after the output,
//! whatever the exit code (contract §29). `dangerouslyDisableSandbox: true` runs it unsandboxed, and the tool
//! declares that flag so the permission policy always asks for it.

use super::process_group::{run_in_group, Captured, GroupEnd, GroupOutput, Limits};
use crate::{Tool, ToolCapabilities, ToolContext, ToolEffect, ToolError, ToolOutput};
use agenthub_sandbox::{
    denial_note, protected_note, removal_note, sandboxed_command, SandboxMode, SandboxedCommand,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;
use std::ffi::OsStr;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
use std::time::Duration;

/// The timeout when none is given, in milliseconds (two minutes).
pub const DEFAULT_TIMEOUT_MS: u64 = 120_000;
/// The longest timeout a call may ask for, in milliseconds (ten minutes).
pub const MAX_TIMEOUT_MS: u64 = 600_000;

/// Bash's input: the command line and how long it may run.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(description = "")]
pub struct BashInput {
    /// The command line.
    pub command: String,
    /// Milliseconds; default 120000.
    #[schemars(range(min = 1, max = 600_000))]
    pub timeout: Option<u64>,
    /// What it does, in 5-10 words.
    pub description: Option<String>,
    /// Run outside the sandbox (the user is asked); only after `sandbox: ... denied`.
    /// Not shown to the model: the sandbox's denial note names it when it applies.
    #[serde(rename = "dangerouslyDisableSandbox")]
    #[schemars(extend("x-model-hidden" = true))]
    pub dangerously_disable_sandbox: Option<bool>,
}

/// Runs a shell command in the workspace root (declares `command` as its
/// shell command, so `Bash(…)` rules and the policy's command analysis apply).
/// The command and every process it starts die when the call ends.
pub struct Bash;

impl Tool for Bash {
    type Input = BashInput;

    fn name(&self) -> &str {
        "Bash"
    }

    fn description(&self) -> &str {
        "Runs a command with `bash -c` in the workspace root, stdin closed; returns the \
         exit code, stdout and stderr. Processes it starts die with it."
    }

    fn effect(&self) -> ToolEffect {
        ToolEffect::SideEffects
    }

    fn capabilities(&self) -> ToolCapabilities {
        ToolCapabilities::none()
            .running("command")
            .unsandboxed_when("dangerouslyDisableSandbox")
    }

    async fn call(&self, input: BashInput, context: ToolContext) -> Result<ToolOutput, ToolError> {
        let timeout_ms = input
            .timeout
            .unwrap_or(DEFAULT_TIMEOUT_MS)
            .clamp(1, MAX_TIMEOUT_MS);
        let mut policy = context.workspace.sandbox();
        if input.dangerously_disable_sandbox == Some(true) {
            policy.mode = SandboxMode::Off;
        }
        let script = with_prelude(context.workspace.process_env().prelude(), &input.command);
        let args = [OsStr::new("-c"), OsStr::new(&script)];
        let SandboxedCommand {
            command,
            mechanism,
            temp_dir,
            aftercare,
        } = sandboxed_command(&policy, "bash", &args, context.workspace.root())
            .map_err(|error| ToolError::new(error.to_string()))?;
        let mut command = command;
        command.envs(context.workspace.process_env().vars());
        let limits = Limits {
            timeout: Duration::from_millis(timeout_ms),
            cancel: context.cancel.clone(),
            spill: context.workspace.outputs_folder().map(Path::to_path_buf),
        };
        let mut output = run_in_group(command, limits)
            .await
            .map_err(|error| ToolError::new(error.to_string()))?;
        if let GroupEnd::Exited(status) = output.end {
            output.end = GroupEnd::Exited(mechanism.command_status(status));
        }
        drop(temp_dir);
        let removed = aftercare.remove_new_protected();
        let failed = matches!(output.end, GroupEnd::Exited(status) if !status.success());
        let stderr = String::from_utf8_lossy(&output.stderr.bytes);
        let stdout = String::from_utf8_lossy(&output.stdout.bytes);
        let protected: Vec<_> = aftercare
            .protected_found()
            .into_iter()
            .chain(policy.protected.iter().cloned())
            .collect();
        let refused = protected_note(
            &mechanism,
            &protected,
            &policy.writable_roots,
            &format!("{stderr}\n{stdout}"),
        );
        let denied = match refused {
            Some(_) => None,
            None => failed
                .then(|| denial_note(&policy, &mechanism, &stderr))
                .flatten(),
        };
        let notes: Vec<String> = [
            refused,
            denied,
            removal_note(&removed, &policy.writable_roots),
        ]
        .into_iter()
        .flatten()
        .collect();
        let rendered = render(&output, timeout_ms, &notes);
        match super::bash_whole::write_whole(&output, &head(&output, timeout_ms), &notes).await {
            Some(file) => rendered
                .map(|text| text.with_whole(file.clone()))
                .map_err(|error| error.with_whole(file)),
            None => rendered,
        }
    }
}

/// The command, after the `CLAUDE_ENV_FILE` text when a hook wrote one: the
/// same bash runs both, so exports and `PATH` changes apply as in Claude Code.
fn with_prelude(prelude: Option<String>, command: &str) -> String {
    match prelude {
        Some(prelude) => format!("{}\n{command}", prelude.trim_end()),
        None => command.to_owned(),
    }
}

/// `notes`: lines saying what the sandbox stopped or undid, shown after the streams.
fn render(
    output: &GroupOutput,
    timeout_ms: u64,
    notes: &[String],
) -> Result<ToolOutput, ToolError> {
    let mut streams = streams(output);
    for note in notes {
        streams.push_str(&format!("\n[{note}]"));
    }
    let text = format!("{}{streams}", head(output, timeout_ms));
    match output.end {
        GroupEnd::Exited(status) if status.success() => Ok(ToolOutput::with_structured(
            text,
            structured(output, status),
        )),
        _ => Err(ToolError::new(text)),
    }
}

/// The result's first line: the exit status, or why the command ended.
fn head(output: &GroupOutput, timeout_ms: u64) -> String {
    match output.end {
        GroupEnd::Exited(status) if !status.success() => failure_line(status),
        GroupEnd::Exited(status) => status_line(status),
        GroupEnd::TimedOut => format!(
            "the command timed out after {timeout_ms} ms; it was killed with every process it started"
        ),
        GroupEnd::Cancelled => {
            "the command was cancelled; it was killed with every process it started".to_owned()
        }
    }
}

/// Claude Code's Bash `tool_response`: `{stdout, stderr, interrupted, isImage}`,
/// plus AgentHub's `exitCode` (null when a signal killed the command). Each
/// stream is the text the model sees for it ("" when empty). A command that
/// timed out or was cancelled is a tool error, so `interrupted` is always false.
fn structured(output: &GroupOutput, status: ExitStatus) -> serde_json::Value {
    json!({
        "stdout": stream_text(&output.stdout, "stdout").unwrap_or_default(),
        "stderr": stream_text(&output.stderr, "stderr").unwrap_or_default(),
        "interrupted": false,
        "isImage": false,
        "exitCode": status.code(),
    })
}

/// `Exit code N` (Claude Code's wording) or `killed by signal N`.
fn failure_line(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("Exit code {code}"),
        (None, Some(signal)) => format!("killed by signal {signal}"),
        (None, None) => "exit status unknown".to_owned(),
    }
}

fn status_line(status: ExitStatus) -> String {
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("[exit code: {code}]"),
        (None, Some(signal)) => format!("[killed by signal {signal}]"),
        (None, None) => "[exit status unknown]".to_owned(),
    }
}

/// Stdout, then stderr under a `[stderr]` line; each starts on a new line and
/// loses one trailing newline. Empty streams are left out.
fn streams(output: &GroupOutput) -> String {
    let mut text = String::new();
    if let Some(stdout) = stream_text(&output.stdout, "stdout") {
        text.push('\n');
        text.push_str(&stdout);
    }
    if let Some(stderr) = stream_text(&output.stderr, "stderr") {
        text.push_str("\n[stderr]\n");
        text.push_str(&stderr);
    }
    text
}

fn stream_text(captured: &Captured, name: &str) -> Option<String> {
    if captured.bytes.is_empty() {
        return None;
    }
    let text = String::from_utf8_lossy(&captured.bytes);
    let mut text = text.strip_suffix('\n').unwrap_or(&text).to_owned();
    if captured.dropped > 0 {
        text.push_str(&format!(
            "\n[{name}: {} more bytes not kept]",
            captured.dropped
        ));
    }
    Some(text)
}

#[cfg(test)]
#[path = "bash_tests.rs"]
mod tests;
