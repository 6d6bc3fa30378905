//! The file tools on hostile trees (issue 15): a folder swapped for a symlink
//! while Glob or Grep walks it, FIFOs and sockets where a file is expected,
//! and `~` in a tool path. Each test names what must never happen.

use super::{Edit, Glob, Grep, Read, Write};
use crate::{Tool, ToolContext, ToolDefinition, ToolError, Workspace};
use serde_json::{json, Value};
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tempfile::TempDir;
use tokio_util::sync::CancellationToken;

/// `<base>/proj` is the workspace with `proj/sub/inside.txt` and 200 empty
/// files beside `sub` (so a walk spends a while between listing `proj` and
/// listing `sub`); `<base>/outside/outside-name.txt` holds a secret line.
struct Tree {
    _dir: TempDir,
    base: PathBuf,
    proj: PathBuf,
    workspace: Workspace,
}

fn tree() -> Tree {
    let dir = TempDir::new().unwrap();
    let base = dir.path().canonicalize().unwrap();
    let proj = base.join("proj");
    fs::create_dir_all(proj.join("sub")).unwrap();
    fs::create_dir_all(base.join("outside")).unwrap();
    fs::write(proj.join("sub/inside.txt"), "inside line\n").unwrap();
    for index in 0..200 {
        fs::write(proj.join(format!("filler-{index:03}.dat")), "").unwrap();
    }
    fs::write(base.join("outside/outside-name.txt"), "TOP SECRET line\n").unwrap();
    Tree {
        _dir: dir,
        workspace: Workspace::new(&proj),
        base,
        proj,
    }
}

async fn invoke<T: Tool>(
    tool: T,
    workspace: &Workspace,
    input: Value,
) -> Result<String, ToolError> {
    let context = ToolContext {
        workspace: workspace.clone(),
        cancel: CancellationToken::new(),
    };
    let output = ToolDefinition::new(tool)
        .unwrap()
        .invoke(input, context)
        .await?;
    Ok(output.text)
}

/// Swaps `proj/sub` between the real folder and a symlink to `outside` until
/// stopped, so walks list it at random moments of the swap.
struct FolderSwapper {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl FolderSwapper {
    fn start(t: &Tree) -> FolderSwapper {
        let stop = Arc::new(AtomicBool::new(false));
        let running = stop.clone();
        let sub = t.proj.join("sub");
        let parked = t.base.join("parked");
        let link = t.base.join("link");
        let outside = t.base.join("outside");
        let thread = std::thread::spawn(move || {
            while !running.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_micros(50));
                fs::rename(&sub, &parked).unwrap();
                symlink(&outside, &link).unwrap();
                fs::rename(&link, &sub).unwrap();
                std::thread::sleep(Duration::from_micros(50));
                fs::remove_file(&sub).unwrap();
                fs::rename(&parked, &sub).unwrap();
            }
        });
        FolderSwapper {
            stop,
            thread: Some(thread),
        }
    }

    fn finish(mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            thread.join().unwrap();
        }
    }
}

const RACE_ROUNDS: usize = 300;

