// The in-process SDK MCP tool mcp__calc__add, allowed by a rule, blocked by
// the SDK's own PreToolUse hook callback: hooks apply to SDK MCP tools too.
import { createSdkMcpServer, query, tool } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { main, options, summaries } from "./common.mjs";

main(async () => {
  const calls = [];
  const heard = [];
  const add = tool("add", "Adds two numbers", { a: z.number(), b: z.number() }, async (args) => {
    calls.push(args);
    return { content: [{ type: "text", text: String(args.a + args.b) }] };
  });
  const block = async (input) => {
    heard.push([input.tool_name, input.tool_input]);
    return {
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "no sums today",
      },
    };
  };
  const extra = {
    mcpServers: { calc: createSdkMcpServer({ name: "calc", version: "1.0.0", tools: [add] }) },
    allowedTools: ["mcp__calc__add"],
    hooks: { PreToolUse: [{ matcher: "mcp__calc__add", hooks: [block] }] },
  };
  const messages = await summaries(query({ prompt: "add 2 and 3", options: options(extra) }));
  return { calls, heard, messages };
});
