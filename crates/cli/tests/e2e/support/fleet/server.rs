//! A real Restate server on loopback for the fleet tests: the binary from
//! `npm ci --prefix tests/npm`, free ports, a temporary data folder. A
//! missing binary fails the test with the command that installs it.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `restate-server`, killed when dropped.
pub struct RestateServer {
    child: Child,
    _data: tempfile::TempDir,
    pub ingress: String,
    pub admin: String,
    /// The public key the server signs its requests with (`publickeyv1_…`),
    /// what a worker is given as `--identity-key`.
    pub identity_key: String,
}

/// A new Ed25519 key in `folder/identity.pem` (openssl), and its public key
/// in Restate's format: `publickeyv1_` and the raw key in base58.
pub fn identity_key(folder: &std::path::Path) -> (PathBuf, String) {
    let pem = folder.join("identity.pem");
    let made = Command::new("openssl")
        .args(["genpkey", "-algorithm", "ed25519", "-out"])
        .arg(&pem)
        .status()
        .expect("openssl is needed by the fleet tests (apt-get install openssl)");
    assert!(made.success(), "openssl genpkey failed");
    let public = Command::new("openssl")
        .args(["pkey", "-pubout", "-outform", "DER", "-in"])
        .arg(&pem)
        .output()
        .expect("openssl pkey");
    let der = public.stdout;
    let raw = &der[der.len() - 32..];
    (pem, format!("publickeyv1_{}", base58(raw)))
}

/// Bitcoin-alphabet base58, as Restate writes its keys.
fn base58(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
    let mut digits: Vec<u8> = Vec::new();
    for byte in bytes {
        let mut carry = u32::from(*byte);
        for digit in digits.iter_mut() {
            carry += u32::from(*digit) << 8;
            *digit = (carry % 58) as u8;
            carry /= 58;
        }
        while carry > 0 {
            digits.push((carry % 58) as u8);
            carry /= 58;
        }
    }
    let zeros = bytes.iter().take_while(|byte| **byte == 0).count();
    std::iter::repeat_n('1', zeros)
        .chain(
            digits
                .iter()
                .rev()
                .map(|digit| ALPHABET[*digit as usize] as char),
        )
        .collect()
}

/// A free loopback port (bound, then released for the process to take).
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|address| address.port())
        .expect("a free loopback port")
}

fn binary() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let arch = match std::env::consts::ARCH {
        "aarch64" => "arm64",
        _ => "x64",
    };
    let binary = root.join(format!(
        "tests/npm/node_modules/@restatedev/restate-server-linux-{arch}/bin/restate-server"
    ));
    assert!(
        binary.is_file(),
        "the Restate server is not installed at {}: run the tests with `scripts/test`, which installs it (or `npm ci --prefix tests/npm` from the repository root)",
        binary.display()
    );
    binary
}

impl RestateServer {
    /// Starts a server and waits until its ingress and admin API answer.
    pub async fn start() -> RestateServer {
        RestateServer::start_with(&[]).await
    }

    /// [`RestateServer::start`] with more environment (server options).
    ///
    /// Its ports are picked free, then bound by the server: another test of
    /// this binary may take one in between, and the server then exits at
    /// once. Such a start is tried again on new ports (three times at most).
    pub async fn start_with(env: &[(&str, &str)]) -> RestateServer {
        for _ in 0..3 {
            if let Some(server) = RestateServer::try_start(env).await {
                return server;
            }
        }
        panic!("restate-server exited at start three times (see its server.log)");
    }

    /// One start; `None` when the server exited before it was healthy.
    async fn try_start(env: &[(&str, &str)]) -> Option<RestateServer> {
        let data = tempfile::tempdir().expect("server data dir");
        let (ingress, admin, node) = (free_port(), free_port(), free_port());
        let log = std::fs::File::create(data.path().join("server.log")).expect("server log");
        let (pem, identity_key) = identity_key(data.path());
        let child = Command::new(binary())
            .args([
                "--no-logo",
                "--listen-mode",
                "tcp",
                "--node-name",
                "fleet-test",
            ])
            .arg("--base-dir")
            .arg(data.path())
            .env(
                "RESTATE_INGRESS__BIND_ADDRESS",
                format!("127.0.0.1:{ingress}"),
            )
            .env("RESTATE_ADMIN__BIND_ADDRESS", format!("127.0.0.1:{admin}"))
            .env("RESTATE_BIND_ADDRESS", format!("127.0.0.1:{node}"))
            .env("RESTATE_DEFAULT_NUM_PARTITIONS", "2")
            .env("RESTATE_REQUEST_IDENTITY_PRIVATE_KEY_PEM_FILE", &pem)
            .envs(env.iter().copied())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("start restate-server");
        let server = RestateServer {
            child,
            _data: data,
            ingress: format!("http://127.0.0.1:{ingress}"),
            admin: format!("http://127.0.0.1:{admin}"),
            identity_key,
        };
        let mut server = server;
        for url in [
            format!("{}/health", server.admin),
            format!("{}/restate/health", server.ingress),
        ] {
            if !wait_for(&url, &mut server.child).await {
                return None;
            }
        }
        Some(server)
    }

    /// How many deployments the admin API knows.
    pub async fn deployments(&self) -> usize {
        get_json(&format!("{}/deployments", self.admin))
            .await
            .and_then(|body| body["deployments"].as_array().map(Vec::len))
            .unwrap_or(0)
    }
}

impl Drop for RestateServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits (at most 30 s) until `url` answers 200: `true`; `false` when the
/// server exited first (a port was taken).
async fn wait_for(url: &str, child: &mut Child) -> bool {
    let started = Instant::now();
    while started.elapsed() < Duration::from_secs(30) {
        let answered = http().get(url).send().await;
        if answered.is_ok_and(|response| response.status().is_success()) {
            return true;
        }
        if child.try_wait().is_ok_and(|status| status.is_some()) {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("{url} did not answer within 30 s");
}

async fn get_json(url: &str) -> Option<serde_json::Value> {
    http().get(url).send().await.ok()?.json().await.ok()
}

/// The workspace's HTTP client (its TLS provider installed).
fn http() -> reqwest::Client {
    agenthub::crates::model::transport::http_client()
        .build()
        .expect("an HTTP client")
}
