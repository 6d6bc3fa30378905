//! The doors with a person: `acp` (the editor answers; `allow_always`
//! whenever it is offered) and the interactive session (`a` whenever it is
//! offered). A protected write is asked each time, with no grant offered,
//! and refused by the person.

use super::{case, prompt, script, GrantKind, Mismatches, ALL_GRANTS, MODES, PROTECTED_IDS};
use crate::support::home::Home;
use crate::support::terminal::Terminal;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

/// One ACP session of `prompt`, every question answered `allow_always`
/// when offered and `reject_once` otherwise; the session id and each
/// question's `(tool call id, options)`.
fn acp_session(home: &Home, prompt: &str) -> (String, Vec<(String, Vec<String>)>) {
    let script_path = home.base.join("script.json");
    std::fs::write(&script_path, script().to_string()).unwrap();
    let mut child = home
        .process(&["acp", "--script"])
        .arg(&script_path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap());
    let mut questions = Vec::new();
    let mut request =
        |stdin: &mut std::process::ChildStdin, id: u64, method: &str, params: Value| {
            writeln!(
                stdin,
                "{}",
                json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
            )
            .unwrap();
            loop {
                let mut line = String::new();
                assert!(
                    lines.read_line(&mut line).unwrap() > 0,
                    "agenthub acp ended"
                );
                let message: Value = serde_json::from_str(&line).unwrap();
                if message["method"] == "session/request_permission" {
                    let options: Vec<String> = message["params"]["options"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|option| option["optionId"].as_str().unwrap().to_owned())
                        .collect();
                    let chosen = match options.iter().any(|option| option == "allow_always") {
                        true => "allow_always",
                        false => "reject_once",
                    };
                    let call = message["params"]["toolCall"]["toolCallId"]
                        .as_str()
                        .unwrap()
                        .to_owned();
                    questions.push((call, options));
                    let answer = json!({"jsonrpc": "2.0", "id": message["id"],
                    "result": {"outcome": {"outcome": "selected", "optionId": chosen}}});
                    writeln!(stdin, "{answer}").unwrap();
                } else if message["id"] == id && message.get("method").is_none() {
                    return message;
                }
            }
        };
    request(
        &mut stdin,
        1,
        "initialize",
        json!({"protocolVersion": 1, "clientCapabilities": {}}),
    );
    let created = request(
        &mut stdin,
        2,
        "session/new",
        json!({"cwd": home.ws(), "mcpServers": []}),
    );
    let session = created["result"]["sessionId"].as_str().unwrap().to_owned();
    request(
        &mut stdin,
        3,
        "session/prompt",
        json!({"sessionId": session, "prompt": [{"type": "text", "text": prompt}]}),
    );
    drop(stdin);
    child.wait().unwrap();
    (session, questions)
}

/// The questions a door must have put for the protected writes in `mode`:
/// each asked once, offering no grant.
fn protected_questions(mode: &str) -> Vec<(String, Vec<String>)> {
    match mode {
        "plan" | "dontAsk" => Vec::new(),
        _ => PROTECTED_IDS
            .iter()
            .map(|id| {
                (
                    id.to_string(),
                    vec!["allow_once".to_owned(), "reject_once".to_owned()],
                )
            })
            .collect(),
    }
}

#[test]
fn acp_asks_for_every_protected_write_and_offers_no_allow_always() {
    let mut mismatches = Mismatches::default();
    for mode in MODES {
        for grant in ALL_GRANTS {
            let home = case(mode, grant);
            let (session, questions) = acp_session(&home, prompt(grant));
            mismatches.check("acp", mode, grant, &home, &home.records(&session));
            let protected: Vec<(String, Vec<String>)> = questions
                .into_iter()
                .filter(|(id, _)| id.starts_with('p'))
                .collect();
            if protected != protected_questions(mode) {
                mismatches.note(format!("acp questions × {mode} × {grant:?}: {protected:?}"));
            }
        }
    }
    mismatches.assert_none();
}

/// The question's keys when no grant may answer it.
const ASKED_EACH_TIME: &str = "[y] allow once (asked each time)  [n] deny";

/// One interactive session of `prompt`: `a` to the ordinary calls' questions
/// (only default mode asks them, and only without a broad rule or the
/// command's), `n` to each protected write's. The session's records.
fn chat_session(home: &Home, mode: &str, grant: GrantKind) -> Vec<Value> {
    let script_path = home.base.join("script.json");
    std::fs::write(&script_path, script().to_string()).unwrap();
    let args = ["chat", "--script", script_path.to_str().unwrap()];
    let mut terminal = Terminal::start(&home.ws(), &home.base.join("home"), &args, &[]);
    terminal.wait_for_prompt();
    terminal.type_line(prompt(grant));
    if mode == "default" && grant == GrantKind::SessionGrant {
        for count in 1..=2 {
            terminal.wait_for_written_count("for this session  [n] deny", count);
            terminal.send(b"a");
        }
    }
    if !matches!(mode, "plan" | "dontAsk") {
        for count in 1..=PROTECTED_IDS.len() {
            terminal.wait_for_written_count(ASKED_EACH_TIME, count);
            // `a` is not offered: pressed anyway, it denies.
            terminal.send(b"a");
        }
    }
    terminal.wait_for("done");
    terminal.type_line("/exit");
    terminal.wait_exit();
    let transcripts = std::fs::read_dir(home.base.join("home/.local/state/agenthub/transcripts"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| {
            path.extension()
                .is_some_and(|extension| extension == "jsonl")
        })
        .collect::<Vec<_>>();
    assert_eq!(transcripts.len(), 1, "{transcripts:?}");
    home.lines(
        transcripts[0]
            .strip_prefix(&home.base)
            .unwrap()
            .to_str()
            .unwrap(),
    )
}

#[test]
fn the_interactive_session_asks_for_every_protected_write_and_offers_no_a() {
    let mut mismatches = Mismatches::default();
    for mode in MODES {
        for grant in ALL_GRANTS {
            let home = case(mode, grant);
            let records = chat_session(&home, mode, grant);
            mismatches.check("chat", mode, grant, &home, &records);
        }
    }
    mismatches.assert_none();
}
