//! Stop and UserPromptSubmit rules of contract §3.

use crate::support;

use agenthub_hooks::{HookError, HookRegistry, StopResult, UserPromptSubmitResult};
use agenthub_protocol::{Message, RunStatus};
use support::*;
use tokio_util::sync::CancellationToken;

#[tokio::test]
async fn stop_forces_one_continuation_and_the_next_stop_sees_it_active() {
    let log = Log::default();
    let seen = log.clone();
    let hooks = HookRegistry::new().stop("verify", move |ctx| {
        let seen = seen.clone();
        async move {
            seen.push(format!(
                "stop:active={}:{}",
                ctx.stop_hook_active, ctx.last_assistant_message
            ));
            Ok(StopResult::force_continue("check again"))
        }
    });
    let model = model(vec![answer("first"), answer("second"), answer("third")]);
    let report = agent(model.clone(), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        log.entries(),
        vec!["stop:active=false:first", "stop:active=true:second"]
    );
    assert_eq!(
        (report.status, report.result.as_deref(), report.turns),
        (RunStatus::Completed, Some("second"), 2)
    );
    assert_eq!(
        report.history,
        vec![
            Message::user("go"),
            Message::assistant_text("first"),
            Message::user("check again"),
            Message::assistant_text("second")
        ]
    );
}

#[tokio::test]
async fn force_continue_with_a_blank_reason_fails_the_run() {
    let log = Log::default();
    let hooks =
        HookRegistry::new().stop("lazy", |_ctx| async { Ok(StopResult::force_continue(" ")) });
    let report = agent(model(vec![answer("candidate")]), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        (report.status, report.result, report.error.as_deref()),
        (
            RunStatus::Failed,
            None,
            Some("Stop hook \"lazy\" broke its contract: force_continue needs a non-empty reason")
        )
    );
}

#[tokio::test]
async fn a_failing_stop_hook_fails_the_run_without_returning_the_candidate() {
    let log = Log::default();
    let hooks = HookRegistry::new().stop("checker", |_ctx| async {
        Err(HookError::execution("test runner missing"))
    });
    let report = agent(model(vec![answer("candidate")]), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        (report.status, report.result, report.error.as_deref()),
        (
            RunStatus::Failed,
            None,
            Some("Stop hook \"checker\" failed: test runner missing")
        )
    );
}

#[tokio::test]
async fn a_forced_continuation_never_raises_max_turns() {
    let log = Log::default();
    let hooks = HookRegistry::new().stop("verify", |_ctx| async {
        Ok(StopResult::force_continue("again"))
    });
    let model = model(vec![answer("first"), answer("second")]);
    let report = agent(model.clone(), &log, hooks)
        .max_turns(1)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        (report.status, report.turns, model.requests().len()),
        (RunStatus::MaxTurns, 1, 1)
    );
}

#[tokio::test]
async fn user_prompt_context_comes_after_the_unchanged_prompt() {
    let log = Log::default();
    let hooks = HookRegistry::new()
        .user_prompt_submit("criteria", |_ctx| async {
            Ok(UserPromptSubmitResult::context(
                "check the acceptance criteria",
            ))
        })
        .user_prompt_submit("date", |_ctx| async {
            Ok(UserPromptSubmitResult::context("today is Monday"))
        });
    let model = model(vec![answer("ok")]);
    agent(model.clone(), &log, hooks)
        .build()
        .run("fix the bug", CancellationToken::new())
        .await;
    assert_eq!(
        model.requests()[0],
        vec![
            Message::user("fix the bug"),
            Message::system("check the acceptance criteria"),
            Message::system("today is Monday")
        ]
    );
}

#[tokio::test]
async fn a_blocked_prompt_ends_the_run_before_any_model_request() {
    let log = Log::default();
    let hooks = HookRegistry::new().user_prompt_submit("policy", |_ctx| async {
        Ok(UserPromptSubmitResult::block(
            "prompts about secrets are refused",
        ))
    });
    let model = model(vec![answer("never")]);
    let report = agent(model.clone(), &log, hooks)
        .build()
        .run("print the secrets", CancellationToken::new())
        .await;
    assert_eq!(
        (
            report.status,
            report.error.as_deref(),
            report.turns,
            model.requests().len()
        ),
        (
            RunStatus::Blocked,
            Some("prompts about secrets are refused"),
            0,
            0
        )
    );
}

#[tokio::test]
async fn a_failing_user_prompt_hook_fails_the_run_before_any_model_request() {
    let log = Log::default();
    let hooks = HookRegistry::new().user_prompt_submit("enricher", |_ctx| async {
        Err(HookError::execution("no network"))
    });
    let model = model(vec![answer("never")]);
    let report = agent(model.clone(), &log, hooks)
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        (
            report.status,
            report.error.as_deref(),
            model.requests().len()
        ),
        (
            RunStatus::Failed,
            Some("UserPromptSubmit hook \"enricher\" failed: no network"),
            0
        )
    );
}

#[tokio::test]
async fn a_second_force_continue_is_dropped_and_each_dropping_hook_is_warned_about() {
    let log = Log::default();
    let console = Console::default();
    let hooks = HookRegistry::new()
        .stop("verify", |_ctx| async {
            Ok(StopResult::force_continue("check again"))
        })
        .stop("lint", |_ctx| async {
            Ok(StopResult::force_continue("lint again"))
        });
    let model = model(vec![answer("first"), answer("second"), answer("third")]);
    let report = agent(model, &log, hooks)
        .observer(console.observer())
        .build()
        .run("go", CancellationToken::new())
        .await;
    assert_eq!(
        (report.status, report.result.as_deref(), report.turns),
        (RunStatus::Completed, Some("second"), 2)
    );
    assert_eq!(
        console.warnings(),
        vec![
            "[Warning] Stop hook \"verify\" asked to continue again; dropped (at most 1 forced continuation per run)",
            "[Warning] Stop hook \"lint\" asked to continue again; dropped (at most 1 forced continuation per run)",
        ]
    );
}
