//! What the sandbox adds to one Bash call (issue 14: target < 5 ms), measured
//! side by side in one run: the same `true` through the Bash tool with the
//! sandbox off, under bubblewrap (the default where it is installed), and
//! under Landlock + seccomp (PATH without bwrap).
//!
//! added cost per call = median(bwrap or landlock) − median(off).
//! The policy is a realistic one: the workspace writable, its `.git` and nine
//! other protected names read-only, a `.env` masked.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a benchmark: a panic is a failed run

use agenthub_sandbox::{SandboxMode, SandboxPolicy};
use agenthub_tools::{ToolContext, ToolRegistry, Workspace};
use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::json;
use std::path::{Path, PathBuf};
use tokio_util::sync::CancellationToken;

const PROTECTED: [&str; 10] = [
    ".git",
    ".agenthub",
    ".claude",
    ".vscode",
    ".mcp.json",
    ".bashrc",
    ".envrc",
    ".gitmodules",
    ".npmrc",
    ".profile",
];

fn workspace(root: &Path, mode: SandboxMode) -> Workspace {
    let policy = SandboxPolicy {
        mode,
        masked: vec![root.join(".env")],
        protected: PROTECTED.iter().map(|name| root.join(name)).collect(),
        ..SandboxPolicy::workspace_write([root.to_path_buf()])
    };
    Workspace::new(root).with_sandbox(policy)
}

/// A PATH holding only `bash` (no `bwrap`): a folder of one symlink.
fn path_without_bwrap(dir: &Path) -> String {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let path = std::env::var_os("PATH").unwrap_or_default();
    let bash: PathBuf = std::env::split_paths(&path)
        .map(|folder| folder.join("bash"))
        .find(|candidate| candidate.is_file())
        .unwrap();
    std::os::unix::fs::symlink(bash, bin.join("bash")).unwrap();
    bin.display().to_string()
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap().join("ws");
    std::fs::create_dir(&root).unwrap();
    std::fs::create_dir(root.join(".git")).unwrap();
    std::fs::write(root.join(".env"), "SECRET=1").unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let registry = ToolRegistry::with_builtins().unwrap();
    let bash = registry.get("Bash").unwrap().clone();
    let original_path = std::env::var("PATH").unwrap_or_default();
    let mut group = c.benchmark_group("bash_call");
    for (name, mode, path) in [
        ("off", SandboxMode::Off, original_path.clone()),
        ("bwrap", SandboxMode::WorkspaceWrite, original_path.clone()),
        (
            "landlock",
            SandboxMode::WorkspaceWrite,
            path_without_bwrap(dir.path()),
        ),
    ] {
        std::env::set_var("PATH", &path);
        let context = ToolContext {
            workspace: workspace(&root, mode),
            cancel: CancellationToken::new(),
        };
        group.bench_function(name, |b| {
            b.iter(|| {
                let output = runtime
                    .block_on(bash.invoke(json!({"command": "true"}), context.clone()))
                    .unwrap();
                assert_eq!(output.text, "[exit code: 0]");
            })
        });
    }
    std::env::set_var("PATH", original_path);
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
