//! Property: compacting a random valid history at a random point keeps the
//! pairing invariant, the system prompt and the kept messages exactly; and a
//! session with a tiny context window, compacting between random tool
//! rounds, always ends with a paired history.

use crate::support;

use agenthub_core::{
    compacted, kept_suffix, kept_within, leading_system, summary_message, Session,
};
use agenthub_hooks::HookRegistry;
use agenthub_protocol::{check_pairing, Message, RunStatus, ToolCall};
use proptest::prelude::*;
use serde_json::json;
use support::*;
use tokio_util::sync::CancellationToken;

#[derive(Debug, Clone)]
enum Step {
    Prompt,
    Answer,
    Context,
    /// A call message with this many calls; its results follow in reverse
    /// order when the flag is set.
    Round(usize, bool),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        1 => Just(Step::Prompt),
        1 => Just(Step::Answer),
        1 => Just(Step::Context),
        3 => (1usize..4, any::<bool>()).prop_map(|(n, reversed)| Step::Round(n, reversed)),
    ]
}

fn history(systems: usize, steps: &[Step]) -> Vec<Message> {
    let mut out: Vec<Message> = (0..systems).map(|_| Message::system("prompt")).collect();
    let mut next = 0;
    for step in steps {
        match step {
            Step::Prompt => out.push(Message::user("do it")),
            Step::Answer => out.push(Message::assistant_text("done")),
            Step::Context => out.push(Message::system("context")),
            Step::Round(count, reversed) => {
                let ids: Vec<String> = (0..*count).map(|i| format!("c{}", next + i)).collect();
                next += count;
                out.push(Message::Assistant {
                    content: None,
                    tool_calls: ids
                        .iter()
                        .map(|id| ToolCall::new(id, "Echo", "{}"))
                        .collect(),
                });
                let mut results: Vec<Message> =
                    ids.iter().map(|id| Message::tool(id, "ok")).collect();
                if *reversed {
                    results.reverse();
                }
                out.extend(results);
            }
        }
    }
    out
}

proptest! {
    #[test]
    fn compacting_a_valid_history_anywhere_keeps_it_paired(
        systems in 0usize..3,
        steps in prop::collection::vec(step(), 0..30),
        want in 0usize..12,
        room in 0u64..200,
    ) {
        let before = history(systems, &steps);
        prop_assume!(check_pairing(&before).is_ok());
        let kept = kept_within(&before, want, room);
        prop_assert!(kept <= kept_suffix(&before, want));
        let after = compacted(&before, summary_message("summary"), kept);
        prop_assert_eq!(check_pairing(&after), Ok(()));
        prop_assert_eq!(&after[..systems], &before[..systems]);
        prop_assert_eq!(leading_system(&after), leading_system(&before));
        prop_assert_eq!(&after[after.len() - kept..], &before[before.len() - kept..]);
    }

    #[test]
    fn a_session_that_compacts_between_random_rounds_ends_paired(
        rounds in prop::collection::vec(1usize..4, 1..6),
        window in 40u64..400,
    ) {
        let mut turns = Vec::new();
        let mut counter = 0;
        for count in &rounds {
            let items: Vec<(String, &str, serde_json::Value)> = (0..*count)
                .map(|_| {
                    counter += 1;
                    (format!("call_{counter}"), "Echo", json!({"text": format!("{counter:02}{}", "x".repeat(38))}))
                })
                .collect();
            let refs: Vec<(&str, &str, serde_json::Value)> =
                items.iter().map(|(id, name, args)| (id.as_str(), *name, args.clone())).collect();
            turns.push(calls(&refs));
        }
        turns.push(answer("finished"));
        let model = model(turns);
        let log = Log::default();
        let agent = agent(model.clone(), &log, HookRegistry::new())
            .max_turns(20)
            .context_window(window)
            .auto_compact_threshold(0.5)
            .build();
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let report = runtime.block_on(async {
            let mut session = Session::new(&agent);
            session.send("a long task", CancellationToken::new()).await
        });
        prop_assert_eq!(report.status, RunStatus::Completed);
        prop_assert_eq!(check_pairing(&report.history), Ok(()));
        prop_assert_eq!(report.turns as usize, rounds.len() + 1);
        let compacted = report.history.iter().any(|message| {
            message.text().is_some_and(|text| text.starts_with(agenthub_core::SUMMARY_HEADER))
        });
        prop_assert!(compacted || window >= 60, "a window of {} never compacted", window);
    }
}
