//! The built-in tools, with Claude Code's names and input shapes (contract §5), so
//! that hook scripts and permission rules written for Claude Code apply unchanged.
//!
//! Every path argument is checked with [`crate::Workspace::check_inside`] and
//! every file is opened through the `Workspace` (no-follow, from the root
//! down), never with a plain `std::fs`/`tokio::fs` open of the argument: so a
//! tool called directly, bypassing the permission policy, still cannot leave
//! the workspace, even through a path swapped for a symlink after the check.
//! Searches (Glob, Grep) also skip files the read guard refuses. The tools
//! never decide whether they may run (permission does that before a handler is
//! called) and never cut their own output (core applies the output cap).
//!
//! Each tool declares its capabilities (Read reads `file_path`; Write and
//! Edit write it; Glob and Grep read `path`, default `.`; Bash runs
//! `command`; WebFetch fetches `url`; Echo declares nothing; Read's `offset`
//! is the line it reads from), Glob and Grep declare that they search (every
//! other built-in's kind is the one its capabilities imply, WebFetch's
//! `fetch`), and Write and Edit preview their change with the logic their
//! handler uses: outside this crate nothing matches on a tool's name to learn
//! what it touches.
//!
//! Besides the text the model sees, each tool returns a structured value that
//! command hooks receive as PostToolUse `tool_response`, shaped like Claude
//! Code's, so hook scripts reading `.tool_response.stdout` or
//! `.tool_response.filePath` work unchanged. The shapes follow what public
//! sources show Claude Code sending: Bash `{stdout, stderr, interrupted,
//! isImage}` (anthropics/claude-code#44601 reads `.tool_response.stderr`;
//! PrimeIntellect-ai/verifiers#2392 checks `stdout` and `isImage === false`);
//! Write `{type: "create"|"update", filePath, content}` (the Agent SDK's
//! `FileWriteOutput`, agentclientprotocol/claude-agent-acp#618; the older
//! `{filePath, success}` of anthropics/claude-code#4635 is superseded); Edit
//! `{filePath, oldString, newString, replaceAll, …}`, Read `{type: "text",
//! file: {filePath, content, numLines, startLine, totalLines}}`, Glob
//! `{filenames, numFiles, truncated, durationMs}` and Grep `{mode, filenames,
//! numFiles, content?, numLines?, numMatches?, appliedLimit?}` (the Agent SDK's
//! `sdk-tools.d.ts` output types, as transcribed in public schemas of Claude
//! Code transcripts' `toolUseResult`). AgentHub leaves out what it cannot
//! know or would make hooks nondeterministic (`structuredPatch`,
//! `originalFile`, `durationMs`) and adds Bash's `exitCode`.
//!
//! The input structs carry `#[schemars(description = "")]`: their doc comments
//! are for Rust readers, and the model learns what a tool is for from the
//! tool's description, so the schema it is shown has no root description.

mod access;
mod bash;
mod bash_whole;
#[cfg(test)]
mod capabilities_tests;
mod echo;
mod edit;
#[cfg(test)]
mod escape_tests;
mod glob;
mod grep;
#[cfg(test)]
mod hostile_tests;
mod lines;
mod process_group;
mod read;
mod text_file;
mod todo_write;
mod walk;
mod web_fetch;
mod write;

pub use bash::{Bash, BashInput, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS};
pub use echo::{Echo, EchoInput};
pub use edit::{Edit, EditInput};
pub use glob::{Glob, GlobInput, MAX_GLOB_RESULTS};
pub use grep::{Grep, GrepInput, GrepOutputMode};
pub use read::{Read, ReadInput, DEFAULT_READ_LIMIT};
pub use todo_write::{Todo, TodoStatus, TodoWrite, TodoWriteInput, TODO_WRITE_RESULT};
pub use web_fetch::{WebFetch, WebFetchInput, FETCH_TIMEOUT, MAX_FETCH_BYTES, MAX_REDIRECTS};
pub use write::{Write, WriteInput};

use crate::definition::SchemaError;
use crate::ToolRegistry;

/// Registers every built-in tool, in the order the model is told about them.
pub fn register_all(registry: &mut ToolRegistry) -> Result<(), SchemaError> {
    registry.register(Read)?;
    registry.register(Write)?;
    registry.register(Edit)?;
    registry.register(Bash)?;
    registry.register(Glob)?;
    registry.register(Grep)?;
    registry.register(TodoWrite)?;
    registry.register(WebFetch::default())?;
    registry.register(Echo)?;
    Ok(())
}
