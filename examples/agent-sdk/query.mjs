// The Claude Agent SDK for TypeScript driving AgentHub instead of Claude Code:
// one option (pathToClaudeCodeExecutable) and, offline, the scripted model.
// AgentHub runs `ls` unasked (a read-only command) and asks canUseTool about
// `rm -rf build`, which this program refuses.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { fileURLToPath } from "node:url";

const options = {
  pathToClaudeCodeExecutable: process.env.AGENTHUB ?? "agenthub",
  extraArgs: { script: fileURLToPath(new URL("script.json", import.meta.url)) },
  canUseTool: async (toolName, input) => ({
    behavior: "deny",
    message: `${toolName} \`${input.command}\` is not for this example`,
  }),
};

for await (const message of query({ prompt: "tidy up", options })) {
  if (message.type === "assistant") {
    for (const part of message.message.content) {
      if (part.type === "text") console.log(`assistant: ${part.text}`);
      if (part.type === "tool_use") console.log(`tool call: ${part.name} ${JSON.stringify(part.input)}`);
    }
  } else if (message.type === "result") {
    console.log(`result (${message.subtype}): ${message.result}`);
  }
}
