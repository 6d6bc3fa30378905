//! The environment a shell command inherits from AgentHub, minus secrets
//! (contract §26, §28): provider credentials, every variable named
//! `*_API_KEY`, `*_TOKEN`, `*_SECRET`, `*_PASSWORD`, `*_KEY`, `*_PAT` or
//! `*_CREDENTIALS` (any case), and every variable whose value holds a URL
//! with user info (`postgres://user:pass@host/db`, `https://token@host`)
//! stay out unless `sandbox.passEnv` names them. A command the model wrote
//! must not be able to `echo $OPENAI_API_KEY` into its output.
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

/// Name endings that mark a secret (`_API_KEY` is covered by `_KEY`).
const SECRET_SUFFIXES: [&str; 6] = [
    "_KEY",
    "_TOKEN",
    "_SECRET",
    "_PASSWORD",
    "_PAT",
    "_CREDENTIALS",
];

/// Whether `name` is a secret a command does not get unless passed on purpose.
pub fn is_secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    PROVIDER_CREDENTIALS.contains(&upper.as_str())
        || SECRET_SUFFIXES.iter().any(|suffix| upper.ends_with(suffix))
}

/// Whether `value` holds a URL with user info (`scheme://user@…`,
/// `scheme://user:pass@…`) anywhere in it — after a `jdbc:` prefix, inside
/// JSON, in a comma-separated list: a connection string with its password,
/// whatever the variable is named.
pub fn holds_credentials(value: &str) -> bool {
    value.match_indices("://").any(|(at, _)| {
        let rest = &value[at + 3..];
        let authority = rest
            .split(|c: char| {
                c.is_whitespace()
                    || matches!(c, '/' | '?' | '#' | '"' | '\'' | ',' | ';' | '<' | '>')
            })
            .next()
            .unwrap_or_default();
        authority.contains('@')
    })
}

/// `inherited` without the secrets `pass_env` does not name (names compared exactly).
pub fn command_environment(
    inherited: impl IntoIterator<Item = (OsString, OsString)>,
    pass_env: &[String],
) -> Vec<(OsString, OsString)> {
    inherited
        .into_iter()
        .filter(|(name, value)| kept(name, value, pass_env))
        .collect()
}

fn kept(name: &OsStr, value: &OsStr, pass_env: &[String]) -> bool {
    match name.to_str() {
        Some(text) => {
            let secret = is_secret(text) || holds_credentials(&value.to_string_lossy());
            !secret || pass_env.iter().any(|passed| passed == text)
        }
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
    fn keys_pats_credentials_and_urls_with_user_info_are_left_out_unless_passed_table() {
        let table: [(&str, &str, &[&str], bool); 22] = [
            ("PATH", "/usr/bin:/bin", &[], true),
            ("HOME", "/root", &[], true),
            ("DATABASE_URL", "postgres://h/db", &[], true),
            ("HOMEPAGE", "https://example.com/a@b", &[], true),
            ("MAILTO", "someone@example.com", &[], true),
            ("DATABASE_URL", "postgres://u:p@h/db", &[], false),
            (
                "DATABASE_URL",
                "postgres://u:p@h/db",
                &["DATABASE_URL"],
                true,
            ),
            ("REPO", "https://token@github.example/x.git", &[], false),
            (
                "PIP_INDEXES",
                "https://a.example https://u:p@b.example",
                &[],
                false,
            ),
            ("GH_PAT", "ghp_x", &[], false),
            ("gh_pat", "ghp_x", &[], false),
            ("GH_PAT", "ghp_x", &["GH_PAT"], true),
            ("AZURE_OPENAI_KEY", "k", &[], false),
            ("Azure_OpenAI_Key", "k", &[], false),
            ("SSH_KEY", "k", &[], false),
            ("GCP_CREDENTIALS", "{}", &[], false),
            ("OPENAI_API_KEY", "sk", &[], false),
            ("KEYRING_BACKEND", "file", &[], true),
            ("JDBC_URL", "jdbc:postgresql://u:p@h/db", &[], false),
            ("SERVICES", r#"{"url":"postgres://u:p@h"}"#, &[], false),
            ("MIRRORS", "a,https://u:p@b", &[], false),
            ("LINKS", r#"{"url":"https://example.com/a@b"}"#, &[], true),
        ];
        for (name, value, pass_env, expected) in table {
            assert_eq!(
                names(&[(name, value)], pass_env) == vec![name.to_owned()],
                expected,
                "{name}={value} passEnv={pass_env:?}"
            );
        }
    }

    #[test]
    fn a_name_that_merely_contains_a_suffix_is_kept() {
        assert_eq!(
            names(&[("TOKENIZER_PATH", "/x"), ("KEYBOARD", "us")], &[]),
            vec!["TOKENIZER_PATH".to_owned(), "KEYBOARD".to_owned()]
        );
    }
}
