//! A workspace's shadow store (contract §24): a bare git repository under
//! `$XDG_STATE_HOME/agenthub/checkpoints/` whose commits hold the
//! workspace's files, `.gitignore` respected, files over 10 MiB left out.
//! Its persistent index is a stat cache of the workspace: a checkpoint asks
//! git which files differ from it (`ls-files`), hashes only those, and
//! commits only when the tree changed — so a checkpoint of a large tree with
//! one changed file costs little.
//!
//! It never touches the workspace's own `.git` (see `git.rs`), and restores
//! only files its checkpoints hold: ignored and skipped files stay as they are.

use super::git::{isolated_git, Git};
use super::CheckpointError;
use agenthub_settings::state_files::{create_private_file, create_private_folder};
use sha2::{Digest, Sha256};
use std::ffi::OsStr;
use std::fs::File;
use std::io::Write;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

/// Files bigger than this are not checkpointed (named in a note instead).
pub const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;

/// The ref every checkpoint commit of the store is reachable from.
const CHECKPOINTS_REF: &str = "refs/agenthub/checkpoints";

/// Attributes that make every file a byte-exact blob, whatever the
/// workspace's `.gitattributes` say (`info/attributes` wins over them).
const BYTE_EXACT: &str = "* -text -filter -ident !eol !working-tree-encoding\n";

/// One workspace's store.
#[derive(Debug, Clone)]
pub struct ShadowStore {
    dir: PathBuf,
    pub(super) workspace: PathBuf,
    /// The persistent index: the workspace's stat cache.
    index: PathBuf,
}

/// A checkpoint taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// The commit holding the files (the last one, when nothing changed).
    pub commit: String,
    /// Whether this checkpoint made a new commit.
    pub created: bool,
    /// Files left out: over [`MAX_FILE_BYTES`], or a repository of its own
    /// inside the workspace.
    pub skipped: Vec<Skipped>,
}

/// A file (or folder) a checkpoint left out, and why.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Skipped {
    /// A file over [`MAX_FILE_BYTES`], with its size.
    TooBig {
        /// Relative to the workspace.
        path: String,
        /// Its size in bytes.
        bytes: u64,
    },
    /// A folder that is a git repository of its own.
    Repository {
        /// Relative to the workspace.
        path: String,
    },
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Skipped::TooBig { path, bytes } => write!(
                f,
                "{path} ({:.1} MiB, over 10 MiB) is not checkpointed: a rewind leaves it as it is",
                *bytes as f64 / (1024.0 * 1024.0)
            ),
            Skipped::Repository { path } => write!(
                f,
                "{path} is a git repository of its own and is not checkpointed: a rewind leaves it as it is"
            ),
        }
    }
}

/// What the store's index says changed in the workspace.
#[derive(Default)]
struct Changes {
    add: Vec<Vec<u8>>,
    drop: Vec<Vec<u8>>,
    skipped: Vec<Skipped>,
}

impl ShadowStore {
    /// The store of `workspace` (canonical) under `checkpoints` (the
    /// checkpoints folder), created `0700` with private files when missing.
    pub fn open(checkpoints: &Path, workspace: &Path) -> Result<ShadowStore, CheckpointError> {
        let digest = Sha256::digest(workspace.as_os_str().as_encoded_bytes());
        let hex: String = digest[..12]
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        let name = workspace
            .file_name()
            .map(|name| {
                name.to_string_lossy()
                    .replace(|c: char| !c.is_alphanumeric(), "_")
            })
            .unwrap_or_default();
        let dir = checkpoints.join(format!("{name}-{hex}"));
        let store = ShadowStore {
            index: dir.join("index"),
            dir,
            workspace: workspace.to_path_buf(),
        };
        create_private_folder(checkpoints).map_err(CheckpointError::io("create", checkpoints))?;
        let _lock = store.lock()?;
        if !store.dir.join("HEAD").is_file() {
            store.create()?;
        }
        Ok(store)
    }

