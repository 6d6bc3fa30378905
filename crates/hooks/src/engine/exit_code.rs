//! The exit code of the command a hook run ended with, carried from the
//! command runner to the hook's record without widening every hook's result
//! type: the engine opens a task-local slot around each hook it runs
//! ([`capture`]) and a command hook's raw run fills it ([`report`]). A hook
//! that is not a process (in-process, an HTTP answer) leaves it empty. It
//! only ever carries a number for the record; nothing decides on it.

use std::cell::Cell;
use std::future::Future;

tokio::task_local! {
    static EXIT_CODE: Cell<Option<i32>>;
}

/// Runs `future` (one hook's run) and returns its output with the exit code
/// its command reported, if any.
pub(crate) async fn capture<F: Future>(future: F) -> (F::Output, Option<i32>) {
    EXIT_CODE
        .scope(Cell::new(None), async {
            let output = future.await;
            (output, EXIT_CODE.with(Cell::get))
        })
        .await
}

/// Tells the surrounding [`capture`], if any, the exit code of a command.
pub(crate) fn report(code: Option<i32>) {
    let _ = EXIT_CODE.try_with(|slot| slot.set(code));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_reported_exit_code_reaches_its_capture() {
        let (output, code) = capture(async {
            report(Some(2));
            "ran"
        })
        .await;
        assert_eq!((output, code), ("ran", Some(2)));
    }

    #[tokio::test]
    async fn a_hook_that_reports_nothing_has_no_exit_code() {
        assert_eq!(capture(async { 7 }).await, (7, None));
    }

    #[test]
    fn a_report_outside_any_capture_is_dropped() {
        report(Some(1));
    }
}
