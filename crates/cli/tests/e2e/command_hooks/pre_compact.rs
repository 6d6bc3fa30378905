//! PreCompact command hooks: `agenthub hooks test PreCompact` with a payload,
//! the matcher on the trigger, and exit 2 cancelling a manual compaction.

use super::support::*;

#[test]
fn hooks_test_pre_compact_shows_a_manual_compaction_cancelled_by_exit_2() {
    let case = Case::new();
    let guard = case.hook("keep.sh", "echo 'keep the history' >&2; exit 2");
    let log = case.hook("log.sh", "cat > .agenthub/auto.json");
    case.user_settings(settings_with(&[
        ("PreCompact", Some("manual"), command(&guard)),
        ("PreCompact", Some("auto"), command(&log)),
    ]));
    case.write(
        "payload.json",
        r#"{"trigger": "manual", "custom_instructions": "keep the paths"}"#,
    );
    let output = agenthub(&case)
        .args(["hooks", "test", "PreCompact", "--input", "payload.json"])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| !line.starts_with("    elapsed:") && !line.starts_with("    source:"))
        .collect::<Vec<_>>()
        .join("\n");
    let auto_ran = std::path::Path::new(&case.path(".agenthub/auto.json")).exists();
    assert_eq!(
        (output.status.code(), stdout, auto_ran),
        (
            Some(0),
            r#"PreCompact on "manual": 2 command hook(s) configured

[1] ./.agenthub/hooks/keep.sh
    exit:     2
    stdout:   (empty)
    stderr:   keep the history
    decision: block

[2] ./.agenthub/hooks/log.sh
    skipped:  matcher "auto" does not match

merged result:
  a manual compaction is cancelled (keep the history); an automatic one goes on"#
                .to_owned(),
            false
        )
    );
}
