use super::*;
use serde_json::json;

fn lookup(name: &str) -> Option<String> {
    (name == "TOKEN").then(|| "s3cret".to_owned())
}

fn read(sections: &[(&str, Value)]) -> McpConfig {
    let sections: Vec<(PathBuf, Value)> = sections
        .iter()
        .map(|(file, value)| (PathBuf::from(file), value.clone()))
        .collect();
    McpConfig::from_sections(&sections, &lookup)
}

#[test]
fn a_stdio_server_reads_command_args_and_env_expanded() {
    let config = read(&[(
        "/u/settings.json",
        json!({"files": {"command": "npx", "args": ["-y", "srv", "${ROOT:-/tmp}"],
                         "env": {"KEY": "${TOKEN}"}}}),
    )]);
    assert_eq!(
        config,
        McpConfig {
            servers: vec![ServerConfig {
                name: "files".to_owned(),
                transport: Transport::Stdio {
                    command: "npx".to_owned(),
                    args: vec!["-y".to_owned(), "srv".to_owned(), "/tmp".to_owned()],
                    env: BTreeMap::from([("KEY".to_owned(), "s3cret".to_owned())]),
                },
                origin: PathBuf::from("/u/settings.json"),
            }],
            problems: vec![],
        }
    );
}

#[test]
fn an_sdk_server_is_named_by_its_key_and_described_as_the_applications() {
    let config = read(&[(
        "--mcp-config",
        json!({"calc": {"type": "sdk", "name": "calculator"}}),
    )]);
    let server = &config.servers[0];
    assert_eq!(
        (server.name.as_str(), &server.transport, server.describe()),
        (
            "calc",
            &Transport::Sdk,
            "sdk, served by the application".to_owned()
        )
    );
}

#[test]
fn an_http_server_reads_url_and_headers_expanded() {
    let config = read(&[(
        "/p/.mcp.json",
        json!({"web": {"type": "http", "url": "http://127.0.0.1:9/mcp",
                       "headers": {"Authorization": "Bearer ${TOKEN}"}}}),
    )]);
    assert_eq!(
        config.servers[0].transport,
        Transport::Http {
            url: "http://127.0.0.1:9/mcp".to_owned(),
            headers: BTreeMap::from([("Authorization".to_owned(), "Bearer s3cret".to_owned())]),
        }
    );
}

#[test]
fn a_later_file_replaces_a_server_of_the_same_name() {
    let config = read(&[
        ("/u/settings.json", json!({"a": {"command": "old"}})),
        ("/run.json", json!({"a": {"command": "new"}})),
    ]);
    assert_eq!(
        (
            config.servers.len(),
            config.servers[0].describe(),
            config.servers[0].origin.clone()
        ),
        (1, "new".to_owned(), PathBuf::from("/run.json"))
    );
}

#[test]
fn a_bad_entry_is_reported_with_file_and_server_and_the_others_load() {
    let config = read(&[(
        "/p/.mcp.json",
        json!({"good": {"command": "ok"}, "bad": {"command": "x", "env": {"K": "${NOPE}"}}}),
    )]);
    assert_eq!(
        (
            config
                .servers
                .iter()
                .map(|s| s.name.clone())
                .collect::<Vec<_>>(),
            config
                .problems
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
        ),
        (
            vec!["good".to_owned()],
            vec![
                "MCP server bad in /p/.mcp.json: env.K: environment variable NOPE is not set \
                  (write ${NOPE:-default} for a default)"
                    .to_owned()
            ]
        )
    );
}

#[test]
fn malformed_entries_say_what_is_wrong() {
    let cases = [
        (
            json!({"a__b": {"command": "x"}}),
            "a server name must be non-empty and must not contain \"__\"",
        ),
        (
            json!({"a": {"args": []}}),
            "a stdio server needs \"command\"",
        ),
        (
            json!({"a": {"type": "http"}}),
            "an http server needs \"url\"",
        ),
        (
            json!({"a": {"type": "sse", "url": "u"}}),
            "the SSE transport is not supported (the MCP SDK removed it); use \"type\": \"http\"",
        ),
        (
            json!({"a": {"type": "ws"}}),
            "type \"ws\" is not a transport; expected \"stdio\", \"http\" or \"sdk\"",
        ),
        (
            json!({"a": {"command": "x", "cwd": "/"}}),
            "unknown key \"cwd\" (this transport takes type, command, args, env)",
        ),
        (
            json!({"a": {"command": "x", "args": [1]}}),
            "args[0] must be a string, not 1",
        ),
        (json!({"a": 3}), "a server must be a JSON object"),
        (
            json!({"a": {"type": "sdk", "command": "x"}}),
            "unknown key \"command\" (this transport takes type, name)",
        ),
        (
            json!({"a": {"type": "sdk", "name": 3}}),
            "name must be a string, not 3",
        ),
    ];
    for (section, message) in cases {
        let config = read(&[("/f.json", section)]);
        assert_eq!(config.problems[0].message, message);
    }
}
