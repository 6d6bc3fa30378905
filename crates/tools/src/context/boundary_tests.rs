//! The boundary on a real temporary directory: `..`, absolute paths, sibling
//! prefixes, symlinks out, dangling links, symlinked parents, loops, bad bytes.

use super::*;
use crate::Workspace;
use std::os::unix::fs::symlink;
use tempfile::TempDir;

/// `<tmp>/proj` (the workspace), `<tmp>/proj-secrets/key` and `<tmp>/outside/x`.
struct Fixture {
    _dir: TempDir,
    base: PathBuf,
    workspace: Workspace,
}

fn fixture() -> Fixture {
    let dir = TempDir::new().unwrap();
    let base = dir.path().canonicalize().unwrap();
    fs::create_dir_all(base.join("proj/src")).unwrap();
    fs::write(base.join("proj/src/a.rs"), "a").unwrap();
    fs::create_dir_all(base.join("proj-secrets")).unwrap();
    fs::write(base.join("proj-secrets/key"), "secret").unwrap();
    fs::create_dir_all(base.join("outside")).unwrap();
    fs::write(base.join("outside/x"), "x").unwrap();
    let workspace = Workspace::new(base.join("proj"));
    Fixture {
        _dir: dir,
        base,
        workspace,
    }
}

impl Fixture {
    fn proj(&self, rest: &str) -> PathBuf {
        self.base.join("proj").join(rest)
    }

    fn roots(&self) -> String {
        self.base.join("proj").display().to_string()
    }

    fn outside(&self, path: PathBuf) -> BoundaryError {
        BoundaryError::Outside {
            path,
            roots: self.roots(),
        }
    }
}

#[test]
fn a_file_inside_resolves_to_itself() {
    let f = fixture();
    assert_eq!(
        f.workspace.check_inside("src/a.rs"),
        Ok(ResolvedPath {
            lexical: f.proj("src/a.rs"),
            real: f.proj("src/a.rs"),
            links: vec![],
        })
    );
}

#[test]
fn a_missing_file_inside_is_inside() {
    let f = fixture();
    let resolved = f.workspace.check_inside("new/dir/file.txt").unwrap();
    assert_eq!(resolved.real, f.proj("new/dir/file.txt"));
}

#[test]
fn dot_dot_out_of_the_workspace_is_outside() {
    let f = fixture();
    for path in ["../outside/x", "src/../../outside/x", "./../outside/x"] {
        assert_eq!(
            f.workspace.check_inside(path),
            Err(f.outside(f.base.join("outside/x"))),
            "{path}"
        );
    }
}

#[test]
fn an_absolute_path_outside_is_outside() {
    let f = fixture();
    assert_eq!(
        f.workspace.check_inside("/etc/passwd"),
        Err(f.outside(PathBuf::from("/etc/passwd")))
    );
    assert_eq!(
        f.workspace.check_inside("//etc/passwd"),
        Err(f.outside(PathBuf::from("/etc/passwd")))
    );
}

#[test]
fn a_sibling_with_the_same_prefix_is_outside() {
    let f = fixture();
    let sibling = f.base.join("proj-secrets/key");
    assert_eq!(
        f.workspace.check_inside(sibling.to_str().unwrap()),
        Err(f.outside(sibling))
    );
}

#[test]
fn a_symlink_to_a_directory_outside_is_refused_with_its_target() {
    let f = fixture();
    symlink(f.base.join("outside"), f.proj("link")).unwrap();
    assert_eq!(
        f.workspace.check_inside("link/x"),
        Err(BoundaryError::LinkOutside {
            path: f.proj("link/x"),
            target: f.base.join("outside/x"),
            roots: f.roots(),
        })
    );
}

#[test]
fn a_relative_symlink_climbing_out_is_refused() {
    let f = fixture();
    symlink("../proj-secrets/key", f.proj("key")).unwrap();
    assert_eq!(
        f.workspace.check_inside("key"),
        Err(BoundaryError::LinkOutside {
            path: f.proj("key"),
            target: f.base.join("proj-secrets/key"),
            roots: f.roots(),
        })
    );
}

