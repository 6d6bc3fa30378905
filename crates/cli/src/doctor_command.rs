//! `agenthub doctor`: one look at whether this machine and workspace can run
//! sessions — the sandbox mechanism Bash would get, the helper programs, the
//! settings files read, the workspace's trust, the provider — each with the
//! fix when it is missing. Exit 1 when something needed is missing.
//!
//! It reads and probes only: it never starts an MCP server or records
//! anything, and sends a request to the provider only with `--probe`
//! (`doctor_probe.rs`).

use crate::args::doctor::DoctorArgs;
use crate::error::CliError;
use agenthub::SandboxMode;
use agenthub::{Configuration, ModelOptions, ProviderOptions, TrustStatus};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One line of the report.
struct Check {
    name: &'static str,
    state: State,
    detail: String,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    /// Present and working.
    Ok,
    /// Not a problem, worth knowing.
    Note,
    /// Missing, and sessions need it.
    Missing,
}

pub async fn run(args: DoctorArgs) -> Result<u8, CliError> {
    let provider_options = ProviderOptions {
        model: args.model,
        provider: args.provider.map(crate::setup::provider_kind),
        base_url: args.base_url,
        tool_protocol: args.tool_protocol.map(crate::setup::tool_protocol),
        max_output_tokens: args.max_output_tokens,
    };
    let options = crate::setup::options(
        args.workspace,
        args.settings,
        Default::default(),
        Default::default(),
    );
    let configuration = Configuration::load(&options)?;
    let checks = checks(&configuration, &provider_options);
    let mut text = render(configuration.workspace(), &checks);
    let mut missing = checks.iter().any(|check| check.state == State::Missing);
    if args.probe {
        let probe = crate::doctor_probe::run(&configuration, &provider_options).await;
        text.push_str(&probe.text);
        missing |= !probe.works;
    }
    crate::output::print_stdout(&text);
    Ok(u8::from(missing))
}

fn checks(configuration: &Configuration, provider_options: &ProviderOptions) -> Vec<Check> {
    vec![
        sandbox(configuration),
        helper(
            "bash",
            true,
            "Bash commands and command hooks run in it",
            "bash",
        ),
        helper(
            "git",
            false,
            "only for git workspaces (batch, the fleet)",
            "git",
        ),
        settings_files(configuration),
        trust(configuration),
        provider(configuration, provider_options),
    ]
}

fn sandbox(configuration: &Configuration) -> Check {
    if configuration.settings().sandbox.mode == Some(SandboxMode::Off) {
        return Check {
            name: "sandbox",
            state: State::Note,
            detail: "off (settings sandbox.mode): Bash runs unconfined".to_owned(),
        };
    }
    match agenthub::crates::sandbox::confining_mechanism() {
        Ok(agenthub::crates::sandbox::Mechanism::Bubblewrap(path)) => Check {
            name: "sandbox",
            state: State::Ok,
            detail: format!("bubblewrap ({})", path.display()),
        },
        Ok(_) => Check {
            name: "sandbox",
            state: State::Ok,
            detail: "Landlock + seccomp (no working bubblewrap)".to_owned(),
        },
        Err(error) => Check {
            name: "sandbox",
            state: State::Missing,
            detail: error.to_string(),
        },
    }
}

fn helper(program: &'static str, needed: bool, why: &str, package: &str) -> Check {
    match find_on_path(program) {
        Some(path) => Check {
            name: program,
            state: State::Ok,
            detail: path.display().to_string(),
        },
        None => Check {
            name: program,
            state: if needed { State::Missing } else { State::Note },
            detail: format!(
                "not on PATH ({why}); install it (Debian/Ubuntu: `apt-get install {package}`)"
            ),
        },
    }
}

fn find_on_path(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

fn settings_files(configuration: &Configuration) -> Check {
    let files = &configuration.settings().files;
    let detail = if files.is_empty() {
        "none (built-in defaults)".to_owned()
    } else {
        files
            .iter()
            .map(|file| file.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    Check {
        name: "settings",
        state: State::Ok,
        detail,
    }
}

fn trust(configuration: &Configuration) -> Check {
    let (state, mut detail) = match configuration.trust() {
        TrustStatus::NothingToTrust => (
            State::Ok,
            "the workspace has no configuration of its own".to_owned(),
        ),
        TrustStatus::Trusted | TrustStatus::TrustedForThisRun => (
            State::Ok,
            "the workspace's configuration is trusted".to_owned(),
        ),
        TrustStatus::Untrusted { changed, problem } => {
            let why = match (changed, problem) {
                (_, Some(problem)) => format!(" ({problem})"),
                (true, None) => " (changed since trusted)".to_owned(),
                (false, None) => String::new(),
            };
            (
                State::Note,
                format!("not trusted{why}: its hooks, allow rules and MCP servers are set aside; review with `agenthub trust --show`"),
            )
        }
    };
    for (file, why) in &configuration.settings().unusable {
        let name = file.strip_prefix(configuration.workspace()).unwrap_or(file);
        let _ = write!(
            detail,
            "; {} cannot be used, set aside: {why}",
            name.display()
        );
    }
    Check {
        name: "trust",
        state,
        detail,
    }
}

/// The model `run` with these model flags would use (with the environment
/// and the settings); building it sends nothing.
fn provider(configuration: &Configuration, options: &ProviderOptions) -> Check {
    let model = ModelOptions::Provider(options.clone());
    match agenthub::choose_model(&model, configuration.settings()) {
        Ok(chosen) => Check {
            name: "provider",
            state: State::Ok,
            detail: format!("model {}", chosen.name),
        },
        Err(error) => Check {
            name: "provider",
            state: State::Missing,
            detail: format!("not configured: {error}"),
        },
    }
}

fn render(workspace: &Path, checks: &[Check]) -> String {
    let mut text = format!("workspace: {}\n", workspace.display());
    for check in checks {
        let state = match check.state {
            State::Ok => "ok",
            State::Note => "note",
            State::Missing => "MISSING",
        };
        let _ = writeln!(text, "{state:<7} {:<9} {}", check.name, check.detail);
    }
    if checks.iter().any(|check| check.state == State::Missing) {
        text.push_str("something needed is missing: see the MISSING lines\n");
    }
    text
}
