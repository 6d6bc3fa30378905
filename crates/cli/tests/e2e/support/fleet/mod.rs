//! Helpers of the fleet tests (contract §18): a real Restate server, `agenthub
//! worker` processes that can be killed with SIGKILL and restarted on the
//! same port, and a loopback OpenAI-compatible provider that answers by the
//! request (how many tool results it carries) and keeps every request.

pub mod provider;
pub mod server;

use agenthub_fleet::{Ingress, TaskSpec, TaskWorkspace};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The `agenthub` binary under test.
pub fn agenthub_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_agenthub"))
}

/// A folder standing in for the user's home and config/state dirs.
pub fn isolate(command: &mut Command, home: &Path) {
    for variable in [
        "OPENAI_BASE_URL",
        "ANTHROPIC_API_KEY",
        "ANTHROPIC_BASE_URL",
        "AGENTHUB_MODEL",
    ] {
        command.env_remove(variable);
    }
    command
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_STATE_HOME", home.join(".state"))
        .env("OPENAI_API_KEY", "test-key");
}

/// An `agenthub worker` process on a fixed port.
pub struct Worker {
    child: Option<Child>,
    pub port: u16,
    home: PathBuf,
    admin: String,
    identity_key: String,
    log: PathBuf,
    /// More environment for the worker (e.g. `AGENTHUB_FLEET_SECRET`).
    pub env: Vec<(String, String)>,
}

impl Worker {
    /// Starts a worker that registers itself with `admin`, and waits until
    /// the admin API knows a deployment.
    pub async fn start(server: &server::RestateServer, home: &Path) -> Worker {
        Worker::start_with(server, home, &[]).await
    }

    /// [`Worker::start`] with more environment.
    pub async fn start_with(
        server: &server::RestateServer,
        home: &Path,
        env: &[(&str, &str)],
    ) -> Worker {
        let mut worker = Worker {
            env: env
                .iter()
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .collect(),
            child: None,
            port: server::free_port(),
            home: home.to_path_buf(),
            admin: server.admin.clone(),
            identity_key: server.identity_key.clone(),
            log: home.join("worker.log"),
        };
        worker.spawn();
        let started = Instant::now();
        while server.deployments().await == 0 {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the worker did not register: {}",
                worker.log_text()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        worker
    }

    fn spawn(&mut self) {
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.log)
            .expect("worker log");
        let mut command = Command::new(agenthub_binary());
        isolate(&mut command, &self.home);
        command
            .args(["worker", "--listen", &format!("127.0.0.1:{}", self.port)])
            .args(["--register", &self.admin])
            .args(["--identity-key", &self.identity_key])
            // The tests' tasks allow their own Bash calls: the operator
            // (the test) trusts its submitters.
            .arg("--allow-task-settings")
            // The tests' workspaces are folders of the test's home.
            .arg("--workspace-root")
            .arg(&self.home)
            .envs(self.env.iter().map(|(name, value)| (name, value)))
            .stdout(Stdio::null())
            .stderr(log);
        self.child = Some(command.spawn().expect("start agenthub worker"));
    }

    /// SIGKILL: the worker dies mid-run, with no chance to clean up.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the worker again on the same port (it registers again).
    pub fn restart(&mut self) {
        self.kill();
        self.spawn();
    }

    /// What the worker wrote to stderr, for failure messages.
    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Waits (at most `limit`) until `done` holds, polling every 50 ms.
pub async fn eventually(limit: Duration, what: &str, mut done: impl FnMut() -> bool) {
    let started = Instant::now();
    while !done() {
        assert!(started.elapsed() < limit, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A task in `workspace` whose prompt names it (the provider tells sessions apart by it).
pub fn task(id: &str, workspace: &Path, settings: Value) -> TaskSpec {
    TaskSpec {
        id: id.to_owned(),
        prompt: format!("task {id}"),
        workspace: TaskWorkspace::Path {
            path: workspace.to_path_buf(),
        },
        settings: Some(settings),
        script: None,
        model: None,
    }
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

pub fn submit_all(ingress: &Ingress, tasks: Vec<TaskSpec>) -> Vec<tokio::task::JoinHandle<Value>> {
    tasks
        .into_iter()
        .map(|task| {
            let ingress = ingress.clone();
            tokio::spawn(async move { ingress.run(&task).await.expect("the task's result line") })
        })
        .collect()
}
