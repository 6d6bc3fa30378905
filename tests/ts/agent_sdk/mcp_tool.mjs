// An in-process SDK MCP server `calc` with one tool `add`, called by the
// model as mcp__calc__add. The first argument is the rule option to pass,
// "allowedTools" or "disallowedTools", naming mcp__calc__add.
import { createSdkMcpServer, query, tool } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { main, options, summaries } from "./common.mjs";

main(async () => {
  const calls = [];
  const add = tool("add", "Adds two numbers", { a: z.number(), b: z.number() }, async (args) => {
    calls.push(args);
    return { content: [{ type: "text", text: String(args.a + args.b) }] };
  });
  const calc = createSdkMcpServer({ name: "calc", version: "1.0.0", tools: [add] });
  const extra = { mcpServers: { calc }, [process.argv[2]]: ["mcp__calc__add"] };
  const messages = await summaries(query({ prompt: "add 2 and 3", options: options(extra) }));
  return { calls, messages };
});
