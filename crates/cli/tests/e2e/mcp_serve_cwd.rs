//! `agenthub mcp serve`'s `agenthub_run` keeps to the server's workspace
//! (contract §28): a `cwd` outside it — given directly, through `..` or
//! through a link inside the workspace — fails the call naming the allowed
//! root; a folder inside it runs. Driven by the official MCP TypeScript
//! SDK's client, as another agent would.

use crate::editors::client;
use crate::support::home::Home;
use serde_json::{json, Value};

#[test]
fn agenthub_run_refuses_a_cwd_outside_the_workspace_however_it_is_spelt() {
    let home = Home::new();
    home.write("outside/id_ed25519", "PRIVATE KEY\n");
    home.write("ws/sub/notes.txt", "notes\n");
    std::os::unix::fs::symlink(home.base.join("outside"), home.ws().join("link")).unwrap();
    let outside = home.base.join("outside");
    let cwds = json!([
        outside,
        "../outside",
        home.ws().join("link"),
        "sub",
        home.ws()
    ]);
    home.write("cwds.json", &cwds.to_string());
    let script = home.base.join("script.json");
    std::fs::write(&script, json!({"turns": [{"content": "done"}]}).to_string()).unwrap();
    let printed = client(
        &home,
        "mcp_run_cwd.mjs",
        &["--script", script.to_str().unwrap()],
    );
    let ws = home.ws();
    let refused = |why: String| {
        json!({"isError": true, "text": format!(
            "agenthub_run's cwd cannot be used: {why}; it must be {} or a folder inside it",
            ws.display()
        )})
    };
    let outside_the_workspace = format!(
        "{} is outside the workspace ({})",
        outside.display(),
        ws.display()
    );
    let ran = json!({"isError": false, "text": "done"});
    assert_eq!(
        printed,
        Value::Array(vec![
            refused(outside_the_workspace.clone()),
            refused(outside_the_workspace.clone()),
            refused(format!(
                "{}/link leads through a symbolic link to {}, which is outside the workspace ({})",
                ws.display(),
                outside.display(),
                ws.display()
            )),
            ran.clone(),
            ran
        ])
    );
}
