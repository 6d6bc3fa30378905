//! Protected paths inside the workspace: version-control metadata, agent and
//! editor configuration, shell start-up files — files whose change runs code
//! later (git hooks, `core.fsmonitor`, `.bashrc`, hook settings). A write to
//! one needs a person's approval in every mode but bypassPermissions (contract
//! §11; acceptEdits included), whether Write/Edit or a Bash command writes
//! it, and dontAsk denies it. Allow rules and hook allows never pre-approve it.
//!
//! Names are compared case-insensitively below the workspace root, so `.GIT`
//! is protected too on case-insensitive file systems. Reading them is not
//! restricted here (deny rules can do that).

use std::path::{Component, Path, PathBuf};

/// Directories whose whole content is protected.
const PROTECTED_DIRS: [&str; 10] = [
    ".git",
    ".agenthub",
    ".claude",
    ".vscode",
    ".idea",
    ".husky",
    ".cargo",
    ".devcontainer",
    ".yarn",
    ".mvn",
];

/// Folders named by two components, protected wherever the pair stands:
/// CI workflows run with the repository's secrets once pushed.
const PROTECTED_NESTED_DIRS: [&str; 1] = [".github/workflows"];

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

/// Every protected folder and file name, which the sandbox keeps read-only
/// at any depth below the workspace roots. A name with a `/`
/// (`.github/workflows`) is a folder named by its last components.
pub fn protected_names() -> impl Iterator<Item = &'static str> {
    PROTECTED_DIRS
        .iter()
        .chain(PROTECTED_NESTED_DIRS.iter())
        .chain(PROTECTED_FILES.iter())
        .copied()
}

/// The protected folders and files at the top of each root, whether they
/// exist or not: what a sandbox keeps read-only inside writable roots.
pub fn protected_paths(roots: &[PathBuf]) -> Vec<PathBuf> {
    roots
        .iter()
        .flat_map(|root| protected_names().map(move |name| root.join(name)))
        .collect()
}

/// The protected name `path` is or lies under, relative to the root that
/// holds it; `None` when the path is not protected (or under no root).
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
    let (last, dirs) = names.split_last()?;
    dirs.iter()
        .chain(std::iter::once(last))
        .find(|name| PROTECTED_DIRS.contains(&name.as_str()))
        .or_else(|| PROTECTED_FILES.contains(&last.as_str()).then_some(last))
        .cloned()
        .or_else(|| nested_dir(&names))
}

/// The two-component protected folder (`.github/workflows`) that `names`
/// (lower-case components) pass through, at any depth — or whose first
/// component `names` ends in: writing `.github` itself (`cp -r staged
/// .github`) may create `.github/workflows`.
fn nested_dir(names: &[String]) -> Option<String> {
    PROTECTED_NESTED_DIRS
        .iter()
        .find(|nested| {
            let parts: Vec<&str> = nested.split('/').collect();
            let through = names
                .windows(parts.len())
                .any(|window| window.iter().zip(&parts).all(|(name, part)| name == part));
            through
                || names
                    .last()
                    .is_some_and(|last| Some(&last.as_str()) == parts.first())
        })
        .map(|nested| (*nested).to_owned())
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
                .any(|name| glob_may_match(part, name))
        })
        || nested_pattern_may_match(text)
}

/// Whether consecutive components of `text`, one of them a glob, may name
/// a two-component protected folder (`.git*/workflows`, `.github/*`).
fn nested_pattern_may_match(text: &str) -> bool {
    let parts: Vec<&str> = text.split('/').collect();
    PROTECTED_NESTED_DIRS.iter().any(|nested| {
        let names: Vec<&str> = nested.split('/').collect();
        parts.windows(names.len()).any(|window| {
            window.iter().any(|part| is_glob(part))
                && window
                    .iter()
                    .zip(&names)
                    .all(|(part, name)| part_may_match(part, name))
        })
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
