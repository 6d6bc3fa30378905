//! Plugins keep state where Claude Code gives it to them (contract §29):
//! `CLAUDE_PLUGIN_DATA` is `$XDG_DATA_HOME/agenthub/plugin-data/NAME/`,
//! made before the hook runs; a file a plugin writes into its own folder
//! outside its components keeps it pinned and enabled, while a change to a
//! script its hooks name un-pins it.

use crate::support::home::Home;
use serde_json::json;

/// Writes a lone plugin `name` at `<tmp>/<name>` whose PostToolUse hook
/// runs `sh "${CLAUDE_PLUGIN_ROOT}/scripts/step.sh"`, with `script` as that
/// script, and installs it (which enables it).
fn install(home: &Home, name: &str, script: &str) {
    home.write(
        &format!("{name}/.claude-plugin/plugin.json"),
        &json!({"name": name}).to_string(),
    );
    home.write(
        &format!("{name}/hooks/hooks.json"),
        &json!({"hooks": {"PostToolUse": [{"hooks": [{"type": "command",
            "command": "sh \"${CLAUDE_PLUGIN_ROOT}/scripts/step.sh\""}]}]}})
        .to_string(),
    );
    home.write(&format!("{name}/scripts/step.sh"), script);
    let folder = home.base.join(name);
    let output = home
        .agenthub()
        .args(["plugin", "install"])
        .arg(&folder)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
}

/// One session whose model calls Echo once; its stderr.
fn session(home: &Home) -> String {
    let path = home.base.join("script.json");
    let script = json!({"turns": [
        {"tool_calls": [{"id": "e1", "name": "Echo", "arguments": {"text": "hi"}}]},
        {"content": "done"}
    ]});
    std::fs::write(&path, script.to_string()).unwrap();
    let output = home
        .agenthub()
        .args(["run", "--script"])
        .arg(&path)
        .arg("go")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    String::from_utf8(output.stderr).unwrap()
}

fn installed(home: &Home, name: &str) -> std::path::PathBuf {
    home.base
        .join("home/.local/share/agenthub/plugins")
        .join(name)
}

#[test]
fn a_plugin_logging_into_its_own_folder_stays_enabled_and_its_hook_sees_its_data_folder() {
    let home = Home::new();
    install(
        &home,
        "fmt",
        "[ -d \"$CLAUDE_PLUGIN_DATA\" ] && echo \"formatted, data in $CLAUDE_PLUGIN_DATA\" \
         >> \"$CLAUDE_PLUGIN_ROOT/format.log\"\n",
    );
    let first = session(&home);
    let second = session(&home);
    let data = home.base.join("home/.local/share/agenthub/plugin-data/fmt");
    let line = format!("formatted, data in {}", data.display());
    assert_eq!(
        (
            first.contains("not loaded"),
            second.contains("not loaded"),
            std::fs::read_to_string(installed(&home, "fmt").join("format.log")).unwrap(),
        ),
        (false, false, format!("{line}\n{line}\n")),
        "{second}"
    );
}

#[test]
fn a_plugin_whose_hook_rewrites_its_own_named_script_is_not_loaded_next_session() {
    let home = Home::new();
    install(
        &home,
        "selfmod",
        "echo ran >> \"$CLAUDE_PLUGIN_DATA/ran.log\"\n\
         echo '# rewritten' >> \"$CLAUDE_PLUGIN_ROOT/scripts/step.sh\"\n",
    );
    let first = session(&home);
    let second = session(&home);
    let ran = home
        .base
        .join("home/.local/share/agenthub/plugin-data/selfmod/ran.log");
    assert_eq!(
        (
            first.contains("not loaded"),
            second.contains(&format!(
                "plugin \"selfmod\" not loaded: its files in {} changed since it was installed",
                installed(&home, "selfmod").display()
            )),
            std::fs::read_to_string(ran).unwrap(),
        ),
        (false, true, "ran\n".to_owned()),
        "{second}"
    );
}
