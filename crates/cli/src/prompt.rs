//! Where the task of `agenthub run` comes from (contract §12 "Limits"), first
//! that applies: TEXT or `--prompt` (`-` reads stdin), the script's own
//! `prompt`, stdin when it is not a terminal, the model's neutral default
//! (a script names itself). A prompt that is empty is a usage error, never a
//! run with nothing to do.
//!
//! It must never wait on a terminal: stdin is read only when asked with `-`
//! or when something is piped in.

use crate::error::CliError;
use agenthub::ChosenModel;
use std::io::{IsTerminal, Read};

/// The prompt for a run of `model`, given TEXT or `--prompt` as `given`.
pub fn resolve(given: Option<&str>, model: &ChosenModel) -> Result<String, CliError> {
    match given {
        Some("-") => non_empty(read_stdin()?, "the prompt read from stdin is empty"),
        Some(text) => non_empty(text.to_owned(), "the prompt is empty"),
        None => implicit(model),
    }
}

/// No TEXT and no `--prompt`: the script's own, else what is piped in,
/// else the model's default.
fn implicit(model: &ChosenModel) -> Result<String, CliError> {
    if let Some(prompt) = &model.script_prompt {
        return Ok(prompt.clone());
    }
    let piped = if std::io::stdin().is_terminal() {
        String::new()
    } else {
        read_stdin()?
    };
    let prompt = Some(piped)
        .filter(|text| !text.trim().is_empty())
        .or_else(|| model.default_prompt.clone());
    prompt.ok_or_else(|| {
        CliError::Usage(
            "no prompt: pass the task as TEXT, with --prompt, or on stdin (`-`)".to_owned(),
        )
    })
}

/// How long `agenthub` alone waits for a piped task to end before it shows
/// the usage instead: a pipe nobody writes to or closes (a parent process
/// that left stdin open) must not hang it.
const PIPED_TASK_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// For `agenthub` alone without a terminal: whether stdin holds a prompt,
/// read whole within [`PIPED_TASK_WAIT`]. What was read is kept and is the
/// prompt [`resolve`] reads next.
pub fn stdin_has_text() -> Result<bool, CliError> {
    if std::io::stdin().is_terminal() {
        return Ok(false);
    }
    let (sender, receiver) = std::sync::mpsc::channel();
    // The reader is left behind if stdin never ends: the process exits.
    std::thread::spawn(move || {
        let _ = sender.send(read_stdin());
    });
    let Ok(text) = receiver.recv_timeout(PIPED_TASK_WAIT) else {
        return Ok(false);
    };
    let text = text?;
    let has_text = !text.trim().is_empty();
    let _ = PIPED.set(text);
    Ok(has_text)
}

/// stdin, once read by [`stdin_has_text`].
static PIPED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// All of stdin, without trailing whitespace (read once per process).
fn read_stdin() -> Result<String, CliError> {
    if let Some(text) = PIPED.get() {
        return Ok(text.clone());
    }
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|error| CliError::Usage(format!("cannot read the prompt from stdin: {error}")))?;
    text.truncate(text.trim_end().len());
    Ok(text)
}

fn non_empty(prompt: String, problem: &str) -> Result<String, CliError> {
    if prompt.trim().is_empty() {
        Err(CliError::Usage(problem.to_owned()))
    } else {
        Ok(prompt)
    }
}
