//! ACP's methods (contract §23, §31): `initialize`, `session/new`,
//! `session/load`, `session/list`, `session/prompt`, `session/cancel`,
//! `session/set_mode`.
//! Each request gets one answer — a result, or a JSON-RPC error naming the
//! method and what was wrong — and every update of a session goes out
//! before the answer that ends its request.

use super::replies::{existing_dir, initialize, modes, parse, prompt_text, stop_reason};
use super::rpc::{Peer, RpcError, INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND};
use super::schema::{
    ListSessionsRequest, LoadSessionRequest, McpServer, NewSessionRequest, PromptRequest,
    SessionIdOnly, SessionUpdate, SetModeRequest,
};
use super::session::{build_agent, SessionContext, SessionHandle, Start};
use super::shown::{replayed, ToolsByName};
use super::updates::send;
use crate::{Flags, Host};
use agenthub::{find_session, list_sessions, resolve_workspace, PermissionMode, RunStatus};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::Path;
use std::str::FromStr;
use std::sync::{Arc, Mutex};

/// The agent side of one connection: its sessions by id.
pub struct AcpAgent {
    flags: Flags,
    host: Arc<dyn Host>,
    peer: Peer,
    sessions: Mutex<HashMap<String, Arc<SessionHandle>>>,
}

impl AcpAgent {
    pub fn new(flags: Flags, host: Arc<dyn Host>, peer: Peer) -> AcpAgent {
        AcpAgent {
            flags,
            host,
            peer,
            sessions: Mutex::new(HashMap::new()),
        }
    }

    /// Answers the request `id`, then sends what follows the answer (a new
    /// session's warnings, once the client knows its id).
    pub async fn answer(&self, id: Value, method: &str, params: Value) {
        let (outcome, afterwards) = match self.request(method, params).await {
            Ok(Reply { result, afterwards }) => (Ok(result), afterwards),
            Err(error) => (Err(error), Vec::new()),
        };
        self.peer.respond(id, outcome);
        for (session_id, update) in afterwards {
            send(&self.peer, &session_id, &update);
        }
    }

    async fn request(&self, method: &str, params: Value) -> Result<Reply, RpcError> {
        match method {
            "initialize" => Ok(Reply::only(initialize())),
            "authenticate" => Ok(Reply::only(json!({}))),
            "session/new" => self.new_session(parse(method, params)?).await,
            "session/load" => self
                .load_session(parse(method, params)?)
                .await
                .map(Reply::only),
            "session/list" => self.list(parse(method, params)?).map(Reply::only),
            "session/prompt" => self.prompt(parse(method, params)?).await.map(Reply::only),
            "session/set_mode" => self.set_mode(parse(method, params)?).await.map(Reply::only),
            other => Err(RpcError::new(
                METHOD_NOT_FOUND,
                format!("AgentHub has no method {other:?}"),
            )),
        }
    }

    /// Takes the notification `method`; an unknown one is ignored, as
    /// JSON-RPC asks.
    pub fn notification(&self, method: &str, params: Value) {
        if method == "session/cancel" {
            if let Ok(cancel) = serde_json::from_value::<SessionIdOnly>(params) {
                if let Ok(session) = self.session(&cancel.session_id) {
                    session.cancel();
                }
            }
        }
    }

    /// Ends every session (the client went away): a running turn is
    /// cancelled, and each session's task sees the end of its commands.
    pub fn close(&self) {
        if let Ok(mut sessions) = self.sessions.lock() {
            for session in sessions.values() {
                session.cancel();
            }
            sessions.clear();
        }
    }

    async fn new_session(&self, request: NewSessionRequest) -> Result<Reply, RpcError> {
        let id = uuid::Uuid::new_v4().to_string();
        let transcript = agenthub::transcript_path(None, &id);
        let opened = self
            .open(
                id.clone(),
                &request.cwd,
                &request.mcp_servers,
                transcript,
                Start::New,
                None,
            )
            .await?;
        Ok(Reply {
            result: json!({"sessionId": id, "modes": modes(&opened.mode)}),
            afterwards: opened
                .warnings
                .into_iter()
                .chain(opened.commands)
                .map(|update| (id.clone(), update))
                .collect(),
        })
    }

    async fn load_session(&self, request: LoadSessionRequest) -> Result<Value, RpcError> {
        let workspace = existing_dir(&request.cwd)?;
        let found = find_session(&workspace, &request.session_id)
            .map_err(|error| RpcError::new(INVALID_PARAMS, error.to_string()))?;
        let history = found.saved.history;
        let reopen = |mode| {
            self.open(
                request.session_id.clone(),
                &request.cwd,
                &request.mcp_servers,
                found.path.clone(),
                Start::Resume(history.clone()),
                mode,
            )
        };
        // The session goes on in the mode it used last (§31), unless the
        // settings now refuse it (`disableBypassPermissionsMode`): then in
        // theirs, and the editor is told why.
        let last = found.saved.permission_mode.map(PermissionMode::as_str);
        let opened = match (reopen(last).await, last) {
            (Err(refused), Some(last)) => {
                let mut opened = reopen(None).await?;
                opened.warnings.push(SessionUpdate::agent_text(format!(
                    "[Warning] the session's last mode {last} is refused now ({}); it goes on in {}\n",
                    refused.message, opened.mode
                )));
                opened
            }
            (opened, _) => opened?,
        };
        for update in replayed(&opened.tools, &history)
            .iter()
            .chain(&super::plan::latest_plan(&history))
            .chain(&opened.warnings)
            .chain(&opened.commands)
        {
            send(&self.peer, &request.session_id, update);
        }
        Ok(json!({"modes": modes(&opened.mode)}))
    }

