// interrupt() while the turn's Bash call (`sleep 30`, allowed by a rule)
// runs: the turn's result arrives promptly and the process ends.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { main, options, signal, summaries, user } from "./common.mjs";

main(async () => {
  const done = signal();
  async function* prompts() {
    yield user("sleep");
    await done.promise;
  }
  const allowedTools = ["Bash(sleep:*)"];
  const messages = query({ prompt: prompts(), options: options({ allowedTools }) });
  let interruptedAt;
  let resultAfterMs;
  const seen = await summaries(messages, async (message) => {
    const calls = message.type === "assistant" ? message.message.content : [];
    if (calls.some((part) => part.type === "tool_use")) {
      interruptedAt = Date.now();
      await messages.interrupt();
    }
    if (message.type === "result") {
      resultAfterMs = Date.now() - interruptedAt;
      done.resolve();
    }
  });
  return { messages: seen, result_within_10s: resultAfterMs < 10000 };
});
