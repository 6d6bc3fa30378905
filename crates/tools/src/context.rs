//! What a tool handler gets besides its input, and the [`Workspace`]: the one
//! place that turns a tool's path argument into a path on disk, checks that it
//! stays inside the workspace roots, and opens it so that a path swapped for a
//! symlink after the permission check still cannot escape.
//!
//! The permission policy (`agenthub-policy`) calls [`Workspace::check_inside`]
//! before a call runs; the tools call [`Workspace::open_for_read`] /
//! [`Workspace::open_for_write`] when they run. Both use the same resolution,
//! so the checker and the user of a path can never disagree about which file
//! it names. This module must never hand a tool's original path string to the
//! operating system: only the resolved, checked path is opened.

mod boundary;
pub(crate) mod descriptors;
pub(crate) mod safe_open;

pub use boundary::{BoundaryError, ResolvedPath};
pub use safe_open::Parents;

use agenthub_sandbox::SandboxPolicy;
use std::fs::File;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Says whether a file found by a search may be read: the permission
/// policy's deny rules on reads, for files no permission check named.
pub type ReadGuard = Arc<dyn Fn(&Path) -> bool + Send + Sync>;

/// The workspace root (plus any additional directories the settings grant),
/// and the one place that turns a tool's path argument into a path on disk.
#[derive(Clone)]
pub struct Workspace {
    root: Arc<Path>,
    additional: Arc<[PathBuf]>,
    home: Option<Arc<Path>>,
    read_guard: Option<ReadGuard>,
    fetch_guard: Option<crate::FetchGuard>,
    sandbox: Option<Arc<SandboxPolicy>>,
    process_env: crate::ProcessEnv,
    outputs_folder: Option<Arc<Path>>,
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workspace")
            .field("root", &self.root)
            .field("additional", &self.additional)
            .field("home", &self.home)
            .field("read_guard", &self.read_guard.is_some())
            .field("fetch_guard", &self.fetch_guard.is_some())
            .field("sandbox", &self.sandbox)
            .finish()
    }
}

impl PartialEq for Workspace {
    fn eq(&self, other: &Self) -> bool {
        let same_guard = match (&self.read_guard, &other.read_guard) {
            (None, None) => true,
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        };
        self.root == other.root
            && self.additional == other.additional
            && self.home == other.home
            && same_guard
            && self.sandbox == other.sandbox
    }
}

impl Eq for Workspace {}

