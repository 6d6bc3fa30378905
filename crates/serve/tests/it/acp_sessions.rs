//! A session's life across connections (contract §31): `session/list`
//! lists the workspace's sessions whole; a mode set before the first prompt
//! leaves the transcript starting with its `session` record, is recorded,
//! and `session/load` comes back in it; `session/set_mode` keeps the
//! session's MCP server running (it starts once).

use crate::support::{Place, Wire};
use agenthub::transcript_path;
use serde_json::{json, Value};

/// Sends request `id`; the notifications written before its answer, and
/// the answer.
async fn call(wire: &mut Wire, id: u64, method: &str, params: Value) -> (Vec<Value>, Value) {
    let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
    wire.write(&request.to_string()).await;
    let mut before = Vec::new();
    loop {
        let message = wire.read().await;
        if message["id"] == id {
            return (before, message);
        }
        before.push(message);
    }
}

async fn new_session(wire: &mut Wire, cwd: &std::path::Path, servers: Value) -> String {
    let (_, created) = call(
        wire,
        1,
        "session/new",
        json!({"cwd": cwd, "mcpServers": servers}),
    )
    .await;
    created["result"]["sessionId"].as_str().unwrap().to_owned()
}

async fn prompt(wire: &mut Wire, session: &str, text: &str) -> Value {
    let (_, answer) = call(
        wire,
        2,
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "text", "text": text}]}),
    )
    .await;
    answer
}

fn records(session: &str) -> Vec<Value> {
    std::fs::read_to_string(transcript_path(None, session))
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect()
}

#[tokio::test]
async fn a_mode_set_before_the_first_prompt_is_recorded_after_the_session_record_and_load_comes_back_in_it(
) {
    let place = Place::new();
    let ws = place.ws();
    let mut wire = Wire::start(place.scripted(json!([{"content": "ok"}])));
    let session = new_session(&mut wire, &ws, json!([])).await;
    let (_, set) = call(
        &mut wire,
        3,
        "session/set_mode",
        json!({"sessionId": session, "modeId": "acceptEdits"}),
    )
    .await;
    let answer = prompt(&mut wire, &session, "hello").await;
    assert_eq!(
        (set["result"].clone(), answer["result"].clone()),
        (json!({}), json!({"stopReason": "end_turn"}))
    );
    assert!(wire.finish().await.is_ok());
    let written = records(&session);
    let modes: Vec<Value> = written
        .iter()
        .filter(|record| record["type"] == "permission-mode")
        .cloned()
        .collect();
    assert_eq!(
        (
            json!([
                written[0]["type"],
                written[0]["session_id"],
                written[0]["workspace"]
            ]),
            json!([written[1]["sessionId"], written[1]["cwd"]]),
            modes
        ),
        (
            json!(["session", session, ws]),
            json!([session, ws]),
            vec![
                json!({"type": "permission-mode", "permissionMode": "acceptEdits",
                "sessionId": session})
            ]
        )
    );
    let mut again = Wire::start(place.scripted(json!([])));
    let (_, loaded) = call(
        &mut again,
        4,
        "session/load",
        json!({"sessionId": session, "cwd": ws, "mcpServers": []}),
    )
    .await;
    assert_eq!(loaded["result"]["modes"]["currentModeId"], "acceptEdits");
    assert!(again.finish().await.is_ok());
}

