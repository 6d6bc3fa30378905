//! Tests of the search root and the verified parallel walk.

use super::*;

/// Every file the walk lists under `dir` (relative, sorted).
fn listed(workspace: &Workspace, path: Option<&str>) -> Vec<String> {
    let root = SearchRoot::check(workspace, path).unwrap();
    let mut names = root
        .walk(
            workspace,
            WalkFilters::default(),
            || (),
            |(), mut file| file.stat().map(|_| file.shown),
        )
        .unwrap()
        .into_iter()
        .map(|shown| {
            shown
                .strip_prefix(workspace.root())
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect::<Vec<_>>();
    names.sort();
    names
}

#[test]
fn gitignored_files_and_the_git_folder_are_skipped_without_a_repository() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::write(root.join(".gitignore"), "target/\n*.log\n").unwrap();
    for folder in ["target", ".git", "src"] {
        std::fs::create_dir_all(root.join(folder)).unwrap();
    }
    for file in [
        "target/out.rs",
        ".git/config",
        "debug.log",
        "src/main.rs",
        ".env",
    ] {
        std::fs::write(root.join(file), "").unwrap();
    }
    assert_eq!(
        listed(&Workspace::new(root), None),
        vec![".env", ".gitignore", "src/main.rs"]
    );
}

#[test]
fn fifos_and_sockets_are_not_listed() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = std::ffi::CString::new(dir.path().join("pipe").to_str().unwrap()).unwrap();
    // SAFETY: a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let _socket = std::os::unix::net::UnixListener::bind(dir.path().join("sock")).unwrap();
    std::fs::write(dir.path().join("a.txt"), "").unwrap();
    assert_eq!(listed(&Workspace::new(dir.path()), None), vec!["a.txt"]);
}

fn search_root(dir: &tempfile::TempDir, path: &str) -> Result<SearchRoot, SearchRootError> {
    SearchRoot::check(&Workspace::new(dir.path()), Some(path))
}

#[test]
fn a_missing_root_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nope");
    assert_eq!(
        search_root(&dir, "nope").unwrap().require_directory(),
        Err(SearchRootError::Missing { path })
    );
}

#[test]
fn a_file_root_is_not_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    std::fs::write(&path, "").unwrap();
    assert_eq!(
        search_root(&dir, "f").unwrap().require_directory(),
        Err(SearchRootError::NotADirectory { path })
    );
}

#[test]
fn files_the_read_guard_refuses_are_not_listed() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join(".env"), "").unwrap();
    std::fs::write(dir.path().join("a.txt"), "").unwrap();
    let guard: crate::ReadGuard = std::sync::Arc::new(|path: &Path| !path.ends_with(".env"));
    let workspace = Workspace::new(dir.path()).with_read_guard(guard);
    assert_eq!(listed(&workspace, None), vec!["a.txt"]);
}

#[test]
fn files_in_nested_folders_are_listed_under_the_named_root() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("a/b/c")).unwrap();
    std::fs::write(dir.path().join("a/b/c/deep.txt"), "").unwrap();
    std::fs::write(dir.path().join("a/top.txt"), "").unwrap();
    assert_eq!(
        listed(&Workspace::new(dir.path()), Some("a")),
        vec!["a/b/c/deep.txt", "a/top.txt"]
    );
}
