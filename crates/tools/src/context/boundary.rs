//! The workspace boundary: is a path (as named, and where it really lands)
//! inside one of the roots?
//!
//! Resolution walks the cleaned path one component at a time from `/`: an
//! existing symlink is replaced by its target (relative targets against the
//! directory that holds the link, `..` popping the already-resolved prefix), a
//! missing component ends the disk walk and the rest is appended as text. So a
//! dangling link is followed textually, a symlinked parent with a missing leaf
//! lands where the kernel would create it, and a link loop stops after
//! [`MAX_LINK_HOPS`]. Containment compares whole components
//! (`Path::starts_with`), never string prefixes: `/w/proj-secrets` is outside
//! `/w/proj`. This module must never decide "inside" from the string alone.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};
use thiserror::Error;

/// As Linux's `PATH_MAX`: longer paths are refused before anything else.
pub const MAX_PATH_BYTES: usize = 4096;
/// As Linux's `NAME_MAX`.
pub const MAX_COMPONENT_BYTES: usize = 255;
/// As Linux's `MAXSYMLINKS`: more hops than this is a loop.
pub const MAX_LINK_HOPS: usize = 40;

/// A path a file tool may touch, resolved.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedPath {
    /// The requested path, joined to the workspace root and cleaned lexically.
    pub lexical: PathBuf,
    /// Where it really lands: the symlinks of the existing prefix resolved,
    /// the missing rest appended.
    pub real: PathBuf,
    /// Every symlink met on the way, in order.
    pub links: Vec<PathBuf>,
}

/// Why a path is refused. The text is what the model and the user see.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum BoundaryError {
    /// No path was given.
    #[error("the path is empty")]
    Empty,
    /// A NUL byte, which the operating system would cut the path at.
    #[error("the path contains a NUL byte")]
    Nul,
    /// A control character (its code point), which could hide what the path
    /// names from a person reading it.
    #[error("the path contains the control character U+{0:04X}")]
    ControlCharacter(u32),
    /// A zero-width or text-direction character (its code point), which makes
    /// the path display as something other than what it is.
    #[error("the path contains the invisible or text-direction character U+{0:04X}")]
    InvisibleCharacter(u32),
    /// Longer than 4096 bytes (Linux's `PATH_MAX`).
    #[error("the path is too long: {length} bytes (at most {MAX_PATH_BYTES})")]
    TooLong {
        /// The path's length in bytes.
        length: usize,
    },
    /// A component longer than 255 bytes (Linux's `NAME_MAX`).
    #[error("a component of the path is too long: {length} bytes (at most {MAX_COMPONENT_BYTES})")]
    ComponentTooLong {
        /// The component's length in bytes.
        length: usize,
    },
    /// The path starts with `~` (the home directory) but the workspace knows
    /// no home (the path as written).
    #[error("{0:?} starts with ~ (the home directory) but no home directory is known")]
    NoHome(String),
    /// The path as named is outside every root.
    #[error("{path} is outside the workspace ({roots})", path = .path.display())]
    Outside {
        /// The path, resolved against the workspace and cleaned.
        path: PathBuf,
        /// The roots, as listed to the reader.
        roots: String,
    },
    /// The path is named inside a root but a symlink on the way takes it out.
    #[error("{path} leads through a symbolic link to {target}, which is outside the workspace ({roots})", path = .path.display(), target = .target.display())]
    LinkOutside {
        /// The path as named, resolved against the workspace and cleaned.
        path: PathBuf,
        /// Where its symlinks really lead.
        target: PathBuf,
        /// The roots, as listed to the reader.
        roots: String,
    },
    /// More than 40 symlinks on the way (the path where the
    /// walk gave up): a loop.
    #[error("too many levels of symbolic links at {path}", path = .0.display())]
    LinkLoop(PathBuf),
    /// A component could not be inspected (permissions, IO error), so the
    /// path cannot be shown to stay inside.
    #[error("cannot inspect {path}: {message}", path = .path.display())]
    Io {
        /// The component being inspected.
        path: PathBuf,
        /// What the operating system said.
        message: String,
    },
}

impl From<BoundaryError> for io::Error {
    fn from(error: BoundaryError) -> io::Error {
        let kind = match error {
            BoundaryError::Outside { .. } | BoundaryError::LinkOutside { .. } => {
                io::ErrorKind::PermissionDenied
            }
            _ => io::ErrorKind::InvalidInput,
        };
        io::Error::new(kind, error.to_string())
    }
}

