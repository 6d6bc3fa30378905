//! Approvals on a terminal, answered by one key, the same in `run` and in
//! the interactive session: `y` allows once, `a` allows for the rest of this
//! session (a session grant `/permissions` shows), `n`, Esc or Enter deny;
//! Ctrl-C denies and cancels the turn (`run`: ends the run).
//!
//! The question is the one the headless approver asks (the exact command or
//! the diff), escaped so that nothing in it can move the cursor. A session
//! grant only ever answers an ask: deny rules, the workspace boundary and
//! hooks have already had their say before an approver is asked.

use crate::chat::Palette;
use crate::keys::{read_key_until, Key};
use crate::terminal::neutralise;
use agenthub_policy::{Approval, Approver, Decision};
use agenthub_tools::{PreparedCall, Workspace};
use futures::future::BoxFuture;
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

/// "Allow for this session": a tool, and for a shell tool the exact command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grant {
    tool: String,
    command: Option<String>,
}

impl Grant {
    /// The grant `a` gives for `call`.
    pub fn for_call(call: &PreparedCall) -> Grant {
        let definition = call.definition();
        let command = definition
            .capabilities()
            .command(call.input())
            .and_then(Result::ok)
            .map(str::to_owned);
        Grant {
            tool: definition.name().to_owned(),
            command,
        }
    }

    /// Whether this grant answers an ask for `call`.
    pub fn covers(&self, call: &PreparedCall) -> bool {
        *self == Grant::for_call(call)
    }

    /// The grant written as a rule: `Bash(git status)`, `Write`.
    pub fn rule(&self) -> String {
        match &self.command {
            Some(command) => format!("{}({command})", self.tool),
            None => self.tool.clone(),
        }
    }

    /// The grant as the question's choices name it, on one line: a command
    /// of several lines is named by its line count, never repeated there,
    /// so its lines cannot draw a forged question after the marked ones
    /// (contract §26).
    pub fn shown(&self) -> String {
        match &self.command {
            Some(command) if crate::shown_lines::line_count(command) > 1 => format!(
                "{}(the {}-line command above)",
                self.tool,
                crate::shown_lines::line_count(command)
            ),
            _ => self.rule(),
        }
    }
}

/// The grants of this session, shared with `/permissions`.
#[derive(Clone, Default)]
pub struct SessionGrants(Arc<Mutex<Vec<Grant>>>);

impl SessionGrants {
    /// The grants, oldest first.
    pub fn list(&self) -> Vec<Grant> {
        self.0
            .lock()
            .map(|grants| grants.clone())
            .unwrap_or_default()
    }

    /// Forgets every grant (a new session).
    pub fn clear(&self) {
        if let Ok(mut grants) = self.0.lock() {
            grants.clear();
        }
    }

    /// Adds `grant` (once).
    pub(crate) fn add(&self, grant: Grant) {
        if let Ok(mut grants) = self.0.lock() {
            if !grants.contains(&grant) {
                grants.push(grant);
            }
        }
    }

    /// Whether a grant answers an ask for `call`.
    pub(crate) fn cover(&self, call: &PreparedCall) -> bool {
        self.0
            .lock()
            .map(|grants| grants.iter().any(|grant| grant.covers(call)))
            .unwrap_or(false)
    }
}

/// The cancellation of the turn running now: Ctrl-C at a question cancels it.
#[derive(Clone, Default)]
pub struct CurrentTurn(Arc<Mutex<CancellationToken>>);

impl CurrentTurn {
    /// A fresh token for the next turn.
    pub fn begin(&self) -> CancellationToken {
        let token = CancellationToken::new();
        if let Ok(mut current) = self.0.lock() {
            *current = token.clone();
        }
        token
    }

    /// The token of the turn running now (a stale turn's when none runs).
    pub fn token(&self) -> CancellationToken {
        self.0
            .lock()
            .map(|current| current.clone())
            .unwrap_or_default()
    }

    /// Cancels the turn running now (a stale turn's token when none runs).
    pub fn cancel(&self) {
        if let Ok(current) = self.0.lock() {
            current.cancel();
        }
    }
}

/// Where the question is written: the interactive session shows everything
/// on stdout; `run` keeps stdout for the answer and asks on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QuestionOutput {
    Stdout,
    Stderr,
}

/// What Ctrl-C at the question does besides denying the call.
#[derive(Clone)]
pub enum Interrupt {
    /// Cancels the interactive session's turn; the session goes on.
    CancelTurn(CurrentTurn),
    /// Raises SIGINT in this process, so `run` ends exactly as Ctrl-C ends
    /// it anywhere else (every pending call answered, exit 130).
    Signal,
}

