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

/// A file the walk found: a regular file by the walker's look, which the
/// read guard allows. Nothing about it is trusted until [`Self::stat`] or
/// [`Self::open`] reaches it through verified folder descriptors, so a visit
/// that only looks at the name (Glob's pattern) opens nothing.
pub struct FoundFile<'a, 'w> {
    /// The path as results show it (under the root as the model named it).
    pub shown: PathBuf,
    folder: &'a Path,
    name: &'a OsStr,
    chain: &'a mut Chain<'w>,
}

impl FoundFile<'_, '_> {
    /// `fstatat` of the file in its verified folder, without following it:
    /// `None` unless the folder opens with no link and the file is (still) a
    /// regular file there.
    pub fn stat(&mut self) -> Option<libc::stat> {
        let dir = self.chain.enter(self.folder).ok()?;
        let stat = descriptors::stat_at(dir, self.name).ok()?;
        (FileKind::of(stat.st_mode) == FileKind::Regular).then_some(stat)
    }

    /// Opens the file in its verified folder (no link followed, no FIFO
    /// waited on); a file that is not regular is an error.
    pub fn open(&mut self) -> io::Result<File> {
        let dir = self.chain.enter(self.folder)?;
        descriptors::open_regular_at(dir, self.name, &self.shown)
    }
}

/// The folder descriptors a thread opened last: the root's, then each
/// folder below it (names below the root, outermost first).
pub struct Chain<'w> {
    root: &'w File,
    links: Vec<(OsString, File)>,
}

impl Chain<'_> {
    /// Makes the chain end at `folder` (relative to the root): keeps the
    /// folders it shares with the chain, opens the rest one name at a time
    /// with no link followed, and returns the folder's descriptor.
    fn enter(&mut self, folder: &Path) -> io::Result<&File> {
        let names: Vec<&OsStr> = folder.iter().collect();
        let shared = self
            .links
            .iter()
            .zip(&names)
            .take_while(|((open, _), name)| open.as_os_str() == **name)
            .count();
        self.links.truncate(shared);
        for name in &names[shared..] {
            let parent = self.links.last().map_or(self.root, |(_, dir)| dir);
            let dir = descriptors::open_dir_at(parent, name)?;
            self.links.push((name.to_os_string(), dir));
        }
        Ok(self.links.last().map_or(self.root, |(_, dir)| dir))
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
        visit: impl Fn(&mut S, FoundFile<'_, '_>) -> Option<T> + Sync,
    ) -> Vec<T> {
        let gathered = Mutex::new(Vec::new());
        walker.run(|| {
            let mut thread = Thread {
                walk: self,
                chain: Chain {
                    root: self.root_dir,
                    links: Vec::new(),
                },
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
    chain: Chain<'a>,
    kept: Batch<'a, T>,
    state: S,
}

impl<S, T> Thread<'_, S, T> {
    fn step(
        &mut self,
        entry: Result<DirEntry, ignore::Error>,
        visit: &impl Fn(&mut S, FoundFile<'_, '_>) -> Option<T>,
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
        let walk = self.walk;
        let real = entry.path();
        let Ok(below) = real.strip_prefix(walk.root.real()) else {
            return WalkState::Continue;
        };
        let shown = walk.root.shown.join(below);
        if !walk.workspace.may_read(real) || !walk.workspace.may_read(&shown) {
            return WalkState::Continue;
        }
        let Some(name) = below.file_name() else {
            return WalkState::Continue;
        };
        let found = FoundFile {
            shown,
            folder: below.parent().unwrap_or(Path::new("")),
            name,
            chain: &mut self.chain,
        };
        if let Some(kept) = visit(&mut self.state, found) {
            self.kept.local.push(kept);
        }
        WalkState::Continue
    }
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
