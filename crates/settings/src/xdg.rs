//! The XDG base folders AgentHub keeps its own files under, read one way
//! everywhere: `$XDG_STATE_HOME` (transcripts, checkpoints, the prompt
//! history, the fleet's workspaces) and `$XDG_DATA_HOME` (installed plugins
//! and their data). An empty variable counts as unset, as the XDG
//! specification says. It never creates a folder.

use std::ffi::OsString;
use std::path::PathBuf;

/// `$XDG_STATE_HOME`, else `~/.local/state`; `None` without either.
pub fn state_home() -> Option<PathBuf> {
    base("XDG_STATE_HOME", ".local/state")
}

/// Where AgentHub's state (transcripts, checkpoints) goes: [`state_home`],
/// else the temporary folder.
pub fn state_folder() -> PathBuf {
    state_home().unwrap_or_else(std::env::temp_dir)
}

/// `$XDG_DATA_HOME`, else `~/.local/share`; `None` without either.
pub fn data_home() -> Option<PathBuf> {
    base("XDG_DATA_HOME", ".local/share")
}

fn base(variable: &str, under_home: &str) -> Option<PathBuf> {
    from(
        std::env::var_os(variable),
        std::env::var_os("HOME"),
        under_home,
    )
}

/// The folder from the variable's and `HOME`'s values.
fn from(variable: Option<OsString>, home: Option<OsString>, under_home: &str) -> Option<PathBuf> {
    let non_empty = |value: OsString| (!value.is_empty()).then_some(value);
    variable.and_then(non_empty).map(PathBuf::from).or_else(|| {
        home.and_then(non_empty)
            .map(|home| PathBuf::from(home).join(under_home))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variable_wins_an_empty_one_counts_as_unset_and_home_is_the_fallback() {
        let table = [
            (Some("/x/state"), Some("/h"), Some("/x/state")),
            (Some(""), Some("/h"), Some("/h/.local/state")),
            (None, Some("/h"), Some("/h/.local/state")),
            (None, Some(""), None),
            (None, None, None),
        ];
        for (variable, home, expected) in table {
            assert_eq!(
                from(
                    variable.map(OsString::from),
                    home.map(OsString::from),
                    ".local/state"
                ),
                expected.map(PathBuf::from),
                "{variable:?} {home:?}"
            );
        }
    }
}