/// Asks the person at the terminal, one question at a time, and reads the
/// answer as one key: the same question and keys for `run` and the
/// interactive session.
pub struct KeyApprover {
    /// Resolves the paths the question shows.
    pub workspace: Workspace,
    /// Session grants: asked and answered with `a` before.
    pub grants: SessionGrants,
    /// What Ctrl-C does.
    pub interrupt: Interrupt,
    /// Colours.
    pub palette: Palette,
    /// Where the question goes.
    pub output: QuestionOutput,
    /// Held while a question is on the screen.
    pub asking: Arc<tokio::sync::Mutex<()>>,
}

impl KeyApprover {
    /// The approver of `run` on a terminal: questions on stderr, a grant
    /// lasts for the run, Ctrl-C ends the run.
    pub fn for_run(workspace: Workspace) -> KeyApprover {
        KeyApprover {
            workspace,
            grants: SessionGrants::default(),
            interrupt: Interrupt::Signal,
            palette: Palette::from_environment(),
            output: QuestionOutput::Stderr,
            asking: Arc::new(tokio::sync::Mutex::new(())),
        }
    }
}

impl Approver for KeyApprover {
    fn approve<'a>(
        &'a self,
        call: &'a PreparedCall,
        decision: &'a Decision,
    ) -> BoxFuture<'a, Approval> {
        Box::pin(async move {
            if self.grants.cover(call) {
                return Approval::AllowOnce {
                    by: format!(
                        "this session's grant {}",
                        neutralise(&Grant::for_call(call).rule())
                    ),
                };
            }
            let _one_at_a_time = self.asking.lock().await;
            let grant = Grant::for_call(call);
            let question = crate::approver::question(
                call.definition(),
                call.input(),
                decision,
                &self.workspace,
            );
            self.show(&format!(
                "{}{}",
                neutralise(&question),
                self.palette.ask(&choices(&grant))
            ));
            // Dropped with this future (the turn was cancelled): the
            // reading thread then stops instead of taking the next keys.
            let stop = crate::keys::StopOnDrop::default();
            let flag = stop.0.clone();
            let key = tokio::task::spawn_blocking(move || read_key_until(flag))
                .await
                .unwrap_or(Key::EndOfInput);
            drop(stop);
            let approval = self.answer(key, grant);
            if key == Key::Interrupt {
                self.until_the_run_is_cancelled().await;
            }
            approval
        })
    }

    fn waits_for_a_person(&self) -> bool {
        true
    }
}

impl KeyApprover {
    fn answer(&self, key: Key, grant: Grant) -> Approval {
        let (shown_answer, approval) = match key {
            Key::Char('y') => ("allowed once", Approval::by_user()),
            Key::Char('a') => {
                let by = format!("the user, for this session ({})", neutralise(&grant.rule()));
                self.grants.add(grant);
                ("allowed for this session", Approval::AllowOnce { by })
            }
            Key::Interrupt => {
                self.interrupted();
                (
                    "denied, turn cancelled",
                    deny("denied by the user (Ctrl-C)"),
                )
            }
            _ => ("denied", deny("denied by the user")),
        };
        self.show(&format!("→ {shown_answer}\n"));
        approval
    }

    /// After Ctrl-C raised SIGINT, the run's signal watch cancels the run,
    /// which drops this question before it answers: the deny is not handed
    /// to a run that could otherwise finish its next turn before the watch
    /// has seen the signal (and exit 0). It is returned only when no watch
    /// cancels the run within [`SIGNAL_NOTICED_WITHIN`].
    async fn until_the_run_is_cancelled(&self) {
        if matches!(self.interrupt, Interrupt::Signal) {
            tokio::time::sleep(SIGNAL_NOTICED_WITHIN).await;
        }
    }

    fn interrupted(&self) {
        match &self.interrupt {
            Interrupt::CancelTurn(turn) => turn.cancel(),
            // SAFETY: raise(3) only sends a signal to this process; the
            // run's signal watch handles SIGINT.
            Interrupt::Signal => unsafe {
                libc::raise(libc::SIGINT);
            },
        }
    }

    fn show(&self, text: &str) {
        use std::io::Write;
        let _ = match self.output {
            QuestionOutput::Stdout => {
                let mut out = std::io::stdout().lock();
                out.write_all(text.as_bytes()).and_then(|()| out.flush())
            }
            QuestionOutput::Stderr => {
                let mut out = std::io::stderr().lock();
                out.write_all(text.as_bytes()).and_then(|()| out.flush())
            }
        };
    }
}

/// How long a question answered by Ctrl-C in `run` waits for the run's
/// cancellation before it gives its deny anyway.
const SIGNAL_NOTICED_WITHIN: std::time::Duration = std::time::Duration::from_secs(5);

fn choices(grant: &Grant) -> String {
    format!(
        "[y] allow once  [a] allow {} for this session  [n] deny ",
        neutralise(&grant.shown())
    )
}

fn deny(reason: &str) -> Approval {
    Approval::Deny {
        reason: reason.to_owned(),
    }
}
