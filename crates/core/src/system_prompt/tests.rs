use super::*;
use agenthub_settings::links::LinkOut;
use std::path::Path;

const DATE: Date = Date {
    year: 2025,
    month: 6,
    day: 1,
};

/// A temporary tree: `<tmp>/repo` (with `.git` when asked) holding the
/// workspace `<tmp>/repo/app/ws`, and the user's folder `<tmp>/config/agenthub`.
struct Tree {
    dir: tempfile::TempDir,
}

impl Tree {
    fn new(git: bool) -> Tree {
        let tree = Tree {
            dir: tempfile::tempdir().unwrap(),
        };
        std::fs::create_dir_all(tree.workspace()).unwrap();
        std::fs::create_dir_all(tree.user_config()).unwrap();
        if git {
            std::fs::create_dir(tree.repo().join(".git")).unwrap();
        }
        tree
    }

    fn root(&self) -> PathBuf {
        self.dir.path().canonicalize().unwrap()
    }

    fn repo(&self) -> PathBuf {
        self.root().join("repo")
    }

    fn workspace(&self) -> PathBuf {
        self.repo().join("app/ws")
    }

    fn user_config(&self) -> PathBuf {
        self.root().join("config/agenthub")
    }

    fn write(&self, path: &Path, text: &str) {
        std::fs::write(path, text).unwrap();
    }

    fn sources(&self) -> PromptSources {
        PromptSources {
            workspace: self.workspace(),
            user_config: Some(self.user_config()),
            date: DATE,
            platform: "linux x86_64".to_owned(),
            project_memory: ProjectMemory::Load,
        }
    }

    fn environment(&self, repository: Option<PathBuf>) -> String {
        Environment {
            workspace: self.workspace(),
            platform: "linux x86_64".to_owned(),
            date: DATE,
            repository,
        }
        .render()
    }
}

#[test]
fn days_since_the_epoch_become_calendar_dates() {
    let dates: Vec<String> = [0, -1, 11_016, 19_723, 20_240, 2_932_896]
        .into_iter()
        .map(|days| Date::from_days_since_epoch(days).to_string())
        .collect();
    assert_eq!(
        dates,
        vec![
            "1970-01-01",
            "1969-12-31",
            "2000-02-29",
            "2024-01-01",
            "2025-06-01",
            "9999-12-31"
        ]
    );
}

#[test]
fn the_environment_names_workspace_platform_date_and_repository() {
    let environment = Environment {
        workspace: PathBuf::from("/src/app"),
        platform: "linux x86_64".to_owned(),
        date: DATE,
        repository: Some(PathBuf::from("/src")),
    };
    assert_eq!(
        environment.render(),
        "# Environment\n\
         - Workspace: /src/app\n\
         - Platform: linux x86_64\n\
         - Today's date: 2025-06-01\n\
         - Git repository: yes (root: /src)"
    );
}

#[test]
fn memory_files_come_from_the_user_then_the_repository_root_down_to_the_workspace() {
    let tree = Tree::new(true);
    tree.write(&tree.user_config().join("AGENTS.md"), "user rules\n");
    tree.write(&tree.root().join("AGENTS.md"), "outside the repository");
    tree.write(&tree.repo().join("AGENTS.md"), "repo rules\n");
    tree.write(&tree.repo().join("app/CLAUDE.md"), "app rules\n");
    tree.write(&tree.workspace().join("CLAUDE.md"), "ws claude\n");
    tree.write(&tree.workspace().join("AGENTS.md"), "ws agents\n");
    let prompt = SystemPrompt::gather(&tree.sources());
    let expected = [
        tree.environment(Some(tree.repo())),
        format!(
            "# Memory: {}\n\nuser rules",
            tree.user_config().join("AGENTS.md").display()
        ),
        format!(
            "# Memory: {}\n\nrepo rules",
            tree.repo().join("AGENTS.md").display()
        ),
        format!(
            "# Memory: {}\n\napp rules",
            tree.repo().join("app/CLAUDE.md").display()
        ),
        format!(
            "# Memory: {}\n\nws agents",
            tree.workspace().join("AGENTS.md").display()
        ),
        format!(
            "# Memory: {}\n\nws claude",
            tree.workspace().join("CLAUDE.md").display()
        ),
    ];
    assert_eq!(prompt.workspace_context(), expected.join("\n\n"));
    assert_eq!(prompt.system_message(), BUILT_IN_PROMPT.trim());
}

#[test]
fn outside_a_repository_only_the_workspace_memory_files_are_read() {
    let tree = Tree::new(false);
    tree.write(&tree.repo().join("AGENTS.md"), "a parent folder's rules");
    tree.write(&tree.workspace().join("AGENTS.md"), "ws agents");
    let prompt = SystemPrompt::gather(&PromptSources {
        user_config: None,
        ..tree.sources()
    });
    assert_eq!(
        prompt.memory,
        vec![MemoryFile {
            path: tree.workspace().join("AGENTS.md"),
            content: "ws agents".to_owned(),
            cut_from: None,
        }]
    );
}

#[test]
fn replaced_instructions_and_appended_text_form_the_system_message_and_keep_the_workspace_context()
{
    let tree = Tree::new(false);
    tree.write(&tree.workspace().join("CLAUDE.md"), "ws claude");
    let prompt = SystemPrompt::gather(&tree.sources())
        .replace_instructions(Some("You review code.".to_owned()))
        .append(Some("Answer in French.\n".to_owned()));
    assert_eq!(
        prompt.system_message(),
        "You review code.\n\nAnswer in French."
    );
    let context = [
        tree.environment(None),
        format!(
            "# Memory: {}\n\nws claude",
            tree.workspace().join("CLAUDE.md").display()
        ),
    ];
    assert_eq!(prompt.workspace_context(), context.join("\n\n"));
}

