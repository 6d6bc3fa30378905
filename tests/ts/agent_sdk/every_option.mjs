// A query() with every option the SDK turns into a command-line flag or an
// initialize field: it still ends in its result, and what AgentHub does not
// act on is named on stderr (the lines starting "agenthub: ", in order).
import { query } from "@anthropic-ai/claude-agent-sdk";
import { main, options, summaries } from "./common.mjs";

main(async () => {
  const named = [];
  const extra = {
    stderr: (text) => named.push(...text.split("\n").filter((line) => line.startsWith("agenthub: "))),
    additionalDirectories: [process.argv[2]],
    agents: { reviewer: { description: "Reviews", prompt: "Review the change." } },
    allowedTools: ["Read"],
    betas: ["context-1m-2025-08-07"],
    disallowedTools: ["WebFetch"],
    effort: "low",
    fallbackModel: "other-model",
    includePartialMessages: true,
    maxTurns: 5,
    permissionMode: "acceptEdits",
    settingSources: ["user", "project"],
    strictMcpConfig: true,
    systemPrompt: "You are terse.",
    thinking: { type: "enabled", budgetTokens: 2048 },
    tools: ["Read", "Bash"],
  };
  const messages = await summaries(query({ prompt: "hello", options: options(extra) }));
  return { messages, named };
});