    /// The store's folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn create(&self) -> Result<(), CheckpointError> {
        let mut init = isolated_git();
        let args = [
            OsStr::new("init"),
            OsStr::new("--quiet"),
            OsStr::new("--bare"),
            OsStr::new("--shared=0600"),
            OsStr::new("--template="),
            self.dir.as_os_str(),
        ];
        init.args(args);
        super::git::run(init, &args, None)?;
        let git = self.git();
        for (name, value) in [
            ("gc.auto", "0"),
            ("core.fsmonitor", "false"),
            ("core.untrackedCache", "true"),
            ("core.autocrlf", "false"),
            ("core.symlinks", "true"),
            ("core.fileMode", "true"),
            // A smaller index, read and written without its checksum: most
            // of what a checkpoint with one changed file costs is the index.
            ("index.version", "4"),
            ("index.skipHash", "true"),
        ] {
            git.run_str(&["config", name, value])?;
        }
        let info = self.dir.join("info");
        create_private_folder(&info).map_err(CheckpointError::io("create", &info))?;
        self.write_private(&info.join("attributes"), BYTE_EXACT.as_bytes())?;
        self.write_private(&info.join("exclude"), self.own_state_excluded().as_bytes())?;
        let mut named = self.workspace.as_os_str().as_encoded_bytes().to_vec();
        named.push(b'\n');
        self.write_private(&self.dir.join("workspace"), &named)
    }

    /// AgentHub's own state folder, when it lies inside the workspace (a
    /// workspace that is the home folder): never checkpointed.
    fn own_state_excluded(&self) -> String {
        let state = agenthub_settings::xdg::state_folder().join("agenthub");
        match state.strip_prefix(&self.workspace) {
            Ok(inside) if !inside.as_os_str().is_empty() => {
                format!("/{}/\n", inside.display())
            }
            _ => String::new(),
        }
    }

    fn write_private(&self, path: &Path, content: &[u8]) -> Result<(), CheckpointError> {
        create_private_file(path)
            .and_then(|mut file| file.write_all(content))
            .map_err(CheckpointError::io("write", path))
    }

    /// Holds the store for one process at a time (sessions of one
    /// workspace, `agenthub rewind`), until dropped.
    pub(super) fn lock(&self) -> Result<File, CheckpointError> {
        let path = self.dir.with_extension("lock");
        let file = agenthub_settings::state_files::append_private_file(&path)
            .map_err(CheckpointError::io("open", &path))?;
        file.lock().map_err(CheckpointError::io("lock", &path))?;
        Ok(file)
    }

    /// The file naming the last commit and its tree while the index holds
    /// exactly that tree; removed before the index changes, so a checkpoint
    /// cut short is never mistaken for an unchanged one.
    fn head_file(&self) -> PathBuf {
        self.dir.join("agenthub-head")
    }

    pub(super) fn git(&self) -> Git<'_> {
        Git {
            store: &self.dir,
            workspace: &self.workspace,
            index: &self.index,
        }
    }

    /// Checkpoints the workspace's files: a new commit when they differ from
    /// the last checkpoint, else the last one again. `message` says why.
    pub fn snapshot(&self, message: &str) -> Result<Snapshot, CheckpointError> {
        let _lock = self.lock()?;
        let changes = self.stage()?;
        let changed = !changes.add.is_empty() || !changes.drop.is_empty();
        let head = self.read_head();
        if let (false, Some((commit, _))) = (changed, &head) {
            return Ok(Snapshot {
                commit: commit.clone(),
                created: false,
                skipped: changes.skipped,
            });
        }
        let git = self.git();
        let tree = git.line(&["write-tree"])?;
        let last = match head {
            Some(head) => Some(head),
            None => self.last_from_ref()?,
        };
        if let Some((commit, last_tree)) = &last {
            if *last_tree == tree {
                self.write_head(commit, &tree)?;
                return Ok(Snapshot {
                    commit: commit.clone(),
                    created: false,
                    skipped: changes.skipped,
                });
            }
        }
        let mut args = vec!["commit-tree", tree.as_str(), "-m", message];
        if let Some((parent, _)) = &last {
            args.extend(["-p", parent.as_str()]);
        }
        let commit = git.line(&args)?;
        self.write_ref(&commit)?;
        self.write_head(&commit, &tree)?;
        Ok(Snapshot {
            commit,
            created: true,
            skipped: changes.skipped,
        })
    }

    /// The tree of the workspace's files now, stored but not committed
    /// (what `rewind --list` compares the last point with).
    pub fn current_tree(&self) -> Result<String, CheckpointError> {
        let _lock = self.lock()?;
        self.stage()?;
        self.git().line(&["write-tree"])
    }

    /// Brings the index up to the workspace: the files git says differ from
    /// it are hashed again, dropped when gone, left out when too big.
    fn stage(&self) -> Result<Changes, CheckpointError> {
        let git = self.git();
        let listed = git.run_str(&[
            "ls-files",
            "-z",
            "-t",
            "-o",
            "-m",
            "-d",
            "--exclude-standard",
        ])?;
        let changes = self.sort_changes(&listed);
        if changes.add.is_empty() && changes.drop.is_empty() {
            return Ok(changes);
        }
        let head = self.head_file();
        if head.exists() {
            std::fs::remove_file(&head).map_err(CheckpointError::io("remove", &head))?;
        }
        if !changes.add.is_empty() {
            let input = nul_list(&changes.add);
            git.feed(
                &[
                    "update-index",
                    "-z",
                    "--add",
                    "--remove",
                    "--replace",
                    "--stdin",
                ],
                &input,
            )?;
        }
        if !changes.drop.is_empty() {
            let input = nul_list(&changes.drop);
            git.feed(&["update-index", "-z", "--force-remove", "--stdin"], &input)?;
        }
        Ok(changes)
    }

    /// `ls-files -t` output sorted into what to hash, what to drop, and
    /// what to leave out.
    fn sort_changes(&self, listed: &[u8]) -> Changes {
        let mut changes = Changes::default();
        for entry in listed
            .split(|byte| *byte == 0)
            .filter(|entry| entry.len() > 2)
        {
            let (tag, path) = (entry[0], entry[2..].to_vec());
            let text = String::from_utf8_lossy(&path).into_owned();
            if tag == b'R' {
                changes.drop.push(path);
                continue;
            }
            if path.ends_with(b"/") {
                let path = text.trim_end_matches('/').to_owned();
                changes.skipped.push(Skipped::Repository { path });
                continue;
            }
            let relative = Path::new(OsStr::from_bytes(&path));
            match std::fs::symlink_metadata(self.workspace.join(relative)) {
                _ if self.crosses_a_link(relative) => changes.drop.push(path), // gone behind a link
                Ok(meta) if meta.is_file() && meta.len() > MAX_FILE_BYTES => {
                    changes.skipped.push(Skipped::TooBig {
                        path: text,
                        bytes: meta.len(),
                    });
                    if tag != b'?' {
                        changes.drop.push(path);
                    }
                }
                Ok(_) => changes.add.push(path),
                Err(_) => changes.drop.push(path),
            }
        }
        changes
    }

    fn read_head(&self) -> Option<(String, String)> {
        let text = std::fs::read_to_string(self.head_file()).ok()?;
        let (commit, tree) = text.trim().split_once(' ')?;
        Some((commit.to_owned(), tree.to_owned()))
    }

    fn write_head(&self, commit: &str, tree: &str) -> Result<(), CheckpointError> {
        self.write_private(&self.head_file(), format!("{commit} {tree}\n").as_bytes())
    }

    /// Points the checkpoints ref at `commit` (a loose ref, written whole
    /// then renamed into place: one process less than `git update-ref` in
    /// the 50 ms budget; the store keeps no reflog).
    fn write_ref(&self, commit: &str) -> Result<(), CheckpointError> {
        let path = self.dir.join(CHECKPOINTS_REF);
        let folder = path.parent().unwrap_or(&self.dir);
        create_private_folder(folder).map_err(CheckpointError::io("create", folder))?;
        let written = path.with_extension("new");
        self.write_private(&written, format!("{commit}\n").as_bytes())?;
        std::fs::rename(&written, &path).map_err(CheckpointError::io("replace", &path))
    }

    /// The last checkpoint and its tree, from the ref (no head file yet).
    fn last_from_ref(&self) -> Result<Option<(String, String)>, CheckpointError> {
        let git = self.git();
        let Ok(commit) = git.line(&["rev-parse", "--verify", "--quiet", CHECKPOINTS_REF]) else {
            return Ok(None);
        };
        let tree = git.line(&["rev-parse", &format!("{commit}^{{tree}}")])?;
        Ok(Some((commit, tree)))
    }

    /// The files that differ between two checkpoints (commits or trees).
    pub fn changed_files(&self, from: &str, to: &str) -> Result<Vec<String>, CheckpointError> {
        let listed = self.git().run_str(&[
            "diff-tree",
            "-r",
            "-z",
            "--no-renames",
            "--name-only",
            from,
            to,
        ])?;
        Ok(listed
            .split(|byte| *byte == 0)
            .filter(|path| !path.is_empty())
            .map(|path| String::from_utf8_lossy(path).into_owned())
            .collect())
    }
}

