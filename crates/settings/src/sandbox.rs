//! The `sandbox` key (contract §15, §26, §32): `{"mode": "workspace-write"|"read-only"|"off",
//! "network": false|true|{"allowedDomains": […], "deniedDomains": […]}, "passEnv": ["NAME", …]}`.
//! This module reads and
//! merges it; an untrusted project may only make the sandbox stricter (contract
//! §11): its `passEnv`, which hands secrets to commands, waits for trust. It
//! never builds a sandbox.

use agenthub_sandbox::{DomainEntry, DomainLists, NetworkAccess, SandboxMode};
use serde_json::Value;

/// What the settings say about Bash's sandbox; `None` leaves the default
/// (`workspace-write`, network off) or the flag's choice.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SandboxSettings {
    /// `sandbox.mode`.
    pub mode: Option<SandboxMode>,
    /// `sandbox.network`: what sandboxed commands may reach.
    pub network: Option<NetworkAccess>,
    /// `sandbox.passEnv`: secret-shaped variables (`*_TOKEN`, provider keys…)
    /// Bash still inherits; every file's list adds to the others'.
    pub pass_env: Vec<String>,
}

impl SandboxSettings {
    /// Each key of `later` that is set replaces this one's; `passEnv` lists add up.
    pub fn merge(&mut self, later: SandboxSettings) {
        self.mode = later.mode.or(self.mode);
        self.network = match (self.network.take(), later.network) {
            (Some(NetworkAccess::Domains(mut ours)), Some(NetworkAccess::Domains(theirs))) => {
                ours.add(theirs);
                Some(NetworkAccess::Domains(ours))
            }
            (ours, theirs) => theirs.or(ours),
        };
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
        if let Some(network) = later.network {
            self.restrict_network(network, &mut aside);
        }
        for name in later.pass_env {
            aside.push(format!("sandbox.passEnv {name}"));
        }
        aside
    }
}

impl SandboxSettings {
    /// Reads one `sandbox.network` value (`true`, `false` or domain lists),
    /// as a settings file's is read; `Err` says what is wrong with it.
    pub fn read_network(value: &Value) -> Result<NetworkAccess, String> {
        read_network(value, "sandbox.network").map_err(|(_, why)| why)
    }

    /// Whether `later` only narrows `held` (what an untrusted file's, or a
    /// remote fleet task's, `sandbox.network` may do); else what it widens.
    pub fn network_narrows(held: &NetworkAccess, later: NetworkAccess) -> Result<(), Vec<String>> {
        let mut settings = SandboxSettings {
            network: Some(held.clone()),
            ..SandboxSettings::default()
        };
        let mut aside = Vec::new();
        settings.restrict_network(later, &mut aside);
        match aside.is_empty() {
            true => Ok(()),
            false => Err(aside),
        }
    }

    /// An untrusted file's `sandbox.network`: `false` applies; domain lists
    /// apply only with their denied entries (over `true` they close the
    /// network down to what a person allows); an allowed entry not held
    /// already widens — WebFetch reaches it unasked — and is set aside, as is
    /// the rest that widens what holds.
    fn restrict_network(&mut self, later: NetworkAccess, aside: &mut Vec<String>) {
        let held = self.network.clone().unwrap_or_default();
        match (held, later) {
            (_, NetworkAccess::Off) => self.network = Some(NetworkAccess::Off),
            (NetworkAccess::On, NetworkAccess::On) => {}
            (NetworkAccess::On, NetworkAccess::Domains(theirs)) => {
                self.network = Some(NetworkAccess::Domains(only_denied(theirs, None, aside)));
            }
            (NetworkAccess::Domains(ours), NetworkAccess::Domains(theirs)) => {
                let denied = only_denied(theirs, Some(&ours), aside);
                let mut ours = ours;
                ours.add(denied);
                self.network = Some(NetworkAccess::Domains(ours));
            }
            (_, NetworkAccess::On) => aside.push("sandbox.network true".into()),
            (NetworkAccess::Off, NetworkAccess::Domains(_)) => {
                aside.push("sandbox.network allowedDomains".into())
            }
        }
    }
}

