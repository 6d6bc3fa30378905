//! What a call would change, shown before it runs (the approval prompt's
//! diff). A tool computes its preview with its own logic, so a preview can
//! never show a change the tool would refuse to make: it shows the refusal.
//!
//! A preview never writes anything.

use std::path::PathBuf;

/// The change a call would make to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileChange {
    /// The file, resolved against the workspace.
    pub path: PathBuf,
    /// Its text now; `None` when the file does not exist yet.
    pub before: Option<String>,
    /// Its text after the call.
    pub after: String,
}
