//! Models: the [`ChatModel`] trait (history and tool definitions in, one
//! assistant message out) and its implementations, starting with the
//! [`ScriptedModel`] that replays a script file offline.
//!
//! A model proposes; it never runs a tool or touches history. Providers must not
//! print: streamed text goes to the caller through [`ModelEvents`].

mod chat;
mod scripted;

pub use chat::{AssistantReply, ChatModel, ModelError, ModelEvents, ModelRequest, NoModelEvents};
pub use scripted::{ScriptError, ScriptedCall, ScriptedModel, ScriptedTurn};
