// Streaming input: the second user message is sent once the first one's
// result has arrived, as a chat application does; each gets its own result.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { main, options, signal, summaries, user } from "./common.mjs";

main(async () => {
  const first = signal();
  async function* prompts() {
    yield user("first");
    await first.promise;
    yield user("second");
  }
  const messages = await summaries(query({ prompt: prompts(), options: options() }), (message) => {
    if (message.type === "result") first.resolve();
  });
  return { messages };
});