#[tokio::test]
async fn list_gives_the_workspaces_sessions_with_their_titles_and_times() {
    let place = Place::new();
    let ws = place.ws();
    let elsewhere = place.base.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let turns = json!([{"content": "one"}, {"content": "two"}, {"content": "three"}]);
    let mut wire = Wire::start(place.scripted(turns.clone()));
    let first = new_session(&mut wire, &ws, json!([])).await;
    prompt(&mut wire, &first, "fix the login bug\nin detail").await;
    let other = new_session(&mut wire, &elsewhere, json!([])).await;
    prompt(&mut wire, &other, "not this folder").await;
    let second = new_session(&mut wire, &ws, json!([])).await;
    prompt(&mut wire, &second, "\nadd a test").await;
    let (_, listed) = call(&mut wire, 5, "session/list", json!({"cwd": ws})).await;
    assert!(wire.finish().await.is_ok());
    let updated = |id: &str| {
        let modified = std::fs::metadata(transcript_path(None, id))
            .unwrap()
            .modified()
            .unwrap();
        agenthub::utc_time(modified)
    };
    let mut expected = vec![
        json!({"sessionId": first, "cwd": ws, "title": "fix the login bug",
            "updatedAt": updated(&first)}),
        json!({"sessionId": second, "cwd": ws, "title": "add a test",
            "updatedAt": updated(&second)}),
    ];
    // Most recently written first (two written in the same second keep
    // either order).
    let sessions = listed["result"]["sessions"].as_array().unwrap().clone();
    if sessions.first().map(|session| &session["sessionId"]) == Some(&json!(second)) {
        expected.reverse();
    }
    assert_eq!(listed["result"], json!({ "sessions": expected }));
    // Without a cwd, the agent's own workspace.
    let mut flags = place.scripted(json!([]));
    flags.options.workspace = Some(elsewhere.clone());
    let mut own = Wire::start(flags);
    let (_, listed) = call(&mut own, 6, "session/list", json!({})).await;
    assert_eq!(
        listed["result"]["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|session| session["sessionId"].clone())
            .collect::<Vec<_>>(),
        vec![json!(other)]
    );
    assert!(own.finish().await.is_ok());
}

#[tokio::test]
async fn set_mode_keeps_the_sessions_mcp_server_running() {
    let place = Place::new();
    let ws = place.ws();
    let events = place.base.join("events.txt");
    let server = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../cli/tests/e2e/servers/slow_mcp.py"
    );
    let servers = json!([{"name": "slow", "command": "python3", "args": [server, "slow"],
        "env": [{"name": "MCP_EVENTS", "value": events}]}]);
    let mut wire = Wire::start(place.scripted(json!([])));
    let session = new_session(&mut wire, &ws, servers).await;
    for (id, mode) in [(7, "plan"), (8, "acceptEdits")] {
        let (_, set) = call(
            &mut wire,
            id,
            "session/set_mode",
            json!({"sessionId": session, "modeId": mode}),
        )
        .await;
        assert_eq!(set["result"], json!({}));
    }
    let seen = std::fs::read_to_string(&events).unwrap();
    assert!(wire.finish().await.is_ok());
    assert_eq!(seen, "slow initialize\nslow answered\n", "one start");
}

#[tokio::test]
async fn load_goes_on_in_the_settings_mode_when_they_now_refuse_the_last_one_and_says_why() {
    let place = Place::new();
    let ws = place.ws();
    let mut wire = Wire::start(place.scripted(json!([{"content": "ok"}])));
    let session = new_session(&mut wire, &ws, json!([])).await;
    prompt(&mut wire, &session, "hello").await;
    call(
        &mut wire,
        3,
        "session/set_mode",
        json!({"sessionId": session, "modeId": "bypassPermissions"}),
    )
    .await;
    assert!(wire.finish().await.is_ok());
    let settings = ws.join(".agenthub/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(
        &settings,
        r#"{"permissions": {"disableBypassPermissionsMode": "disable"}}"#,
    )
    .unwrap();
    // The project's settings act once trusted (`--trust-project`).
    let mut flags = place.scripted(json!([]));
    flags.options.trust = agenthub::TrustChoice::ThisRun;
    let mut again = Wire::start(flags);
    let (told, loaded) = call(
        &mut again,
        4,
        "session/load",
        json!({"sessionId": session, "cwd": ws, "mcpServers": []}),
    )
    .await;
    assert!(again.finish().await.is_ok());
    let said: Vec<String> = told
        .iter()
        .filter_map(|update| update["params"]["update"]["content"]["text"].as_str())
        .filter(|text| text.starts_with("[Warning] the session's last mode"))
        .map(str::to_owned)
        .collect();
    assert_eq!(
        (loaded["result"]["modes"]["currentModeId"].clone(), said),
        (
            json!("default"),
            vec![format!(
                "[Warning] the session's last mode bypassPermissions is refused now (invalid \
                 permissions setting in {} at permissions.disableBypassPermissionsMode: \
                 bypassPermissions mode is disabled by disableBypassPermissionsMode); it goes \
                 on in default\n",
                settings.display()
            )]
        )
    );
}
