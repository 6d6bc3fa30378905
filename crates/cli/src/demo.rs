//! `agenthub demo`: the source articles' hook demo, offline. A scripted model
//! asks for `Echo`, four logging hooks watch the path of the request, and the
//! flags switch on the articles' three experiments: a PreToolUse block, a failing
//! PostToolUse hook, and a Stop hook that forces one more turn.

use crate::args::DemoArgs;
use crate::error::CliError;
use crate::run_command::{run_until_signal, Sent};
use agenthub::{
    AgentEvent, Assembly, ChosenModel, Configuration, ConsoleObserver, ModelSource, Observer,
    ObserverError, Options, SessionStart, ToolRegistry,
};
use agenthub::{
    HookError, HookRegistry, PostToolUseResult, PreToolUseResult, StopResult,
    UserPromptSubmitResult,
};
use agenthub::{Message, RunStatus};
use agenthub::{ScriptedModel, ScriptedTurn};
use std::sync::Arc;

const PROMPT: &str = "Use echo to return hello world";

pub async fn run(args: DemoArgs) -> Result<u8, CliError> {
    crate::terminal::eprintln_neutral!("[Demo] {}", describe(&args));
    crate::terminal::eprintln_neutral!("[Demo] prompt: {PROMPT}");
    // The demo shows the articles' hooks only: no settings file takes part.
    let configuration = Configuration::without_settings_files(&Options::default())?;
    let tools =
        ToolRegistry::with_builtins().map_err(|error| CliError::Internal(error.to_string()))?;
    let assembly = Assembly::new(configuration, tools)?.with_hooks(demo_hooks(&args));
    let model = ChosenModel::new(Arc::new(script(&args)), ModelSource::Scripted, "scripted");
    let approver = crate::approver::approver_for(assembly.workspace());
    let start = SessionStart::New {
        id: None,
        transcript: args.transcript.clone(),
    };
    let ready = assembly
        .session(model, start)
        .approver(approver)
        .max_turns(Some(5))
        .observer(Arc::new(PathObserver::default()))
        .observer(Arc::new(ConsoleObserver::new(crate::terminal::stderr())))
        .open()?;
    let (report, signals) = run_until_signal(&ready, &Sent::Typed(PROMPT.to_owned())).await;
    let transcript = ready.transcript;
    match (&report.status, &report.result) {
        (RunStatus::Completed, Some(answer)) => crate::output::print_stdout(&format!("{answer}\n")),
        (status, _) => crate::terminal::eprintln_neutral!(
            "[Demo] run {status}: {}",
            report.error.as_deref().unwrap_or("")
        ),
    }
    crate::terminal::eprintln_neutral!(
        "[Demo] outcome: {} after {} model requests; transcript: {}",
        report.status,
        report.turns,
        transcript.display()
    );
    Ok(signals.exit_code(u8::try_from(report.status.exit_code()).unwrap_or(1)))
}

fn describe(args: &DemoArgs) -> &'static str {
    if args.block {
        "experiment: a PreToolUse hook blocks Echo"
    } else if args.post_error {
        "experiment: a PostToolUse hook fails after Echo ran"
    } else if args.stop_continue {
        "experiment: a Stop hook asks for one more turn"
    } else {
        "four logging hooks watch one request"
    }
}

fn script(args: &DemoArgs) -> ScriptedModel {
    let echo = ScriptedTurn {
        content: Some("I will call Echo.".to_owned()),
        tool_calls: vec![agenthub::ScriptedCall {
            id: Some("call_1".to_owned()),
            name: "Echo".to_owned(),
            arguments: serde_json::json!({"text": "hello world"}),
        }],
    };
    let answer = |text: &str| ScriptedTurn {
        content: Some(text.to_owned()),
        tool_calls: Vec::new(),
    };
    let mut turns = vec![echo, answer("Echo returned: {{last_tool_result}}")];
    if args.stop_continue {
        turns.push(answer(
            "Checked the tool feedback again. Echo returned: {{last_tool_result}}",
        ));
    }
    ScriptedModel::new("demo script", turns)
}

/// The four logging hooks of the articles, plus the experiment the flags choose.
fn demo_hooks(args: &DemoArgs) -> HookRegistry {
    let block = args.block;
    let post_error = args.post_error;
    let stop_continue = args.stop_continue;
    HookRegistry::new()
        .user_prompt_submit("log-prompt", |_ctx| async {
            Ok(UserPromptSubmitResult::default())
        })
        .pre_tool_use("log-pre", move |_ctx| async move {
            Ok(if block {
                PreToolUseResult::block("the demo's PreToolUse hook blocks every Echo call")
            } else {
                PreToolUseResult::default()
            })
        })
        .post_tool_use("log-post", move |_ctx| async move {
            if post_error {
                return Err(HookError::execution("simulated log write failure"));
            }
            Ok(PostToolUseResult::default())
        })
        .stop("log-stop", move |ctx| async move {
            crate::terminal::eprintln_neutral!(
                "[Demo] Stop hook sees stop_hook_active = {}",
                ctx.stop_hook_active
            );
            Ok(if stop_continue {
                StopResult::force_continue(
                    "Please check the tool feedback once more before you finish.",
                )
            } else {
                StopResult::default()
            })
        })
}

/// Shows the messages of the run as they enter the history.
/// The system prompt (the first message, before any prompt) is named in one
/// line rather than shown: it is the same every time and the transcript has it.
#[derive(Default)]
struct PathObserver {
    prompted: std::sync::atomic::AtomicBool,
}

impl Observer for PathObserver {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        use std::sync::atomic::Ordering;
        let AgentEvent::Message(message) = event else {
            return Ok(());
        };
        let line = match message {
            Message::System { content } if !self.prompted.load(Ordering::Relaxed) => Some(format!(
                "[System] the system prompt ({} lines; the transcript has it whole)",
                content.lines().count()
            )),
            Message::User { .. } => {
                self.prompted.store(true, Ordering::Relaxed);
                path_line(message)
            }
            _ => path_line(message),
        };
        if let Some(line) = line {
            crate::terminal::eprintln_neutral!("{line}");
        }
        Ok(())
    }
}

fn path_line(message: &Message) -> Option<String> {
    match message {
        Message::Assistant {
            content,
            tool_calls,
        } if !tool_calls.is_empty() => Some(
            tool_calls
                .iter()
                .map(|call| {
                    format!(
                        "[Model] asks for {}({})",
                        call.function.name, call.function.arguments
                    )
                })
                .collect::<Vec<_>>()
                .join("\n"),
        )
        .map(|calls| match content {
            Some(text) if !text.is_empty() => format!("[Model] {text}\n{calls}"),
            _ => calls,
        }),
        Message::Assistant { content, .. } => Some(format!(
            "[Model] candidate answer: {}",
            content.as_deref().unwrap_or("")
        )),
        Message::Tool {
            tool_call_id,
            content,
            ..
        } => Some(format!("[Tool] {tool_call_id} -> {content}")),
        Message::User { content } => Some(format!("[User] {content}")),
        Message::System { content } => Some(format!("[Context] {content}")),
    }
}