#[test]
fn a_dangling_symlink_is_followed_textually() {
    let f = fixture();
    symlink(f.base.join("outside/not-yet"), f.proj("new")).unwrap();
    assert_eq!(
        f.workspace.check_inside("new"),
        Err(BoundaryError::LinkOutside {
            path: f.proj("new"),
            target: f.base.join("outside/not-yet"),
            roots: f.roots(),
        })
    );
}

#[test]
fn a_symlinked_parent_with_a_missing_leaf_is_refused() {
    let f = fixture();
    symlink(f.base.join("outside"), f.proj("d")).unwrap();
    assert_eq!(
        f.workspace.check_inside("d/x/y"),
        Err(BoundaryError::LinkOutside {
            path: f.proj("d/x/y"),
            target: f.base.join("outside/x/y"),
            roots: f.roots(),
        })
    );
}

#[test]
fn a_symlink_staying_inside_is_inside_and_reported() {
    let f = fixture();
    symlink("src", f.proj("alias")).unwrap();
    assert_eq!(
        f.workspace.check_inside("alias/a.rs"),
        Ok(ResolvedPath {
            lexical: f.proj("alias/a.rs"),
            real: f.proj("src/a.rs"),
            links: vec![f.proj("alias")],
        })
    );
}

#[test]
fn a_symlink_loop_is_refused_without_hanging() {
    let f = fixture();
    symlink(f.proj("l2"), f.proj("l1")).unwrap();
    symlink(f.proj("l1"), f.proj("l2")).unwrap();
    assert!(matches!(
        f.workspace.check_inside("l1"),
        Err(BoundaryError::LinkLoop(_))
    ));
}

#[test]
fn a_long_chain_ending_outside_is_refused() {
    let f = fixture();
    symlink(f.base.join("outside/x"), f.proj("c0")).unwrap();
    for hop in 1..=10 {
        symlink(format!("c{}", hop - 1), f.proj(&format!("c{hop}"))).unwrap();
    }
    assert!(matches!(
        f.workspace.check_inside("c10"),
        Err(BoundaryError::LinkOutside { .. })
    ));
}

#[test]
fn an_additional_root_is_inside() {
    let f = fixture();
    let workspace = f
        .workspace
        .clone()
        .with_additional_roots([f.base.join("outside")]);
    let path = f.base.join("outside/x");
    assert_eq!(
        workspace
            .check_inside(path.to_str().unwrap())
            .map(|r| r.real),
        Ok(path)
    );
}

#[test]
fn bad_characters_and_sizes_are_refused_before_the_disk() {
    let long_component = "a".repeat(300);
    let long_path = "a/".repeat(3000);
    let cases: Vec<(&str, BoundaryError)> = vec![
        ("", BoundaryError::Empty),
        ("a.txt\0/../../etc/passwd", BoundaryError::Nul),
        ("a\u{1b}[31m.txt", BoundaryError::ControlCharacter(0x1b)),
        ("a\rb", BoundaryError::ControlCharacter(0x0d)),
        (
            "evil\u{202e}txt.rs",
            BoundaryError::InvisibleCharacter(0x202e),
        ),
        ("a\u{200b}b", BoundaryError::InvisibleCharacter(0x200b)),
        (
            &long_component,
            BoundaryError::ComponentTooLong { length: 300 },
        ),
        (&long_path, BoundaryError::TooLong { length: 6000 }),
    ];
    let workspace = Workspace::new("/w/proj");
    for (path, expected) in cases {
        assert_eq!(workspace.check_inside(path), Err(expected), "{path:?}");
    }
}

#[test]
fn a_link_to_a_proc_magic_link_resolves_outside() {
    let f = fixture();
    symlink("/proc/self/root", f.proj("root")).unwrap();
    assert_eq!(
        f.workspace
            .check_inside("root/etc/passwd")
            .map_err(|e| match e {
                BoundaryError::LinkOutside { target, .. } => target,
                other => PathBuf::from(other.to_string()),
            }),
        Err(PathBuf::from("/etc/passwd"))
    );
}
