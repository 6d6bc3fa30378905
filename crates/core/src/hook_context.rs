//! Text hooks give the model, and where text too long for it is kept: hook
//! context over [`MODEL_TEXT_CAP`] characters is saved whole in the session's
//! state folder and the model gets its start and the path (contract §21).
//! Nothing here decides what the text says.

use crate::run::Run;
use crate::AgentEvent;
use agenthub_hooks::command::MODEL_TEXT_CAP;
use agenthub_protocol::Message;
use agenthub_tools::save_whole_and_cap;

impl Run<'_> {
    /// Hook context for the model; a text over [`MODEL_TEXT_CAP`] is saved
    /// whole in the session's state folder first (contract §21).
    pub(crate) fn push_context(&mut self, context: Vec<String>) {
        for text in context {
            let capped =
                save_whole_and_cap(text, MODEL_TEXT_CAP, &self.state_folder(), "hook context");
            if let Some(warning) = &capped.warning {
                self.emit(AgentEvent::Warning(warning));
            }
            self.push(Message::system(capped.text));
        }
    }

    /// Where text too long for the model is saved whole
    /// ([`crate::Agent::outputs_folder`]).
    pub(crate) fn state_folder(&self) -> std::path::PathBuf {
        self.agent.outputs_folder()
    }
}
