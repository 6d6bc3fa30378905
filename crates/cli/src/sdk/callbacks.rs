//! The SDK's answers as parts of the one pipeline (contract §30): its hook
//! callbacks (`hook_callback`) as hooks of the user layer, its in-process
//! MCP servers (`mcp_message`) as MCP servers like any other. Each is a thin
//! adapter from the library's seam to a control request; what an answer
//! means is decided where a command hook's output or an MCP server's answer
//! is decided, never here.

use super::channel::{Channel, ControlError};
use super::initialize::SdkSetup;
use agenthub::crates::mcp::{SdkBridgeError, SdkMcpBridge};
use agenthub::{callback_hooks, Assembly, HookCallbackCaller, HookCallbackError};
use futures::future::BoxFuture;
use serde_json::{json, Value};
use std::sync::Arc;

/// The assembly with the SDK's hooks and in-process MCP servers attached.
/// A registration AgentHub cannot take (an event it never fires, a matcher
/// that does not compile) is named on stderr and left out; the others run.
pub fn attach(assembly: Assembly, setup: &SdkSetup, channel: &Arc<Channel>) -> Assembly {
    let answers = Arc::new(SdkAnswers(channel.clone()));
    let mut hooks = Vec::new();
    for registration in &setup.hooks {
        match callback_hooks(std::slice::from_ref(registration)) {
            Ok(configs) => hooks.extend(configs),
            Err(error) => crate::terminal::eprintln_neutral!(
                "agenthub: warning: the Agent SDK's {} hook is left out: {error}",
                registration.event
            ),
        }
    }
    let assembly = assembly.with_sdk_mcp_bridge(answers.clone());
    match hooks.is_empty() {
        true => assembly,
        false => assembly.with_application_hooks(hooks, answers),
    }
}

/// Hook callbacks and MCP messages, each one control request to the SDK.
struct SdkAnswers(Arc<Channel>);

impl HookCallbackCaller for SdkAnswers {
    fn call<'a>(
        &'a self,
        id: &'a str,
        input: &'a Value,
        tool_use_id: Option<&'a str>,
    ) -> BoxFuture<'a, Result<Value, HookCallbackError>> {
        Box::pin(async move {
            let request = json!({"subtype": "hook_callback", "callback_id": id,
                                 "input": input, "tool_use_id": tool_use_id});
            self.0.request(request).await.map_err(|error| match error {
                ControlError::Refused(message) => HookCallbackError::Failed(message),
                ControlError::Closed => HookCallbackError::ChannelClosed,
            })
        })
    }
}

impl SdkMcpBridge for SdkAnswers {
    fn send<'a>(
        &'a self,
        server: &'a str,
        message: Value,
    ) -> BoxFuture<'a, Result<Value, SdkBridgeError>> {
        Box::pin(async move {
            let request =
                json!({"subtype": "mcp_message", "server_name": server, "message": message});
            match self.0.request(request).await {
                Ok(mut answer) => Ok(answer
                    .get_mut("mcp_response")
                    .map(Value::take)
                    .unwrap_or(answer)),
                Err(ControlError::Refused(message)) => Err(SdkBridgeError::Application(message)),
                Err(ControlError::Closed) => Err(SdkBridgeError::Closed),
            }
        })
    }
}
