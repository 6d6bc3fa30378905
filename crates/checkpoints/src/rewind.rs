//! A rewind (contract §24): the files back to the state before prompt N
//! (files created since removed, changed and deleted ones written back)
//! and/or the conversation ended before prompt N. The files as they were
//! are checkpointed first, with the number of the point after the last prompt
//! that remains, so a rewind is undone by rewinding to that point. What it
//! did is recorded through the observer it is given: the CLI's appends to the
//! transcript file, the interactive session's is its agent's own.

use super::{checkpoints_dir, CheckpointError, Restored, ShadowStore};
use agenthub_core::{AgentEvent, Observer, Timeline};
use agenthub_protocol::{CheckpointRecord, RewindRecord, RewindScope};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// What a rewind did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewindDone {
    /// The files written back and removed (`None`: the files were not in
    /// the scope).
    pub files: Option<Restored>,
    /// No checkpoint was taken since the prompt: the agent changed no file
    /// since, so none was restored.
    pub nothing_to_restore: bool,
    /// The point that undoes this rewind's file changes (`--to` it with
    /// `--code`), when files were in the scope.
    pub undo_point: Option<u32>,
}

/// Why a rewind was refused or failed.
#[derive(Debug, Error)]
pub enum RewindError {
    /// The transcript cannot be read.
    #[error("cannot read transcript {}: {error}", path.display())]
    Transcript {
        /// The transcript.
        path: PathBuf,
        /// The operating system's reason.
        error: std::io::Error,
    },
    /// There is no such point.
    #[error("{}", no_point(*index, *prompts, *scope))]
    NoSuchPoint {
        /// The point asked for.
        index: u32,
        /// The conversation's prompts.
        prompts: u32,
        /// What was to be rewound.
        scope: RewindScope,
    },
    /// The files could not be checkpointed or restored.
    #[error(transparent)]
    Checkpoint(#[from] CheckpointError),
    /// The rewind could not be recorded.
    #[error("cannot record the rewind in the transcript: {0}")]
    Record(String),
}

fn no_point(index: u32, prompts: u32, scope: RewindScope) -> String {
    let last = match scope {
        RewindScope::Code => prompts + 1,
        RewindScope::Conversation | RewindScope::Both => prompts,
    };
    match last {
        0 => "the session has no prompt to rewind to".to_owned(),
        _ => format!(
            "there is no point {index} to rewind the {} to: the points are 1 to {last}",
            scope_words(scope)
        ),
    }
}

fn scope_words(scope: RewindScope) -> &'static str {
    match scope {
        RewindScope::Code => "files",
        RewindScope::Conversation => "conversation",
        RewindScope::Both => "files and conversation",
    }
}

/// Rewinds the session whose transcript is `transcript` (working in
/// `workspace`) to the state before prompt `to`; records the checkpoint it
/// takes first and the `rewind` record through `recorder`.
pub fn rewind(
    transcript: &Path,
    workspace: &Path,
    to: u32,
    scope: RewindScope,
    recorder: &dyn Observer,
) -> Result<RewindDone, RewindError> {
    let text = std::fs::read_to_string(transcript).map_err(|error| RewindError::Transcript {
        path: transcript.to_path_buf(),
        error,
    })?;
    let timeline = Timeline::from_text(&text);
    let prompts = timeline.prompt_count();
    let last = match scope {
        RewindScope::Code => prompts + 1,
        RewindScope::Conversation | RewindScope::Both => prompts,
    };
    if to == 0 || to > last {
        return Err(RewindError::NoSuchPoint {
            index: to,
            prompts,
            scope,
        });
    }
    let record = |event: AgentEvent<'_>| {
        recorder
            .on_event(&event)
            .map_err(|error| RewindError::Record(error.to_string()))
    };
    let mut done = RewindDone {
        files: None,
        nothing_to_restore: false,
        undo_point: None,
    };
    if scope.restores_code() {
        let undo_point = match scope {
            RewindScope::Code => prompts + 1,
            RewindScope::Conversation | RewindScope::Both => to,
        };
        let store = ShadowStore::open(&checkpoints_dir(), workspace)?;
        let before = store.snapshot(&format!("before rewinding to prompt {to}"))?;
        record(AgentEvent::Checkpoint(&CheckpointRecord {
            id: before.commit.clone(),
            prompt_index: undo_point,
        }))?;
        done.undo_point = Some(undo_point);
        done.files = Some(match timeline.state_before(to) {
            Some(point) => store.restore(&before.commit, &point.id)?,
            None => {
                done.nothing_to_restore = true;
                Restored::default()
            }
        });
    }
    record(AgentEvent::Rewind(&RewindRecord {
        prompt_index: to,
        scope,
        time: agenthub_core::utc_now(),
    }))?;
    Ok(done)
}
