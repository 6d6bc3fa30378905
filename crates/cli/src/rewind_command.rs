//! `agenthub rewind (--session ID | --continue) (--list | --to N [--code |
//! --conversation | --both])` (contract §24): the flags, the session looked
//! up, and the words. Listing and rewinding are the library's
//! (`agenthub::checkpoints`); the records go to the session's transcript.

use crate::args::rewind::RewindArgs;
use crate::error::CliError;
use crate::terminal::neutralise;
use agenthub::checkpoints::{rewind, rewind_points, ListedPoint, PointKind, RewindDone};
use agenthub::{find_session, latest_session, reopen_transcript, RewindScope, SessionSummary};

impl RewindArgs {
    fn scope(&self) -> RewindScope {
        match (self.code, self.conversation) {
            (true, _) => RewindScope::Code,
            (_, true) => RewindScope::Conversation,
            _ => RewindScope::Both,
        }
    }
}

pub fn run(args: RewindArgs) -> Result<u8, CliError> {
    let workspace = agenthub::resolve_workspace(args.workspace.as_deref())?;
    let found = session(&args, &workspace)?;
    let failed = |error: agenthub::checkpoints::RewindError| CliError::Usage(error.to_string());
    match args.to {
        None => {
            let points = rewind_points(&found.path, &workspace).map_err(failed)?;
            print!("{}", neutralise(&render_points(&points)));
        }
        Some(to) => {
            let scope = args.scope();
            let recorder = reopen_transcript(&found.path)?;
            let done = rewind(&found.path, &workspace, to, scope, &recorder).map_err(failed)?;
            let id = &found.saved.record.session_id;
            println!("{}", neutralise(&describe(&done, to, scope, id)));
        }
    }
    Ok(0)
}

/// The session `--session ID` or `--continue` names.
fn session(args: &RewindArgs, workspace: &std::path::Path) -> Result<SessionSummary, CliError> {
    match &args.session {
        Some(id) => find_session(workspace, id),
        None => latest_session(workspace),
    }
    .map_err(|error| CliError::Usage(error.to_string()))
}

/// `--list`: one line per point.
pub fn render_points(points: &[ListedPoint]) -> String {
    if points.is_empty() {
        return "the session has no prompts yet\n".to_owned();
    }
    let mut text = String::new();
    for point in points {
        let time = point
            .time
            .as_deref()
            .map(|time| time.get(..19).unwrap_or(time).replace('T', " "))
            .unwrap_or_else(|| "-".repeat(19));
        let what = match &point.kind {
            PointKind::Prompt(line) => shorten(line, 60),
            PointKind::BeforeRewind => "(the files before the last rewind)".to_owned(),
        };
        text.push_str(&format!(
            "{:>3}  {time}  {what}  {}\n",
            point.index,
            changed(&point.changed)
        ));
    }
    text
}

fn changed(files: &[String]) -> String {
    const SHOWN: usize = 5;
    match files.len() {
        0 => "[no files changed]".to_owned(),
        count => {
            let mut names = files
                .iter()
                .take(SHOWN)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ");
            if count > SHOWN {
                names.push_str(&format!(", +{} more", count - SHOWN));
            }
            let noun = if count == 1 { "file" } else { "files" };
            format!("[{count} {noun} changed: {names}]")
        }
    }
}

fn shorten(line: &str, at: usize) -> String {
    match line.char_indices().nth(at) {
        Some((cut, _)) => format!("{}…", &line[..cut]),
        None => line.to_owned(),
    }
}

/// What a rewind did, and how to undo it.
pub fn describe(done: &RewindDone, to: u32, scope: RewindScope, id: &str) -> String {
    let mut lines = Vec::new();
    if let Some(files) = &done.files {
        lines.push(match done.nothing_to_restore {
            true => {
                format!("files: no checkpoint since prompt {to}: the agent changed no files since")
            }
            false => format!(
                "files: restored to before prompt {to} ({} written back, {} removed)",
                files.written.len(),
                files.removed.len()
            ),
        });
    }
    if scope.restores_conversation() {
        lines.push(format!(
            "conversation: ends before prompt {to}; resume goes on from there"
        ));
    }
    if let Some(undo) = done.undo_point {
        lines.push(format!(
            "undo the files: agenthub rewind --session {id} --to {undo} --code"
        ));
    }
    lines.join("\n")
}
