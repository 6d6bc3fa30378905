use super::*;
use crate::test_git::run_git;

/// A bare repository whose `v1` tag holds `a.txt` = "one" and whose `main`
/// holds "two".
fn bare_repo(root: &Path) -> PathBuf {
    let work = root.join("work");
    std::fs::create_dir(&work).unwrap();
    run_git(&work, &["init", "--quiet", "--initial-branch=main"]);
    std::fs::write(work.join("a.txt"), "one").unwrap();
    run_git(&work, &["add", "a.txt"]);
    run_git(&work, &["commit", "--quiet", "-m", "one"]);
    run_git(&work, &["tag", "v1"]);
    std::fs::write(work.join("a.txt"), "two").unwrap();
    run_git(&work, &["commit", "--quiet", "-am", "two"]);
    let bare = root.join("remote.git");
    run_git(root, &["clone", "--quiet", "--bare", "work", "remote.git"]);
    bare
}

fn git_task(url: &str, reference: &str) -> TaskWorkspace {
    TaskWorkspace::Git {
        git: url.to_owned(),
        reference: reference.to_owned(),
    }
}

#[tokio::test]
async fn a_git_workspace_is_a_fresh_clone_at_the_ref() {
    let root = tempfile::tempdir().unwrap();
    let bare = bare_repo(root.path());
    let url = bare.display().to_string();
    let at_tag = prepare_workspace(&git_task(&url, "v1"), "t", false)
        .await
        .unwrap();
    let at_main = prepare_workspace(&git_task(&format!("file://{url}"), "main"), "t", false)
        .await
        .unwrap();
    assert_eq!(
        [
            std::fs::read_to_string(at_tag.path().join("a.txt")).unwrap(),
            std::fs::read_to_string(at_main.path().join("a.txt")).unwrap(),
        ],
        ["one", "two"]
    );
}

#[tokio::test]
async fn a_clone_is_removed_when_dropped_and_kept_with_keep() {
    let root = tempfile::tempdir().unwrap();
    let url = bare_repo(root.path()).display().to_string();
    let removed = prepare_workspace(&git_task(&url, "main"), "gone", false)
        .await
        .unwrap();
    let kept = prepare_workspace(&git_task(&url, "main"), "kept", true)
        .await
        .unwrap();
    let (removed_path, kept_path) = (removed.path().to_path_buf(), kept.path().to_path_buf());
    drop((removed, kept));
    let kept_exists = kept_path.join("a.txt").exists();
    std::fs::remove_dir_all(&kept_path).unwrap();
    assert_eq!((removed_path.exists(), kept_exists), (false, true));
}

#[tokio::test]
async fn a_path_workspace_is_used_as_it_is_and_never_removed() {
    let root = tempfile::tempdir().unwrap();
    let prepared = prepare_workspace(
        &TaskWorkspace::Path {
            path: root.path().to_path_buf(),
        },
        "p",
        false,
    )
    .await
    .unwrap();
    let (path, is_clone) = (prepared.path().to_path_buf(), prepared.is_clone());
    drop(prepared);
    assert_eq!(
        (path.as_path(), is_clone, root.path().exists()),
        (root.path(), false, true)
    );
}

#[tokio::test]
async fn a_missing_folder_or_a_file_is_not_a_workspace() {
    let root = tempfile::tempdir().unwrap();
    let file = root.path().join("f.txt");
    std::fs::write(&file, "x").unwrap();
    let missing = root.path().join("missing");
    let error = |path: PathBuf| async move {
        prepare_workspace(&TaskWorkspace::Path { path }, "p", false)
            .await
            .map(|_| ())
            .map_err(|error| error.to_string())
    };
    assert_eq!(
        [error(missing.clone()).await, error(file.clone()).await],
        [
            Err(format!(
                "workspace {}: No such file or directory (os error 2)",
                missing.display()
            )),
            Err(format!("workspace {}: is not a folder", file.display())),
        ]
    );
}

#[tokio::test]
async fn a_failed_clone_or_checkout_names_the_step() {
    let root = tempfile::tempdir().unwrap();
    let url = bare_repo(root.path()).display().to_string();
    let missing = root.path().join("nowhere.git").display().to_string();
    let failure = |url: String, reference: &'static str| async move {
        match prepare_workspace(&git_task(&url, reference), "f", false).await {
            Err(WorkspaceError::GitStep { step, what, .. }) => Some((step, what)),
            _ => None,
        }
    };
    assert_eq!(
        [
            failure(missing.clone(), "main").await,
            failure(url, "no-such-ref").await,
        ],
        [
            Some(("clone", missing)),
            Some(("checkout", "no-such-ref".to_owned())),
        ]
    );
}

#[tokio::test]
async fn a_ref_that_git_would_read_as_an_option_is_refused_before_any_clone() {
    let root = tempfile::tempdir().unwrap();
    let url = bare_repo(root.path()).display().to_string();
    let refused = prepare_workspace(&git_task(&url, "--orphan=x"), "t", false).await;
    assert_eq!(
        refused.err().map(|error| error.to_string()),
        Some(
            "workspace ref \"--orphan=x\" starts with '-': git would read it as an option"
                .to_owned()
        )
    );
}

#[test]
fn a_task_id_becomes_a_safe_file_name_part() {
    assert_eq!(safe_name("a/b c:d-e_f"), "a_b_c_d-e_f");
}
