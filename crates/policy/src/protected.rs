//! Protected paths inside the workspace: version-control metadata, agent and
//! editor configuration, shell start-up files — files whose change runs code
//! later (git hooks, `core.fsmonitor`, `.bashrc`, hook settings). A write to
//! one needs a person's approval in every mode but bypassPermissions (contract
//! §11; acceptEdits included), whether Write/Edit or a Bash command writes
//! it, and dontAsk denies it. Allow rules and hook allows never pre-approve it.
//!
//! This is the one list of protected names: [`protected_name_rules`] hands
//! it to the sandbox too (read-only binds, new names undone), and both judge
//! a path with [`ProtectedNames::judge`], so a write the sandbox lets through
//! is one this module does not protect, and the other way round (§29).
//! Inside `.git` only what everyday git writes is writable; inside `.claude`
//! and `.agenthub` only the settings and the folders of code and prompts
//! stay protected.
//!
//! Names are compared case-insensitively below the workspace root, so `.GIT`
//! is protected too on case-insensitive file systems. Reading them is not
//! restricted here (deny rules can do that).

use agenthub_sandbox::{Content, FolderRule, Judgement, ProtectedNames, Within};
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;

/// Directories whose whole content is protected.
const PROTECTED_DIRS: [&str; 7] = [
    ".vscode",
    ".idea",
    ".husky",
    ".cargo",
    ".devcontainer",
    ".yarn",
    ".mvn",
];

/// The repository folder, judged entry by entry: [`GIT_WRITABLE`] is
/// writable, everything else (`config`, `hooks/`, `info/`, `modules/`,
/// `worktrees/`, `commondir`, any new name) protected. A `.git` the command
/// creates (`git init`) is protected whole: a repository's configuration
/// cannot be written sandboxed.
const GIT_FOLDER: &str = ".git";

/// What everyday git (`add`, `commit`, `checkout -b`, `stash`, `rebase`,
/// `merge`, `cherry-pick`, `gc --auto`) writes inside `.git`, each with its
/// `*.lock` file; `*` ends a prefix. Besides §29's list: `REVERT_HEAD`
/// (revert's twin of `CHERRY_PICK_HEAD`), `index.stash.*` (stash's
/// temporary index), `packed-refs.new` (`pack-refs`), and `gc.pid` and
/// `gc.log` (`gc --auto`'s lock and its last error). None of them is read
/// as configuration or run.
const GIT_WRITABLE: [&str; 21] = [
    "index",
    "index.stash.*",
    "HEAD",
    "ORIG_HEAD",
    "FETCH_HEAD",
    "MERGE_*",
    "CHERRY_PICK_HEAD",
    "REVERT_HEAD",
    "REBASE_HEAD",
    "AUTO_MERGE",
    "COMMIT_EDITMSG",
    "packed-refs",
    "packed-refs.new",
    "objects",
    "refs",
    "logs",
    "rebase-merge",
    "rebase-apply",
    "sequencer",
    "gc.pid",
    "gc.log",
];

/// The agents' folders, judged entry by entry: [`AGENT_PROTECTED`] is
/// protected, other entries (state such as `*.local.md`, `data/`, `logs/`)
/// are ordinary files. Trust pins more files than these (the scripts hooks
/// and MCP servers run); those reach the policy and the sandbox as pinned
/// paths, whatever folder they are in.
const AGENT_FOLDERS: [&str; 2] = [".agenthub", ".claude"];

/// The settings files (Claude Code's and AgentHub's have the same names)
/// and the folders of hooks, subagents, commands, skills and plugins.
const AGENT_PROTECTED: [&str; 7] = [
    "settings.json",
    "settings.local.json",
    "hooks",
    "agents",
    "commands",
    "skills",
    "plugins",
];

