//! The checkpoint before each round that may write (contract §24), as the
//! loop's [`BeforeWrites`] seam: the prompt's number comes from the
//! session's transcript (read from where it was last read, so rewinds
//! written by a front end count), the files go to the workspace's store,
//! and the transcript gets a `checkpoint` record when the commit or the
//! prompt is new. Files left out are named once per session. Without git (or
//! when the store fails) the session goes on without checkpoints and says
//! so once; a checkpoint never fails a run.

use super::{checkpoints_dir, CheckpointError, ShadowStore, Skipped};
use agenthub_core::{AgentEvent, BeforeWrites, Timeline, WritingRound};
use agenthub_protocol::CheckpointRecord;
use futures::future::BoxFuture;
use std::collections::HashSet;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Checkpoints a session's workspace before each round that may write.
#[derive(Default)]
pub struct Checkpointer {
    state: tokio::sync::Mutex<State>,
}

#[derive(Default)]
struct State {
    /// Why checkpoints are off for this session (already said).
    off: bool,
    store: Option<ShadowStore>,
    /// The transcript read so far.
    tail: Option<Tail>,
    /// Files left out that were already named.
    noted: HashSet<Skipped>,
    /// The last record written: (commit, prompt).
    recorded: Option<(String, u32)>,
}

/// A transcript read up to `offset`.
struct Tail {
    path: PathBuf,
    offset: u64,
    timeline: Timeline,
}

impl Checkpointer {
    /// A checkpointer with nothing taken yet.
    pub fn new() -> Checkpointer {
        Checkpointer::default()
    }
}

impl BeforeWrites for Checkpointer {
    fn before_writing_round<'a>(&'a self, round: WritingRound<'a>) -> BoxFuture<'a, ()> {
        Box::pin(async move {
            let Some(transcript) = round.transcript_path else {
                return;
            };
            let mut state = self.state.lock().await;
            if state.off {
                return;
            }
            let written = state.prompt_index(transcript);
            let prompt_index = (written + u32::from(round.before_prompt)).max(1);
            let workspace = round.workspace.to_path_buf();
            let store = state.store.clone();
            let message = format!("session {} prompt {prompt_index}", round.session_id);
            let taken = tokio::task::spawn_blocking(move || {
                let store = match store {
                    Some(store) => store,
                    None => ShadowStore::open(&checkpoints_dir(), &workspace)?,
                };
                let snapshot = store.snapshot(&message)?;
                Ok::<_, CheckpointError>((store, snapshot))
            })
            .await;
            let tell = |event: AgentEvent<'_>| {
                let _ = round.observer.on_event(&event);
            };
            match taken {
                Ok(Ok((store, snapshot))) => {
                    state.store = Some(store);
                    for skipped in snapshot.skipped {
                        if state.noted.insert(skipped.clone()) {
                            tell(AgentEvent::Warning(&format!("checkpoint: {skipped}")));
                        }
                    }
                    let taken = (snapshot.commit, prompt_index);
                    if state.recorded.as_ref() != Some(&taken) {
                        let record = CheckpointRecord {
                            id: taken.0.clone(),
                            prompt_index,
                        };
                        tell(AgentEvent::Checkpoint(&record));
                        state.recorded = Some(taken);
                    }
                }
                Ok(Err(error)) => {
                    state.off = true;
                    tell(AgentEvent::Warning(&off_note(&error.to_string())));
                }
                Err(error) => {
                    state.off = true;
                    tell(AgentEvent::Warning(&off_note(&error.to_string())));
                }
            }
        })
    }
}

/// What the session is told once when it goes on without checkpoints.
fn off_note(why: &str) -> String {
    format!(
        "this session runs without checkpoints ({why}); `agenthub rewind` cannot restore its files"
    )
}

impl State {
    /// The number of the prompt running now: the conversation's prompts in
    /// the transcript, read on from where the last round stopped.
    fn prompt_index(&mut self, transcript: &Path) -> u32 {
        let fresh = self
            .tail
            .as_ref()
            .is_none_or(|tail| tail.path != transcript);
        if fresh {
            self.tail = Some(Tail {
                path: transcript.to_path_buf(),
                offset: 0,
                timeline: Timeline::default(),
            });
        }
        match self.tail.as_mut() {
            Some(tail) => {
                tail.read_on();
                tail.timeline.prompt_count()
            }
            None => 0,
        }
    }
}

impl Tail {
    /// Feeds the timeline the complete lines written since the last read.
    fn read_on(&mut self) {
        let Ok(mut file) = std::fs::File::open(&self.path) else {
            return;
        };
        let mut added = Vec::new();
        if file.seek(SeekFrom::Start(self.offset)).is_err() || file.read_to_end(&mut added).is_err()
        {
            return;
        }
        let Some(end) = added.iter().rposition(|byte| *byte == b'\n') else {
            return;
        };
        for line in added[..end].split(|byte| *byte == b'\n') {
            self.timeline.feed_line(&String::from_utf8_lossy(line));
        }
        self.offset += end as u64 + 1;
    }
}
