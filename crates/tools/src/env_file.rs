//! `CLAUDE_ENV_FILE`'s place (contract §21, §28): one file per session, in
//! a folder of its own with a random name, mode `0700`, the file created
//! exclusively (never opened if something already stands there) with mode
//! `0600`. The folder goes away with its [`EnvFile`] — when the session's
//! [`ProcessEnv`](crate::ProcessEnv) is dropped or the session ends — so a
//! later or resumed session never reads what an earlier one (or anyone else)
//! left there. Bash cannot write it: the temp dir is outside the sandbox's
//! writable roots, and [`Workspace::sandbox`](crate::Workspace::sandbox)
//! adds the folder to the protected paths for when a root holds the temp
//! dir (bubblewrap binds it read-only; the Landlock fallback, which cannot
//! carve a read-only path out of a writable root, does not).
//!
//! It never reads the file: the hooks that write it hand its text to bash.

use std::fs::{OpenOptions, Permissions};
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use tempfile::TempDir;
use thiserror::Error;

/// Why the session's env file could not be made.
#[derive(Debug, Error)]
#[error("cannot create the session's CLAUDE_ENV_FILE ({step}): {source}")]
pub struct EnvFileError {
    step: &'static str,
    #[source]
    source: std::io::Error,
}

/// The session's env file and its private folder, removed on drop.
#[derive(Debug)]
pub(crate) struct EnvFile {
    folder: TempDir,
    file: PathBuf,
}

impl EnvFile {
    /// A new, empty env file in a new private folder of the temp dir.
    pub(crate) fn create() -> Result<EnvFile, EnvFileError> {
        let failed = |step| move |source| EnvFileError { step, source };
        let folder = tempfile::Builder::new()
            .prefix("agenthub-env-")
            .tempdir()
            .map_err(failed("make its folder"))?;
        std::fs::set_permissions(folder.path(), Permissions::from_mode(0o700))
            .map_err(failed("make its folder private"))?;
        let file = folder.path().join("env");
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&file)
            .map_err(failed("create the file"))?;
        Ok(EnvFile { folder, file })
    }

    /// The file hooks append to.
    pub(crate) fn file(&self) -> &Path {
        &self.file
    }

    /// The private folder holding it.
    pub(crate) fn folder(&self) -> &Path {
        self.folder.path()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    #[test]
    fn the_file_is_empty_0600_in_a_0700_folder_of_its_own_with_a_random_name() {
        let first = EnvFile::create().unwrap();
        let second = EnvFile::create().unwrap();
        let mode = |path: &Path| std::fs::symlink_metadata(path).unwrap().mode() & 0o7777;
        assert_eq!(
            (
                mode(first.folder()),
                mode(first.file()),
                std::fs::read(first.file()).unwrap(),
                first.file().parent() == Some(first.folder()),
                first.folder() == second.folder()
            ),
            (0o700, 0o600, Vec::new(), true, false)
        );
    }

    #[test]
    fn dropping_it_removes_the_file_and_its_folder() {
        let env_file = EnvFile::create().unwrap();
        let folder = env_file.folder().to_path_buf();
        std::fs::write(env_file.file(), "export A=1\n").unwrap();
        drop(env_file);
        assert!(!folder.exists());
    }
}
