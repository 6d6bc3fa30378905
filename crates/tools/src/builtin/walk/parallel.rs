//! The walk proper: `ignore`'s parallel walker proposes names, and each one is
//! verified before anyone sees it. Every thread keeps the chain of folder
//! descriptors it last opened (root, child, grandchild…); a file's folder is
//! reached from the deepest one it shares with that chain, one
//! `openat(…, O_DIRECTORY | O_NOFOLLOW)` per further name, and the file itself
//! is only ever `fstatat`-ed or opened relative to that folder.
//! So if a folder is swapped for a symlink while the walker lists it, the
//! names it listed through the link fail verification (`ELOOP`, `ENOTDIR` or
//! `ENOENT`) and are dropped: no name or line from outside is ever returned.
//!
//! This module must never stat, open or list a file by its full path.

use super::SearchRoot;
use crate::context::descriptors::{self, FileKind};
use crate::Workspace;
use ignore::{DirEntry, WalkParallel, WalkState};
use std::ffi::{OsStr, OsString};
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use tokio_util::sync::CancellationToken;

/// A file the walk found: a regular file (by the walker's look), its folder
/// verified from the root with no link followed, and the read guard's yes.
pub struct FoundFile<'a> {
    /// The path as results show it (under the root as the model named it).
    pub shown: PathBuf,
    dir: &'a File,
    name: &'a OsStr,
}

impl FoundFile<'_> {
    /// `fstatat` of the file in its verified folder, without following it:
    /// `None` unless it is (still) a regular file there.
    pub fn stat(&self) -> Option<libc::stat> {
        let stat = descriptors::stat_at(self.dir, self.name).ok()?;
        (FileKind::of(stat.st_mode) == FileKind::Regular).then_some(stat)
    }

    /// Opens the file in its verified folder (no link followed, no FIFO
    /// waited on); a file that is no longer regular is an error.
    pub fn open(&self) -> io::Result<File> {
        descriptors::open_regular_at(self.dir, self.name, &self.shown)
    }
}

/// One walk of a checked root.
pub(super) struct Walk<'a> {
    pub root: &'a SearchRoot,
    /// The root, opened with no link followed below the workspace root.
    pub root_dir: &'a File,
    pub workspace: &'a Workspace,
    pub cancel: Option<CancellationToken>,
}

impl Walk<'_> {
    /// Runs `walker`; each thread makes its own `state` and keeps what
    /// `visit` returns, and all of it is gathered at the end.
    pub fn run<S: Send, T: Send>(
        &self,
        walker: WalkParallel,
        state: impl Fn() -> S + Sync,
        visit: impl Fn(&mut S, FoundFile<'_>) -> Option<T> + Sync,
    ) -> Vec<T> {
        let gathered = Mutex::new(Vec::new());
        walker.run(|| {
            let mut thread = Thread {
                walk: self,
                chain: Vec::new(),
                kept: Batch::new(&gathered),
                state: state(),
            };
            let visit = &visit;
            Box::new(move |entry| thread.step(entry, visit))
        });
        gathered
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// One walker thread: its cached folder descriptor, its results, its state.
struct Thread<'a, S, T> {
    walk: &'a Walk<'a>,
    /// The folders (names below the root, each with its descriptor) last
    /// opened, outermost first.
    chain: Vec<(OsString, File)>,
    kept: Batch<'a, T>,
    state: S,
}

impl<S, T> Thread<'_, S, T> {
    fn step(
        &mut self,
        entry: Result<DirEntry, ignore::Error>,
        visit: &impl Fn(&mut S, FoundFile<'_>) -> Option<T>,
    ) -> WalkState {
        if self
            .walk
            .cancel
            .as_ref()
            .is_some_and(|cancel| cancel.is_cancelled())
        {
            return WalkState::Quit;
        }
        let Ok(entry) = entry else {
            return WalkState::Continue;
        };
        if !entry.file_type().is_some_and(|kind| kind.is_file()) {
            return WalkState::Continue;
        }
        let Some(verified) = self.verify(entry.path()) else {
            return WalkState::Continue;
        };
        let dir = match self.chain.last() {
            Some((_, dir)) => dir,
            None => self.walk.root_dir,
        };
        let found = FoundFile {
            shown: verified.shown,
            dir,
            name: &verified.name,
        };
        if let Some(kept) = visit(&mut self.state, found) {
            self.kept.local.push(kept);
        }
        WalkState::Continue
    }

    /// The file's shown path, folder and name, when its folder opens from the
    /// root without a link and the read guard allows it.
    fn verify(&mut self, real: &Path) -> Option<Verified> {
        let walk = self.walk;
        let below = real.strip_prefix(walk.root.real()).ok()?;
        let shown = walk.root.shown.join(below);
        if !walk.workspace.may_read(real) || !walk.workspace.may_read(&shown) {
            return None;
        }
        let name = below.file_name()?.to_os_string();
        let folder = below.parent().unwrap_or(Path::new(""));
        self.enter(folder).ok()?;
        Some(Verified { shown, name })
    }

    /// Makes the chain end at `folder`: keeps the folders it shares with the
    /// chain, opens the rest one name at a time. On failure the chain ends
    /// at the last folder that opened.
    fn enter(&mut self, folder: &Path) -> io::Result<()> {
        let names: Vec<&OsStr> = folder.iter().collect();
        let shared = self
            .chain
            .iter()
            .zip(&names)
            .take_while(|((open, _), name)| open.as_os_str() == **name)
            .count();
        self.chain.truncate(shared);
        for name in &names[shared..] {
            let parent = self.chain.last().map_or(self.walk.root_dir, |(_, dir)| dir);
            let dir = descriptors::open_dir_at(parent, name)?;
            self.chain.push((name.to_os_string(), dir));
        }
        Ok(())
    }
}

/// A verified file, before it is lent out with the thread's folder descriptor.
struct Verified {
    shown: PathBuf,
    name: OsString,
}

/// A thread's results, added to the shared list when the thread ends.
struct Batch<'a, T> {
    local: Vec<T>,
    shared: &'a Mutex<Vec<T>>,
}

impl<'a, T> Batch<'a, T> {
    fn new(shared: &'a Mutex<Vec<T>>) -> Self {
        Batch {
            local: Vec::new(),
            shared,
        }
    }
}

impl<T> Drop for Batch<'_, T> {
    fn drop(&mut self) {
        let mut shared = self
            .shared
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        shared.append(&mut self.local);
    }
}
