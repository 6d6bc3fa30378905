// getContextUsage() sends a control request that only serves Claude Code's
// own interface: the SDK's promise rejects with AgentHub's error (it never
// waits forever), and the session goes on to its result.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { main, options, signal, summaries, user } from "./common.mjs";

main(async () => {
  const asked = signal();
  async function* prompts() {
    await asked.promise;
    yield user("hello");
  }
  const messages = query({ prompt: prompts(), options: options() });
  let error = null;
  messages
    .getContextUsage()
    .catch((refused) => (error = refused.message))
    .finally(asked.resolve);
  const seen = await summaries(messages);
  return { messages: seen, error };
});