/// `theirs` with only its denied entries; each allowed entry `held` does
/// not already allow is named in `aside`.
fn only_denied(
    theirs: DomainLists,
    held: Option<&DomainLists>,
    aside: &mut Vec<String>,
) -> DomainLists {
    for entry in &theirs.allowed {
        if !held.is_some_and(|held| held.allowed.contains(entry)) {
            aside.push(format!("sandbox.network.allowedDomains {entry}"));
        }
    }
    DomainLists {
        allowed: Vec::new(),
        denied: theirs.denied,
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
            "network" => settings.network = Some(read_network(value, &path)?),
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

/// `network`: `true`, `false` or `{"allowedDomains": […], "deniedDomains": […]}`.
fn read_network(value: &Value, path: &str) -> Result<NetworkAccess, (String, String)> {
    const WHAT: &str =
        "sandbox.network must be true, false or an object with allowedDomains and deniedDomains";
    if let Some(flag) = value.as_bool() {
        return Ok(if flag {
            NetworkAccess::On
        } else {
            NetworkAccess::Off
        });
    }
    let object = value
        .as_object()
        .ok_or_else(|| (path.to_owned(), WHAT.to_owned()))?;
    let mut lists = DomainLists::default();
    for (key, entries) in object {
        let path = format!("{path}.{key}");
        match key.as_str() {
            "allowedDomains" => lists.allowed = read_domains(entries, &path)?,
            "deniedDomains" => lists.denied = read_domains(entries, &path)?,
            _ => {
                return Err((
                    path,
                    format!("unknown sandbox.network key {key:?}; the keys are allowedDomains and deniedDomains"),
                ))
            }
        }
    }
    Ok(NetworkAccess::Domains(lists))
}

/// A domain list: an array of `name`, `*.name`, an IP address, each with an optional `:port`.
fn read_domains(value: &Value, path: &str) -> Result<Vec<DomainEntry>, (String, String)> {
    let items = value.as_array().ok_or_else(|| {
        (
            path.to_owned(),
            format!("{path} must be an array of domains"),
        )
    })?;
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let at = format!("{path}[{index}]");
            let text = item
                .as_str()
                .ok_or_else(|| (at.clone(), "a domain must be a string".to_owned()))?;
            text.parse().map_err(|error| (at, format!("{error}")))
        })
        .collect()
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
                network: Some(NetworkAccess::On),
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
            network: Some(NetworkAccess::Off),
            ..SandboxSettings::default()
        });
        assert_eq!(
            (held, aside),
            (
                SandboxSettings {
                    mode: Some(SandboxMode::ReadOnly),
                    network: Some(NetworkAccess::Off),
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
            network: Some(NetworkAccess::On),
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

    fn domains(allowed: &[&str], denied: &[&str]) -> NetworkAccess {
        let read = |texts: &[&str]| texts.iter().map(|text| text.parse().unwrap()).collect();
        NetworkAccess::Domains(DomainLists {
            allowed: read(allowed),
            denied: read(denied),
        })
    }

    #[test]
    fn network_domain_lists_are_read() {
        assert_eq!(
            read(
                &json!({"network": {"allowedDomains": ["example.com", "*.example.org:443"],
                                     "deniedDomains": ["bad.example.com"]}})
            ),
            Ok(SandboxSettings {
                network: Some(domains(
                    &["example.com", "*.example.org:443"],
                    &["bad.example.com"]
                )),
                ..SandboxSettings::default()
            })
        );
    }

    #[test]
    fn a_bad_domain_names_its_index_and_why() {
        assert_eq!(
            read(&json!({"network": {"allowedDomains": ["example.com", "a b"]}})),
            Err((
                "sandbox.network.allowedDomains[1]".to_owned(),
                "\"a b\" is not a domain: names are dot-separated labels of letters, digits, - and _"
                    .to_owned()
            ))
        );
    }

    #[test]
    fn an_unknown_network_key_is_named() {
        assert_eq!(
            read(&json!({"network": {"allowedHosts": []}})),
            Err((
                "sandbox.network.allowedHosts".to_owned(),
                "unknown sandbox.network key \"allowedHosts\"; the keys are allowedDomains and \
                 deniedDomains"
                    .to_owned()
            ))
        );
    }

    #[test]
    fn domain_lists_of_two_files_add_up_and_a_later_boolean_replaces_them() {
        let mut held = SandboxSettings {
            network: Some(domains(&["a.example"], &[])),
            ..SandboxSettings::default()
        };
        held.merge(SandboxSettings {
            network: Some(domains(&["b.example"], &["c.example"])),
            ..SandboxSettings::default()
        });
        let added = held.network.clone();
        held.merge(SandboxSettings {
            network: Some(NetworkAccess::Off),
            ..SandboxSettings::default()
        });
        assert_eq!(
            (added, held.network),
            (
                Some(domains(&["a.example", "b.example"], &["c.example"])),
                Some(NetworkAccess::Off)
            )
        );
    }

    #[test]
    fn an_untrusted_file_adds_denied_domains_and_its_allowed_ones_are_set_aside() {
        let mut held = SandboxSettings {
            network: Some(domains(&["a.example"], &[])),
            ..SandboxSettings::default()
        };
        let aside = held.merge_restrictions(SandboxSettings {
            network: Some(domains(&["a.example", "evil.example"], &["b.example"])),
            ..SandboxSettings::default()
        });
        assert_eq!(
            (held.network, aside),
            (
                Some(domains(&["a.example"], &["b.example"])),
                vec!["sandbox.network.allowedDomains evil.example".to_owned()]
            )
        );
    }

    #[test]
    fn an_untrusted_file_s_domain_lists_narrow_true_and_cannot_open_a_closed_network() {
        let narrowed = {
            let mut held = SandboxSettings {
                network: Some(NetworkAccess::On),
                ..SandboxSettings::default()
            };
            let aside = held.merge_restrictions(SandboxSettings {
                network: Some(domains(&["a.example"], &[])),
                ..SandboxSettings::default()
            });
            (held.network, aside)
        };
        let closed = {
            let mut held = SandboxSettings::default();
            let aside = held.merge_restrictions(SandboxSettings {
                network: Some(domains(&["a.example"], &[])),
                ..SandboxSettings::default()
            });
            (held.network, aside)
        };
        assert_eq!(
            (narrowed, closed),
            (
                (
                    Some(domains(&[], &[])),
                    vec!["sandbox.network.allowedDomains a.example".to_owned()]
                ),
                (None, vec!["sandbox.network allowedDomains".to_owned()])
            )
        );
    }
}
