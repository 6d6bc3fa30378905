//! Path patterns for `Read(…)`, `Edit(…)`, `Write(…)`, `Glob(…)`, `Grep(…)`:
//! gitignore syntax (via the `ignore` crate's matcher) under Claude Code's anchors.
//!
//! | written | anchored at | gitignore pattern |
//! |---|---|---|
//! | `//abs/x` | `/` | `/abs/x` |
//! | `~/x` | the home directory | `/x` |
//! | `/x` | the settings file's project (its folder; the parent for `.agenthub/` and `.claude/`), the workspace for command-line rules | `/x` |
//! | `./x`, `../x` | the workspace (`..` climbs from it) | `/x` |
//! | `x`, `*.env` | the workspace, at any depth | `x` |
//! | `dir/**` in an allow list | the workspace only | `dir/**` |
//! | `dir/**` in a deny or ask list | the workspace, at any depth | `**/dir/**` |
//!
//! A directory pattern covers everything beneath it (`Read(secrets)` denies
//! `secrets/a.txt`). Deny and ask patterns compare case-insensitively (a
//! `.ENV` is denied like `.env`); allow patterns compare exactly, so a
//! restriction can only ever be wider than written, never a grant. `~user/` and
//! `!negations` are errors.

use super::RuleList;
use agenthub_tools::clean_path;
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// The directories the anchors stand for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathAnchors {
    /// What `./x`, `../x` and unanchored patterns are relative to.
    pub workspace: PathBuf,
    /// What `/x` is relative to.
    pub settings_root: PathBuf,
    /// What `~/x` is relative to; `None` makes such a pattern an error.
    pub home: Option<PathBuf>,
}

/// A compiled path specifier (`Read(./src/**)`), anchored as the table above
/// says; matched against resolved absolute paths.
#[derive(Debug, Clone)]
pub struct PathPattern {
    anchor: PathBuf,
    line: String,
    matcher: Gitignore,
}

/// Why a path specifier is not a usable pattern.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PathPatternError {
    /// Nothing but anchors and slashes.
    #[error("the path pattern is empty")]
    Empty,
    /// A NUL byte, which no path can contain.
    #[error("the path pattern contains a NUL byte")]
    Nul,
    /// `~user/…` (the pattern as written).
    #[error("{0:?}: another user's home (~user) is not supported; use ~/ for your own")]
    OtherUsersHome(String),
    /// `~/…` with no home directory known.
    #[error("the pattern starts with ~ but HOME is not set")]
    NoHome,
    /// `!…`: a rule cannot carve an exception out of another rule.
    #[error("a negated pattern ('!…') cannot be a rule; use a deny or ask rule instead")]
    Negated,
    /// The glob is malformed (what the matcher said).
    #[error("the path pattern does not compile: {0}")]
    Glob(String),
}

impl PathPattern {
    /// Compiles a specifier for a rule in `list` (deny and ask patterns
    /// compare case-insensitively and match at any depth; allow patterns do not).
    pub fn parse(
        specifier: &str,
        list: RuleList,
        anchors: &PathAnchors,
    ) -> Result<PathPattern, PathPatternError> {
        if specifier.contains('\0') {
            return Err(PathPatternError::Nul);
        }
        if specifier.starts_with('!') {
            return Err(PathPatternError::Negated);
        }
        let (anchor, pattern) = anchor(specifier, list, anchors)?;
        if pattern.trim_matches('/').is_empty() {
            return Err(PathPatternError::Empty);
        }
        let mut builder = GitignoreBuilder::new(&anchor);
        builder
            .case_insensitive(list != RuleList::Allow)
            .map_err(glob_error)?;
        builder.add_line(None, &pattern).map_err(glob_error)?;
        let matcher = builder.build().map_err(glob_error)?;
        Ok(PathPattern {
            anchor,
            line: pattern,
            matcher,
        })
    }

    /// Whether an absolute, cleaned path is matched (or lies beneath a matched directory).
    pub fn matches(&self, path: &Path) -> bool {
        let Ok(relative) = path.strip_prefix(&self.anchor) else {
            return false;
        };
        if relative.as_os_str().is_empty() {
            return false;
        }
        self.matcher
            .matched_path_or_any_parents(relative, path.is_dir())
            .is_ignore()
    }
}

