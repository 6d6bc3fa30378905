//! AgentHub's own state on disk — transcripts, the trust store, the prompt
//! history, files of output too long for the model — is the user's private
//! business (contract §26): every file is created `0600` and every folder AgentHub
//! creates for it `0700`, whatever the umask.
//!
//! It must never loosen a permission, and never touch a folder it did not
//! create except to make it private when it is the state folder itself.

use std::fs::{DirBuilder, File, OpenOptions};
use std::io;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::Path;

/// The mode of a state file: read and write for the owner only.
pub const PRIVATE_FILE_MODE: u32 = 0o600;

/// The mode of a state folder: the owner only.
pub const PRIVATE_FOLDER_MODE: u32 = 0o700;

/// Creates `folder` and its missing parents, each new one `0700`; an
/// existing `folder` is left as it is.
pub fn create_private_folder(folder: &Path) -> io::Result<()> {
    DirBuilder::new()
        .recursive(true)
        .mode(PRIVATE_FOLDER_MODE)
        .create(folder)
}

/// Creates (or truncates) `path` as a private file, creating its folder
/// first ([`create_private_folder`]). An existing file is made `0600` too.
pub fn create_private_file(path: &Path) -> io::Result<File> {
    if let Some(folder) = path
        .parent()
        .filter(|folder| !folder.as_os_str().is_empty())
    {
        create_private_folder(folder)?;
    }
    let file = OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(PRIVATE_FILE_MODE)
        .open(path)?;
    make_private(&file)?;
    Ok(file)
}

/// Opens `path` to add to it, creating it private when it is missing.
pub fn append_private_file(path: &Path) -> io::Result<File> {
    if let Some(folder) = path
        .parent()
        .filter(|folder| !folder.as_os_str().is_empty())
    {
        create_private_folder(folder)?;
    }
    OpenOptions::new()
        .append(true)
        .create(true)
        .mode(PRIVATE_FILE_MODE)
        .open(path)
}

/// Takes group and other permissions off an open file AgentHub writes.
fn make_private(file: &File) -> io::Result<()> {
    let mode = file.metadata()?.permissions().mode();
    if mode & 0o077 != 0 {
        file.set_permissions(std::fs::Permissions::from_mode(mode & 0o700))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn a_new_file_is_0600_in_new_folders_that_are_0700() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state/agenthub/t.jsonl");
        create_private_file(&path).unwrap();
        assert_eq!(
            [
                mode(&path),
                mode(&dir.path().join("state/agenthub")),
                mode(&dir.path().join("state"))
            ],
            [0o600, 0o700, 0o700]
        );
    }

    #[test]
    fn an_existing_world_readable_file_is_made_private_when_rewritten() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("trust.json");
        std::fs::write(&path, "{}").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        create_private_file(&path).unwrap();
        assert_eq!(mode(&path), 0o600);
    }

    #[test]
    fn an_appended_file_is_created_0600() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history");
        append_private_file(&path).unwrap();
        assert_eq!(mode(&path), 0o600);
    }
}
