//! The link rule's tests: which paths `inside_tree` lets through, what the
//! one walk finds, and which tree a workspace's files must stay in.

use super::*;
use std::os::unix::fs::symlink;

/// `<tmp>/repo` (the tree, with `inside.md`) beside `<tmp>/home/.ssh/id_ed25519`.
struct Case {
    _dir: tempfile::TempDir,
    base: PathBuf,
}

impl Case {
    fn new() -> Case {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(base.join("repo/docs")).unwrap();
        std::fs::create_dir_all(base.join("home/.ssh")).unwrap();
        std::fs::write(base.join("repo/docs/inside.md"), "inside").unwrap();
        std::fs::write(base.join("home/.ssh/id_ed25519"), "SECRET KEY").unwrap();
        Case { _dir: dir, base }
    }

    fn tree(&self) -> PathBuf {
        self.base.join("repo")
    }

    fn link(&self, target: &str, link: &str) -> PathBuf {
        let path = self.tree().join(link);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        symlink(target, &path).unwrap();
        path
    }
}

#[test]
fn inside_tree_lets_links_inside_through_and_sets_every_other_aside() {
    let case = Case::new();
    let secret = case.base.join("home/.ssh/id_ed25519");
    let inside = case.link("../docs/inside.md", "skills/inside.md");
    let outside = case.link(secret.to_str().unwrap(), "skills/key.md");
    let linked_folder = case.link(case.base.join("home").to_str().unwrap(), "agents");
    let under_linked = linked_folder.join(".ssh/id_ed25519");
    let dangling = case.link("../nowhere.md", "skills/gone.md");
    let root = case.link("..", "commands/root");
    let plain = case.tree().join("docs/inside.md");
    let table: Vec<(&Path, Result<PathBuf, LinkOut>)> = vec![
        (&plain, Ok(plain.clone())),
        (&inside, Ok(plain.clone())),
        (
            &outside,
            Err(LinkOut::Outside {
                path: outside.clone(),
                tree: case.tree(),
                target: secret.clone(),
            }),
        ),
        (
            &under_linked,
            Err(LinkOut::Outside {
                path: under_linked.clone(),
                tree: case.tree(),
                target: secret.clone(),
            }),
        ),
        (
            &dangling,
            Err(LinkOut::Unresolvable {
                path: dangling.clone(),
                message: "No such file or directory (os error 2)".to_owned(),
            }),
        ),
        (&root, Ok(case.tree())),
    ];
    for (path, expected) in table {
        assert_eq!(
            inside_tree(&case.tree(), path),
            expected,
            "{}",
            path.display()
        );
    }
}

#[test]
fn a_project_walk_finds_files_inside_and_sets_aside_links_out_naming_them() {
    let case = Case::new();
    let secret = case.base.join("home/.ssh/id_ed25519");
    std::fs::create_dir_all(case.tree().join("commands/git")).unwrap();
    std::fs::write(case.tree().join("commands/git/commit.md"), "Commit.").unwrap();
    let alias = case.link("../docs/inside.md", "commands/alias.md");
    let key = case.link(secret.to_str().unwrap(), "commands/key.md");
    let walked = walk(
        &case.tree().join("commands"),
        Shape::Markdown,
        &LinkRule::Inside(case.tree()),
    );
    assert_eq!(
        walked,
        Walk {
            files: vec![alias, case.tree().join("commands/git/commit.md")],
            links_out: vec![LinkOut::Outside {
                path: key,
                tree: case.tree(),
                target: secret,
            }],
            unreadable: Vec::new(),
        }
    );
}

#[test]
fn a_linked_folder_leading_out_is_set_aside_whole_and_a_users_walk_follows_it() {
    let case = Case::new();
    std::fs::create_dir_all(case.base.join("home/skills/keys")).unwrap();
    std::fs::write(case.base.join("home/skills/keys/SKILL.md"), "Keys.").unwrap();
    let folder = case.link(case.base.join("home/skills").to_str().unwrap(), "skills");
    let project = walk(&folder, Shape::Skills, &LinkRule::Inside(case.tree()));
    let user = walk(&folder, Shape::Skills, &LinkRule::FollowAll);
    assert_eq!(
        (project, user.files),
        (
            Walk {
                files: Vec::new(),
                links_out: vec![LinkOut::Outside {
                    path: folder.clone(),
                    tree: case.tree(),
                    target: case.base.join("home/skills"),
                }],
                unreadable: Vec::new(),
            },
            vec![folder.join("keys/SKILL.md")]
        )
    );
}

#[test]
fn a_skill_folder_linking_out_is_set_aside_by_its_skill_file() {
    let case = Case::new();
    std::fs::create_dir_all(case.base.join("home/keys")).unwrap();
    std::fs::write(case.base.join("home/keys/SKILL.md"), "Keys.").unwrap();
    std::fs::create_dir_all(case.tree().join("skills/ok")).unwrap();
    std::fs::write(case.tree().join("skills/ok/SKILL.md"), "Ok.").unwrap();
    let keys = case.link(case.base.join("home/keys").to_str().unwrap(), "skills/keys");
    let walked = walk(
        &case.tree().join("skills"),
        Shape::Skills,
        &LinkRule::Inside(case.tree()),
    );
    assert_eq!(
        walked,
        Walk {
            files: vec![case.tree().join("skills/ok/SKILL.md")],
            links_out: vec![LinkOut::Outside {
                path: keys.join("SKILL.md"),
                tree: case.tree(),
                target: case.base.join("home/keys/SKILL.md"),
            }],
            unreadable: Vec::new(),
        }
    );
}

#[test]
fn a_workspaces_tree_is_its_repository_unless_that_repository_holds_the_home() {
    let table = [
        ("/w/repo/sub", Some("/w/repo"), Some("/home/u"), "/w/repo"),
        (
            "/home/u/proj",
            Some("/home/u/proj"),
            Some("/home/u"),
            "/home/u/proj",
        ),
        (
            "/home/u/proj",
            Some("/home/u"),
            Some("/home/u"),
            "/home/u/proj",
        ),
        ("/home/u/proj", Some("/"), Some("/home/u"), "/home/u/proj"),
        ("/w/plain", None, Some("/home/u"), "/w/plain"),
        ("/w/repo/sub", Some("/w/repo"), None, "/w/repo"),
    ];
    for (workspace, repository, home, expected) in table {
        assert_eq!(
            tree_for(
                Path::new(workspace),
                repository.map(PathBuf::from),
                home.map(Path::new)
            ),
            PathBuf::from(expected),
            "{workspace} in {repository:?}, home {home:?}"
        );
    }
}
