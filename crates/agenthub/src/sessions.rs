//! Finding sessions again (contract §12): every transcript in the transcripts
//! folder begins with its `session` record, which names its workspace, so a
//! user with ten projects sees only this one's sessions; `--resume ID` and
//! `--continue` start from here. Reading a transcript is the core's
//! (`read_session`); this module only looks for files and checks they belong
//! to the workspace.

use crate::transcript::transcripts_dir;
use agenthub_core::{read_session, read_session_record, SavedSession, SavedSessionError};
use std::path::{Path, PathBuf};
use std::time::SystemTime;
use thiserror::Error;

/// One session of a workspace, as `agenthub sessions list` shows it.
#[derive(Debug, Clone)]
pub struct SessionSummary {
    /// The transcript file.
    pub path: PathBuf,
    /// When the transcript was last written.
    pub modified: SystemTime,
    /// The session as its transcript tells it.
    pub saved: SavedSession,
}

impl SessionSummary {
    /// What an editor's list calls the session: the first line of its
    /// first prompt (blank lines before it passed over), if it had one.
    pub fn title(&self) -> Option<&str> {
        let prompt = self.saved.first_prompt.as_deref()?;
        prompt.lines().map(str::trim).find(|line| !line.is_empty())
    }

    /// When the transcript was last written, as RFC 3339 UTC
    /// (`2026-12-04T19:10:32Z`).
    pub fn updated_at(&self) -> String {
        agenthub_core::utc_time(self.modified)
    }
}

/// A session that cannot be found or resumed.
#[derive(Debug, Error)]
pub enum SessionLookupError {
    /// No transcript of that id exists.
    #[error("no session {id} (looked for {})", path.display())]
    NotFound {
        /// The id asked for.
        id: String,
        /// Where its transcript would be.
        path: PathBuf,
    },
    /// More than one of the workspace's sessions begins with the id given.
    #[error("{prefix} is the start of {} sessions' ids: {}; give more of the id", ids.len(), ids.join(", "))]
    Ambiguous {
        /// The start of an id that was given.
        prefix: String,
        /// The ids it could mean.
        ids: Vec<String>,
    },
    /// The session works in another folder.
    #[error(
        "session {id} belongs to the workspace {workspace}; run it there (--workspace {workspace})"
    )]
    OtherWorkspace {
        /// The id asked for.
        id: String,
        /// The session's own workspace.
        workspace: String,
    },
    /// `--continue` in a workspace without sessions.
    #[error("no session of {} to continue", workspace.display())]
    NoneInWorkspace {
        /// The workspace.
        workspace: PathBuf,
    },
    /// The transcript cannot be read back.
    #[error(transparent)]
    Damaged(#[from] SavedSessionError),
}

/// This workspace's sessions, most recently written first.
pub fn list_sessions(workspace: &Path) -> Vec<SessionSummary> {
    let mut found: Vec<SessionSummary> = transcripts(workspace)
        .into_iter()
        .filter_map(|(path, modified)| {
            let saved = read_session(&path).ok()?;
            Some(SessionSummary {
                path,
                modified,
                saved,
            })
        })
        .collect();
    found.sort_by_key(|summary| std::cmp::Reverse(summary.modified));
    found
}

/// The session `id` of `workspace`, read back for resuming. `id` may be the
/// start of an id, when exactly one of this workspace's sessions begins so.
pub fn find_session(workspace: &Path, id: &str) -> Result<SessionSummary, SessionLookupError> {
    let exact = transcripts_dir().join(format!("{id}.jsonl"));
    // An id is a file name in the transcripts folder, never a path out of it.
    let plain = !id.is_empty() && !id.contains(['/', '\\']) && id != "..";
    if !plain {
        return Err(SessionLookupError::NotFound {
            id: id.to_owned(),
            path: exact,
        });
    }
    let (path, modified) = match modified(&exact) {
        Some(modified) => (exact, modified),
        None => by_prefix(workspace, id, exact)?,
    };
    let saved = read_session(&path)?;
    if Path::new(&saved.record.workspace) != workspace {
        return Err(SessionLookupError::OtherWorkspace {
            id: id.to_owned(),
            workspace: saved.record.workspace,
        });
    }
    Ok(SessionSummary {
        path,
        modified,
        saved,
    })
}

/// The most recently written session of `workspace`.
pub fn latest_session(workspace: &Path) -> Result<SessionSummary, SessionLookupError> {
    let (path, modified) = transcripts(workspace)
        .into_iter()
        .max_by_key(|(_, modified)| *modified)
        .ok_or_else(|| SessionLookupError::NoneInWorkspace {
            workspace: workspace.to_path_buf(),
        })?;
    Ok(SessionSummary {
        saved: read_session(&path)?,
        path,
        modified,
    })
}

/// The one session of `workspace` whose id starts with `prefix`.
fn by_prefix(
    workspace: &Path,
    prefix: &str,
    exact: PathBuf,
) -> Result<(PathBuf, SystemTime), SessionLookupError> {
    let mut matching: Vec<(PathBuf, SystemTime)> = transcripts(workspace)
        .into_iter()
        .filter(|(path, _)| {
            path.file_stem()
                .and_then(|stem| stem.to_str())
                .is_some_and(|stem| stem.starts_with(prefix))
        })
        .collect();
    match matching.len() {
        0 => Err(SessionLookupError::NotFound {
            id: prefix.to_owned(),
            path: exact,
        }),
        1 => Ok(matching.remove(0)),
        _ => {
            let mut ids: Vec<String> = matching
                .iter()
                .filter_map(|(path, _)| Some(path.file_stem()?.to_string_lossy().into_owned()))
                .collect();
            ids.sort();
            Err(SessionLookupError::Ambiguous {
                prefix: prefix.to_owned(),
                ids,
            })
        }
    }
}

/// Transcripts whose session record names `workspace`, with their write times.
fn transcripts(workspace: &Path) -> Vec<(PathBuf, SystemTime)> {
    let Ok(entries) = std::fs::read_dir(transcripts_dir()) else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "jsonl")
        })
        .filter(|path| {
            read_session_record(path)
                .is_some_and(|record| Path::new(&record.workspace) == workspace)
        })
        .filter_map(|path| Some((path.clone(), modified(&path)?)))
        .collect()
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).ok()?.modified().ok()
}