/// Refuses what no path may contain, before the path is joined or resolved.
pub fn validate(path: &str) -> Result<(), BoundaryError> {
    if path.is_empty() {
        return Err(BoundaryError::Empty);
    }
    if path.len() > MAX_PATH_BYTES {
        return Err(BoundaryError::TooLong { length: path.len() });
    }
    for character in path.chars() {
        let code = u32::from(character);
        if character == '\0' {
            return Err(BoundaryError::Nul);
        }
        if character.is_control() {
            return Err(BoundaryError::ControlCharacter(code));
        }
        if is_invisible(code) {
            return Err(BoundaryError::InvisibleCharacter(code));
        }
    }
    match path.split('/').map(str::len).max() {
        Some(length) if length > MAX_COMPONENT_BYTES => {
            Err(BoundaryError::ComponentTooLong { length })
        }
        _ => Ok(()),
    }
}

/// Zero-width and bidirectional-control characters: they make a path look
/// like another one.
fn is_invisible(code: u32) -> bool {
    matches!(code,
        0x061C | 0x200B..=0x200F | 0x202A..=0x202E | 0x2060..=0x2064 | 0x2066..=0x2069 | 0xFEFF)
}

/// Checks a cleaned absolute path against the roots.
pub fn check(roots: &[PathBuf], lexical: PathBuf) -> Result<ResolvedPath, BoundaryError> {
    let canonical: Vec<PathBuf> = roots.iter().map(|root| canonical_root(root)).collect();
    let inside_lexically = roots
        .iter()
        .chain(canonical.iter())
        .any(|root| lexical.starts_with(root));
    if !inside_lexically {
        return Err(BoundaryError::Outside {
            path: lexical,
            roots: describe(roots),
        });
    }
    let (real, links) = resolve_real(&lexical)?;
    if !canonical.iter().any(|root| real.starts_with(root)) {
        return Err(BoundaryError::LinkOutside {
            path: lexical,
            target: real,
            roots: describe(roots),
        });
    }
    Ok(ResolvedPath {
        lexical,
        real,
        links,
    })
}

/// The root with its own symlinks resolved; a root that cannot be resolved
/// (it does not exist) is compared as written.
pub fn canonical_root(root: &Path) -> PathBuf {
    fs::canonicalize(root).unwrap_or_else(|_| super::clean(root))
}

fn describe(roots: &[PathBuf]) -> String {
    roots
        .iter()
        .map(|root| root.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// Follows the symlinks of the existing prefix of an absolute path.
pub fn resolve_real(path: &Path) -> Result<(PathBuf, Vec<PathBuf>), BoundaryError> {
    let mut pending: VecDeque<OsString> = parts(path).collect();
    let mut current = PathBuf::from("/");
    let mut links = Vec::new();
    let mut on_disk = true;
    while let Some(part) = pending.pop_front() {
        if part == ".." {
            current.pop();
            continue;
        }
        let next = current.join(&part);
        if !on_disk {
            current = next;
            continue;
        }
        match fs::symlink_metadata(&next) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                if links.len() >= MAX_LINK_HOPS {
                    return Err(BoundaryError::LinkLoop(next));
                }
                let target = fs::read_link(&next).map_err(|error| io_error(&next, &error))?;
                if target.is_absolute() {
                    current = PathBuf::from("/");
                }
                for part in parts(&target).collect::<Vec<_>>().into_iter().rev() {
                    pending.push_front(part);
                }
                links.push(next);
            }
            Ok(_) => current = next,
            Err(error) if is_missing(&error) => {
                on_disk = false;
                current = next;
            }
            Err(error) => return Err(io_error(&next, &error)),
        }
    }
    Ok((current, links))
}

/// The components of a path as names, `..` kept, `/` and `.` dropped.
fn parts(path: &Path) -> impl Iterator<Item = OsString> + '_ {
    path.components().filter_map(|component| match component {
        Component::Normal(name) => Some(name.to_os_string()),
        Component::ParentDir => Some(OsString::from("..")),
        Component::RootDir | Component::CurDir | Component::Prefix(_) => None,
    })
}

fn is_missing(error: &io::Error) -> bool {
    error.kind() == io::ErrorKind::NotFound || error.raw_os_error() == Some(libc::ENOTDIR)
}

fn io_error(path: &Path, error: &io::Error) -> BoundaryError {
    BoundaryError::Io {
        path: path.to_path_buf(),
        message: error.to_string(),
    }
}

#[cfg(test)]
#[path = "boundary_tests.rs"]
mod tests;