/// Paths as NUL-terminated entries (git's `-z --stdin`).
pub(super) fn nul_list(paths: &[Vec<u8>]) -> Vec<u8> {
    let mut input = Vec::new();
    for path in paths {
        input.extend_from_slice(path);
        input.push(0);
    }
    input
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    /// A workspace and a checkpoints folder beside it.
    pub(crate) struct Place {
        _dir: tempfile::TempDir,
        pub(crate) workspace: PathBuf,
        checkpoints: PathBuf,
    }

    pub(crate) fn place() -> Place {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let workspace = root.join("ws");
        std::fs::create_dir(&workspace).unwrap();
        Place {
            _dir: dir,
            checkpoints: root.join("state/checkpoints"),
            workspace,
        }
    }

    impl Place {
        pub(crate) fn write(&self, rel: &str, bytes: &[u8]) {
            let path = self.workspace.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, bytes).unwrap();
        }

        pub(crate) fn store(&self) -> ShadowStore {
            ShadowStore::open(&self.checkpoints, &self.workspace).unwrap()
        }
    }

    #[test]
    fn a_checkpoint_of_unchanged_files_is_the_last_commit_again() {
        let place = place();
        place.write("a.txt", b"a");
        let store = place.store();
        let first = store.snapshot("one").unwrap();
        let second = store.snapshot("two").unwrap();
        assert_eq!(
            (first.created, second),
            (
                true,
                Snapshot {
                    commit: first.commit.clone(),
                    created: false,
                    skipped: Vec::new()
                }
            )
        );
    }

    #[test]
    fn ignored_files_and_files_over_ten_mebibytes_are_left_out_and_the_big_one_is_named() {
        let place = place();
        place.write(".gitignore", b"*.log\n");
        place.write("kept.txt", b"kept");
        place.write("noise.log", b"noise");
        place.write("big.bin", &vec![7u8; MAX_FILE_BYTES as usize + 1]);
        let store = place.store();
        let snapshot = store.snapshot("one").unwrap();
        let held = store
            .git()
            .run_str(&["ls-tree", "-r", "--name-only", &snapshot.commit])
            .unwrap();
        assert_eq!(
            (String::from_utf8(held).unwrap(), snapshot.skipped),
            (
                ".gitignore\nkept.txt\n".to_owned(),
                vec![Skipped::TooBig {
                    path: "big.bin".to_owned(),
                    bytes: MAX_FILE_BYTES + 1
                }]
            )
        );
    }

    #[test]
    fn the_store_is_private_and_outside_the_workspace() {
        let place = place();
        place.write("a.txt", b"a");
        let store = place.store();
        store.snapshot("one").unwrap();
        let mode = |path: &Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            (
                mode(&place.checkpoints),
                mode(store.dir()),
                mode(&store.dir().join("index")),
                place.workspace.join(".git").exists()
            ),
            (0o700, 0o700, 0o600, false)
        );
    }
}
