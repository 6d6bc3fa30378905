//! The signals that end a run (contract §15): SIGINT (Ctrl-C), SIGTERM and SIGHUP
//! all cancel it the same way — every pending call gets its `Error
//! [cancelled]` result, Bash's process groups are killed, the outcome is
//! written — and the process then exits 128 + the signal (130, 143, 129).
//! It must never end the process itself: the run ends, then `main` returns.

use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::Arc;
use tokio::signal::unix::{signal, SignalKind};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

/// Cancels a token when a stopping signal arrives, and remembers which.
pub struct SignalWatch {
    received: Arc<AtomicI32>,
    task: JoinHandle<()>,
}

impl SignalWatch {
    /// Starts watching; `cancel` is cancelled on the first stopping signal.
    /// A signal whose handler cannot be installed is not watched (the
    /// default action, ending the process, stays).
    pub fn start(cancel: CancellationToken) -> SignalWatch {
        let received = Arc::new(AtomicI32::new(0));
        let seen = received.clone();
        // The handlers are installed here, before the run starts, not when
        // the task first runs: a signal sent early is still seen.
        let first = first_signal();
        let task = tokio::spawn(async move {
            let number = first.await;
            seen.store(number, Ordering::SeqCst);
            cancel.cancel();
        });
        SignalWatch { received, task }
    }

    /// The exit status for a run that ended with `status`: 128 + the signal
    /// when one stopped it.
    pub fn exit_code(&self, status: u8) -> u8 {
        match self.received.load(Ordering::SeqCst) {
            0 => status,
            number => u8::try_from(128 + number).unwrap_or(status),
        }
    }
}

impl Drop for SignalWatch {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Waits for SIGINT, SIGTERM or SIGHUP and returns its number. The handlers
/// are installed when this is called, before the future is first polled.
pub fn first_signal() -> impl std::future::Future<Output = i32> {
    let watch = |kind: SignalKind| {
        let stream = signal(kind).ok();
        async move {
            match stream {
                Some(mut stream) => {
                    stream.recv().await;
                    kind.as_raw_value()
                }
                None => std::future::pending().await,
            }
        }
    };
    let (interrupt, terminate, hangup) = (
        watch(SignalKind::interrupt()),
        watch(SignalKind::terminate()),
        watch(SignalKind::hangup()),
    );
    async move {
        tokio::select! {
            number = interrupt => number,
            number = terminate => number,
            number = hangup => number,
        }
    }
}
