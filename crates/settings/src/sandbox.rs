//! The `sandbox` key (contract §15, §26): `{"mode": "workspace-write"|"read-only"|"off",
//! "network": false|true, "passEnv": ["NAME", …]}`. This module reads and
//! merges it; an untrusted project may only make the sandbox stricter (contract
//! §11): its `passEnv`, which hands secrets to commands, waits for trust. It
//! never builds a sandbox.

use agenthub_sandbox::SandboxMode;
use serde_json::Value;

/// What the settings say about Bash's sandbox; `None` leaves the default
/// (`workspace-write`, network off) or the flag's choice.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxSettings {
    /// `sandbox.mode`.
    pub mode: Option<SandboxMode>,
    /// `sandbox.network`: whether sandboxed commands may use the network.
    pub network: Option<bool>,
    /// `sandbox.passEnv`: secret-shaped variables (`*_TOKEN`, provider keys…)
    /// Bash still inherits; every file's list adds to the others'.
    pub pass_env: Vec<String>,
}

impl SandboxSettings {
    /// Each key of `later` that is set replaces this one's; `passEnv` lists add up.
    pub fn merge(&mut self, later: SandboxSettings) {
        self.mode = later.mode.or(self.mode);
        self.network = later.network.or(self.network);
        for name in later.pass_env {
            if !self.pass_env.contains(&name) {
                self.pass_env.push(name);
            }
        }
    }

    /// Merges an untrusted file's keys: only what is stricter than what holds
    /// so far applies; the rest is returned, as a person reads it, to be set aside.
    pub fn merge_restrictions(&mut self, later: SandboxSettings) -> Vec<String> {
        let mut aside = Vec::new();
        if let Some(mode) = later.mode {
            if mode.is_stricter_than(self.mode.unwrap_or_default()) {
                self.mode = Some(mode);
            } else if Some(mode) != self.mode {
                aside.push(format!("sandbox.mode {mode}"));
            }
        }
        match later.network {
            Some(false) => self.network = Some(false),
            Some(true) if self.network != Some(true) => aside.push("sandbox.network true".into()),
            _ => {}
        }
        for name in later.pass_env {
            aside.push(format!("sandbox.passEnv {name}"));
        }
        aside
    }
}

/// Reads the `sandbox` object; `Err` is (JSON path, what is wrong).
pub(crate) fn read(value: &Value) -> Result<SandboxSettings, (String, String)> {
    let object = value.as_object().ok_or_else(|| {
        (
            "sandbox".to_owned(),
            "sandbox must be an object with mode, network and passEnv".to_owned(),
        )
    })?;
    let mut settings = SandboxSettings::default();
    for (key, value) in object {
        let path = format!("sandbox.{key}");
        match key.as_str() {
            "mode" => {
                let text = value
                    .as_str()
                    .ok_or_else(|| (path.clone(), "sandbox.mode must be a string".to_owned()))?;
                settings.mode = Some(text.parse().map_err(|error| (path, format!("{error}")))?);
            }
            "network" => {
                let flag = value
                    .as_bool()
                    .ok_or_else(|| (path, "sandbox.network must be true or false".to_owned()))?;
                settings.network = Some(flag);
            }
            "passEnv" => settings.pass_env = read_pass_env(value, &path)?,
            _ => {
                return Err((
                    path,
                    format!("unknown sandbox key {key:?}; the keys are mode, network and passEnv"),
                ))
            }
        }
    }
    Ok(settings)
}

/// `passEnv`: an array of environment variable names (`[A-Za-z_][A-Za-z0-9_]*`).
fn read_pass_env(value: &Value, path: &str) -> Result<Vec<String>, (String, String)> {
    let items = value.as_array().ok_or_else(|| {
        (
            path.to_owned(),
            "sandbox.passEnv must be an array of variable names".to_owned(),
        )
    })?;
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let at = format!("{path}[{index}]");
            let name = item
                .as_str()
                .ok_or_else(|| (at.clone(), "a passEnv entry must be a string".to_owned()))?;
            if !is_variable_name(name) {
                return Err((
                    at,
                    format!(
                        "{name:?} is not a variable name (letters, digits and _, not starting \
                         with a digit)"
                    ),
                ));
            }
            Ok(name.to_owned())
        })
        .collect()
}

fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|rest| rest.is_ascii_alphanumeric() || rest == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn mode_and_network_are_read() {
        assert_eq!(
            read(&json!({"mode": "read-only", "network": true})),
            Ok(SandboxSettings {
                mode: Some(SandboxMode::ReadOnly),
                network: Some(true),
                pass_env: vec![]
            })
        );
    }

    #[test]
    fn pass_env_is_read_as_a_list_of_names() {
        assert_eq!(
            read(&json!({"passEnv": ["GITHUB_TOKEN", "_X1"]})),
            Ok(SandboxSettings {
                pass_env: vec!["GITHUB_TOKEN".to_owned(), "_X1".to_owned()],
                ..SandboxSettings::default()
            })
        );
    }

    #[test]
    fn a_pass_env_entry_that_is_no_variable_name_names_its_index() {
        assert_eq!(
            read(&json!({"passEnv": ["OK", "1BAD"]})),
            Err((
                "sandbox.passEnv[1]".to_owned(),
                "\"1BAD\" is not a variable name (letters, digits and _, not starting with a \
                 digit)"
                    .to_owned()
            ))
        );
    }

    #[test]
    fn pass_env_that_is_not_an_array_is_an_error() {
        assert_eq!(
            read(&json!({"passEnv": "GITHUB_TOKEN"})),
            Err((
                "sandbox.passEnv".to_owned(),
                "sandbox.passEnv must be an array of variable names".to_owned()
            ))
        );
    }

    #[test]
    fn an_untrusted_file_s_pass_env_is_set_aside() {
        let mut held = SandboxSettings::default();
        let aside = held.merge_restrictions(SandboxSettings {
            pass_env: vec!["NPM_TOKEN".to_owned()],
            ..SandboxSettings::default()
        });
        assert_eq!(
            (held, aside),
            (
                SandboxSettings::default(),
                vec!["sandbox.passEnv NPM_TOKEN".to_owned()]
            )
        );
    }

    #[test]
    fn an_unknown_mode_names_its_path_and_the_modes() {
        assert_eq!(
            read(&json!({"mode": "none"})),
            Err((
                "sandbox.mode".to_owned(),
                "unknown sandbox mode \"none\"; the modes are workspace-write, read-only and off"
                    .to_owned()
            ))
        );
    }

    #[test]
    fn an_untrusted_file_tightens_at_once_and_its_loosening_is_set_aside() {
        let mut held = SandboxSettings {
            mode: Some(SandboxMode::Off),
            ..SandboxSettings::default()
        };
        let aside = held.merge_restrictions(SandboxSettings {
            mode: Some(SandboxMode::ReadOnly),
            network: Some(false),
            ..SandboxSettings::default()
        });
        assert_eq!(
            (held, aside),
            (
                SandboxSettings {
                    mode: Some(SandboxMode::ReadOnly),
                    network: Some(false),
                    ..SandboxSettings::default()
                },
                vec![]
            )
        );
    }

    #[test]
    fn an_untrusted_file_cannot_turn_the_sandbox_off_or_the_network_on() {
        let mut held = SandboxSettings::default();
        let aside = held.merge_restrictions(SandboxSettings {
            mode: Some(SandboxMode::Off),
            network: Some(true),
            ..SandboxSettings::default()
        });
        assert_eq!(
            (held, aside),
            (
                SandboxSettings::default(),
                vec![
                    "sandbox.mode off".to_owned(),
                    "sandbox.network true".to_owned()
                ]
            )
        );
    }
}
