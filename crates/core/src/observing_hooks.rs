//! The hook events that only observe the run (contract §21): InstructionsLoaded
//! for each memory file of a new session, PermissionDenied for a refused call,
//! StopFailure when the run ends on a model or provider error. Their hooks
//! are told and their runs recorded; nothing they answer changes the run.

use crate::run::Run;

impl Run<'_> {
    /// Tells the InstructionsLoaded hooks (contract §21) each memory file the
    /// new session's system prompt holds; they only observe.
    pub(crate) async fn instructions_loaded(&self) {
        for file in &self.agent.memory_files {
            let context = agenthub_hooks::InstructionsLoadedContext {
                common: self.hook_common(),
                file_path: file.clone(),
                load_reason: "session_start".to_owned(),
            };
            let ran = self.agent.hooks.run_instructions_loaded(context).await;
            self.emit_hook_run(&ran);
        }
    }

    /// Tells the StopFailure hooks (contract §21) that the run ends on a model
    /// or provider error; they only observe.
    pub(crate) async fn stop_failure(&self, error: &str) {
        let context = agenthub_hooks::StopFailureContext {
            common: self.hook_common(),
            error: error.to_owned(),
        };
        let ran = self.agent.hooks.run_stop_failure(context).await;
        self.emit_hook_run(&ran);
    }

    /// Tells the PermissionDenied hooks (contract §21) about a refused call;
    /// they only observe.
    pub(crate) async fn permission_denied(&self, denial: &crate::PermissionDenial) {
        let context = agenthub_hooks::PermissionDeniedContext {
            common: self.hook_common(),
            tool_name: denial.tool_name.clone(),
            tool_input: denial.tool_input.clone(),
            tool_use_id: denial.tool_use_id.clone(),
            reason: denial.reason.clone(),
        };
        let ran = self.agent.hooks.run_permission_denied(context).await;
        self.emit_hook_run(&ran);
    }
}