#[test]
fn an_empty_replacement_leaves_no_system_message() {
    let tree = Tree::new(false);
    let prompt = SystemPrompt::gather(&tree.sources()).replace_instructions(Some(String::new()));
    assert_eq!(prompt.system_message(), "");
}

#[test]
fn two_workspaces_with_different_memory_and_git_share_the_system_message() {
    let (plain, repo) = (Tree::new(false), Tree::new(true));
    repo.write(&repo.workspace().join("AGENTS.md"), "repo rules");
    let first = SystemPrompt::gather(&plain.sources());
    let second = SystemPrompt::gather(&repo.sources());
    assert_eq!(first.system_message(), second.system_message());
    assert_ne!(first.workspace_context(), second.workspace_context());
}

#[test]
fn a_memory_file_over_the_limit_is_cut_with_a_note() {
    let tree = Tree::new(false);
    let big = format!("{}é", "a".repeat(MEMORY_FILE_LIMIT - 1));
    tree.write(&tree.workspace().join("AGENTS.md"), &big);
    let memory = SystemPrompt::gather(&tree.sources()).memory;
    let file = MemoryFile {
        path: tree.workspace().join("AGENTS.md"),
        content: "a".repeat(MEMORY_FILE_LIMIT - 1),
        cut_from: Some(MEMORY_FILE_LIMIT as u64 + 1),
    };
    assert_eq!(memory, vec![file.clone()]);
    assert_eq!(
        file.render(),
        format!(
            "# Memory: {}\n\n{}\n\n[AgentHub cut this file: it has 40961 bytes; only the first 40960 are shown.]",
            tree.workspace().join("AGENTS.md").display(),
            "a".repeat(MEMORY_FILE_LIMIT - 1)
        )
    );
}

#[cfg(unix)]
#[test]
fn a_memory_file_linking_out_of_its_tree_and_an_empty_one_are_skipped() {
    let tree = Tree::new(true);
    let secret = tree.root().join("secret.txt");
    tree.write(&secret, "do not send");
    std::os::unix::fs::symlink(&secret, tree.workspace().join("AGENTS.md")).unwrap();
    tree.write(&tree.workspace().join("CLAUDE.md"), " \n");
    tree.write(&tree.repo().join("shared.md"), "shared rules");
    std::os::unix::fs::symlink(tree.repo().join("shared.md"), tree.repo().join("CLAUDE.md"))
        .unwrap();
    let memory = SystemPrompt::gather(&tree.sources()).memory;
    assert_eq!(
        memory,
        vec![MemoryFile {
            path: tree.repo().join("CLAUDE.md"),
            content: "shared rules".to_owned(),
            cut_from: None,
        }]
    );
}

#[cfg(unix)]
#[test]
fn the_users_own_memory_file_may_link_anywhere_and_a_projects_not_out_of_its_repository() {
    let tree = Tree::new(true);
    let dotfiles = tree.root().join("dotfiles/AGENTS.md");
    std::fs::create_dir_all(tree.root().join("dotfiles")).unwrap();
    tree.write(&dotfiles, "user rules from dotfiles");
    std::os::unix::fs::symlink(&dotfiles, tree.user_config().join("AGENTS.md")).unwrap();
    std::os::unix::fs::symlink(&dotfiles, tree.repo().join("AGENTS.md")).unwrap();
    let memory = SystemPrompt::gather(&tree.sources()).memory;
    assert_eq!(
        (
            memory,
            project_memory_links_out(&tree.workspace(), Some(&tree.repo()))
        ),
        (
            vec![MemoryFile {
                path: tree.user_config().join("AGENTS.md"),
                content: "user rules from dotfiles".to_owned(),
                cut_from: None,
            }],
            vec![LinkOut::Outside {
                path: tree.repo().join("AGENTS.md"),
                tree: tree.repo(),
                target: dotfiles,
            }]
        )
    );
}

#[test]
fn set_aside_project_memory_leaves_only_the_users_own_file() {
    let tree = Tree::new(true);
    tree.write(&tree.user_config().join("AGENTS.md"), "user rules\n");
    tree.write(&tree.repo().join("AGENTS.md"), "repo rules\n");
    tree.write(&tree.workspace().join("CLAUDE.md"), "ws claude\n");
    let prompt = SystemPrompt::gather(&PromptSources {
        project_memory: ProjectMemory::SetAside,
        ..tree.sources()
    });
    assert_eq!(
        prompt.memory,
        vec![MemoryFile {
            path: tree.user_config().join("AGENTS.md"),
            content: "user rules\n".to_owned(),
            cut_from: None,
        }]
    );
}

#[test]
fn project_memory_paths_are_the_existing_files_from_the_repository_root_down() {
    let tree = Tree::new(true);
    tree.write(&tree.repo().join("CLAUDE.md"), "repo");
    tree.write(&tree.workspace().join("AGENTS.md"), "ws");
    std::fs::create_dir(tree.workspace().join("CLAUDE.md")).unwrap();
    assert_eq!(
        project_memory_paths(&tree.workspace(), Some(&tree.repo())),
        vec![
            tree.repo().join("CLAUDE.md"),
            tree.workspace().join("AGENTS.md")
        ]
    );
}