/// Folders named by two components, protected wherever the pair stands:
/// CI workflows run with the repository's secrets once pushed, and the
/// cross-vendor skills folder (`.agents/skills`) is read as `.claude/skills`
/// is, its skills pinned by trust (§29).
const PROTECTED_NESTED_DIRS: [(&str, &str); 2] = [(".github", "workflows"), (".agents", "skills")];
/// Files protected wherever they are in the workspace.
const PROTECTED_FILES: [&str; 29] = [
    ".gitconfig",
    ".gitmodules",
    ".bashrc",
    ".bash_profile",
    ".bash_login",
    ".bash_logout",
    ".profile",
    ".zshrc",
    ".zshenv",
    ".zprofile",
    ".zlogin",
    ".zlogout",
    ".envrc",
    ".npmrc",
    ".yarnrc",
    ".yarnrc.yml",
    ".pnp.cjs",
    ".pnpmfile.cjs",
    "bunfig.toml",
    ".bazelrc",
    ".pre-commit-config.yaml",
    "lefthook.yml",
    ".lefthook.yml",
    ".devcontainer.json",
    ".ripgreprc",
    "pyrightconfig.json",
    ".mcp.json",
    ".claude.json",
    ".gitattributes",
];

/// Every protected name as the sandbox and [`protected_name`] judge it.
pub fn protected_name_rules() -> &'static ProtectedNames {
    static RULES: OnceLock<ProtectedNames> = OnceLock::new();
    RULES.get_or_init(|| {
        let owned = |names: &[&str]| names.iter().map(|name| name.to_lowercase()).collect();
        let agent = |name: &str| FolderRule {
            name: name.to_owned(),
            created_whole: false,
            content: Content::WritableExcept(owned(&AGENT_PROTECTED)),
        };
        let git = FolderRule {
            name: GIT_FOLDER.to_owned(),
            created_whole: true,
            content: Content::ProtectedExcept(owned(&GIT_WRITABLE)),
        };
        ProtectedNames {
            whole: owned(&[&PROTECTED_DIRS[..], &PROTECTED_FILES[..]].concat()),
            nested: PROTECTED_NESTED_DIRS
                .iter()
                .map(|(parent, name)| ((*parent).to_owned(), (*name).to_owned()))
                .collect(),
            folders: std::iter::once(git)
                .chain(AGENT_FOLDERS.iter().map(|name| agent(name)))
                .collect(),
        }
    })
}

/// Every protected folder and file name that stands for itself (`.git`,
/// `.envrc`, `.github/workflows`): a path ending in one is protected,
/// wherever it is. A name with a `/` is a folder named by its last components.
pub fn protected_names() -> impl Iterator<Item = String> {
    let folders = protected_name_rules().folders.iter();
    whole_names().chain(folders.map(|rule| rule.name.clone()))
}

/// The names protected whole, the two-component ones as `parent/name`.
fn whole_names() -> impl Iterator<Item = String> {
    let rules = protected_name_rules();
    let nested = rules.nested.iter();
    rules
        .whole
        .iter()
        .cloned()
        .chain(nested.map(|(parent, name)| format!("{parent}/{name}")))
}

/// The folders and files protected whole at the top of each root, whether
/// they exist or not: what a sandbox keeps read-only inside writable roots
/// besides the entries it finds at any depth (the judged folders, `.git`,
/// `.claude` and `.agenthub`, are found, never bound whole).
pub fn protected_paths(roots: &[PathBuf]) -> Vec<PathBuf> {
    let names: Vec<String> = whole_names().collect();
    roots
        .iter()
        .flat_map(|root| names.iter().map(move |name| root.join(name)))
        .collect()
}

/// The protected name `path` is or lies under, relative to the root that
/// holds it; `None` when the path is not protected (or under no root).
/// A judged folder (`.git`) is protected itself, as a whole target.
pub fn protected_name(path: &Path, roots: &[PathBuf]) -> Option<String> {
    let relative = roots
        .iter()
        .filter_map(|root| path.strip_prefix(root).ok())
        .min_by_key(|relative| relative.components().count())?;
    let names: Vec<String> = relative
        .components()
        .filter_map(|component| match component {
            Component::Normal(name) => Some(name.to_string_lossy().to_lowercase()),
            _ => None,
        })
        .collect();
    let rules = protected_name_rules();
    let mut within = Within::Plain("");
    for (index, name) in names.iter().enumerate() {
        match rules.judge(within, name) {
            Judgement::Protected(label) => return Some(label),
            Judgement::Open => return None,
            Judgement::Folder(rule) if index + 1 == names.len() => return Some(rule.name.clone()),
            Judgement::Folder(rule) => within = Within::Folder(rule),
            Judgement::Plain => within = Within::Plain(name),
        }
    }
    nested_parent(names.last()?)
}

