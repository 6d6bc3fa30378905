//! The battery's setting (commands and paths people have used to slip past permission rules): a real temporary
//! directory with a workspace `proj`, a sibling `proj-secrets`, an `outside`
//! directory and a `home`; the default rules allow `Bash(git status *)`,
//! `Bash(ls *)`, `Bash(npm run test *)`, `Read(*)` and deny `Read(./.env)`,
//! `Bash(rm *)`, `Bash(curl *)`.

#![allow(dead_code)]

use agenthub_policy::{
    CallView, CliPermissions, Decision, Explanation, PermissionMode, PolicyConfig, PolicyEngine,
    PolicyInput, Source,
};
use agenthub_protocol::{PermissionEffect, PermissionSuggestion};
use agenthub_tools::{ToolCapabilities, ToolEffect, ToolRegistry, Workspace};
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tempfile::TempDir;

#[allow(unused_imports)] // not every test file uses all three
pub use PermissionEffect::{Allow, Ask, Deny};

pub const ALLOW: [&str; 4] = [
    "Bash(git status *)",
    "Bash(ls *)",
    "Bash(npm run test *)",
    "Read(*)",
];
pub const DENY: [&str; 3] = ["Read(./.env)", "Bash(rm *)", "Bash(curl *)"];

pub struct Battery {
    _dir: TempDir,
    pub base: PathBuf,
    pub workspace: Workspace,
}

impl Battery {
    pub fn new() -> Battery {
        let dir = TempDir::new().unwrap();
        let base = dir.path().canonicalize().unwrap();
        for folder in [
            "proj/src",
            "proj/.git/hooks",
            "proj-secrets",
            "outside",
            "home/.ssh",
        ] {
            fs::create_dir_all(base.join(folder)).unwrap();
        }
        for (file, content) in [
            ("proj/src/a.rs", "fn main() {}"),
            ("proj/.env", "SECRET=1"),
            ("proj/.git/config", "[core]"),
            ("proj-secrets/key", "secret"),
            ("outside/x", "outside"),
            ("home/.ssh/id_rsa", "private key"),
            ("home/.zshenv", "export A=1"),
        ] {
            fs::write(base.join(file), content).unwrap();
        }
        // git's index, version 2, tracking nothing yet (see `track`).
        fs::write(base.join("proj/.git/index"), b"DIRC\0\0\0\x02\0\0\0\0").unwrap();
        let workspace = Workspace::new(base.join("proj"));
        Battery {
            _dir: dir,
            base,
            workspace,
        }
    }

    pub fn proj(&self, rest: &str) -> PathBuf {
        self.base.join("proj").join(rest)
    }

    pub fn home(&self) -> PathBuf {
        self.base.join("home")
    }

    /// The battery's engine with the default rules in `mode`, plus `extra` sections.
    pub fn engine(&self, mode: PermissionMode) -> PolicyEngine {
        self.engine_with(mode, json!({}))
    }

    pub fn engine_with(&self, mode: PermissionMode, extra: Value) -> PolicyEngine {
        let settings = self.proj(".agenthub/settings.json");
        let sections = vec![
            (settings.clone(), json!({"allow": ALLOW, "deny": DENY})),
            (settings, extra),
        ];
        let home = self.home();
        let config = PolicyConfig::build(PolicyInput {
            workspace: &self.base.join("proj"),
            home: Some(&home),
            sections: &sections,
            cli: CliPermissions {
                mode: Some(&Ok(mode)),
                ..CliPermissions::default()
            },
            extra_tools: &[],
        })
        .unwrap();
        PolicyEngine::new(config, Some(home))
    }

    pub fn explain(
        &self,
        engine: &PolicyEngine,
        tool: &str,
        input: Value,
        hook: Option<PermissionEffect>,
    ) -> Explanation {
        let suggestion = hook.map(|effect| PermissionSuggestion {
            effect,
            reason: None,
            hook: "policy-hook".to_owned(),
        });
        let capabilities = declared(tool);
        let call = CallView {
            tool,
            effect: match tool {
                "Read" | "Glob" | "Grep" | "Echo" => ToolEffect::ReadOnly,
                "Task" => ToolEffect::Delegates,
                _ => ToolEffect::SideEffects,
            },
            capabilities: &capabilities,
            input: &input,
        };
        engine
            .explain(call, suggestion.as_ref(), &self.workspace)
            .unwrap()
    }

    /// The decision with the default rules, mode `default`, no hook.
    pub fn decide(&self, tool: &str, input: Value) -> Decision {
        let engine = self.engine(PermissionMode::Default);
        self.explain(&engine, tool, input, None).decision
    }

    pub fn bash(&self, command: &str) -> Decision {
        self.decide("Bash", json!({ "command": command }))
    }
}

/// What the built-in tool named `tool` declares (nothing for other names).
pub fn declared(tool: &str) -> ToolCapabilities {
    static REGISTRY: OnceLock<ToolRegistry> = OnceLock::new();
    REGISTRY
        .get_or_init(|| ToolRegistry::with_builtins().unwrap())
        .get(tool)
        .map(|definition| definition.capabilities().clone())
        .unwrap_or_default()
}

/// `(effect, source)` of a decision: what the battery tables compare.
pub fn verdict(decision: &Decision) -> (PermissionEffect, Source) {
    (decision.effect, decision.source)
}

pub fn path_text(path: &Path) -> String {
    path.display().to_string()
}
