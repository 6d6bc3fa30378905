//! What a plugin's programs are told about the plugin (contract §20, §28):
//! `CLAUDE_PLUGIN_ROOT`, its installed folder, and `CLAUDE_PLUGIN_DATA`,
//! its folder for state (`$XDG_DATA_HOME/agenthub/plugin-data/NAME/`,
//! created on use). A shell gets them as environment variables it expands
//! itself; outside a shell (exec-form `args`, an MCP server's `command`)
//! [`substitute_variables`] puts each value in as part of one argument.
//! Neither is ever pasted into text a shell parses unless
//! [`shell_inert`] says the value reads the same to a shell as it is.

use agenthub_settings::HookPlugin;
use std::path::{Component, Path, PathBuf};

/// The variables of `plugin`'s programs: its root, then its data folder
/// (left out when there is no place for it).
pub fn plugin_variables(plugin: &HookPlugin) -> Vec<(String, String)> {
    let mut vars = vec![(
        "CLAUDE_PLUGIN_ROOT".to_owned(),
        plugin.root.display().to_string(),
    )];
    if let Some(data) = plugin_data_dir(&plugin.name) {
        vars.push(("CLAUDE_PLUGIN_DATA".to_owned(), data.display().to_string()));
    }
    vars
}

/// `$XDG_DATA_HOME/agenthub/plugin-data/NAME/` (else under
/// `~/.local/share`), created; `None` when there is no such place, it
/// cannot be made, or `name` is not one plain folder name.
pub fn plugin_data_dir(name: &str) -> Option<PathBuf> {
    let plain = matches!(
        Path::new(name).components().collect::<Vec<_>>().as_slice(),
        [Component::Normal(_)]
    );
    let data = agenthub_settings::xdg::data_home()?;
    let dir = data.join("agenthub/plugin-data").join(name);
    (plain && std::fs::create_dir_all(&dir).is_ok()).then_some(dir)
}

/// `text` with `${NAME}` and `$NAME` of each variable replaced by its
/// value (`$NAME` only when no identifier character follows).
pub fn substitute_variables(text: &str, vars: &[(String, String)]) -> String {
    vars.iter().fold(text.to_owned(), |text, (name, value)| {
        let text = text.replace(&format!("${{{name}}}"), value);
        super::replace_bare(&text, &format!("${name}"), value)
    })
}

/// Whether a shell reads `value` as exactly itself wherever it stands
/// (quoted or not): only letters, digits and `/ . _ - + , : @ % =`, and no
/// `~` or `-` first.
pub fn shell_inert(value: &str) -> bool {
    !value.is_empty()
        && !value.starts_with('-')
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%=".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_spellings_of_each_variable_are_replaced_and_longer_names_are_left() {
        let vars = vec![
            ("CLAUDE_PLUGIN_ROOT".to_owned(), "/p/r".to_owned()),
            ("CLAUDE_PLUGIN_DATA".to_owned(), "/d".to_owned()),
        ];
        assert_eq!(
            substitute_variables(
                "${CLAUDE_PLUGIN_ROOT}/a $CLAUDE_PLUGIN_DATA/b $CLAUDE_PLUGIN_ROOTS",
                &vars
            ),
            "/p/r/a /d/b $CLAUDE_PLUGIN_ROOTS"
        );
    }

    #[test]
    fn only_paths_a_shell_reads_as_they_are_are_inert_table() {
        let table = [
            ("/home/u/.local/share/agenthub/plugins/guard", true),
            ("/a/b-1.2_x+y,z:w@v%u=t", true),
            ("/with space/p", false),
            ("/x'; touch pwned; '", false),
            ("/x\"; touch pwned; \"", false),
            ("/x$(id)", false),
            ("/x`id`", false),
            ("/x/*", false),
            ("~/p", false),
            ("-rf", false),
            ("", false),
        ];
        for (value, expected) in table {
            assert_eq!(shell_inert(value), expected, "{value}");
        }
    }

    #[test]
    fn a_plugin_hook_gets_its_root_in_its_environment_and_each_exec_word_stays_one_argument() {
        let hooks = serde_json::json!({"SessionStart": [{"hooks": [
            {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/run",
             "args": ["$CLAUDE_PLUGIN_ROOT/a b", "--x"]},
            {"type": "command", "command": "sh \"$CLAUDE_PLUGIN_ROOT/h.sh\""}]}]});
        let root = "/p/my \"; touch pwned; \"";
        let mut configs =
            agenthub_settings::parse_hooks_value(Path::new("/p/hooks.json"), hooks).unwrap();
        let common = crate::HookCommon {
            session_id: "s".to_owned(),
            workspace: PathBuf::from("/w"),
            transcript_path: None,
            permission_mode: agenthub_protocol::PermissionMode::Default,
            cancel: Default::default(),
            agent: None,
        };
        let runs: Vec<_> = configs
            .iter_mut()
            .map(|config| {
                // Not a plain folder name: no data folder is made by the test.
                config.plugin = Some(HookPlugin {
                    name: "../guard".to_owned(),
                    root: PathBuf::from(root),
                });
                let invocation =
                    super::super::invocation(config, &common, &serde_json::Value::Null);
                let root_var = invocation
                    .env
                    .iter()
                    .find(|(name, _)| name == "CLAUDE_PLUGIN_ROOT")
                    .cloned();
                (invocation.program, root_var)
            })
            .collect();
        let root_var = Some(("CLAUDE_PLUGIN_ROOT".to_owned(), root.to_owned()));
        assert_eq!(
            runs,
            vec![
                (
                    super::super::Program::Exec {
                        program: format!("{root}/bin/run"),
                        args: vec![format!("{root}/a b"), "--x".to_owned()],
                    },
                    root_var.clone()
                ),
                (
                    super::super::Program::Shell("sh \"$CLAUDE_PLUGIN_ROOT/h.sh\"".to_owned()),
                    root_var
                ),
            ]
        );
    }

    #[test]
    fn a_name_that_is_not_one_plain_folder_name_has_no_data_folder() {
        assert_eq!(
            (plugin_data_dir("../escape"), plugin_data_dir("a/b")),
            (None, None)
        );
    }
}
