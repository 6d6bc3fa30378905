//! What `agenthub rewind --list` shows (contract §24): each prompt of the
//! conversation with its number, time, first line and the files changed
//! after it (from the state before it to the state before the next prompt,
//! or to the files now for the last); then, when a rewind left one, the
//! point after the last prompt that undoes it.

use super::{checkpoints_dir, RewindError, ShadowStore};
use agenthub_core::Timeline;
use std::path::Path;

/// One point a session can be rewound to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedPoint {
    /// Its number (`--to N`).
    pub index: u32,
    /// What it is.
    pub kind: PointKind,
    /// When (RFC 3339), if known.
    pub time: Option<String>,
    /// The files changed after it, relative to the workspace.
    pub changed: Vec<String>,
}

/// A prompt, or the files a rewind replaced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PointKind {
    /// A user prompt, with its first line.
    Prompt(String),
    /// The point after the last prompt: the files before the last rewind.
    BeforeRewind,
}

/// The points of the session whose transcript is `transcript`; the files
/// each changed are read from the workspace's checkpoint store.
pub fn rewind_points(transcript: &Path, workspace: &Path) -> Result<Vec<ListedPoint>, RewindError> {
    let text = std::fs::read_to_string(transcript).map_err(|error| RewindError::Transcript {
        path: transcript.to_path_buf(),
        error,
    })?;
    let timeline = Timeline::from_text(&text);
    let count = timeline.prompt_count();
    let store = match timeline.checkpoints().is_empty() {
        true => None,
        false => Some(ShadowStore::open(&checkpoints_dir(), workspace)?),
    };
    let mut now: Option<String> = None;
    let mut points = Vec::new();
    for prompt in timeline.prompts() {
        let changed = match &store {
            Some(store) => changed_after(&timeline, store, prompt.index, count, &mut now)?,
            None => Vec::new(),
        };
        points.push(ListedPoint {
            index: prompt.index,
            kind: PointKind::Prompt(prompt.text.lines().next().unwrap_or("").to_owned()),
            time: prompt.time.clone(),
            changed,
        });
    }
    if let (Some(store), Some(_)) = (&store, timeline.state_before(count + 1)) {
        points.push(ListedPoint {
            index: count + 1,
            kind: PointKind::BeforeRewind,
            time: timeline
                .rewinds()
                .last()
                .map(|rewind| rewind.record.time.clone()),
            changed: changed_after(&timeline, store, count + 1, count, &mut now)?,
        });
    }
    Ok(points)
}

/// The files that differ between the state before point `index` and the
/// state before the next prompt (the files now, after the last).
fn changed_after(
    timeline: &Timeline,
    store: &ShadowStore,
    index: u32,
    count: u32,
    now: &mut Option<String>,
) -> Result<Vec<String>, RewindError> {
    let Some(from) = timeline.state_before(index) else {
        return Ok(Vec::new());
    };
    let next = (index < count)
        .then(|| timeline.state_before(index + 1))
        .flatten();
    let to = match next {
        Some(point) => point.id.clone(),
        None => match now {
            Some(tree) => tree.clone(),
            None => now.insert(store.current_tree()?).clone(),
        },
    };
    Ok(store.changed_files(&from.id, &to)?)
}