impl Workspace {
    /// A workspace rooted at `root`, with no additional roots and no read
    /// guard. `root` should be absolute: relative tool paths are joined to it
    /// (a symlinked root is resolved when paths are checked).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Workspace {
            root: Arc::from(root.into()),
            additional: Arc::from(Vec::new()),
            home: None,
            read_guard: None,
            fetch_guard: None,
            sandbox: None,
            process_env: crate::ProcessEnv::default(),
            outputs_folder: None,
        }
    }

    /// The same workspace with the sandbox its shell commands run in.
    pub fn with_sandbox(mut self, policy: SandboxPolicy) -> Self {
        self.sandbox = Some(Arc::new(policy));
        self
    }

    /// The sandbox shell commands run in: the one given with
    /// [`Self::with_sandbox`], else the default — `workspace-write` over
    /// [`Self::roots`], network off, nothing masked.
    /// The session's `CLAUDE_ENV_FILE` folder is read-only in it, wherever
    /// the writable roots lie.
    pub fn sandbox(&self) -> SandboxPolicy {
        let mut policy = match &self.sandbox {
            Some(policy) => SandboxPolicy::clone(policy),
            None => SandboxPolicy::workspace_write(self.roots()),
        };
        policy.protected.extend(self.process_env.env_folder());
        policy
    }

    /// The same workspace whose processes (Bash) get the variables of `env`,
    /// as they are when each process starts.
    pub fn with_process_env(mut self, env: crate::ProcessEnv) -> Self {
        self.process_env = env;
        self
    }

    /// The workspace of a session whose output too long for the model is
    /// saved whole in `folder` (contract §21): the pipeline gives each call
    /// its session's, so a tool can save there what it cannot hold.
    pub fn with_outputs_folder(mut self, folder: impl Into<PathBuf>) -> Self {
        self.outputs_folder = Some(Arc::from(folder.into()));
        self
    }

    /// The session's folder for output saved whole, when the call has one.
    pub fn outputs_folder(&self) -> Option<&Path> {
        self.outputs_folder.as_deref()
    }

    /// The variables the processes tools start get besides AgentHub's own
    /// environment (the settings' `env`, `CLAUDE_ENV_FILE` exports).
    pub fn process_env(&self) -> &crate::ProcessEnv {
        &self.process_env
    }

    /// The same workspace with a home directory: `~` and `~/x` in a tool path
    /// name it, as they do in permission rules and Bash arguments (so
    /// `~/notes.txt` is outside the workspace unless the home is a root).
    /// Without one, such a path is refused ([`BoundaryError::NoHome`]).
    pub fn with_home(mut self, home: impl Into<PathBuf>) -> Self {
        self.home = Some(Arc::from(home.into()));
        self
    }

    /// The home directory `~` names in tool paths, if one was given.
    pub fn home(&self) -> Option<&Path> {
        self.home.as_deref()
    }

    /// The same workspace with a guard that [`Self::may_read`] and
    /// [`Self::open_for_read`] consult: a file it refuses is neither opened
    /// nor, by well-behaved search tools, listed or searched.
    pub fn with_read_guard(mut self, guard: ReadGuard) -> Self {
        self.read_guard = Some(guard);
        self
    }

    /// The same workspace with the guard a fetch tool asks about each
    /// redirect it meets (the permission policy's verdict on that URL).
    pub fn with_fetch_guard(mut self, guard: crate::FetchGuard) -> Self {
        self.fetch_guard = Some(guard);
        self
    }

    /// The guard given with [`Self::with_fetch_guard`], if any.
    pub fn fetch_guard(&self) -> Option<&crate::FetchGuard> {
        self.fetch_guard.as_ref()
    }

    /// Whether a file a search found may be read (or listed): false when the
    /// permission policy's deny rules cover it. Search tools (Glob, Grep) must
    /// skip files for which this is false, since no permission check named them.
    pub fn may_read(&self, path: &Path) -> bool {
        self.read_guard.as_ref().is_none_or(|guard| guard(path))
    }

    /// The same workspace with more roots (`permissions.additionalDirectories`):
    /// paths inside them are inside the boundary too.
    pub fn with_additional_roots(mut self, roots: impl IntoIterator<Item = PathBuf>) -> Self {
        let mut all: Vec<PathBuf> = self.additional.to_vec();
        all.extend(roots);
        self.additional = Arc::from(all);
        self
    }

    /// The workspace root: relative tool paths are resolved against it and
    /// Bash runs in it.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Every root a tool may touch: the workspace root first, then the additional ones.
    pub fn roots(&self) -> Vec<PathBuf> {
        std::iter::once(self.root.to_path_buf())
            .chain(self.additional.iter().cloned())
            .collect()
    }

    /// Resolves `path` against the workspace root and cleans `.` and `..`
    /// lexically. Symlinks are not followed here: [`Self::check_inside`] does that.
    /// `~` and `~/x` name the home directory (see [`Self::with_home`]); with no
    /// home known they stay `<root>/~/x`, which [`Self::check_inside`] refuses.
    ///
    /// ```
    /// use agenthub_tools::Workspace;
    /// use std::path::PathBuf;
    ///
    /// let workspace = Workspace::new("/w/proj").with_home("/home/u");
    /// assert_eq!(workspace.resolve("src/../README.md"), PathBuf::from("/w/proj/README.md"));
    /// assert_eq!(workspace.resolve("../secrets"), PathBuf::from("/w/secrets"));
    /// assert_eq!(workspace.resolve("/etc/passwd"), PathBuf::from("/etc/passwd"));
    /// assert_eq!(workspace.resolve("~/notes.txt"), PathBuf::from("/home/u/notes.txt"));
    /// ```
    ///
    /// Resolving decides nothing: `../secrets` is outside, which
    /// [`Self::check_inside`] reports.
    pub fn resolve(&self, path: &str) -> PathBuf {
        let joined = match (home_relative(path), &self.home) {
            (Some(rest), Some(home)) => home.join(rest),
            _ if Path::new(path).is_absolute() => PathBuf::from(path),
            _ => self.root.join(path),
        };
        clean(&joined)
    }

    /// Resolves `path` (see [`Self::resolve`]), follows the symlinks of its
    /// existing prefix (a dangling link is followed textually), and checks that
    /// both the path as named and the place it really lands are inside a root,
    /// comparing whole path components. Rejects NUL bytes, control and
    /// invisible characters, and over-long paths before touching the disk.
    pub fn check_inside(&self, path: &str) -> Result<ResolvedPath, BoundaryError> {
        boundary::check(&self.roots(), self.resolve_checked(path)?)
    }

    fn resolve_checked(&self, path: &str) -> Result<PathBuf, BoundaryError> {
        boundary::validate(path)?;
        if home_relative(path).is_some() && self.home.is_none() {
            return Err(BoundaryError::NoHome(path.to_owned()));
        }
        Ok(self.resolve(path))
    }

    /// Opens a file inside the workspace for reading. The path is checked as
    /// by [`Self::check_inside`] and against the read guard, then opened again from the root directory one
    /// component at a time without following any symlink, so a component
    /// swapped for a link after the check makes the open fail instead of escaping.
    pub fn open_for_read(&self, path: &str) -> io::Result<File> {
        let resolved = self.check_inside(path).map_err(io::Error::from)?;
        for candidate in [&resolved.lexical, &resolved.real] {
            if !self.may_read(candidate) {
                return Err(io::Error::new(
                    io::ErrorKind::PermissionDenied,
                    format!("{} is denied by a permission rule", candidate.display()),
                ));
            }
        }
        safe_open::open_read(&self.roots(), &resolved.real)
    }

    /// Opens a file a permission check named (Read's or Edit's `file_path`)
    /// exactly as [`Self::open_for_read`] does, boundary and no-follow open
    /// included, but without the read guard: the policy already decided on
    /// this very path, and a Read ask rule the user approved must not refuse
    /// the read afterwards. Files a search found must use [`Self::open_for_read`].
    pub fn open_named_for_read(&self, path: &str) -> io::Result<File> {
        let resolved = self.check_inside(path).map_err(io::Error::from)?;
        safe_open::open_read(&self.roots(), &resolved.real)
    }

    /// Opens (creating if missing) a regular file inside the workspace for
    /// writing, truncated to zero length. Like [`Self::open_for_read`] nothing
    /// on the way is followed; `parents` says whether missing directories are
    /// created. A file with other hard links is refused (writing would change
    /// the other names' content too, which may be outside the workspace).
    pub fn open_for_write(&self, path: &str, parents: Parents) -> io::Result<File> {
        let resolved = self.check_inside(path).map_err(io::Error::from)?;
        safe_open::open_write(&self.roots(), &resolved.real, parents)
    }

    /// Reads a whole file through [`Self::open_for_read`].
    pub fn read_bytes(&self, path: &str) -> io::Result<Vec<u8>> {
        let mut file = self.open_for_read(path)?;
        let mut bytes = Vec::new();
        io::Read::read_to_end(&mut file, &mut bytes)?;
        Ok(bytes)
    }

    /// Replaces a file's content through [`Self::open_for_write`].
    pub fn write_bytes(&self, path: &str, content: &[u8], parents: Parents) -> io::Result<()> {
        let mut file = self.open_for_write(path, parents)?;
        io::Write::write_all(&mut file, content)?;
        file.sync_data()
    }
}

