//! What a tool handler gets besides its input.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// The workspace root, and the one place that turns a tool's path argument into
/// a path on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workspace {
    root: Arc<Path>,
}

impl Workspace {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Workspace {
            root: Arc::from(root.into()),
        }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Resolves `path` against the workspace root and cleans `.` and `..`
    /// lexically. Symlinks are not followed here: the permission boundary does that.
    pub fn resolve(&self, path: &str) -> PathBuf {
        let joined = if Path::new(path).is_absolute() {
            PathBuf::from(path)
        } else {
            self.root.join(path)
        };
        clean(&joined)
    }
}

/// Lexical normalisation: drops `.`, folds `..` into its parent (never above `/`).
pub fn clean(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push(component);
                }
            }
            other => out.push(other),
        }
    }
    out
}

/// Passed to every handler call.
#[derive(Debug, Clone)]
pub struct ToolContext {
    pub workspace: Workspace,
    pub cancel: CancellationToken,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_resolve_against_the_workspace() {
        let workspace = Workspace::new("/w/proj");
        assert_eq!(
            workspace.resolve("src/a.rs"),
            PathBuf::from("/w/proj/src/a.rs")
        );
    }

    #[test]
    fn dot_dot_is_cleaned_lexically() {
        let workspace = Workspace::new("/w/proj");
        assert_eq!(workspace.resolve("../x"), PathBuf::from("/w/x"));
        assert_eq!(workspace.resolve("/a/./b/../c"), PathBuf::from("/a/c"));
    }
}
