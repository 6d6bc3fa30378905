//! A prompt typed as a custom command (contract §20): its UserPromptExpansion
//! hooks hear the command before the expanded prompt reaches the model, add
//! context to it, and a block ends the run before any model request.

use crate::support;

use agenthub_core::{CommandPrompt, Session};
use agenthub_hooks::{HookRegistry, UserPromptSubmitResult};
use agenthub_protocol::{Message, RunStatus};
use std::sync::{Arc, Mutex};
use support::*;
use tokio_util::sync::CancellationToken;

fn review() -> CommandPrompt {
    CommandPrompt {
        name: "review".to_owned(),
        args: "src/lib.rs".to_owned(),
        typed: "/review src/lib.rs".to_owned(),
        expanded: "Review src/lib.rs for bugs.".to_owned(),
        env: Vec::new(),
    }
}

#[tokio::test]
async fn the_expansion_hook_hears_the_command_and_the_model_reads_the_expanded_prompt() {
    let log = Log::default();
    let heard = Arc::new(Mutex::new(Vec::new()));
    let seen = heard.clone();
    let hooks = HookRegistry::new().user_prompt_expansion("audit", move |context| {
        seen.lock().unwrap().push((
            context.expansion_type,
            context.command_name,
            context.command_args,
            context.prompt,
        ));
        async { Ok(UserPromptSubmitResult::context("reviews follow STYLE.md")) }
    });
    let model = model(vec![answer("ok")]);
    let agent = agent(model.clone(), &log, hooks).build();
    let report = Session::new(&agent)
        .send_command_and_end(&review(), CancellationToken::new())
        .await;
    assert_eq!(
        (
            report.status,
            heard.lock().unwrap().clone(),
            model.requests()[0].clone()
        ),
        (
            RunStatus::Completed,
            vec![(
                "slash_command".to_owned(),
                "review".to_owned(),
                "src/lib.rs".to_owned(),
                "/review src/lib.rs".to_owned()
            )],
            vec![
                Message::system("reviews follow STYLE.md"),
                Message::user("Review src/lib.rs for bugs.")
            ]
        )
    );
}

#[tokio::test]
async fn a_blocked_command_ends_the_run_before_any_model_request() {
    let log = Log::default();
    let hooks = HookRegistry::new().user_prompt_expansion("freeze", |_context| async {
        Ok(UserPromptSubmitResult::block(
            "no reviews during the freeze",
        ))
    });
    let model = model(vec![answer("never")]);
    let agent = agent(model.clone(), &log, hooks).build();
    let report = Session::new(&agent)
        .send_command_and_end(&review(), CancellationToken::new())
        .await;
    assert_eq!(
        (
            report.status,
            report.error.as_deref(),
            model.requests().len()
        ),
        (RunStatus::Blocked, Some("no reviews during the freeze"), 0)
    );
}
