//! Test support: the crate's own rmcp test server (`agenthub-mcp-test-server`)
//! configured over stdio or streamable HTTP, and a started set of servers.
#![allow(dead_code)]

pub mod sdk;

use agenthub_mcp::{McpConfig, McpServers, Timeouts};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The test server's path, built by cargo for this crate's tests.
pub const SERVER: &str = env!("CARGO_BIN_EXE_agenthub-mcp-test-server");

/// A stdio entry for the test server with extra environment variables.
pub fn stdio_entry(env: Value) -> Value {
    json!({"command": SERVER, "env": env})
}

/// The configuration of `servers` (name → entry), as one file would hold it.
pub fn config(servers: Value) -> McpConfig {
    McpConfig::from_sections(&[(PathBuf::from("/test/.mcp.json"), servers)], &|_| None)
}

/// Timeouts short enough for tests.
pub fn timeouts(start_ms: u64, call_ms: u64) -> Timeouts {
    Timeouts {
        start: Duration::from_millis(start_ms),
        call: Duration::from_millis(call_ms),
    }
}

/// The servers of `servers`, started with 10 s to start and 10 s per call.
pub async fn start(servers: Value) -> McpServers {
    McpServers::start(&config(servers), timeouts(10_000, 10_000)).await
}

/// The test server over HTTP on 127.0.0.1; killed when dropped.
pub struct HttpServer {
    child: Child,
    pub url: String,
}

impl HttpServer {
    pub fn start() -> HttpServer {
        let mut child = Command::new(SERVER)
            .args(["--http", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .unwrap()
            .to_owned();
        HttpServer { child, url }
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether a process with this id still exists.
pub fn process_exists(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists.
    unsafe { libc::kill(pid, 0) == 0 }
}
