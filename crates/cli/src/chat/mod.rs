//! The interactive session (contract §13): `agenthub` on a terminal, or
//! `agenthub chat`. A prompt with line editing, the answer streaming inline,
//! tool calls shown live (the model's task list as a checklist), approvals
//! answered by one key, slash commands.
//!
//! This module is a front end only: the conversation is the library's
//! `Session`, every tool call still walks the one pipeline, and nothing
//! here decides a permission (a session grant only answers an ask). It must
//! never hold session logic; switching model, mode or session rebuilds the
//! agent from the library's `Assembly` and hands it the history.

mod attach;
mod banner;
mod checklist;
mod commands;
mod custom;
mod editor;
mod markdown;
mod rewind;
mod session_loop;
mod slash;
mod style;
mod subagent_lines;
mod view;

pub(crate) use style::Palette;

use crate::args::RunArgs;
use crate::error::CliError;

/// Runs the interactive session until the person ends it.
pub async fn run(args: RunArgs) -> Result<u8, CliError> {
    session_loop::Chat::start(args)?.run().await
}