/// Every answer (listing or refusal) that names or quotes the outside.
async fn leaks_while_swapping<T: Tool>(tool: impl Fn() -> T, input: Value) -> Vec<String> {
    let t = tree();
    let swapper = FolderSwapper::start(&t);
    let mut leaked = Vec::new();
    for _ in 0..RACE_ROUNDS {
        let text = invoke(tool(), &t.workspace, input.clone())
            .await
            .unwrap_or_else(|error| error.message);
        if text.contains("outside-name") || text.contains("TOP SECRET") {
            leaked.push(text);
        }
    }
    swapper.finish();
    leaked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn glob_racing_a_folder_swapped_for_a_symlink_never_lists_an_outside_name() {
    let leaked = leaks_while_swapping(|| Glob, json!({"pattern": "sub/*"})).await;
    assert_eq!(leaked, Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn grep_racing_a_folder_swapped_for_a_symlink_never_returns_an_outside_name_or_line() {
    let input = json!({"pattern": "line", "output_mode": "content"});
    let leaked = leaks_while_swapping(|| Grep, input).await;
    assert_eq!(leaked, Vec::<String>::new());
}

/// Makes a FIFO at `path`.
fn make_fifo(path: &Path) {
    let name = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    // SAFETY: a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
}

/// A workspace holding the FIFO `pipe`, and the refusal every tool gives for it.
fn workspace_with_fifo() -> (TempDir, Workspace, String) {
    let dir = TempDir::new().unwrap();
    let root = dir.path().canonicalize().unwrap();
    make_fifo(&root.join("pipe"));
    let refusal = format!(
        "{} is a FIFO (named pipe), not a regular file; file tools only read and write regular files",
        root.join("pipe").display()
    );
    (dir, Workspace::new(&root), refusal)
}

/// The call's answer, or a note that it did not answer within 5 seconds.
async fn within_5s<T: Tool>(
    tool: T,
    workspace: &Workspace,
    input: Value,
) -> Result<String, ToolError> {
    tokio::time::timeout(Duration::from_secs(5), invoke(tool, workspace, input))
        .await
        .unwrap_or_else(|_| Err(ToolError::new("still waiting after 5 s")))
}

#[tokio::test]
async fn read_of_a_fifo_is_refused_without_waiting_for_a_writer() {
    let (_dir, workspace, refusal) = workspace_with_fifo();
    assert_eq!(
        within_5s(Read, &workspace, json!({"file_path": "pipe"})).await,
        Err(ToolError::new(refusal))
    );
}

#[tokio::test]
async fn edit_of_a_fifo_is_refused_without_waiting_for_a_writer() {
    let (_dir, workspace, refusal) = workspace_with_fifo();
    let input = json!({"file_path": "pipe", "old_string": "a", "new_string": "b"});
    assert_eq!(
        within_5s(Edit, &workspace, input).await,
        Err(ToolError::new(refusal))
    );
}

#[tokio::test]
async fn write_to_a_fifo_is_refused_without_waiting_for_a_reader() {
    let (_dir, workspace, refusal) = workspace_with_fifo();
    let input = json!({"file_path": "pipe", "content": "x"});
    assert_eq!(
        within_5s(Write, &workspace, input).await,
        Err(ToolError::new(refusal))
    );
}

#[tokio::test]
async fn grep_of_a_named_fifo_is_refused_without_waiting_for_a_writer() {
    let (_dir, workspace, refusal) = workspace_with_fifo();
    let pipe = workspace.root().join("pipe");
    assert_eq!(
        within_5s(Grep, &workspace, json!({"pattern": "x", "path": "pipe"})).await,
        Err(ToolError::new(format!(
            "cannot search {}: {refusal}",
            pipe.display()
        )))
    );
}

#[tokio::test]
async fn grep_over_a_folder_skips_a_fifo_in_it() {
    let (_dir, workspace, _) = workspace_with_fifo();
    fs::write(workspace.root().join("a.txt"), "x\n").unwrap();
    assert_eq!(
        within_5s(Grep, &workspace, json!({"pattern": "x"})).await,
        Ok(format!(
            "Found 1 file\n{}",
            workspace.root().join("a.txt").display()
        ))
    );
}

#[tokio::test]
async fn read_of_a_socket_is_refused() {
    let dir = TempDir::new().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let _socket = std::os::unix::net::UnixListener::bind(root.join("sock")).unwrap();
    assert_eq!(
        within_5s(Read, &Workspace::new(&root), json!({"file_path": "sock"})).await,
        Err(ToolError::new(format!(
            "{} is a socket, not a regular file; file tools only read and write regular files",
            root.join("sock").display()
        )))
    );
}

#[tokio::test]
async fn write_to_a_tilde_path_names_the_home_directory_and_creates_no_tilde_folder() {
    let t = tree();
    let home = t.base.join("home");
    fs::create_dir_all(&home).unwrap();
    let workspace = t.workspace.clone().with_home(&home);
    let input = json!({"file_path": "~/notes.txt", "content": "x"});
    let answer = invoke(Write, &workspace, input).await;
    assert_eq!(
        (
            answer,
            t.proj.join("~").exists(),
            home.join("notes.txt").exists()
        ),
        (
            Err(ToolError::new(format!(
                "{} is outside the workspace ({})",
                home.join("notes.txt").display(),
                t.proj.display()
            ))),
            false,
            false
        )
    );
}

#[tokio::test]
async fn read_of_a_tilde_path_reads_the_home_file_when_home_is_a_root() {
    let t = tree();
    let home = t.base.join("home");
    fs::create_dir_all(&home).unwrap();
    fs::write(home.join("notes.txt"), "from home\n").unwrap();
    let workspace = t
        .workspace
        .clone()
        .with_home(&home)
        .with_additional_roots([home.clone()]);
    assert_eq!(
        invoke(Read, &workspace, json!({"file_path": "~/notes.txt"})).await,
        Ok("     1\tfrom home\n".to_owned())
    );
}
