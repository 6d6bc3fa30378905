//! Every command the documentation shows runs, as written: each line of each
//! `sh` code block of README.md, examples/**/*.md and docs/*.md is either run
//! here (from the repository root, with `agenthub` on PATH and a HOME of its
//! own) and must exit as the table says, or is in [`EXCUSED`] with the reason
//! it cannot run offline. A line in neither fails the test, so a command added
//! to the docs is a command someone decided about.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Lines that cannot run here, each with why. A line is matched exactly.
const EXCUSED: &[(&str, &str)] = &[
    (
        "agenthub rewind --continue --list                 # the points: prompt number, time, first line, files changed after it",
        "run here it would rewind the repository itself (e2e::checkpoints rewinds sessions of its own)",
    ),
    (
        "agenthub rewind --session 3f2a… --to 2            # files AND conversation back to before prompt 2 (--both, the default)",
        "run here it would rewind the repository itself (e2e::checkpoints rewinds sessions of its own)",
    ),
    (
        "agenthub rewind --continue --to 2 --code          # only the files: created since removed, changed and deleted ones back",
        "run here it would rewind the repository itself (e2e::checkpoints rewinds sessions of its own)",
    ),
    (
        "agenthub rewind --continue --to 2 --conversation  # only the conversation: resume goes on from before prompt 2",
        "run here it would rewind the repository itself (e2e::checkpoints rewinds sessions of its own)",
    ),
    (
        "agenthub run --continue --fork-session \"try another way\"   # go on in a new session; the original stays as it was",
        "continues with the model the session used: a real provider (e2e::checkpoints covers --fork-session)",
    ),
    (
        "claude mcp add agenthub -- agenthub mcp serve --allow 'Bash(npm test:*)'",
        "needs Claude Code (e2e::editors drives `mcp serve` with the official MCP SDK's client)",
    ),
    ("cargo run -- demo", ".ci/run runs the README's own two commands"),
    (
        "OTEL_EXPORTER_OTLP_ENDPOINT=http://localhost:4318 OTEL_SERVICE_NAME=review-bot agenthub run \"fix the failing test\"",
        "needs a real provider and a collector (e2e::tracing sends a scripted session's trace to a loopback one)",
    ),
    (
        "agenthub replay 3f2a9c1e --deny 'Bash(curl:*)'          # a session id of this workspace",
        "needs a recorded session (e2e::replay replays real ones)",
    ),
    (
        "agenthub replay ~/.local/state/agenthub/transcripts/*.jsonl --settings new-rules.json",
        "needs recorded sessions and a settings file (e2e::replay replays real ones)",
    ),
    (
        "agenthub replay sessions/*.jsonl --workspace . --with-hooks --output-format json",
        "needs recorded sessions (e2e::replay replays real ones)",
    ),
    ("scripts/test", ".ci/run runs the README's own two commands"),
    (
        "OPENAI_BASE_URL=http://127.0.0.1:11434/v1 agenthub run --model qwen2.5-coder \"list the files\"",
        "needs a model server (e2e::providers runs the provider against a loopback one)",
    ),
    (
        "OPENAI_API_KEY=... agenthub run --model gpt-4.1 \"fix the failing test\"",
        "needs a real provider and key",
    ),
    (
        "ANTHROPIC_API_KEY=... agenthub run --model claude-sonnet-4-5 \"summarise README.md\"",
        "needs a real provider and key",
    ),
    (
        "agenthub run --model llama3 --base-url http://127.0.0.1:8080/v1 --tool-protocol react \"count the TODOs\"",
        "needs a model server (e2e::providers runs ReAct against a loopback one)",
    ),
    (
        "agenthub run --continue \"now add a test\"        # the most recent session of this workspace",
        "continues with the model the session used: a real provider (e2e::sessions covers --continue)",
    ),
    (
        "agenthub run --resume 3f2a… \"and the docs\"      # a given session (of this workspace)",
        "`3f2a…` stands for a session id (e2e::sessions covers --resume)",
    ),
    (
        "agenthub run --sandbox read-only ...      # nothing writable but $TMPDIR",
        "`...` stands for the rest of a run command (e2e::sandbox covers the modes)",
    ),
    (
        "agenthub run --sandbox off ...            # no sandbox (as before)",
        "`...` stands for the rest of a run command (e2e::sandbox covers the modes)",
    ),
    (
        "agenthub run --trust-project ...   # trusts for this run only (CI on your own repository)",
        "`...` stands for the rest of a run command (e2e::trust covers --trust-project)",
    ),
    (
        "agenthub hooks test PreToolUse --input payload.json",
        "`payload.json` stands for your payload; examples/hooks runs the same command on a real one",
    ),
    (
        "agenthub hooks test PreToolUse --input payload.json  # each hook's exit code, output, decision",
        "`payload.json` stands for your payload; examples/hooks runs the same command on a real one",
    ),
    (
        "agenthub batch tasks.jsonl --parallel 4 --out results.jsonl",
        "`tasks.jsonl` stands for your task list (e2e::batch runs batches)",
    ),
    (
        "npx @restatedev/restate-server                                   # or the binary, on a server",
        "a long-running server (the fleet tests start the pinned one)",
    ),
    (
        "agenthub worker --listen 0.0.0.0:9080 --identity-key publickeyv1_… --register http://restate:9070",
        "names a deployment's hosts and key (e2e::fleet_worker runs signed workers on loopback)",
    ),
    (
        "agenthub batch tasks.jsonl --restate http://restate:8080 --out results.jsonl",
        "names a deployment's hosts (e2e::fleet_client runs batch --restate)",
    ),
    (
        "agenthub status --restate http://restate:8080 bump-deps          # running | waiting_for_approval (asks) | done (result line)",
        "names a deployment's hosts (e2e::fleet_client runs status)",
    ),
    (
        "agenthub approve --restate http://restate:8080 bump-deps call_1 allow",
        "names a deployment's hosts (e2e::fleet_client runs approve)",
    ),
];

