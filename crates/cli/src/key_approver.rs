//! Approvals on a terminal, answered by one key, the same in `run` and in
//! the interactive session: `y` allows once, `a` allows for the rest of this
//! session (a session grant `/permissions` shows; not offered for an ask no
//! grant may answer, such as a protected path: `agenthub::SessionGrants`),
//! `n`, Esc or Enter deny; Ctrl-C denies and cancels the turn (`run`: ends the run).
//!
//! The question is the one the headless approver asks (the exact command or
//! the diff), escaped so that nothing in it can move the cursor. A session
//! grant only ever answers an ask: deny rules, the workspace boundary and
//! hooks have already had their say before an approver is asked.

use crate::chat::Palette;
use crate::keys::{read_key_until, Key};
use crate::terminal::neutralise;
use agenthub::{Approval, Approver, Decision, GrantOffer, SessionGrants};
use agenthub::{PreparedCall, Workspace};
use futures::future::BoxFuture;
use std::sync::{Arc, Mutex};
use tokio_util::sync::CancellationToken;

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
            if let Some(grant) = self.grants.covering(call, decision) {
                return Approval::AllowOnce {
                    by: format!("this session's grant {}", neutralise(&grant.rule())),
                };
            }
            let _one_at_a_time = self.asking.lock().await;
            let offer = SessionGrants::offer(call, decision);
            let question = crate::approver::question(
                call.definition(),
                call.input(),
                decision,
                &self.workspace,
            );
            self.show(&format!(
                "{}{}",
                neutralise(&question),
                self.palette.ask(&choices(offer.as_ref()))
            ));
            // Dropped with this future (the turn was cancelled): the
            // reading thread then stops instead of taking the next keys.
            let stop = crate::keys::StopOnDrop::default();
            let flag = stop.0.clone();
            let key = tokio::task::spawn_blocking(move || read_key_until(flag))
                .await
                .unwrap_or(Key::EndOfInput);
            drop(stop);
            let approval = self.answer(key, offer);
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
    fn answer(&self, key: Key, offer: Option<GrantOffer>) -> Approval {
        let (shown_answer, approval) = match (key, offer) {
            (Key::Char('y'), _) => ("allowed once", Approval::by_user()),
            (Key::Char('a'), Some(offer)) => {
                let grant = self.grants.add(offer);
                let by = format!("the user, for this session ({})", neutralise(&grant.rule()));
                ("allowed for this session", Approval::AllowOnce { by })
            }
            (Key::Interrupt, _) => {
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

/// The keys offered: `a` only when a grant may answer the ask.
fn choices(offer: Option<&GrantOffer>) -> String {
    match offer {
        Some(offer) => format!(
            "[y] allow once  [a] allow {} for this session  [n] deny ",
            neutralise(&offer.grant().shown())
        ),
        None => "[y] allow once (asked each time)  [n] deny ".to_owned(),
    }
}

fn deny(reason: &str) -> Approval {
    Approval::Deny {
        reason: reason.to_owned(),
    }
}
