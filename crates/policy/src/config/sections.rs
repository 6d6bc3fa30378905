//! One settings file's `permissions` object: `allow`, `ask`, `deny`,
//! `defaultMode`, `additionalDirectories`, and Claude Code's
//! `disableBypassPermissionsMode`. Other keys load with a warning.

use super::{anchors, inert_warning, rule, ConfigError, Place, PolicyInput};
use crate::rule::{Rule, RuleList, RuleOrigin};
use crate::PermissionMode;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Keys Claude Code knows that AgentHub reads no meaning from.
const IGNORED_KEYS: [&str; 3] = [
    "disableAutoMode",
    "allowManagedPermissionRulesOnly",
    "defaultAgent",
];

#[derive(Debug, Default)]
pub struct Section {
    pub rules: Vec<Rule>,
    pub mode: Option<PermissionMode>,
    pub directories: Vec<PathBuf>,
    pub warnings: Vec<String>,
    pub bypass_disabled: Option<Place>,
}

pub fn parse(
    file: &Path,
    permissions: &Value,
    input: &PolicyInput<'_>,
) -> Result<Section, ConfigError> {
    let object = permissions
        .as_object()
        .ok_or_else(|| invalid(file, "permissions", "must be an object"))?;
    let root = settings_root(file);
    let mut section = Section::default();
    for (key, value) in object {
        match key.as_str() {
            "allow" => {
                section
                    .rules
                    .extend(rules(file, key, value, RuleList::Allow, &root, input)?)
            }
            "ask" => section
                .rules
                .extend(rules(file, key, value, RuleList::Ask, &root, input)?),
            "deny" => section
                .rules
                .extend(rules(file, key, value, RuleList::Deny, &root, input)?),
            "defaultMode" => section.mode = Some(mode(file, value)?),
            "additionalDirectories" => {
                let (found, missing) = directories(file, value, &root, input.home)?;
                section.directories = found;
                section.warnings.extend(missing);
            }
            "disableBypassPermissionsMode" => {
                if disables_bypass(file, value)? {
                    section.bypass_disabled = Some(place(file, key));
                }
            }
            other if IGNORED_KEYS.contains(&other) => section.warnings.push(format!(
                "permissions.{other} in {} is not used by AgentHub",
                file.display()
            )),
            other => section.warnings.push(format!(
                "unknown key permissions.{other} in {} is ignored",
                file.display()
            )),
        }
    }
    section
        .warnings
        .extend(section.rules.iter().filter_map(inert_warning));
    Ok(section)
}

/// What `/x` in this file's rules is relative to: the file's folder, or the
/// project for files kept in `<project>/.agenthub/` or `<project>/.claude/`.
pub fn settings_root(file: &Path) -> PathBuf {
    let folder = file.parent().unwrap_or(Path::new("/"));
    match folder.file_name().and_then(|name| name.to_str()) {
        Some(".agenthub" | ".claude") => folder.parent().unwrap_or(folder).to_path_buf(),
        _ => folder.to_path_buf(),
    }
}

fn rules(
    file: &Path,
    key: &str,
    value: &Value,
    list: RuleList,
    root: &Path,
    input: &PolicyInput<'_>,
) -> Result<Vec<Rule>, ConfigError> {
    let items = value.as_array().ok_or_else(|| {
        invalid(
            file,
            &format!("permissions.{key}"),
            "must be an array of rule strings",
        )
    })?;
    let anchors = anchors(input, root.to_path_buf());
    let mut parsed = Vec::with_capacity(items.len());
    for (index, item) in items.iter().enumerate() {
        let json_path = format!("permissions.{key}[{index}]");
        let text = item.as_str().ok_or_else(|| {
            invalid(
                file,
                &json_path,
                &format!("must be a rule string, found {item}"),
            )
        })?;
        let origin = RuleOrigin::Settings {
            file: file.to_path_buf(),
            index,
        };
        let place = Place::Settings {
            file: file.to_path_buf(),
            json_path,
        };
        parsed.push(rule(text, origin, list, &anchors, input, place)?);
    }
    Ok(parsed)
}

fn mode(file: &Path, value: &Value) -> Result<PermissionMode, ConfigError> {
    let text = value
        .as_str()
        .ok_or_else(|| invalid(file, "permissions.defaultMode", "must be a string"))?;
    text.parse().map_err(|error: crate::UnknownMode| {
        invalid(file, "permissions.defaultMode", &error.to_string())
    })
}

fn disables_bypass(file: &Path, value: &Value) -> Result<bool, ConfigError> {
    match value.as_str() {
        Some("disable") => Ok(true),
        _ => Err(invalid(
            file,
            "permissions.disableBypassPermissionsMode",
            "the only accepted value is \"disable\"",
        )),
    }
}

/// Existing directories (canonical), and a warning for each missing one.
fn directories(
    file: &Path,
    value: &Value,
    root: &Path,
    home: Option<&Path>,
) -> Result<(Vec<PathBuf>, Vec<String>), ConfigError> {
    let key = "permissions.additionalDirectories";
    let items = value
        .as_array()
        .ok_or_else(|| invalid(file, key, "must be an array of directory paths"))?;
    let mut found = Vec::new();
    let mut warnings = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let json_path = format!("{key}[{index}]");
        let text = item
            .as_str()
            .filter(|text| !text.is_empty() && !text.contains('\0'))
            .ok_or_else(|| invalid(file, &json_path, "must be a non-empty directory path"))?;
        let path = directory_path(text, root, home).ok_or_else(|| {
            invalid(
                file,
                &json_path,
                "starts with ~ but HOME is not set (or names another user's home)",
            )
        })?;
        match path.canonicalize() {
            Ok(canonical) if canonical.is_dir() => found.push(canonical),
            _ => warnings.push(format!(
                "{json_path} in {}: {} is not an existing directory; it grants nothing",
                file.display(),
                path.display()
            )),
        }
    }
    Ok((found, warnings))
}

fn directory_path(text: &str, root: &Path, home: Option<&Path>) -> Option<PathBuf> {
    if text == "~" {
        return home.map(Path::to_path_buf);
    }
    if let Some(rest) = text.strip_prefix("~/") {
        return home.map(|home| home.join(rest));
    }
    if text.starts_with('~') {
        return None;
    }
    Some(root.join(text))
}

fn place(file: &Path, key: &str) -> Place {
    Place::Settings {
        file: file.to_path_buf(),
        json_path: format!("permissions.{key}"),
    }
}

fn invalid(file: &Path, json_path: &str, message: &str) -> ConfigError {
    ConfigError::Invalid {
        place: Place::Settings {
            file: file.to_path_buf(),
            json_path: json_path.to_owned(),
        },
        message: message.to_owned(),
    }
}
