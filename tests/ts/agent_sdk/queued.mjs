// Streaming input that sends two user messages at once and ends: the SDK
// closes stdin at once, and both are answered before agenthub exits.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { main, options, summaries, user } from "./common.mjs";

main(async () => {
  async function* prompts() {
    yield user("first");
    yield user("second");
  }
  return { messages: await summaries(query({ prompt: prompts(), options: options() })) };
});
