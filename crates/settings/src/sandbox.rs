//! The `sandbox` key (SPEC §15): `{"mode": "workspace-write"|"read-only"|"off",
//! "network": false|true}`. This module reads and merges it; an untrusted
//! project may only make the sandbox stricter (SPEC §11). It never builds a
//! sandbox.

use agenthub_sandbox::SandboxMode;
use serde_json::Value;

/// What the settings say about Bash's sandbox; `None` leaves the default
/// (`workspace-write`, network off) or the flag's choice.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SandboxSettings {
    /// `sandbox.mode`.
    pub mode: Option<SandboxMode>,
    /// `sandbox.network`: whether sandboxed commands may use the network.
    pub network: Option<bool>,
}

impl SandboxSettings {
    /// Each key of `later` that is set replaces this one's.
    pub fn merge(&mut self, later: SandboxSettings) {
        self.mode = later.mode.or(self.mode);
        self.network = later.network.or(self.network);
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
        aside
    }
}

/// Reads the `sandbox` object; `Err` is (JSON path, what is wrong).
pub(crate) fn read(value: &Value) -> Result<SandboxSettings, (String, String)> {
    let object = value.as_object().ok_or_else(|| {
        (
            "sandbox".to_owned(),
            "sandbox must be an object with mode and network".to_owned(),
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
            _ => {
                return Err((
                    path,
                    format!("unknown sandbox key {key:?}; the keys are mode and network"),
                ))
            }
        }
    }
    Ok(settings)
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
                network: Some(true)
            })
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
            network: None,
        };
        let aside = held.merge_restrictions(SandboxSettings {
            mode: Some(SandboxMode::ReadOnly),
            network: Some(false),
        });
        assert_eq!(
            (held, aside),
            (
                SandboxSettings {
                    mode: Some(SandboxMode::ReadOnly),
                    network: Some(false)
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
