//! The MCP client's tests against real servers. One test binary, a module per
//! topic.
mod support;

mod pipeline;
mod servers;
