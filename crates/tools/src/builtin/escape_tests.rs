//! The file tools called directly (through `ToolDefinition::invoke`, no
//! permission policy in front) on real temporary directories: a symlink to
//! outside, a path swapped for one after the check, a hard link to an outside
//! file, and files the read guard hides from searches. Nothing outside the
//! workspace is ever read, written or created.

use super::{Edit, Glob, Grep, Read, Write};
use crate::{ReadGuard, Tool, ToolContext, ToolDefinition, ToolError, Workspace};
use serde_json::{json, Value};
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tempfile::TempDir;
use tokio_util::sync::CancellationToken;

const SECRET: &str = "TOP SECRET\n";

/// `<base>/proj` is the workspace, holding `inside.txt`;
/// `<base>/outside/secret.txt` is a file it must never reach.
struct Fixture {
    _dir: TempDir,
    proj: PathBuf,
    outside: PathBuf,
    secret: PathBuf,
    workspace: Workspace,
}

fn fixture() -> Fixture {
    let dir = TempDir::new().unwrap();
    let base = dir.path().canonicalize().unwrap();
    let (proj, outside) = (base.join("proj"), base.join("outside"));
    fs::create_dir_all(&proj).unwrap();
    fs::create_dir_all(&outside).unwrap();
    fs::write(proj.join("inside.txt"), "inside\n").unwrap();
    let secret = outside.join("secret.txt");
    fs::write(&secret, SECRET).unwrap();
    Fixture {
        _dir: dir,
        workspace: Workspace::new(&proj),
        proj,
        outside,
        secret,
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

fn link_outside_error(f: &Fixture, link: &Path, target: &Path) -> Result<String, ToolError> {
    Err(ToolError::new(format!(
        "{} leads through a symbolic link to {}, which is outside the workspace ({})",
        link.display(),
        target.display(),
        f.proj.display()
    )))
}

fn secret_content(f: &Fixture) -> String {
    fs::read_to_string(&f.secret).unwrap()
}

fn edit_input(file_path: &str) -> Value {
    json!({"file_path": file_path, "old_string": "TOP", "new_string": "NO"})
}

#[tokio::test]
async fn read_through_a_symlink_to_outside_is_refused_naming_link_and_target() {
    let f = fixture();
    symlink(&f.secret, f.proj.join("link.txt")).unwrap();
    assert_eq!(
        invoke(Read, &f.workspace, json!({"file_path": "link.txt"})).await,
        link_outside_error(&f, &f.proj.join("link.txt"), &f.secret)
    );
}

#[tokio::test]
async fn read_through_a_symlink_that_stays_inside_reads_its_target() {
    let f = fixture();
    symlink(f.proj.join("inside.txt"), f.proj.join("alias.txt")).unwrap();
    assert_eq!(
        invoke(Read, &f.workspace, json!({"file_path": "alias.txt"})).await,
        Ok("     1\tinside\n".to_owned())
    );
}

#[tokio::test]
async fn write_through_a_symlink_to_outside_is_refused_and_the_target_is_untouched() {
    let f = fixture();
    symlink(&f.secret, f.proj.join("link.txt")).unwrap();
    let input = json!({"file_path": "link.txt", "content": "pwned"});
    assert_eq!(
        invoke(Write, &f.workspace, input).await,
        link_outside_error(&f, &f.proj.join("link.txt"), &f.secret)
    );
    assert_eq!(secret_content(&f), SECRET);
}

#[tokio::test]
async fn edit_through_a_symlink_to_outside_is_refused_and_the_target_is_untouched() {
    let f = fixture();
    symlink(&f.secret, f.proj.join("link.txt")).unwrap();
    assert_eq!(
        invoke(Edit, &f.workspace, edit_input("link.txt")).await,
        link_outside_error(&f, &f.proj.join("link.txt"), &f.secret)
    );
    assert_eq!(secret_content(&f), SECRET);
}

#[tokio::test]
async fn write_into_a_symlinked_folder_to_outside_creates_nothing_outside() {
    let f = fixture();
    symlink(&f.outside, f.proj.join("out")).unwrap();
    let input = json!({"file_path": "out/new.txt", "content": "x"});
    assert_eq!(
        invoke(Write, &f.workspace, input).await,
        link_outside_error(&f, &f.proj.join("out/new.txt"), &f.outside.join("new.txt"))
    );
    assert!(!f.outside.join("new.txt").exists());
}

#[tokio::test]
async fn write_to_a_hard_link_of_an_outside_file_is_refused() {
    let f = fixture();
    let linked = f.proj.join("hard.txt");
    fs::hard_link(&f.secret, &linked).unwrap();
    let input = json!({"file_path": "hard.txt", "content": "pwned"});
    assert_eq!(
        invoke(Write, &f.workspace, input).await,
        Err(ToolError::new(format!(
            "{} has 2 hard links; writing through it would change the other names too",
            linked.display()
        )))
    );
    assert_eq!(secret_content(&f), SECRET);
}

/// What the permission policy saw was a regular file inside; by the time the
/// tool runs it is a link to outside.
fn swap_for_link_after_the_check(f: &Fixture) -> PathBuf {
    let path = f.proj.join("inside.txt");
    assert!(f.workspace.check_inside("inside.txt").is_ok());
    fs::remove_file(&path).unwrap();
    symlink(&f.secret, &path).unwrap();
    path
}

#[tokio::test]
async fn read_of_a_file_swapped_for_a_link_after_the_check_is_not_followed() {
    let f = fixture();
    let path = swap_for_link_after_the_check(&f);
    assert_eq!(
        invoke(Read, &f.workspace, json!({"file_path": "inside.txt"})).await,
        link_outside_error(&f, &path, &f.secret)
    );
}

#[tokio::test]
async fn write_of_a_file_swapped_for_a_link_after_the_check_is_not_followed() {
    let f = fixture();
    let path = swap_for_link_after_the_check(&f);
    let input = json!({"file_path": "inside.txt", "content": "pwned"});
    assert_eq!(
        invoke(Write, &f.workspace, input).await,
        link_outside_error(&f, &path, &f.secret)
    );
    assert_eq!(secret_content(&f), SECRET);
}

#[tokio::test]
async fn edit_of_a_file_swapped_for_a_link_after_the_check_is_not_followed() {
    let f = fixture();
    let path = swap_for_link_after_the_check(&f);
    assert_eq!(
        invoke(Edit, &f.workspace, edit_input("inside.txt")).await,
        link_outside_error(&f, &path, &f.secret)
    );
    assert_eq!(secret_content(&f), SECRET);
}

/// Flips `proj/inside.txt` between a regular file and a link to the secret
/// (each flip an atomic rename) until stopped, so tool calls land between
/// their check and their open at random.
struct Flipper {
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Flipper {
    fn start(f: &Fixture) -> Flipper {
        let stop = Arc::new(AtomicBool::new(false));
        let (target, secret) = (f.proj.join("inside.txt"), f.secret.clone());
        let (as_link, as_file) = (f.proj.join(".as_link"), f.proj.join(".as_file"));
        let running = stop.clone();
        let thread = std::thread::spawn(move || {
            while !running.load(Ordering::Relaxed) {
                symlink(&secret, &as_link).unwrap();
                fs::rename(&as_link, &target).unwrap();
                fs::write(&as_file, "inside\n").unwrap();
                fs::rename(&as_file, &target).unwrap();
            }
        });
        Flipper {
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

/// Whatever each call returns (the inside text or one of several refusals,
/// depending on where the flip lands), none may carry the secret.
#[tokio::test]
async fn reads_racing_a_swap_to_a_link_never_return_the_outside_content() {
    let f = fixture();
    let flipper = Flipper::start(&f);
    let mut leaked = Vec::new();
    for _ in 0..RACE_ROUNDS {
        let result = invoke(Read, &f.workspace, json!({"file_path": "inside.txt"})).await;
        let text = result.unwrap_or_else(|error| error.message);
        if text.contains("TOP SECRET") {
            leaked.push(text);
        }
    }
    flipper.finish();
    assert_eq!(leaked, Vec::<String>::new());
}

#[tokio::test]
async fn writes_racing_a_swap_to_a_link_never_change_the_outside_file() {
    let f = fixture();
    let flipper = Flipper::start(&f);
    for _ in 0..RACE_ROUNDS {
        let input = json!({"file_path": "inside.txt", "content": "pwned\n"});
        let _either_written_inside_or_refused = invoke(Write, &f.workspace, input).await;
    }
    flipper.finish();
    assert_eq!(secret_content(&f), SECRET);
}

/// A workspace whose read guard refuses `.env`, as a `Read(./.env)` deny rule does.
fn guarded(f: &Fixture) -> Workspace {
    fs::write(f.proj.join(".env"), "SECRET=hunter2\n").unwrap();
    fs::write(f.proj.join("a.txt"), "SECRET=placeholder\n").unwrap();
    let guard: ReadGuard = Arc::new(|path: &Path| !path.ends_with(".env"));
    f.workspace.clone().with_read_guard(guard)
}

#[tokio::test]
async fn grep_over_the_workspace_does_not_return_a_guarded_file() {
    let f = fixture();
    let workspace = guarded(&f);
    let input = json!({"pattern": "SECRET", "output_mode": "content"});
    assert_eq!(
        invoke(Grep, &workspace, input).await,
        Ok(format!(
            "{}:1:SECRET=placeholder",
            f.proj.join("a.txt").display()
        ))
    );
}

#[tokio::test]
async fn glob_over_the_workspace_does_not_list_a_guarded_file() {
    let f = fixture();
    let workspace = guarded(&f);
    assert_eq!(
        invoke(Glob, &workspace, json!({"pattern": "*.env"})).await,
        Ok(format!(
            "No files matched \"*.env\" under {}",
            f.proj.display()
        ))
    );
}

/// The guard is for files no permission check named: a Read of the file
/// itself was decided by the policy (perhaps an ask the user approved).
#[tokio::test]
async fn a_read_that_names_a_guarded_file_is_left_to_the_permission_policy() {
    let f = fixture();
    let workspace = guarded(&f);
    assert_eq!(
        invoke(Read, &workspace, json!({"file_path": ".env"})).await,
        Ok("     1\tSECRET=hunter2\n".to_owned())
    );
}

#[tokio::test]
async fn grep_does_not_search_through_a_symlink_to_outside() {
    let f = fixture();
    symlink(&f.secret, f.proj.join("link.txt")).unwrap();
    assert_eq!(
        invoke(Grep, &f.workspace, json!({"pattern": "TOP"})).await,
        Ok(format!("No matches for \"TOP\" under {}", f.proj.display()))
    );
}

#[tokio::test]
async fn grep_in_a_symlinked_folder_to_outside_is_refused() {
    let f = fixture();
    symlink(&f.outside, f.proj.join("out")).unwrap();
    assert_eq!(
        invoke(Grep, &f.workspace, json!({"pattern": "TOP", "path": "out"})).await,
        link_outside_error(&f, &f.proj.join("out"), &f.outside)
    );
}

#[tokio::test]
async fn glob_in_a_symlinked_folder_to_outside_is_refused() {
    let f = fixture();
    symlink(&f.outside, f.proj.join("out")).unwrap();
    assert_eq!(
        invoke(Glob, &f.workspace, json!({"pattern": "*", "path": "out"})).await,
        link_outside_error(&f, &f.proj.join("out"), &f.outside)
    );
}