    /// The sessions of the request's `cwd`, else of the agent's workspace,
    /// most recently written first, one page.
    fn list(&self, request: ListSessionsRequest) -> Result<Value, RpcError> {
        let folder = match &request.cwd {
            Some(cwd) => Some(existing_dir(cwd)?),
            None => self.flags.options.workspace.clone(),
        };
        let workspace = resolve_workspace(folder.as_deref())
            .map_err(|error| RpcError::new(INVALID_PARAMS, error.to_string()))?;
        super::list::page(&list_sessions(&workspace), request.cursor.as_deref())
    }

    /// Assembles and starts a session in `mode` (`None`: the flags' or the
    /// settings').
    async fn open(
        &self,
        id: String,
        cwd: &Path,
        servers: &[McpServer],
        transcript: std::path::PathBuf,
        start: Start,
        mode: Option<&str>,
    ) -> Result<Opened, RpcError> {
        let workspace = existing_dir(cwd)?;
        let client_servers = super::servers::configuration_file(servers).map_err(|error| {
            RpcError::new(
                INTERNAL_ERROR,
                format!("cannot write the client's MCP servers to a file: {error}"),
            )
        })?;
        let mut options = self.flags.options.clone();
        options.workspace = Some(workspace);
        if let Some(file) = &client_servers {
            options.mcp_config.push(file.path().to_path_buf().into());
        }
        let context = SessionContext {
            id: id.clone(),
            options,
            model_options: self.flags.model.clone(),
            max_turns: self.flags.max_turns,
            transcript,
            peer: self.peer.clone(),
            grants: Default::default(),
            turn: Default::default(),
            host: self.host.clone(),
            model: Mutex::new(None),
            mcp: Default::default(),
            _servers_file: client_servers,
        };
        let built = build_agent(&context, mode)
            .await
            .map_err(|error| RpcError::new(INVALID_PARAMS, error.to_string()))?;
        let mode = built.mode.clone();
        let warnings = built
            .warnings
            .iter()
            .map(|text| SessionUpdate::agent_text(format!("[Warning] {text}\n")))
            .collect();
        let tools = built.tools.clone();
        let commands = built.commands.update();
        let handle = SessionHandle::start(context, built, start);
        if let Ok(mut sessions) = self.sessions.lock() {
            sessions.insert(id, Arc::new(handle));
        }
        Ok(Opened {
            mode,
            warnings,
            tools,
            commands,
        })
    }

    async fn prompt(&self, request: PromptRequest) -> Result<Value, RpcError> {
        let session = self.session(&request.session_id)?;
        let text = prompt_text(&request.prompt);
        let report = session.prompt(text).await.ok_or_else(|| {
            RpcError::new(INTERNAL_ERROR, "the session ended before the prompt ran")
        })?;
        let reason = stop_reason(&report)?;
        if report.status == RunStatus::Blocked {
            if let Some(why) = &report.error {
                send(
                    &self.peer,
                    &request.session_id,
                    &SessionUpdate::agent_text(format!("[Blocked] {why}")),
                );
            }
        }
        Ok(json!({"stopReason": reason}))
    }

    async fn set_mode(&self, request: SetModeRequest) -> Result<Value, RpcError> {
        let session = self.session(&request.session_id)?;
        PermissionMode::from_str(&request.mode_id)
            .map_err(|error| RpcError::new(INVALID_PARAMS, error.to_string()))?;
        let mode = session
            .set_mode(request.mode_id)
            .await
            .map_err(|error| RpcError::new(INTERNAL_ERROR, error.to_string()))?;
        send(
            &self.peer,
            &request.session_id,
            &SessionUpdate::CurrentModeUpdate {
                current_mode_id: mode,
            },
        );
        Ok(json!({}))
    }

    fn session(&self, id: &str) -> Result<Arc<SessionHandle>, RpcError> {
        self.sessions
            .lock()
            .ok()
            .and_then(|sessions| sessions.get(id).cloned())
            .ok_or_else(|| RpcError::new(INVALID_PARAMS, format!("no session {id:?}")))
    }
}

/// A result, and the updates to send once it is answered.
struct Reply {
    result: Value,
    afterwards: Vec<(String, SessionUpdate)>,
}

impl Reply {
    fn only(result: Value) -> Reply {
        Reply {
            result,
            afterwards: Vec::new(),
        }
    }
}

/// A started session: its mode, the setup warnings to show the editor (an
/// untrusted workspace's configuration set aside among them), its tools,
/// and the commands it offers (none: no update).
struct Opened {
    mode: String,
    warnings: Vec<SessionUpdate>,
    tools: ToolsByName,
    commands: Option<SessionUpdate>,
}