/// What follows `~` when a tool path starts with the home directory: `""` for
/// `~`, `"x"` for `~/x`; `None` for any other path (`~user/x` and `a/~` are
/// names, as bash leaves them when no such user exists).
fn home_relative(path: &str) -> Option<&str> {
    match path.strip_prefix('~')? {
        "" => Some(""),
        rest => rest
            .strip_prefix('/')
            .map(|rest| rest.trim_start_matches('/')),
    }
}

/// Lexical normalisation: drops `.`, folds `..` into its parent (never above `/`).
pub fn clean(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(component);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// What a handler gets besides its input, passed to every
/// [`Tool::call`](crate::Tool::call).
#[derive(Debug, Clone)]
pub struct ToolContext {
    /// Where the tool may work: open files through it, never by a path string.
    pub workspace: Workspace,
    /// Fires when the run is cancelled; a long-running tool should stop and
    /// return an error when it does.
    pub cancel: CancellationToken,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_resolve_against_the_workspace() {
        let workspace = Workspace::new("/w/proj");
        assert_eq!(
            workspace.resolve("src/a.rs"),
            PathBuf::from("/w/proj/src/a.rs")
        );
    }

    #[test]
    fn dot_dot_is_cleaned_lexically() {
        let workspace = Workspace::new("/w/proj");
        assert_eq!(workspace.resolve("../x"), PathBuf::from("/w/x"));
        assert_eq!(workspace.resolve("/a/./b/../c"), PathBuf::from("/a/c"));
    }

    #[test]
    fn tilde_slash_names_the_home_directory() {
        let workspace = Workspace::new("/w/proj").with_home("/home/u");
        assert_eq!(
            workspace.resolve("~/.ssh/id_rsa"),
            PathBuf::from("/home/u/.ssh/id_rsa")
        );
    }

    #[test]
    fn a_lone_tilde_is_the_home_directory() {
        let workspace = Workspace::new("/w/proj").with_home("/home/u");
        assert_eq!(workspace.resolve("~"), PathBuf::from("/home/u"));
    }

    #[test]
    fn a_tilde_inside_a_name_is_a_name() {
        let workspace = Workspace::new("/w/proj").with_home("/home/u");
        assert_eq!(
            workspace.resolve("~draft/a.txt"),
            PathBuf::from("/w/proj/~draft/a.txt")
        );
    }

    #[test]
    fn a_home_path_with_no_home_known_is_refused() {
        let workspace = Workspace::new("/w/proj");
        assert_eq!(
            workspace.check_inside("~/notes.txt"),
            Err(BoundaryError::NoHome("~/notes.txt".to_owned()))
        );
    }

    #[test]
    fn a_home_path_is_outside_a_workspace_elsewhere() {
        let workspace = Workspace::new("/w/proj").with_home("/home/u");
        assert_eq!(
            workspace.check_inside("~/notes.txt"),
            Err(BoundaryError::Outside {
                path: PathBuf::from("/home/u/notes.txt"),
                roots: "/w/proj".to_owned()
            })
        );
    }

    #[test]
    fn the_read_guard_refuses_what_it_denies() {
        let dir = tempfile::TempDir::new().unwrap();
        std::fs::write(dir.path().join(".env"), "SECRET=1").unwrap();
        std::fs::write(dir.path().join("a.txt"), "a").unwrap();
        let guard: ReadGuard = Arc::new(|path: &Path| !path.ends_with(".env"));
        let workspace = Workspace::new(dir.path().canonicalize().unwrap()).with_read_guard(guard);
        assert!(!workspace.may_read(&workspace.root().join(".env")));
        assert_eq!(workspace.read_bytes("a.txt").unwrap(), b"a");
        let error = workspace.read_bytes(".env").unwrap_err();
        assert_eq!(
            (error.kind(), error.to_string()),
            (
                io::ErrorKind::PermissionDenied,
                format!(
                    "{} is denied by a permission rule",
                    workspace.root().join(".env").display()
                )
            )
        );
    }

    #[test]
    fn additional_roots_follow_the_workspace_root() {
        let workspace = Workspace::new("/w/proj").with_additional_roots([PathBuf::from("/w/docs")]);
        assert_eq!(
            workspace.roots(),
            vec![PathBuf::from("/w/proj"), PathBuf::from("/w/docs")]
        );
    }
}