/// The two-component protected folder (`.github/workflows`) whose first
/// component `last` is: writing `.github` itself (`cp -r staged .github`)
/// may create `.github/workflows`.
fn nested_parent(last: &str) -> Option<String> {
    PROTECTED_NESTED_DIRS
        .iter()
        .find(|(parent, _)| *parent == last)
        .map(|(parent, name)| format!("{parent}/{name}"))
}

/// Whether a written path as the shell sees it (`~user/x`, or a component
/// with `*`, `?` or `[…]`) may expand to a protected path: the glob then
/// cannot be checked name by name. A glob component matches a leading `.`
/// only with a literal `.`, as bash's does without `dotglob`.
pub fn pattern_may_be_protected(text: &str) -> bool {
    let other_home = text.starts_with('~') && text != "~" && !text.starts_with("~/");
    other_home
        || text.split('/').filter(|part| is_glob(part)).any(|part| {
            PROTECTED_DIRS
                .iter()
                .chain(PROTECTED_FILES.iter())
                .chain(std::iter::once(&GIT_FOLDER))
                .chain(AGENT_FOLDERS.iter())
                .any(|name| glob_may_match(part, name))
        })
        || nested_pattern_may_match(text)
        || folder_entry_pattern_may_match(text)
}

/// Whether consecutive components of `text`, one of them a glob, may name
/// a two-component protected folder (`.git*/workflows`, `.github/*`).
fn nested_pattern_may_match(text: &str) -> bool {
    let parts: Vec<&str> = text.split('/').collect();
    PROTECTED_NESTED_DIRS.iter().any(|(parent, name)| {
        parts.windows(2).any(|window| {
            window.iter().any(|part| is_glob(part))
                && part_may_match(window[0], parent)
                && part_may_match(window[1], name)
        })
    })
}

/// Whether a glob component directly inside what may be a judged folder
/// may name one of its protected entries: any entry of `.git` but the
/// writable ones, the settings and code folders of `.claude` (`.git/*`,
/// `.claude/set*`).
fn folder_entry_pattern_may_match(text: &str) -> bool {
    let parts: Vec<&str> = text.split('/').collect();
    parts.windows(2).any(|window| {
        let [parent, part] = [window[0], window[1]];
        is_glob(part)
            && (part_may_match(parent, GIT_FOLDER)
                || AGENT_FOLDERS
                    .iter()
                    .any(|folder| part_may_match(parent, folder))
                    && AGENT_PROTECTED
                        .iter()
                        .any(|name| glob_may_match(part, name)))
    })
}

fn part_may_match(part: &str, name: &str) -> bool {
    match is_glob(part) {
        true => glob_may_match(part, name),
        false => part.eq_ignore_ascii_case(name),
    }
}

/// Whether a component of a written path is a glob that may match `..`
/// (`.*`): the path may then leave the workspace.
pub fn pattern_may_leave(text: &str) -> bool {
    text.split('/')
        .any(|part| is_glob(part) && glob_may_match(part, ".."))
}

fn is_glob(part: &str) -> bool {
    part.contains(['*', '?', '['])
}

/// Whether the glob `pattern` may match `name`, case-insensitively; a
/// pattern too odd to translate may match anything.
fn glob_may_match(pattern: &str, name: &str) -> bool {
    if name.starts_with('.') && !pattern.starts_with('.') {
        return false;
    }
    glob_regex(pattern).is_none_or(|regex| regex.is_match(name))
}

fn glob_regex(pattern: &str) -> Option<regex::Regex> {
    let mut out = String::from("(?i)^");
    let mut chars = pattern.chars();
    while let Some(character) = chars.next() {
        match character {
            '*' => out.push_str(".*"),
            '?' => out.push('.'),
            '[' => out.push_str(&bracket(&mut chars)?),
            '\\' => out.push_str(&regex::escape(&chars.next()?.to_string())),
            other => out.push_str(&regex::escape(&other.to_string())),
        }
    }
    out.push('$');
    regex::Regex::new(&out).ok()
}

