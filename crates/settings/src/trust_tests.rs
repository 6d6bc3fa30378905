use super::*;

struct Fixture {
    _dir: tempfile::TempDir,
    workspace: PathBuf,
    store: TrustStore,
}

fn fixture() -> Fixture {
    let dir = tempfile::TempDir::new().unwrap();
    let workspace = dir.path().canonicalize().unwrap().join("ws");
    std::fs::create_dir_all(workspace.join(".agenthub")).unwrap();
    std::fs::write(workspace.join(".agenthub/settings.json"), "{}").unwrap();
    let store = TrustStore::at(dir.path().join("state/agenthub/trust.json"));
    Fixture {
        _dir: dir,
        workspace,
        store,
    }
}

impl Fixture {
    fn fingerprint(&self) -> ProjectFingerprint {
        ProjectFingerprint::of(&self.workspace).unwrap()
    }
}

#[test]
fn a_fingerprint_names_each_configuration_file_with_its_sha256() {
    let fixture = fixture();
    std::fs::write(fixture.workspace.join(".mcp.json"), "abc").unwrap();
    assert_eq!(
        fixture.fingerprint().files,
        BTreeMap::from([
            (
                ".agenthub/settings.json".to_owned(),
                "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a".to_owned()
            ),
            (
                ".mcp.json".to_owned(),
                "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad".to_owned()
            ),
        ])
    );
}

#[test]
fn a_workspace_is_untrusted_until_trusted() {
    let fixture = fixture();
    assert!(!fixture.store.is_trusted(&fixture.fingerprint()).unwrap());
    fixture.store.trust(&fixture.fingerprint()).unwrap();
    assert!(fixture.store.is_trusted(&fixture.fingerprint()).unwrap());
}

#[test]
fn a_changed_file_is_untrusted_again() {
    let fixture = fixture();
    fixture.store.trust(&fixture.fingerprint()).unwrap();
    std::fs::write(fixture.workspace.join(".agenthub/settings.json"), "{ }").unwrap();
    assert!(!fixture.store.is_trusted(&fixture.fingerprint()).unwrap());
}

#[test]
fn a_new_configuration_file_is_untrusted_again() {
    let fixture = fixture();
    fixture.store.trust(&fixture.fingerprint()).unwrap();
    std::fs::write(
        fixture.workspace.join(".agenthub/settings.local.json"),
        "{}",
    )
    .unwrap();
    assert!(!fixture.store.is_trusted(&fixture.fingerprint()).unwrap());
}

#[test]
fn revoking_forgets_the_workspace_and_says_whether_it_was_trusted() {
    let fixture = fixture();
    fixture.store.trust(&fixture.fingerprint()).unwrap();
    assert!(fixture.store.revoke(&fixture.workspace).unwrap());
    assert!(!fixture.store.is_trusted(&fixture.fingerprint()).unwrap());
    assert!(!fixture.store.revoke(&fixture.workspace).unwrap());
}

#[test]
fn a_damaged_store_is_an_error_and_is_not_overwritten() {
    let fixture = fixture();
    std::fs::create_dir_all(fixture.store.path().parent().unwrap()).unwrap();
    std::fs::write(fixture.store.path(), "not json").unwrap();
    assert!(matches!(
        fixture.store.trust(&fixture.fingerprint()),
        Err(TrustError::Damaged { .. })
    ));
    assert_eq!(
        std::fs::read_to_string(fixture.store.path()).unwrap(),
        "not json"
    );
}

#[test]
fn trusting_one_workspace_keeps_the_others() {
    let fixture = fixture();
    let other = ProjectFingerprint {
        workspace: PathBuf::from("/elsewhere"),
        files: BTreeMap::from([(".mcp.json".to_owned(), "00".to_owned())]),
    };
    fixture.store.trust(&other).unwrap();
    fixture.store.trust(&fixture.fingerprint()).unwrap();
    assert!(fixture.store.is_trusted(&other).unwrap());
}

#[test]
fn the_store_tells_a_changed_workspace_from_one_never_trusted() {
    let fixture = fixture();
    assert_eq!(
        fixture.store.check(&fixture.fingerprint()).unwrap(),
        TrustCheck::NeverTrusted
    );
    fixture.store.trust(&fixture.fingerprint()).unwrap();
    std::fs::write(fixture.workspace.join(".mcp.json"), "{}").unwrap();
    assert_eq!(
        fixture.store.check(&fixture.fingerprint()).unwrap(),
        TrustCheck::Changed
    );
}

#[test]
fn the_skill_files_are_each_skill_folders_skill_md_and_a_new_one_makes_the_workspace_untrusted() {
    let fixture = fixture();
    fixture.store.trust(&fixture.fingerprint()).unwrap();
    for folder in [
        ".claude/skills/pdf",
        ".agenthub/skills/deploy",
        ".agenthub/skills/empty",
    ] {
        std::fs::create_dir_all(fixture.workspace.join(folder)).unwrap();
    }
    std::fs::write(fixture.workspace.join(".claude/skills/pdf/SKILL.md"), "P").unwrap();
    std::fs::write(
        fixture.workspace.join(".agenthub/skills/deploy/SKILL.md"),
        "D",
    )
    .unwrap();
    std::fs::write(
        fixture.workspace.join(".agenthub/skills/empty/notes.md"),
        "N",
    )
    .unwrap();
    assert_eq!(
        (
            skill_files(&fixture.workspace),
            fixture.store.check(&fixture.fingerprint()).unwrap()
        ),
        (
            vec![
                ".claude/skills/pdf/SKILL.md".to_owned(),
                ".agenthub/skills/deploy/SKILL.md".to_owned()
            ],
            TrustCheck::Changed
        )
    );
}

#[test]
fn the_command_files_are_every_markdown_file_below_the_command_folders() {
    let fixture = fixture();
    for folder in [".claude/commands/git", ".agenthub/commands"] {
        std::fs::create_dir_all(fixture.workspace.join(folder)).unwrap();
    }
    for file in [
        ".claude/commands/review.md",
        ".claude/commands/git/commit.md",
        ".claude/commands/notes.txt",
        ".agenthub/commands/deploy.md",
    ] {
        std::fs::write(fixture.workspace.join(file), "x").unwrap();
    }
    assert_eq!(
        command_files(&fixture.workspace),
        vec![
            ".claude/commands/git/commit.md".to_owned(),
            ".claude/commands/review.md".to_owned(),
            ".agenthub/commands/deploy.md".to_owned(),
        ]
    );
}

#[test]
fn a_record_that_pinned_memory_files_still_trusts_the_folder_whatever_they_say_now() {
    let fixture = fixture();
    let mut old = fixture.fingerprint();
    old.files.insert("CLAUDE.md".to_owned(), "00".repeat(32));
    old.files
        .insert("../../AGENTS.md".to_owned(), "11".repeat(32));
    fixture.store.trust(&old).unwrap();
    assert_eq!(
        fixture.store.check(&fixture.fingerprint()).unwrap(),
        TrustCheck::Trusted
    );
}

#[test]
fn memory_file_names_are_the_workspaces_and_its_parents_and_nothing_deeper() {
    let names = [
        "CLAUDE.md",
        "../AGENTS.md",
        "../../CLAUDE.md",
        ".claude/commands/CLAUDE.md",
        "docs/AGENTS.md",
        "CLAUDE.md.bak",
    ];
    assert_eq!(
        names.map(is_memory_file_name),
        [true, true, true, false, false, false]
    );
}
