//! The environment a shell command inherits from AgentHub, minus secrets
//! (contract §26): provider credentials and every variable named `*_API_KEY`,
//! `*_TOKEN`, `*_SECRET` or `*_PASSWORD` (any case) stay out unless
//! `sandbox.passEnv` names them. A command the model wrote must not be able
//! to `echo $OPENAI_API_KEY` into its output.
//!
//! It only filters what is inherited; variables the user set for commands on
//! purpose (settings `env`) are the caller's to add. It must never let a
//! secret-shaped name through that the policy does not list.

use std::ffi::{OsStr, OsString};

/// Credentials whose names do not end in one of the secret suffixes.
const PROVIDER_CREDENTIALS: [&str; 5] = [
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "GOOGLE_APPLICATION_CREDENTIALS",
    "AZURE_CLIENT_SECRET",
    "AGENTHUB_FLEET_SECRET",
];

/// Name endings that mark a secret.
const SECRET_SUFFIXES: [&str; 4] = ["_API_KEY", "_TOKEN", "_SECRET", "_PASSWORD"];

/// Whether `name` is a secret a command does not get unless passed on purpose.
pub fn is_secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    PROVIDER_CREDENTIALS.contains(&upper.as_str())
        || SECRET_SUFFIXES.iter().any(|suffix| upper.ends_with(suffix))
}

/// `inherited` without the secrets `pass_env` does not name (names compared exactly).
pub fn command_environment(
    inherited: impl IntoIterator<Item = (OsString, OsString)>,
    pass_env: &[String],
) -> Vec<(OsString, OsString)> {
    inherited
        .into_iter()
        .filter(|(name, _)| kept(name, pass_env))
        .collect()
}

fn kept(name: &OsStr, pass_env: &[String]) -> bool {
    match name.to_str() {
        Some(text) => !is_secret(text) || pass_env.iter().any(|passed| passed == text),
        // A name that is not UTF-8 is no provider's; it cannot be matched, so it stays out.
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(vars: &[(&str, &str)], pass_env: &[&str]) -> Vec<String> {
        let inherited = vars
            .iter()
            .map(|(name, value)| (OsString::from(name), OsString::from(value)));
        let pass_env: Vec<String> = pass_env.iter().map(|name| name.to_string()).collect();
        command_environment(inherited, &pass_env)
            .into_iter()
            .map(|(name, _)| name.to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn secret_shaped_names_and_provider_credentials_are_left_out() {
        assert_eq!(
            names(
                &[
                    ("PATH", "/bin"),
                    ("OPENAI_API_KEY", "sk"),
                    ("GITHUB_TOKEN", "t"),
                    ("db_password", "p"),
                    ("APP_SECRET", "s"),
                    ("AWS_SECRET_ACCESS_KEY", "a"),
                    ("HOME", "/root"),
                ],
                &[]
            ),
            vec!["PATH".to_owned(), "HOME".to_owned()]
        );
    }

    #[test]
    fn a_secret_named_in_pass_env_is_kept() {
        assert_eq!(
            names(
                &[("GITHUB_TOKEN", "t"), ("NPM_TOKEN", "n")],
                &["GITHUB_TOKEN"]
            ),
            vec!["GITHUB_TOKEN".to_owned()]
        );
    }

    #[test]
    fn a_name_that_merely_contains_a_suffix_is_kept() {
        assert_eq!(
            names(&[("TOKENIZER_PATH", "/x"), ("KEYBOARD", "us")], &[]),
            vec!["TOKENIZER_PATH".to_owned(), "KEYBOARD".to_owned()]
        );
    }
}
