// query() with the SDK's systemPrompt option, which the SDK sends in its
// initialize request, not on the command line.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { main, options, summaries } from "./common.mjs";

main(async () => {
  const extra = { systemPrompt: "You are terse." };
  return { messages: await summaries(query({ prompt: "hello", options: options(extra) })) };
});
