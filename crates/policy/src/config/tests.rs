//! Building the configuration: layer order, the command line, strict errors
//! that name the file and the JSON path.

use super::*;
use serde_json::json;

fn build(
    sections: &[(PathBuf, Value)],
    cli: CliPermissions<'_>,
) -> Result<PolicyConfig, ConfigError> {
    PolicyConfig::build(PolicyInput {
        workspace: Path::new("/w/proj"),
        home: Some(Path::new("/home/u")),
        sections,
        cli,
        extra_tools: &[],
    })
}

fn file() -> PathBuf {
    PathBuf::from("/w/proj/.agenthub/settings.json")
}

fn texts(config: &PolicyConfig, list: RuleList) -> Vec<String> {
    config.rules_in(list).map(|rule| rule.describe()).collect()
}

#[test]
fn rules_keep_their_file_and_the_command_line_comes_last() {
    let sections = [(
        file(),
        json!({"allow": ["Bash(git status:*)"], "deny": ["Read(./.env)"]}),
    )];
    let deny = vec!["Bash(curl *)".to_owned()];
    let config = build(
        &sections,
        CliPermissions {
            deny: &deny,
            ..CliPermissions::default()
        },
    )
    .unwrap();
    assert_eq!(
        texts(&config, RuleList::Deny),
        [
            "Read(./.env) (/w/proj/.agenthub/settings.json)",
            "Bash(curl *) (command line)"
        ]
    );
    assert_eq!(
        texts(&config, RuleList::Allow),
        ["Bash(git status:*) (/w/proj/.agenthub/settings.json)"]
    );
}

#[test]
fn the_command_line_mode_wins_over_the_last_default_mode() {
    let sections = [
        (
            PathBuf::from("/home/u/.config/agenthub/settings.json"),
            json!({"defaultMode": "plan"}),
        ),
        (file(), json!({"defaultMode": "acceptEdits"})),
    ];
    assert_eq!(
        build(&sections, CliPermissions::default()).unwrap().mode,
        PermissionMode::AcceptEdits
    );
    let cli = CliPermissions {
        mode: Some(&Ok(PermissionMode::DontAsk)),
        ..CliPermissions::default()
    };
    assert_eq!(build(&sections, cli).unwrap().mode, PermissionMode::DontAsk);
}

#[test]
fn an_invalid_rule_names_the_rule_the_file_and_the_json_path() {
    let sections = [(file(), json!({"deny": ["Bash(rm *)", "Bsh(rm *)"]}))];
    assert_eq!(
        build(&sections, CliPermissions::default()).unwrap_err().to_string(),
        "invalid permission rule \"Bsh(rm *)\" in /w/proj/.agenthub/settings.json at permissions.deny[1]: \
         no tool is named Bsh; known tools: Read, Write, Edit, Bash, Glob, Grep, TodoWrite, Echo, Task, WebFetch, mcp__<server>__<tool>"
    );
}

#[test]
fn an_invalid_command_line_rule_names_the_flag() {
    let allow = vec!["Bash(rm:* -rf".to_owned()];
    let error = build(
        &[],
        CliPermissions {
            allow: &allow,
            ..CliPermissions::default()
        },
    )
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        "invalid permission rule \"Bash(rm:* -rf\" on the command line (--allow): the rule opens '(' but does not end with ')'"
    );
}

#[test]
fn malformed_settings_values_are_errors_with_their_json_path() {
    let table = [
        (json!({"deny": "Bash"}), "invalid permissions setting in /w/proj/.agenthub/settings.json at permissions.deny: must be an array of rule strings"),
        (json!({"allow": [3]}), "invalid permissions setting in /w/proj/.agenthub/settings.json at permissions.allow[0]: must be a rule string, found 3"),
        (json!({"defaultMode": "yolo"}), "invalid permissions setting in /w/proj/.agenthub/settings.json at permissions.defaultMode: unknown permission mode \"yolo\"; expected one of default, acceptEdits, plan, dontAsk, bypassPermissions"),
        (json!(["Bash"]), "invalid permissions setting in /w/proj/.agenthub/settings.json at permissions: must be an object"),
        (json!({"additionalDirectories": [""]}), "invalid permissions setting in /w/proj/.agenthub/settings.json at permissions.additionalDirectories[0]: must be a non-empty directory path"),
    ];
    for (permissions, expected) in table {
        let sections = [(file(), permissions)];
        assert_eq!(
            build(&sections, CliPermissions::default())
                .unwrap_err()
                .to_string(),
            expected
        );
    }
}

#[test]
fn an_unknown_command_line_mode_names_the_flag() {
    let yolo = "yolo".parse::<PermissionMode>();
    let cli = CliPermissions {
        mode: Some(&yolo),
        ..CliPermissions::default()
    };
    assert_eq!(
        build(&[], cli).unwrap_err().to_string(),
        "invalid permissions setting on the command line (--permission-mode): unknown permission mode \"yolo\"; expected one of default, acceptEdits, plan, dontAsk, bypassPermissions"
    );
}

#[test]
fn claude_code_only_tools_load_with_a_warning() {
    let sections = [(file(), json!({"allow": ["WebSearch"], "unknownKey": 1}))];
    assert_eq!(
        build(&sections, CliPermissions::default()).unwrap().warnings,
        [
            "unknown key permissions.unknownKey in /w/proj/.agenthub/settings.json is ignored",
            "permission rule \"WebSearch\" (/w/proj/.agenthub/settings.json) names WebSearch, a Claude Code tool AgentHub does not have; it has no effect",
        ]
    );
}

#[test]
fn disabled_bypass_mode_cannot_be_chosen() {
    let sections = [(file(), json!({"disableBypassPermissionsMode": "disable"}))];
    let cli = CliPermissions {
        mode: Some(&Ok(PermissionMode::BypassPermissions)),
        ..CliPermissions::default()
    };
    assert_eq!(
        build(&sections, cli).unwrap_err().to_string(),
        "invalid permissions setting in /w/proj/.agenthub/settings.json at permissions.disableBypassPermissionsMode: bypassPermissions mode is disabled by disableBypassPermissionsMode"
    );
}

#[test]
fn project_settings_anchor_slash_rules_at_the_project() {
    assert_eq!(sections::settings_root(&file()), PathBuf::from("/w/proj"));
    assert_eq!(
        sections::settings_root(Path::new("/home/u/.config/agenthub/settings.json")),
        PathBuf::from("/home/u/.config/agenthub")
    );
}

#[test]
fn additional_directories_resolve_and_missing_ones_warn() {
    let dir = tempfile::TempDir::new().unwrap();
    let docs = dir.path().join("docs");
    std::fs::create_dir(&docs).unwrap();
    let settings = dir.path().join("proj/.agenthub/settings.json");
    let sections = [(
        settings.clone(),
        json!({"additionalDirectories": [docs.to_str().unwrap(), "missing"]}),
    )];
    let config = build(&sections, CliPermissions::default()).unwrap();
    assert_eq!(
        config.additional_directories,
        [docs.canonicalize().unwrap()]
    );
    assert_eq!(
        config.warnings,
        [format!(
            "permissions.additionalDirectories[1] in {}: {} is not an existing directory; it grants nothing",
            settings.display(),
            dir.path().join("proj/missing").display()
        )]
    );
}
