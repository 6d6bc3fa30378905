//! The test's own world: one HOME (and XDG folders) for the whole binary,
//! set once before any session is assembled, so that no test reads or
//! writes the real user's settings or transcripts; an ACP connection over
//! in-memory streams; a host that keeps everything to itself.

use agenthub::{HowToAllow, ModelOptions, Observer, Options, SetupWarning, ToolProtocol};
use agenthub_serve::{Flags, Host, ServeError, ServedBy};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines};
use tokio::task::JoinHandle;

/// The binary's HOME, made and set on first use (every test calls it before
/// serving, so the environment is set before anything reads it).
pub fn isolated_home() -> &'static Path {
    static HOME: OnceLock<tempfile::TempDir> = OnceLock::new();
    HOME.get_or_init(|| {
        let dir = tempfile::TempDir::new().unwrap();
        let home = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(home.join(".config/agenthub")).unwrap();
        std::env::set_var("HOME", &home);
        std::env::set_var("XDG_CONFIG_HOME", home.join(".config"));
        std::env::set_var("XDG_STATE_HOME", home.join(".local/state"));
        dir
    })
    .path()
}

/// A test's workspace folder, in its own temporary directory.
pub struct Place {
    _dir: tempfile::TempDir,
    pub base: PathBuf,
}

impl Place {
    pub fn new() -> Place {
        isolated_home();
        let dir = tempfile::TempDir::new().unwrap();
        let base = dir.path().canonicalize().unwrap();
        std::fs::create_dir_all(base.join("ws")).unwrap();
        Place { _dir: dir, base }
    }

    pub fn ws(&self) -> PathBuf {
        self.base.join("ws")
    }

    /// The flags of `agenthub acp --script <script>`, the script's turns given.
    pub fn scripted(&self, turns: Value) -> Flags {
        let script = self.base.join("script.json");
        std::fs::write(&script, json!({ "turns": turns }).to_string()).unwrap();
        Flags {
            options: Options::default(),
            model: ModelOptions::Scripted {
                script,
                protocol: ToolProtocol::default(),
            },
            max_turns: None,
        }
    }
}

/// A host that shows nothing: the tests read the protocol only.
pub struct Quiet;

impl Host for Quiet {
    fn observers(&self, _door: ServedBy) -> Vec<Arc<dyn Observer>> {
        Vec::new()
    }

    fn hint(&self, tool: &str, _how: &HowToAllow) -> String {
        format!("{tool} needs approval")
    }

    fn warnings(&self, _warnings: Vec<SetupWarning>) {}
}

/// An ACP connection to the library, as an editor holds one.
pub struct Wire {
    input: DuplexStream,
    pub lines: Lines<BufReader<DuplexStream>>,
    served: JoinHandle<Result<(), ServeError>>,
}

impl Wire {
    pub fn start(flags: Flags) -> Wire {
        isolated_home();
        let (input, agent_input) = tokio::io::duplex(1 << 16);
        let (agent_output, output) = tokio::io::duplex(1 << 16);
        let served = tokio::spawn(agenthub_serve::acp::serve(
            flags,
            Arc::new(Quiet),
            agent_input,
            agent_output,
        ));
        Wire {
            input,
            lines: BufReader::new(output).lines(),
            served,
        }
    }

    /// Writes one line to the agent.
    pub async fn write(&mut self, line: &str) {
        self.input.write_all(line.as_bytes()).await.unwrap();
        self.input.write_all(b"\n").await.unwrap();
    }

    /// The next message the agent writes.
    pub async fn read(&mut self) -> Value {
        let line = self.lines.next_line().await.unwrap().unwrap();
        serde_json::from_str(&line).unwrap_or_else(|_| panic!("not JSON: {line:?}"))
    }

    /// Writes `line`; the message the agent writes next.
    pub async fn send(&mut self, line: &str) -> Value {
        self.write(line).await;
        self.read().await
    }

    /// Closes the agent's input; how serving ended.
    pub async fn finish(self) -> Result<(), ServeError> {
        drop(self.input);
        self.served.await.unwrap()
    }
}
