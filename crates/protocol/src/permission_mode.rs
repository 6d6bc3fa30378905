//! Permission modes (contract §4), spelled as Claude Code spells them, so that a
//! `defaultMode` from a Claude Code settings file means the same thing here.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// How much runs without asking, across every rule: the settings'
/// `defaultMode` or `--permission-mode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum PermissionMode {
    /// Reads run; everything with side effects asks unless a rule allows it.
    #[default]
    Default,
    /// Write and Edit inside the workspace run without asking (protected paths still ask).
    AcceptEdits,
    /// Nothing with side effects runs: such calls are denied.
    Plan,
    /// Nobody is asked: what would ask is denied.
    DontAsk,
    /// Nothing asks by default; deny rules, explicit ask rules, protected paths
    /// and the workspace boundary still hold.
    BypassPermissions,
}

impl PermissionMode {
    /// Every mode, for listing the choices to a person.
    pub const ALL: [PermissionMode; 5] = [
        PermissionMode::Default,
        PermissionMode::AcceptEdits,
        PermissionMode::Plan,
        PermissionMode::DontAsk,
        PermissionMode::BypassPermissions,
    ];

    /// Claude Code's spelling, as settings files, hooks' `permission_mode`
    /// and audit lines use it.
    pub fn as_str(self) -> &'static str {
        match self {
            PermissionMode::Default => "default",
            PermissionMode::AcceptEdits => "acceptEdits",
            PermissionMode::Plan => "plan",
            PermissionMode::DontAsk => "dontAsk",
            PermissionMode::BypassPermissions => "bypassPermissions",
        }
    }
}

impl fmt::Display for PermissionMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A mode name that is none of Claude Code's (nor its alias `manual`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("unknown permission mode {given:?}; expected one of default, acceptEdits, plan, dontAsk, bypassPermissions")]
pub struct UnknownMode {
    /// The name as given.
    pub given: String,
}

impl FromStr for PermissionMode {
    type Err = UnknownMode;

    /// Exact spelling, plus Claude Code's alias `manual` for `default`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        if text == "manual" {
            return Ok(PermissionMode::Default);
        }
        PermissionMode::ALL
            .into_iter()
            .find(|mode| mode.as_str() == text)
            .ok_or_else(|| UnknownMode {
                given: text.to_owned(),
            })
    }
}

/// Written as its spelling (`acceptEdits`), as a hook's stdin carries it.
impl Serialize for PermissionMode {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Read from a spelling [`FromStr`] accepts (`manual` too).
impl<'de> Deserialize<'de> for PermissionMode {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mode_is_serialized_as_its_spelling() {
        assert_eq!(
            serde_json::to_value(PermissionMode::AcceptEdits).unwrap(),
            serde_json::json!("acceptEdits")
        );
    }

    #[test]
    fn a_mode_is_read_from_any_spelling_it_parses_from() {
        assert_eq!(
            serde_json::from_value::<PermissionMode>(serde_json::json!("manual")).unwrap(),
            PermissionMode::Default
        );
    }

    #[test]
    fn every_mode_parses_from_its_own_spelling() {
        for mode in PermissionMode::ALL {
            assert_eq!(mode.as_str().parse::<PermissionMode>(), Ok(mode));
        }
    }

    #[test]
    fn an_unknown_mode_names_what_was_given_and_what_exists() {
        assert_eq!(
            "yolo".parse::<PermissionMode>().unwrap_err().to_string(),
            "unknown permission mode \"yolo\"; expected one of default, acceptEdits, plan, dontAsk, bypassPermissions"
        );
    }
}
