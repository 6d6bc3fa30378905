//! A malformed settings file of an untrusted project (contract §29): it never
//! stops `trust --show`, `doctor` or a run; it is set aside whole and named,
//! with its error, in the trust warning. Trusted, it is the configuration
//! error it always was (exit 2), and `agenthub trust` refuses to pin it.

use super::trust::{echo, Repo};
use serde_json::json;

const BROKEN: &str = "{\"permissions\": {\"allow\": [\"Bash\"],}";

/// The error the loader gives for [`BROKEN`] in `file`.
fn broken_error(repo: &Repo, file: &str) -> String {
    format!(
        "malformed settings file {} at line 1, column 36: trailing comma",
        repo.ws().join(file).display()
    )
}

/// An untrusted clone whose `.claude/settings.json` is [`BROKEN`] and whose
/// `.agenthub/settings.json` denies Echo.
fn clone_with_a_broken_file() -> Repo {
    let repo = Repo::new();
    std::fs::create_dir_all(repo.ws().join(".claude")).unwrap();
    repo.write(".claude/settings.json", BROKEN);
    repo.project_settings(json!({"permissions": {"deny": ["Echo"]}}));
    repo
}

#[test]
fn a_run_in_an_untrusted_clone_sets_a_malformed_file_aside_and_names_it_in_the_trust_warning() {
    let repo = clone_with_a_broken_file();
    let output = repo.run(echo(), &[]);
    assert_eq!(
        (
            output.status.code(),
            repo.trust_warning(&output),
            repo.tool_results()
        ),
        (
            Some(0),
            repo.expected_warning(&[&format!(
                "the whole file, which cannot be used: {} (.claude/settings.json)",
                broken_error(&repo, ".claude/settings.json")
            )]),
            vec![format!(
                "Error [permission_denied]: the tool was not run: permission denied: Echo \
                 matches deny rule Echo ({})",
                repo.ws().join(".agenthub/settings.json").display()
            )]
        )
    );
}

#[test]
fn a_malformed_mcp_json_of_an_untrusted_clone_is_set_aside_too() {
    let repo = Repo::new();
    repo.write(".mcp.json", "{\"mcpServers\": {,}}");
    let output = repo.run(echo(), &[]);
    assert_eq!(
        (output.status.code(), repo.trust_warning(&output)),
        (
            Some(0),
            repo.expected_warning(&[&format!(
                "the whole file, which cannot be used: malformed settings file {} at line 1, \
                 column 17: key must be a string (.mcp.json)",
                repo.ws().join(".mcp.json").display()
            )])
        )
    );
}

#[test]
fn trust_show_names_the_malformed_file_and_its_error_and_exits_0() {
    let repo = clone_with_a_broken_file();
    let (code, shown) = repo.trust(&["--show"]);
    let lines: Vec<String> = shown
        .lines()
        .map(|line| match line.split_once(" (sha256 ") {
            Some((name, _)) => name.to_owned(),
            None => line.to_owned(),
        })
        .collect();
    assert_eq!(
        (code, lines),
        (
            Some(0),
            vec![
                format!("workspace: {}", repo.ws().display()),
                ".agenthub/settings.json".to_owned(),
                "  acts once trusted: nothing".to_owned(),
                "  applies already:".to_owned(),
                "    deny rule: Echo".to_owned(),
                ".claude/settings.json".to_owned(),
                "  cannot be used, set aside whole while not trusted:".to_owned(),
                format!("    {}", broken_error(&repo, ".claude/settings.json")),
                "status: not trusted".to_owned(),
            ]
        )
    );
}

#[test]
fn doctor_in_an_untrusted_clone_names_the_malformed_file_and_never_stops_on_it() {
    let repo = clone_with_a_broken_file();
    let output = repo
        .agenthub()
        .arg("doctor")
        .env("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
        .env("AGENTHUB_MODEL", "local-model")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let trust_line = stdout.lines().find(|line| line.contains(" trust "));
    assert_eq!(
        (output.status.code(), trust_line.map(str::to_owned)),
        (
            Some(0),
            Some(format!(
                "note    trust     not trusted: its hooks, allow rules and MCP servers are set \
                 aside; review with `agenthub trust --show`; .claude/settings.json cannot be \
                 used, set aside: {}",
                broken_error(&repo, ".claude/settings.json")
            ))
        ),
        "{stdout}"
    );
}

#[test]
fn trusted_a_malformed_file_still_stops_the_run_with_exit_2_and_trust_refuses_to_pin_it() {
    let repo = clone_with_a_broken_file();
    let run = repo.run(echo(), &["--trust-project"]);
    let trust = repo.agenthub().arg("trust").output().unwrap();
    assert_eq!(
        (
            run.status.code(),
            String::from_utf8_lossy(&run.stderr).into_owned(),
            trust.status.code(),
            String::from_utf8_lossy(&trust.stderr).into_owned(),
            repo.trust(&["--show"]).1.ends_with("status: not trusted\n"),
        ),
        (
            Some(2),
            format!(
                "agenthub: {}\n",
                broken_error(&repo, ".claude/settings.json")
            ),
            Some(2),
            format!(
                "agenthub: not trusted: .claude/settings.json cannot be used ({}); fix it, then \
                 run `agenthub trust` again\n",
                broken_error(&repo, ".claude/settings.json")
            ),
            true,
        )
    );
}