/// Lines that exit with another code than 0 here, on purpose: (line's start, code, why).
const EXITS: &[(&str, i32, &str)] = &[(
    "agenthub doctor",
    1,
    "the test's environment configures no provider, which doctor reports as missing",
)];

/// What a run line must show, beyond exiting 0: (line's start, text its stdout holds).
const SHOWS: &[(&str, &str)] = &[
    (
        "agenthub run --workspace /tmp/w --script examples/hooks/rm-rf.json",
        "Result: Error [hook_blocked]: Blocked by guard.sh: rm -rf is not allowed in this project",
    ),
    (
        "agenthub run --script examples/mcp/script.json",
        "The server says: Echo: 2 + 3 = 5",
    ),
    ("agenthub mcp list", "everything: running, "),
    ("agenthub demo --block", "Echo"),
    (
        "agenthub run --workspace /tmp/w --script examples/skills/skill.json",
        "The skill says: Base directory for this skill: ",
    ),
    (
        "agenthub run --workspace /tmp/w --transcript /tmp/w/greet.jsonl --script examples/skills/done.json",
        "Say hello to Ada in one short sentence.",
    ),
];

/// One command line of a document.
struct DocLine {
    document: PathBuf,
    line: String,
}

fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The documents whose commands must run, in a fixed order (README first:
/// the examples' blocks build on nothing it leaves behind).
fn documents(root: &Path) -> Vec<PathBuf> {
    let mut found = vec![root.join("README.md")];
    for folder in ["examples", "docs"] {
        let mut here: Vec<PathBuf> = walk(&root.join(folder))
            .into_iter()
            .filter(|path| path.extension().is_some_and(|extension| extension == "md"))
            .collect();
        here.sort();
        found.extend(here);
    }
    found
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)
        .expect("read a docs folder")
        .flatten()
    {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else {
            files.push(path);
        }
    }
    files
}

/// The non-blank, non-comment lines of the document's `sh` code blocks.
fn command_lines(document: &Path) -> Vec<DocLine> {
    let text = std::fs::read_to_string(document).expect("read a document");
    let mut lines = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        match (inside, line.trim_end()) {
            (false, "```sh") => inside = true,
            (true, "```") => inside = false,
            (true, command) if !command.trim().is_empty() && !command.starts_with('#') => lines
                .push(DocLine {
                    document: document.to_path_buf(),
                    line: command.to_owned(),
                }),
            _ => {}
        }
    }
    lines
}

/// A shell in the repository root, `agenthub` first on PATH, HOME and the
/// XDG folders in `home`, no provider variables.
fn shell(line: &str, home: &Path) -> Command {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_agenthub"));
    let bin_dir = binary.parent().expect("the binary's folder");
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut command = Command::new("bash");
    command
        .args(["-c", line])
        .current_dir(repository_root())
        .env("PATH", path)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".local/state"))
        .env("XDG_DATA_HOME", home.join(".local/share"))
        .env_remove("OPENAI_API_KEY")
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("OPENAI_BASE_URL")
        .env_remove("AGENTHUB_MODEL")
        .stdin(std::process::Stdio::null());
    command
}

#[test]
fn every_command_in_the_documentation_runs_as_written_or_is_excused() {
    let root = repository_root();
    let home = tempfile::tempdir().expect("a home");
    // The docs write to /tmp/w literally; start from nothing there.
    let _ = std::fs::remove_dir_all("/tmp/w");
    let mut failures = Vec::new();
    let mut ran = 0;
    for doc_line in documents(&root).iter().flat_map(|doc| command_lines(doc)) {
        let line = doc_line.line.as_str();
        let document = doc_line.document.display();
        if EXCUSED.iter().any(|(excused, _)| *excused == line) {
            continue;
        }
        if !line.starts_with("agenthub ") && !line.starts_with("mkdir ") && !line.starts_with("cp ")
        {
            failures.push(format!("{document}: `{line}` is neither run nor excused: add it to EXCUSED with a reason, or make it runnable"));
            continue;
        }
        ran += 1;
        let output = shell(line, home.path()).output().expect("run bash");
        let stdout = String::from_utf8_lossy(&output.stdout);
        let stderr = String::from_utf8_lossy(&output.stderr);
        let expected = EXITS
            .iter()
            .find(|(start, _, _)| line.starts_with(start))
            .map_or(0, |(_, code, _)| *code);
        if output.status.code() != Some(expected) {
            failures.push(format!(
                "{document}: `{line}` exited {:?}, not {expected}\nstdout: {stdout}\nstderr: {stderr}",
                output.status.code()
            ));
            continue;
        }
        for (start, shown) in SHOWS {
            if line.starts_with(start) && !stdout.contains(shown) {
                failures.push(format!(
                    "{document}: `{line}` did not print {shown:?}\nstdout: {stdout}\nstderr: {stderr}"
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all("/tmp/w");
    assert!(
        ran >= 20,
        "only {ran} documented commands were found to run"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_excused_line_is_still_in_the_documentation() {
    let root = repository_root();
    let lines: Vec<String> = documents(&root)
        .iter()
        .flat_map(|doc| command_lines(doc))
        .map(|doc_line| doc_line.line)
        .collect();
    let stale: Vec<&str> = EXCUSED
        .iter()
        .map(|(line, _)| *line)
        .filter(|line| !lines.iter().any(|documented| documented == line))
        .collect();
    assert_eq!(stale, Vec::<&str>::new());
}
