//! The policy's configuration: the `permissions` objects of the settings files
//! (in layer order, as the settings loader hands them over raw) plus the
//! command line's `--allow`, `--deny` and `--permission-mode`.
//!
//! Parsing is strict: a rule that does not parse, a list that is not an array
//! of strings, an unknown mode, is an error naming the file (or "command line")
//! and the JSON path. This module must never drop a rule without saying so:
//! the only rules that load without effect are rules for Claude Code tools
//! AgentHub does not have, and each one produces a warning.

mod sections;

use crate::rule::path::PathAnchors;
use crate::rule::{parse_rule, Rule, RuleContext, RuleError, RuleList, RuleOrigin};
use crate::{PermissionMode, UnknownMode};
use serde_json::Value;
use std::fmt;
use std::path::{Path, PathBuf};
use thiserror::Error;

/// Where a piece of configuration came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    /// A JSON path (`permissions.deny[1]`) in a settings file.
    Settings {
        /// The settings file.
        file: PathBuf,
        /// Where in it.
        json_path: String,
    },
    /// A command-line flag (`--deny`).
    CommandLine {
        /// The flag.
        flag: &'static str,
    },
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Settings { file, json_path } => {
                write!(f, "in {} at {json_path}", file.display())
            }
            Place::CommandLine { flag } => write!(f, "on the command line ({flag})"),
        }
    }
}

/// Permission configuration that cannot be used; the run must not start
/// with a policy other than the one written.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ConfigError {
    /// A rule does not parse.
    #[error("invalid permission rule {rule:?} {place}: {error}")]
    InvalidRule {
        /// The rule as written.
        rule: String,
        /// Where it is written.
        place: Place,
        /// What is wrong with it.
        error: RuleError,
    },
    /// Another `permissions` key holds something unusable (an unknown mode,
    /// a missing directory, a value of the wrong type).
    #[error("invalid permissions setting {place}: {message}")]
    Invalid {
        /// Where the value is written.
        place: Place,
        /// What is wrong with it.
        message: String,
    },
}

/// The command line's share of the configuration.
#[derive(Debug, Clone, Copy, Default)]
pub struct CliPermissions<'a> {
    /// `--allow` rules, added after every settings file's allow rules.
    pub allow: &'a [String],
    /// `--deny` rules, added after every settings file's deny rules.
    pub deny: &'a [String],
    /// `--permission-mode`, which wins over the settings' `defaultMode`.
    pub mode: Option<&'a ModeFlag>,
}

/// `--permission-mode` as parsed where it was given. A name that did not
/// parse is kept and reported when the policy is built, after the settings
/// files' and the `--deny`/`--allow` rules' errors, as it always was: which
/// error a person sees first does not depend on where the flag was parsed.
pub type ModeFlag = Result<PermissionMode, UnknownMode>;

/// Everything [`PolicyConfig::build`] needs.
#[derive(Debug, Clone, Copy)]
pub struct PolicyInput<'a> {
    /// The workspace root (canonical).
    pub workspace: &'a Path,
    /// For `~/` in rules and directories; `None` makes such rules an error.
    pub home: Option<&'a Path>,
    /// `(settings file, its raw "permissions" object)`, in layer order.
    pub sections: &'a [(PathBuf, Value)],
    /// What the command line adds.
    pub cli: CliPermissions<'a>,
    /// Tool names rules may use besides the built-in ones (the registry's).
    pub extra_tools: &'a [String],
}

/// Parsed rules, the mode, the extra roots, and what loaded without effect.
#[derive(Debug, Clone, Default)]
pub struct PolicyConfig {
    /// Every rule, in the order the layers list them.
    pub rules: Vec<Rule>,
    /// The permission mode in force.
    pub mode: PermissionMode,
    /// `permissions.additionalDirectories`, resolved and canonical.
    pub additional_directories: Vec<PathBuf>,
    /// Rules or keys that loaded but have no effect, each with its place.
    pub warnings: Vec<String>,
    /// Workspace files protected besides the protected names (canonical):
    /// the scripts a trusted project's hooks and MCP servers run, which trust
    /// pinned (contract §26). A write to one asks as a write to `.git` does.
    pub protected_files: Vec<PathBuf>,
}

impl PolicyConfig {
    /// Parses every layer's `permissions` object and the command line into
    /// one configuration; the first invalid rule or setting is an error
    /// naming its place.
    pub fn build(input: PolicyInput<'_>) -> Result<PolicyConfig, ConfigError> {
        let mut config = PolicyConfig::default();
        let mut bypass_disabled: Option<Place> = None;
        for (file, permissions) in input.sections {
            let section = sections::parse(file, permissions, &input)?;
            config.rules.extend(section.rules);
            config.additional_directories.extend(section.directories);
            config.warnings.extend(section.warnings);
            if let Some(mode) = section.mode {
                config.mode = mode;
            }
            bypass_disabled = bypass_disabled.or(section.bypass_disabled);
        }
        config.add_cli(&input)?;
        if let (PermissionMode::BypassPermissions, Some(place)) = (config.mode, bypass_disabled) {
            return Err(ConfigError::Invalid {
                place,
                message: "bypassPermissions mode is disabled by disableBypassPermissionsMode"
                    .to_owned(),
            });
        }
        Ok(config)
    }

    fn add_cli(&mut self, input: &PolicyInput<'_>) -> Result<(), ConfigError> {
        let anchors = anchors(input, input.workspace.to_path_buf());
        for (list, flag, texts) in [
            (RuleList::Deny, "--deny", input.cli.deny),
            (RuleList::Allow, "--allow", input.cli.allow),
        ] {
            for text in texts {
                let place = Place::CommandLine { flag };
                let rule = rule(text, RuleOrigin::CommandLine, list, &anchors, input, place)?;
                self.warn_if_inert(&rule);
                self.rules.push(rule);
            }
        }
        if let Some(mode) = input.cli.mode {
            self.mode = mode.clone().map_err(|error| ConfigError::Invalid {
                place: Place::CommandLine {
                    flag: "--permission-mode",
                },
                message: error.to_string(),
            })?;
        }
        Ok(())
    }

    fn warn_if_inert(&mut self, rule: &Rule) {
        if let Some(warning) = inert_warning(rule) {
            self.warnings.push(warning);
        }
    }

    /// The rules of one list, in load order.
    pub fn rules_in(&self, list: RuleList) -> impl Iterator<Item = &Rule> {
        self.rules.iter().filter(move |rule| rule.list == list)
    }
}

pub(crate) fn inert_warning(rule: &Rule) -> Option<String> {
    match &rule.target {
        crate::rule::RuleTarget::Inert { tool } => Some(format!(
            "permission rule {:?} ({}) names {tool}, a Claude Code tool AgentHub does not have; it has no effect",
            rule.text, rule.origin
        )),
        _ => None,
    }
}

pub(crate) fn anchors(input: &PolicyInput<'_>, settings_root: PathBuf) -> PathAnchors {
    PathAnchors {
        workspace: input.workspace.to_path_buf(),
        settings_root,
        home: input.home.map(Path::to_path_buf),
    }
}

pub(crate) fn rule(
    text: &str,
    origin: RuleOrigin,
    list: RuleList,
    anchors: &PathAnchors,
    input: &PolicyInput<'_>,
    place: Place,
) -> Result<Rule, ConfigError> {
    let context = RuleContext {
        list,
        anchors,
        extra_tools: input.extra_tools,
    };
    parse_rule(text, origin, context).map_err(|error| ConfigError::InvalidRule {
        rule: text.to_owned(),
        place,
        error,
    })
}

#[cfg(test)]
mod tests;
