// setModel() between two user messages: under --script it is acknowledged
// and the script keeps answering.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { main, options, signal, summaries, user } from "./common.mjs";

main(async () => {
  const switched = signal();
  async function* prompts() {
    yield user("first");
    await switched.promise;
    yield user("second");
  }
  const messages = query({ prompt: prompts(), options: options() });
  let answered = 0;
  const seen = await summaries(messages, async (message) => {
    if (message.type === "result" && ++answered === 1) {
      await messages.setModel("claude-sonnet-4-5");
      switched.resolve();
    }
  });
  return { messages: seen };
});
