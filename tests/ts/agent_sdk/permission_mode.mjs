// setPermissionMode("acceptEdits") between two user messages: the first
// Write asks (and canUseTool denies it), the second one is allowed unasked.
import { query } from "@anthropic-ai/claude-agent-sdk";
import { main, options, signal, summaries, user } from "./common.mjs";

main(async () => {
  const asks = [];
  const canUseTool = async (toolName, input) => {
    asks.push([toolName, input]);
    return { behavior: "deny", message: "not yet" };
  };
  const switched = signal();
  let answered = 0;
  async function* prompts() {
    yield user("write it");
    await switched.promise;
    yield user("write it now");
  }
  const messages = query({ prompt: prompts(), options: options({ canUseTool }) });
  const seen = await summaries(messages, async (message) => {
    if (message.type === "result" && ++answered === 1) {
      await messages.setPermissionMode("acceptEdits");
      switched.resolve();
    }
  });
  return { asks, messages: seen };
});