impl PathPattern {
    /// The existing paths this pattern names, for a sandbox to hide: the
    /// fixed part of an anchored pattern (`./.env`, `~/.ssh/**`), and what a
    /// bounded walk of the pattern's base (its fixed part, or each of `roots`
    /// for a pattern matching at any depth) finds matched. A matched folder is
    /// named, not walked.
    pub fn existing_matches(&self, roots: &[PathBuf]) -> Vec<PathBuf> {
        let Some(anchored) = self.line.strip_prefix('/') else {
            let mut found = Vec::new();
            for root in roots {
                self.walk(root, MASK_WALK_DEPTH, &mut found);
            }
            return found;
        };
        let fixed: Vec<&str> = anchored
            .split('/')
            .take_while(|part| !part.contains(['*', '?', '[', '\\']))
            .filter(|part| !part.is_empty())
            .collect();
        let base = fixed
            .iter()
            .fold(self.anchor.clone(), |path, part| path.join(part));
        // `dir/**`: the folder itself, so files made in it later are hidden too.
        let everything_beneath =
            anchored.ends_with("/**") && anchored.matches('/').count() == fixed.len();
        if (everything_beneath || self.matches(&base)) && base.exists() {
            return vec![base];
        }
        let mut found = Vec::new();
        self.walk(&base, MASK_WALK_DEPTH, &mut found);
        found
    }

    fn walk(&self, dir: &Path, depth: usize, found: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten().take(MASK_WALK_ENTRIES) {
            let path = entry.path();
            if self.matches(&path) {
                found.push(path);
            } else if depth > 0 && entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                self.walk(&path, depth - 1, found);
            }
        }
    }
}

/// How deep [`PathPattern::existing_matches`] looks below its base.
const MASK_WALK_DEPTH: usize = 6;
/// How many entries of one folder it looks at.
const MASK_WALK_ENTRIES: usize = 2000;

fn glob_error(error: ignore::Error) -> PathPatternError {
    PathPatternError::Glob(error.to_string())
}

/// The anchor directory and the gitignore line for a written pattern.
fn anchor(
    spec: &str,
    list: RuleList,
    anchors: &PathAnchors,
) -> Result<(PathBuf, String), PathPatternError> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(PathPatternError::Empty);
    }
    if let Some(rest) = spec.strip_prefix("//") {
        return Ok((PathBuf::from("/"), format!("/{rest}")));
    }
    if spec == "~" || spec.starts_with("~/") {
        let home = anchors.home.clone().ok_or(PathPatternError::NoHome)?;
        let rest = spec
            .strip_prefix('~')
            .unwrap_or_default()
            .trim_start_matches('/');
        let rest = if rest.is_empty() { "**" } else { rest };
        return Ok((home, format!("/{rest}")));
    }
    if spec.starts_with('~') {
        return Err(PathPatternError::OtherUsersHome(spec.to_owned()));
    }
    if let Some(rest) = spec.strip_prefix('/') {
        return Ok((anchors.settings_root.clone(), format!("/{rest}")));
    }
    if spec.starts_with("./") || spec.starts_with("../") || spec == "." || spec == ".." {
        return Ok(relative_to_workspace(spec, &anchors.workspace));
    }
    let has_inner_slash = spec.trim_end_matches('/').contains('/');
    let line = if has_inner_slash && list != RuleList::Allow && !spec.starts_with("**/") {
        format!("**/{spec}")
    } else {
        spec.to_owned()
    };
    Ok((anchors.workspace.clone(), line))
}

/// `./x` and `../x`: the leading `.`/`..` segments move the anchor.
fn relative_to_workspace(spec: &str, workspace: &Path) -> (PathBuf, String) {
    let mut anchor = workspace.to_path_buf();
    let mut rest = spec;
    loop {
        if let Some(next) = rest.strip_prefix("./") {
            rest = next;
        } else if let Some(next) = rest.strip_prefix("../") {
            anchor.push("..");
            rest = next;
        } else if rest == "." {
            rest = "**";
        } else if rest == ".." {
            anchor.push("..");
            rest = "**";
        } else {
            break;
        }
    }
    (clean_path(&anchor), format!("/{rest}"))
}

#[cfg(test)]
#[path = "path_tests.rs"]
mod tests;
