//! Opening at use time on a real temporary directory, including paths swapped
//! for symlinks after the check (TOCTOU) and hard links to files outside.

use super::*;
use crate::Workspace;
use std::fs;
use std::io::{Read, Write};
use std::os::unix::fs::symlink;
use tempfile::TempDir;

struct Fixture {
    _dir: TempDir,
    base: PathBuf,
    workspace: Workspace,
}

fn fixture() -> Fixture {
    let dir = TempDir::new().unwrap();
    let base = dir.path().canonicalize().unwrap();
    fs::create_dir_all(base.join("proj/a")).unwrap();
    fs::write(base.join("proj/a/f"), "inside").unwrap();
    fs::create_dir_all(base.join("outside")).unwrap();
    fs::write(base.join("outside/f"), "outside").unwrap();
    let workspace = Workspace::new(base.join("proj"));
    Fixture {
        _dir: dir,
        base,
        workspace,
    }
}

fn read_all(mut file: File) -> String {
    let mut text = String::new();
    file.read_to_string(&mut text).unwrap();
    text
}

#[test]
fn reading_a_file_inside_returns_its_content() {
    let f = fixture();
    assert_eq!(
        read_all(f.workspace.open_for_read("a/f").unwrap()),
        "inside"
    );
}

#[test]
fn writing_creates_missing_parents_when_asked() {
    let f = fixture();
    f.workspace
        .write_bytes("new/dir/g.txt", b"hello", Parents::Create)
        .unwrap();
    assert_eq!(
        fs::read_to_string(f.base.join("proj/new/dir/g.txt")).unwrap(),
        "hello"
    );
}

#[test]
fn writing_into_a_missing_directory_fails_unless_asked() {
    let f = fixture();
    let error = f
        .workspace
        .write_bytes("missing/g.txt", b"x", Parents::MustExist)
        .unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::NotFound);
}

#[test]
fn writing_replaces_the_whole_content() {
    let f = fixture();
    f.workspace
        .write_bytes("a/f", b"new", Parents::MustExist)
        .unwrap();
    assert_eq!(fs::read_to_string(f.base.join("proj/a/f")).unwrap(), "new");
}

#[test]
fn a_path_outside_is_refused_with_the_boundary_reason() {
    let f = fixture();
    let error = f.workspace.open_for_read("../outside/f").unwrap_err();
    assert_eq!(
        (error.kind(), error.to_string()),
        (
            io::ErrorKind::PermissionDenied,
            format!(
                "{} is outside the workspace ({})",
                f.base.join("outside/f").display(),
                f.base.join("proj").display()
            )
        )
    );
}

#[test]
fn a_directory_swapped_for_a_symlink_after_the_check_cannot_be_written_through() {
    let f = fixture();
    let roots = f.workspace.roots();
    let checked = f.workspace.check_inside("a/f").unwrap();
    fs::remove_dir_all(f.base.join("proj/a")).unwrap();
    symlink(f.base.join("outside"), f.base.join("proj/a")).unwrap();
    let error = open_write(&roots, &checked.real, Parents::MustExist).unwrap_err();
    assert_eq!(error.raw_os_error(), Some(libc::ENOTDIR));
    assert_eq!(
        fs::read_to_string(f.base.join("outside/f")).unwrap(),
        "outside"
    );
}

#[test]
fn a_file_swapped_for_a_symlink_after_the_check_cannot_be_read_through() {
    let f = fixture();
    let roots = f.workspace.roots();
    let checked = f.workspace.check_inside("a/f").unwrap();
    fs::remove_file(f.base.join("proj/a/f")).unwrap();
    symlink(f.base.join("outside/f"), f.base.join("proj/a/f")).unwrap();
    let error = open_read(&roots, &checked.real).unwrap_err();
    assert_eq!(error.raw_os_error(), Some(libc::ELOOP));
}

#[test]
fn a_dangling_symlink_to_outside_is_not_created_through() {
    let f = fixture();
    symlink(f.base.join("outside/planted"), f.base.join("proj/new")).unwrap();
    let error = f
        .workspace
        .write_bytes("new", b"x", Parents::MustExist)
        .unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::PermissionDenied);
    assert!(!f.base.join("outside/planted").exists());
}

#[test]
fn a_hard_link_to_a_file_outside_is_not_written_through() {
    let f = fixture();
    fs::hard_link(f.base.join("outside/f"), f.base.join("proj/h")).unwrap();
    let error = f
        .workspace
        .write_bytes("h", b"owned", Parents::MustExist)
        .unwrap_err();
    assert_eq!(error.kind(), io::ErrorKind::PermissionDenied);
    assert_eq!(
        fs::read_to_string(f.base.join("outside/f")).unwrap(),
        "outside"
    );
}

#[test]
fn a_workspace_root_is_not_a_file_to_write() {
    let f = fixture();
    let mut_error = f
        .workspace
        .open_for_write(".", Parents::MustExist)
        .unwrap_err();
    assert_eq!(mut_error.kind(), io::ErrorKind::InvalidInput);
}

#[test]
fn the_opened_file_is_writable() {
    let f = fixture();
    let mut file = f
        .workspace
        .open_for_write("w.txt", Parents::MustExist)
        .unwrap();
    file.write_all(b"ok").unwrap();
    drop(file);
    assert_eq!(fs::read_to_string(f.base.join("proj/w.txt")).unwrap(), "ok");
}