/// A bracket expression's regex class, after its `[`; `None` if unclosed.
fn bracket(chars: &mut std::str::Chars<'_>) -> Option<String> {
    let mut class = String::from("[");
    let mut first = true;
    loop {
        let character = chars.next()?;
        match character {
            ']' if !first => break,
            '!' | '^' if first => class.push('^'),
            '-' => class.push('-'),
            other => class.push_str(&regex::escape(&other.to_string())),
        }
        first = false;
    }
    class.push(']');
    Some(class)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn protected_name_table() {
        let roots = [PathBuf::from("/w/proj")];
        let table = [
            ("/w/proj/.git/hooks/pre-commit", Some(".git")),
            ("/w/proj/.git", Some(".git")),
            ("/w/proj/.GIT/config", Some(".git")),
            ("/w/proj/.agenthub/settings.json", Some(".agenthub")),
            ("/w/proj/.git/index.lock", None),
            ("/w/proj/.git/refs/heads/main", None),
            ("/w/proj/sub/.git/MERGE_MSG", None),
            ("/w/proj/.git/config.lock", Some(".git")),
            ("/w/proj/.git/new-name", Some(".git")),
            ("/w/proj/.git/objects", None),
            ("/w/proj/.claude/ralph-loop.local.md", None),
            ("/w/proj/.claude/data/x.json", None),
            ("/w/proj/.claude/skills/s/SKILL.md", Some(".claude")),
            ("/w/proj/.claude", Some(".claude")),
            ("/w/proj/.claude/data/.envrc", Some(".envrc")),
            ("/w/proj/sub/.bashrc", Some(".bashrc")),
            ("/w/proj/.mcp.json", Some(".mcp.json")),
            ("/w/proj/.envrc", Some(".envrc")),
            ("/w/proj/.vscode/tasks.json", Some(".vscode")),
            ("/w/proj/src/main.rs", None),
            (
                "/w/proj/.github/workflows/ci.yml",
                Some(".github/workflows"),
            ),
            ("/w/proj/.github/workflows", Some(".github/workflows")),
            (
                "/w/proj/.GitHub/Workflows/ci.yml",
                Some(".github/workflows"),
            ),
            (
                "/w/proj/sub/pkg/.github/workflows/x.yml",
                Some(".github/workflows"),
            ),
            ("/w/proj/.github/dependabot.yml", None),
            ("/w/proj/.agents/skills/s/SKILL.md", Some(".agents/skills")),
            ("/w/proj/.agents/notes.md", None),
            ("/w/proj/.github", Some(".github/workflows")),
            ("/w/proj/sub/.GitHub", Some(".github/workflows")),
            ("/w/proj/workflows/ci.yml", None),
            ("/w/proj/docs/.github/other/workflows/x.yml", None),
            ("/w/proj/git/config", None),
            ("/elsewhere/.bashrc", None),
        ];
        for (path, expected) in table {
            assert_eq!(
                protected_name(Path::new(path), &roots).as_deref(),
                expected,
                "{path}"
            );
        }
    }

    #[test]
    fn globs_that_may_name_a_protected_path_table() {
        let table = [
            (".agenthu?/settings.json", true),
            (".ag*", true),
            ("src/.hus[k]y/pre-commit", true),
            (".GI[T]/config", true),
            ("*rc", false),
            ("*.json", true),
            ("*.rs", false),
            ("lefthook.*", true),
            ("src/*.rs", false),
            ("~root/.bashrc", true),
            ("~/x", false),
            ("plain/.git/config", false),
            (".git/*", true),
            (".git/ORIG_*", true),
            (".git/refs/heads/ma?n", false),
            (".claude/set*", true),
            (".claude/*.local.md", false),
            (".claude/data/x?", false),
            ("[unclosed", true),
            (".github/*/ci.yml", true),
            (".git*/workflows/ci.yml", true),
            (".g?thub/work*/x", true),
            ("src/*.d/workflows/x.txt", false),
            (".github/ISSUE_TEMPLATE/*.md", false),
            ("docs/*.d/x.md", false),
        ];
        for (text, expected) in table {
            assert_eq!(pattern_may_be_protected(text), expected, "{text}");
        }
    }

    #[test]
    fn globs_that_may_match_dot_dot_may_leave() {
        let table = [
            (".*/x", true),
            (".?", true),
            ("*/x", false),
            ("../x", false),
        ];
        for (text, expected) in table {
            assert_eq!(pattern_may_leave(text), expected, "{text}");
        }
    }

    #[test]
    fn a_workspace_inside_a_dot_directory_is_not_itself_protected() {
        let roots = [PathBuf::from("/home/u/.cargo/proj")];
        assert_eq!(
            protected_name(Path::new("/home/u/.cargo/proj/src/a.rs"), &roots),
            None
        );
    }
}
