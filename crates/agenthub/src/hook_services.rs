//! The command hooks' side of an [`Assembly`]: what every command hook is
//! given when a session opens — the settings' `env`, Bash's variables for
//! `CLAUDE_ENV_FILE`, the model `prompt` hooks ask, the caller of `mcp_tool`
//! hooks — and the hooks an embedding application answers itself (an Agent
//! SDK's hook callbacks), which join the settings files' hooks in the user
//! layer. It never decides what a hook's answer means: the hooks crate does.

use crate::Assembly;
use agenthub_core::SubagentHooks;
use agenthub_hooks::{HookCallbackCaller, HookRegistry, HookServices, McpToolCaller};
use agenthub_model::ChatModel;
use agenthub_settings::CommandHookConfig;
use std::sync::Arc;

impl Assembly {
    /// Gives `mcp_tool` hooks their MCP client; without one they count as
    /// "could not run".
    pub fn with_mcp_caller(mut self, caller: Arc<dyn McpToolCaller>) -> Assembly {
        self.mcp_caller = Some(caller);
        self
    }

    /// Adds hooks the application that started AgentHub answers itself
    /// (an Agent SDK's hook callbacks, made by
    /// [`callback_hooks`](agenthub_settings::callback_hooks) from its
    /// `initialize` request), answered through `caller`. They run as hooks
    /// of the user layer — after the user's settings files' hooks, before
    /// the project's — through the same registry and chains, so a
    /// PreToolUse callback blocks or rewrites a call as a command hook does
    /// and a PermissionRequest callback answers an ask. They are not
    /// switched off by `disableAllHooks`: the settings files never declared them.
    ///
    /// ```
    /// # use agenthub::{Assembly, Configuration, Options, ToolRegistry};
    /// # use agenthub::{HookCallbackCaller, HookCallbackError};
    /// # use std::sync::Arc;
    /// struct Allow;
    /// impl HookCallbackCaller for Allow {
    ///     fn call<'a>(&'a self, _: &'a str, _: &'a serde_json::Value, _: Option<&'a str>)
    ///         -> futures::future::BoxFuture<'a, Result<serde_json::Value, HookCallbackError>> {
    ///         Box::pin(async { Ok(serde_json::json!({})) })
    ///     }
    /// }
    /// let hooks = serde_json::json!({"PreToolUse": [{"matcher": "Bash", "hookCallbackIds": ["hook_0"]}]});
    /// let registrations = agenthub::CallbackRegistration::from_initialize(&hooks).unwrap();
    /// let configs = agenthub::callback_hooks(&registrations).unwrap();
    /// # let dir = tempfile::tempdir().unwrap();
    /// # let options = Options { workspace: Some(dir.path().to_path_buf()), ..Options::default() };
    /// # let configuration = Configuration::without_settings_files(&options).unwrap();
    /// let assembly = Assembly::new(configuration, ToolRegistry::with_builtins().unwrap())
    ///     .unwrap()
    ///     .with_application_hooks(configs, Arc::new(Allow));
    /// assert_eq!(assembly.hooks().len(), 1);
    /// ```
    pub fn with_application_hooks(
        mut self,
        hooks: Vec<CommandHookConfig>,
        caller: Arc<dyn HookCallbackCaller>,
    ) -> Assembly {
        self.application_hooks.extend(hooks);
        self.callbacks = Some(caller);
        let services = HookServices {
            callbacks: self.callbacks.clone(),
            ..HookServices::default()
        };
        let all = self
            .configuration
            .hooks_with_application(&self.application_hooks);
        if let Ok(hooks) = self.configuration.command_hooks_from(all, services) {
            self.command_hooks = hooks;
        }
        self
    }

    /// The command hooks (the settings files' with the application's) with
    /// everything they use: the settings' `env`, Bash's variables for
    /// `CLAUDE_ENV_FILE`, `model` for `prompt` hooks, the MCP caller and
    /// the application's callbacks. The hooks' conditions compiled when the
    /// assembly was built, so this cannot fail then; if it did, the hooks
    /// built then run.
    pub(crate) fn command_hooks_for(&self, model: &Arc<dyn ChatModel>) -> HookRegistry {
        let hooks = self
            .configuration
            .hooks_with_application(&self.application_hooks);
        self.configuration
            .command_hooks_from(hooks, self.hook_services(model))
            .unwrap_or_else(|_| self.command_hooks.clone())
    }

    /// Builds the hooks of a subagent definition's front matter with the
    /// same services as the settings files' hooks; they were checked when
    /// the definitions were read, so an error here is unexpected but told.
    pub(crate) fn definition_hooks_for(&self, model: &Arc<dyn ChatModel>) -> SubagentHooks {
        let configuration = self.configuration.clone();
        let services = self.hook_services(model);
        Arc::new(move |definition| {
            let hooks = crate::agents::definition_hooks(definition)?;
            Ok(configuration.command_hooks_from(hooks, services.clone())?)
        })
    }

    /// What command hooks use: Bash's variables for `CLAUDE_ENV_FILE`,
    /// `model` for `prompt` hooks, the MCP caller and the application's
    /// hook callbacks.
    fn hook_services(&self, model: &Arc<dyn ChatModel>) -> HookServices {
        HookServices {
            env: Vec::new(),
            process_env: self.policy.workspace.process_env().clone(),
            model: Some(model.clone()),
            mcp: Some(
                self.mcp_caller
                    .clone()
                    .unwrap_or_else(|| Arc::new(crate::mcp::ServersAnswerHooks(self.mcp.clone()))),
            ),
            callbacks: self.callbacks.clone(),
        }
    }
}
