//! A temporary HOME for one case. The plugin store and the user's folders
//! are found through `HOME` and the XDG variables, which are the process's:
//! a case holds one lock while it has them pointing into its folder, so
//! cases never see each other's files.

use agenthub_packages::plugins::EnabledPlugin;
use agenthub_packages::Sources;
use agenthub_settings::ProjectTrust;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

static ENVIRONMENT: Mutex<()> = Mutex::new(());

/// `<base>/home` is HOME, `<base>/ws` the workspace.
pub(crate) struct Home {
    pub base: PathBuf,
    workspace: PathBuf,
    _dir: tempfile::TempDir,
    _lock: MutexGuard<'static, ()>,
}

impl Home {
    pub fn new() -> Home {
        let lock = ENVIRONMENT.lock().unwrap_or_else(PoisonError::into_inner);
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::env::set_var("HOME", base.join("home"));
        std::env::set_var("XDG_CONFIG_HOME", base.join("home/.config"));
        std::env::set_var("XDG_DATA_HOME", base.join("home/.local/share"));
        let workspace = base.join("ws");
        std::fs::create_dir_all(&workspace).unwrap();
        Home {
            base,
            workspace,
            _dir: dir,
            _lock: lock,
        }
    }

    /// Writes `text` at `rel` (relative to the case's folder).
    pub fn write(&self, rel: &str, text: &str) {
        let path = self.base.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// What the folder walk reads for this case's workspace.
    pub fn sources<'a>(&'a self, trust: ProjectTrust, plugins: &'a [EnabledPlugin]) -> Sources<'a> {
        Sources {
            workspace: &self.workspace,
            trust,
            claude_files: true,
            plugins,
        }
    }

    /// Where the store keeps the plugin `name`.
    pub fn installed_root(&self, name: &str) -> PathBuf {
        self.base
            .join("home/.local/share/agenthub/plugins")
            .join(name)
    }

    /// A marketplace `team-tools` at `<base>/market` with one plugin, `guard`:
    /// a PreToolUse hook, an agent, a command and a skill.
    pub fn market(&self) -> PathBuf {
        self.write(
            "market/.claude-plugin/marketplace.json",
            &json!({"name": "team-tools", "owner": {"name": "t"},
                    "plugins": [{"name": "guard", "source": "./plugins/guard"}]})
            .to_string(),
        );
        self.write(
            "market/plugins/guard/.claude-plugin/plugin.json",
            r#"{"name": "guard", "version": "1.0.0", "description": "Blocks Bash"}"#,
        );
        self.write(
            "market/plugins/guard/hooks/hooks.json",
            &json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "sh \"${CLAUDE_PLUGIN_ROOT}/hooks/guard.sh\""}]}]}})
            .to_string(),
        );
        self.write("market/plugins/guard/hooks/guard.sh", "exit 2\n");
        self.write(
            "market/plugins/guard/agents/reviewer.md",
            "---\ndescription: Reviews a diff\n---\nReview.\n",
        );
        self.write(
            "market/plugins/guard/commands/check.md",
            "---\ndescription: Check a path\n---\nCheck $ARGUMENTS carefully.\n",
        );
        self.write(
            "market/plugins/guard/skills/tidy/SKILL.md",
            "---\nname: tidy\ndescription: Tidies imports\n---\nSort the imports.\n",
        );
        self.base.join("market")
    }

    /// The marketplace added and its `guard` installed from it.
    pub fn install_guard(&self) {
        let market = self.market();
        agenthub_packages::plugins::add_marketplace(market.to_str().unwrap()).unwrap();
        agenthub_packages::plugins::install_plugin("guard@team-tools").unwrap();
    }
}

/// The plugins `ids` turn on, and the warnings for those that cannot join.
pub(crate) fn enabled(ids: &[(&str, bool)]) -> (Vec<EnabledPlugin>, Vec<String>) {
    let ids = ids.iter().map(|(id, on)| ((*id).to_owned(), *on)).collect();
    agenthub_packages::plugins::enabled_plugins(&ids)
}

/// Makes `folder` a git repository with everything in one commit.
pub(crate) fn commit_all(folder: &Path) {
    for args in [
        vec!["init", "-q", "-b", "main"],
        vec!["add", "-A"],
        vec![
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-q",
            "-m",
            "market",
        ],
    ] {
        let status = std::process::Command::new("git")
            .args(&args)
            .current_dir(folder)
            .status()
            .unwrap();
        assert!(status.success(), "git {args:?}");
    }
}
