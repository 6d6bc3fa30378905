//! `/rewind` in the interactive session (contract §24): with no argument the
//! points of this session, as `agenthub rewind --list` shows them; with
//! `N [code|conversation|both]` the same rewind as `agenthub rewind --to N`,
//! recorded through this agent's own transcript writer, and a rewound
//! conversation goes on from the history read back from the transcript.

use super::session_loop::{Built, Chat};
use crate::rewind_command::{describe, render_points};
use crate::terminal::neutralise;
use agenthub::checkpoints::{rewind, rewind_points};
use agenthub::Session;
use agenthub::{Agent, AgentEvent, Observer, ObserverError, RewindScope};

impl Chat {
    /// `/rewind [N [scope]]`.
    pub(super) fn rewind(
        &mut self,
        argument: Option<String>,
        session: &mut Session<'_>,
        built: &Built,
    ) {
        let palette = self.screen.palette;
        let say = |text: &str| built.view.say(&neutralise(text));
        let root = built.workspace.root();
        let Some(argument) = argument else {
            match rewind_points(&built.transcript, root) {
                Ok(points) => {
                    say(render_points(&points).trim_end());
                    say("go back with /rewind N [code|conversation|both] (default both)");
                }
                Err(error) => built
                    .view
                    .say(&palette.bad(&neutralise(&error.to_string()))),
            }
            return;
        };
        let (to, scope) = match parse(&argument) {
            Ok(parsed) => parsed,
            Err(why) => return built.view.say(&palette.bad(&why)),
        };
        let told = Told(&built.agent);
        match rewind(&built.transcript, root, to, scope, &told) {
            Ok(done) => {
                say(&describe(&done, to, scope, built.agent.session_id()));
                if scope.restores_conversation() {
                    match agenthub::read_session(&built.transcript) {
                        Ok(saved) => session.rewind_to(saved.history),
                        Err(error) => built
                            .view
                            .say(&palette.bad(&neutralise(&error.to_string()))),
                    }
                }
            }
            Err(error) => built
                .view
                .say(&palette.bad(&neutralise(&error.to_string()))),
        }
    }
}

/// `N [code|conversation|both]`.
fn parse(argument: &str) -> Result<(u32, RewindScope), String> {
    let mut words = argument.split_whitespace();
    let usage = || {
        "use /rewind N [code|conversation|both], N a prompt's number (/rewind lists them)"
            .to_owned()
    };
    let to = words
        .next()
        .and_then(|word| word.parse::<u32>().ok())
        .ok_or_else(usage)?;
    let scope = match words.next() {
        None | Some("both") => RewindScope::Both,
        Some("code") => RewindScope::Code,
        Some("conversation") => RewindScope::Conversation,
        Some(_) => return Err(usage()),
    };
    match words.next() {
        None => Ok((to, scope)),
        Some(_) => Err(usage()),
    }
}

/// Records through the agent's own observers (its transcript writer).
struct Told<'a>(&'a Agent);

impl Observer for Told<'_> {
    fn on_event(&self, event: &AgentEvent<'_>) -> Result<(), ObserverError> {
        self.0.tell(event)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_number_alone_rewinds_both() {
        assert_eq!(parse("2"), Ok((2, RewindScope::Both)));
    }

    #[test]
    fn a_scope_word_after_the_number_chooses_what_is_rewound() {
        assert_eq!(parse("3 code"), Ok((3, RewindScope::Code)));
    }

    #[test]
    fn anything_else_is_refused_with_the_usage() {
        assert_eq!(
            parse("two"),
            Err(
                "use /rewind N [code|conversation|both], N a prompt's number (/rewind lists them)"
                    .to_owned()
            )
        );
    }
}
